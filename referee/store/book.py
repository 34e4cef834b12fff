"""A campaign's deadline book, `deadlines.json`: per seat, the stage of the decision it owes,
when it was asked for, the time added to it (extensions, pauses), the time its clock stood
still that its player was told of, and whether its reminder went out and its deadline was
missed; since when the campaign stands paused; and when its clocks stood still because
nobody could act (no mail could go out, the campaign could not be read), and since when
they stand still now. The timekeeping (``service.timekeeping``) keeps it; it is the only
state deadlines have.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path

from ..files import atomic_write, read_state, whole
from ..settings.deadlines import parse_when, stamp
from .names import BOOK


@dataclass
class Due:
    """One seat's awaited decision and its deadline."""

    stage: int
    asked: str
    extended: float = 0.0  # seconds the game master added (capped)
    paused: float = 0.0  # seconds the campaign stood paused, or its player's mail undelivered
    reminded: bool = False
    missed: bool = False
    stopped: float = 0.0  # seconds the clock stood still (``Book.stops``) its player was told of
    unsent: str | None = None  # since when the mail to its player cannot be delivered


@dataclass
class Book:
    seats: dict = field(default_factory=dict)  # seat (str) -> Due
    paused_at: str | None = None
    # when the clocks stood still (each [since, until], apart and in order), and since when
    # they stand still now (None: they run)
    stops: list = field(default_factory=list)
    halted: str | None = None
    # when the game master was last told of missed deadlines, and the misses kept for their
    # next summary (each [name, due, what was done])
    told_gm: str | None = None
    untold: list = field(default_factory=list)

    @classmethod
    def load(cls, root: Path) -> Book:
        """The book of the campaign in ``root``; an empty one when it has none."""
        return read_state(root / BOOK, cls.from_data) or cls()

    @classmethod
    def from_data(cls, data: dict) -> Book:
        seats = {}
        for seat, v in data["seats"].items():
            unsent = v.get("unsent")
            for moment in (v["asked"], unsent):
                if moment is not None:
                    parse_when(moment)
            seats[str(whole(int(seat)))] = Due(
                whole(v["stage"]),
                v["asked"],
                float(v.get("extended", 0.0)),
                float(v.get("paused", 0.0)),
                bool(v.get("reminded", False)),
                bool(v.get("missed", False)),
                float(v.get("stopped", 0.0)),
                None if unsent is None else str(unsent),
            )
        paused_at, halted, told_gm = data.get("paused_at"), data.get("halted"), data.get("told_gm")
        stops = [[str(since), str(until)] for since, until in data.get("stops", [])]
        untold = [[str(name), str(due), str(done)] for name, due, done in data.get("untold", [])]
        for moment in (paused_at, halted, told_gm, *(m for stop in stops for m in stop)):
            if moment is not None:
                parse_when(moment)
        return cls(seats, paused_at, stops, halted, told_gm, untold)

    def save(self, root: Path) -> None:
        data = {
            "paused_at": self.paused_at,
            "seats": {k: v.__dict__ for k, v in sorted(self.seats.items())},
            "stops": self.stops,
            "halted": self.halted,
            "told_gm": self.told_gm,
            "untold": self.untold,
        }
        atomic_write(root / BOOK, json.dumps(data, indent=1) + "\n")

    def stop(self, since: datetime, until: datetime) -> None:
        """The clocks stood still from ``since`` to ``until``: kept once, however often told
        (an outage each campaign hears of at its next tick)."""
        spans = [(parse_when(a), parse_when(b)) for a, b in self.stops] + [(since, until)]
        merged: list[list[datetime]] = []
        for start, end in sorted(spans):
            if merged and start <= merged[-1][1]:
                merged[-1][1] = max(merged[-1][1], end)
            else:
                merged.append([start, end])
        self.stops = [[stamp(a), stamp(b)] for a, b in merged if b > a]

    def stopped(self, start: datetime, end: datetime) -> timedelta:
        """How long the clocks stood still between ``start`` and ``end``."""
        stood = timedelta(0)
        for since, until in self.stops:
            stood += max(min(parse_when(until), end) - max(parse_when(since), start), timedelta(0))
        return stood

    def forget_stops_before(self, moment: datetime) -> None:
        """Stops that ended before every decision now owed was asked for count for none."""
        self.stops = [stop for stop in self.stops if parse_when(stop[1]) > moment]
