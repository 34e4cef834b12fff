"""Take-away as a pure rules engine (see referee/contract.py): two players, a pile of
counters; the player to move takes 1, 2 or 3, and whoever takes the last counter wins.

Orders, one a line, case-insensitive: ``take 2``; ``take 3 | take 1`` uses the first that is
legal. A round is one take by each player.
"""

from __future__ import annotations

import random
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from enum import Enum
from typing import ClassVar

from referee.contract import (
    Decision,
    Entry,
    IllegalOrder,
    NotAnOrder,
    NotationError,
    Result,
    Say,
    View,
    check_setup,
    progress_view,
)
from referee.schema import setting, within

MOST = 3  # the most counters one take may remove
TAKE = re.compile(r"^take\s+(\S+)$")


@dataclass(frozen=True)
class Take:
    count: int
    kind: ClassVar[str] = "take"  # the decision it answers


@dataclass(frozen=True)
class TakeawayState:
    names: tuple[str, ...]
    start: int  # the pile at the start
    pile: int  # counters left
    first: int  # the seat that took first (drawn from the seed)
    taken: tuple[int, ...]  # counters taken by each seat
    takes: int = 0  # takes made so far
    winner: int | None = None  # who took the last counter

    @property
    def to_move(self) -> int:
        return (self.first + self.takes) % 2

    @property
    def round(self) -> int:
        """A round is a take by each player: the round of the next take, or of the last
        once the game is over."""
        return 1 + (self.takes - (self.winner is not None)) // 2


TAKE_TITLE = Say("take counters")


class Ending(Enum):
    LAST_COUNTER = Say("{winner} took the last counter")  # the one way a game ends


@dataclass(frozen=True)
class TakeawayOptions:
    """What a campaign may set: the counters on the pile at the start."""

    pile: int = setting(15, check=within(1, 100, "a number of counters"))


class TakeawayRules:
    name = "takeaway"
    title = "Take-away"
    min_players = max_players = 2
    multiline_orders = False

    def __init__(self) -> None:
        self.options = TakeawayOptions

    def new_game(self, options: Mapping, players: Sequence[str], seed: int) -> TakeawayState:
        pile = check_setup(self, options, players).pile
        return TakeawayState(tuple(players), pile, pile, random.Random(seed).randrange(2), (0, 0))

    def awaiting(self, state: TakeawayState) -> list[Decision]:
        if state.winner is not None:
            return []
        prompt = Say(
            "Take counters: {pile} left, take 1 to {most}",
            {"pile": state.pile, "most": min(MOST, state.pile)},
        )
        return [Decision(state.to_move, "take", TAKE_TITLE, prompt, stage=state.takes)]

    def legal_orders(self, state: TakeawayState, seat: int) -> list[Take]:
        if state.winner is not None or seat != state.to_move:
            return []
        return [Take(n) for n in range(1, min(MOST, state.pile) + 1)]

    def prompt_lines(self, state: TakeawayState, seat: int) -> list[str]:
        return [self.format(o) for o in self.legal_orders(state, seat)]

    def referee_only(self, order: Take) -> bool:
        return False

    def parse(self, text: str) -> list[Entry]:
        entries = []
        for raw in text.splitlines():
            line = raw.strip()
            if not line or line.startswith("#"):
                continue
            if line.lower().split()[0] != "take":
                raise NotAnOrder("not an order; an order is take 1, take 2 or take 3", line)
            entries.append(Entry(tuple(_take(alt.strip(), line) for alt in line.split("|")), line))
        return entries

    def format(self, order: Take) -> str:
        return f"take {order.count}"

    def apply(
        self, state: TakeawayState, seat: int, order: Take
    ) -> tuple[TakeawayState, list[str]]:
        if state.winner is not None:
            raise IllegalOrder(Say("The game is over."))
        if seat != state.to_move:
            raise IllegalOrder(
                Say("It is {name}'s turn to take.", {"name": state.names[state.to_move]})
            )
        legal = self.legal_orders(state, seat)
        if order not in legal:
            raise IllegalOrder(
                Say(
                    "Take 1 to {most}: the pile has {pile} counters.",
                    {"most": len(legal), "pile": state.pile},
                )
                if state.pile != 1
                else Say("Take 1: the pile has 1 counter."),
                legal,
            )
        taken = list(state.taken)
        taken[seat] += order.count
        pile = state.pile - order.count
        name = state.names[seat]
        events = [f"{name} takes {order.count}; {pile} left."]
        if pile == 0:
            events.append(f"{name} takes the last counter and wins.")
        return replace(
            state,
            pile=pile,
            taken=tuple(taken),
            takes=state.takes + 1,
            winner=seat if pile == 0 else None,
        ), events

    def round(self, state: TakeawayState) -> int:
        return state.round

    def view(self, state: TakeawayState, seat: int | None = None) -> View:
        # the pile and every take lie open: each seat sees what everyone sees
        players = [
            {"seat": s, "name": n, "taken": state.taken[s]} for s, n in enumerate(state.names)
        ]
        view = {
            "game": self.name,
            "round": state.round,
            "phase": "over" if state.winner is not None else "take",
            "players": players,
            "pile": state.pile,
            "start": state.start,
            **progress_view(self.awaiting(state), self.result(state)),
        }
        return view  # type: ignore[return-value]

    def bot(self, name: str = "default", budget: int | None = None):
        try:
            return BOTS[name]
        except KeyError:
            raise ValueError(f"no Take-away bot {name!r}; the bots are {', '.join(BOTS)}") from None

    def rename(self, state: TakeawayState, seat: int, name: str) -> TakeawayState:
        names = tuple(name if x == seat else n for x, n in enumerate(state.names))
        return replace(state, names=names)

    def to_data(self, state: TakeawayState) -> dict:
        return {
            "names": list(state.names),
            "start": state.start,
            "pile": state.pile,
            "first": state.first,
            "taken": list(state.taken),
            "takes": state.takes,
            "winner": state.winner,
        }

    def from_data(self, data: dict) -> TakeawayState:
        return TakeawayState(
            tuple(data["names"]),
            data["start"],
            data["pile"],
            data["first"],
            tuple(data["taken"]),
            data["takes"],
            data["winner"],
        )

    def result(self, state: TakeawayState) -> Result | None:
        if state.winner is None:
            return None
        loser = 1 - state.winner
        return Result(
            Ending.LAST_COUNTER,
            tuple(int(seat == state.winner) for seat in range(2)),
            ((state.winner,), (loser,)),
            named={"winner": state.names[state.winner]},
        )


def _take(text: str, line: str) -> Take:
    match = TAKE.match(text.lower())
    if match is None:
        raise NotationError(Say("write take and a number of counters, e.g. take 2"), line)
    if match.group(1) not in ("1", "2", "3"):
        raise NotationError(
            Say("{given!r}: take 1, 2 or 3 counters", {"given": match.group(1)}), line
        )
    return Take(int(match.group(1)))


def best_take(state: TakeawayState, seat: int, rng: random.Random) -> Take:
    """Leave the other a multiple of four when possible; else take one and wait."""
    return Take(state.pile % (MOST + 1) or 1)


def random_take(state: TakeawayState, seat: int, rng: random.Random) -> Take:
    return rng.choice(RULES.legal_orders(state, seat))


BOTS = {"default": best_take, "random": random_take}
RULES = TakeawayRules()
