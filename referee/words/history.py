"""A campaign's history turn by turn (a turn is a round of the game; the setup is round 0).

One place decides what a turn is and what is kept of it: the files of the turns/ folder
(written by the site, checked by ``referee verify``), the figures of the score chart, the
HTML archive, and the text history players ask for by mail.
"""

from __future__ import annotations

from dataclasses import dataclass

from .. import maps, registry
from ..contract import Say, View, Words
from ..store.campaign import Table
from .mails import result_context, turn_report
from .render import render


class NoSuchTurn(ValueError):
    """A turn the campaign has not played; the message says which turns there are."""


@dataclass(frozen=True)
class Turn:
    round: int
    events: list[Words]
    view: View  # the game at the turn's end (or now, for the turn in play)
    closed: bool  # the game has moved past this turn, or has ended

    @property
    def title(self) -> Say:
        return Say("Round {round}", {"round": self.round}) if self.round else Say("Setup")

    @property
    def stem(self) -> str:
        return stem(self.round)


def stem(round_: int) -> str:
    """The name a turn's files share: round-NN."""
    return f"round-{round_:02d}"


def over(table: Table, round_: int) -> bool:
    """Whether the game has moved past round ``round_``, or has ended: its turn is closed,
    and what it shows will not change."""
    return round_ < table.round or table.over


def turns(table: Table) -> list[Turn]:
    """Every turn the log has a record in, in order."""
    rounds = sorted({s.round for s in table.steps})
    return [turn_at(table, r) for r in rounds]


def turn_at(table: Table, round_: int) -> Turn:
    return Turn(
        round_,
        [e for s in table.steps_of_round(round_) for e in s.events],
        table.view_after_round(round_),
        over(table, round_),
    )


def turn_files(table: Table, round_: int) -> dict[str, str | bytes]:
    """The files of one round, by name: the report and the text map, and the PNG map once
    the round is over. The turns/ folder keeps those of every round over (the files of a
    round in play would go stale with each order)."""
    current = turn_at(table, round_)
    files: dict[str, str | bytes] = {
        f"{current.stem}.txt": turn_report(table, round_, current.view),
        f"{current.stem}.map.txt": maps.text_map(current.view) + "\n",
    }
    png = maps.png_map(current.view) if current.closed else None
    if png is not None:
        files[f"{current.stem}.png"] = png
    return files


def measure(view: View) -> str:
    """The name of the figure the history follows in this game (its descriptor says)."""
    return registry.get(view["game"]).measure


def standings(view: View) -> list[tuple[str, int]]:
    """Each player's name and figure (score or cash) in ``view``, in seat order."""
    key = measure(view)
    return [(p["name"], p[key]) for p in view["players"]]


def history_text(table: Table, turn: int | None = None) -> str:
    """The campaign's history as plain text: every turn's events and standings, or, with
    ``turn``, that turn's whole report with its map. NoSuchTurn for a turn not
    played."""
    played = turns(table)
    if turn is not None:
        for t in played:
            if t.round == turn:
                return turn_report(table, t.round, t.view)
        known = f"turns {played[0].round} to {played[-1].round}" if played else "no turns yet"
        raise NoSuchTurn(
            f"campaign {table.campaign.id} has no turn {turn}: it has {known} (turn 0 is the setup)"
        )
    view = table.view()
    return render(
        "history.txt",
        campaign=table.campaign,
        title=table.rules.title,
        turns=[(t, standings(t.view)) for t in played],
        measure=measure(view),
        result=result_context(table, view),
    )
