"""The game contract every rules engine in `referee.rules` offers.

A rules engine is pure: state in, state out, no I/O, deterministic from the seed kept in the
state. Players are seats 0..n-1 in the order given when the game was created; names are only
for reports. The referee above the engine knows nothing of a game's rules: it asks who owes
which decision, parses what players write, applies orders one by one and shows the state.

An engine module exposes one object, ``RULES``, with these members:

    name, title, min_players, max_players, options (name -> (default, allowed values))
    new_game(options, players, seed) -> state
    awaiting(state) -> list[Decision]          who must act now; empty once the game is over
    legal_orders(state, seat) -> list[order]   every legal choice of the seat's decision
    parse(text) -> list[Entry]                 raises NotationError (with the line) on bad text
    format(order) -> str                       parse(format(o)) == [Entry((o,))]
    apply(state, seat, order) -> (state, events)  raises IllegalOrder; events: list of str
    view(state) -> dict                        plain data for reports and maps
    bot(name) -> Bot                           "default" plays sensibly, "random" uniformly
    to_data(state) -> dict / from_data(dict) -> state   JSON-able plain data
    result(state) -> Result | None             None while the game runs
    adjudicate(state, seat) -> order | None    the missed-order rule of the game, if it has one
    prompt_lines(state, seat) -> list[str]     the seat's choices as lines to copy into a reply
                                               ('#' starts a comment)
    referee_only(order) -> bool                orders only the referee may give (never by mail)
    multiline_orders                           True when one order spans several lines, so a
                                               mail's lines are parsed together

Orders are small immutable values with a ``kind``; the accepted-order log stores them as text
(``format``), so a game replays from (options, players, seed, log).
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping, Sequence


class IllegalOrder(Exception):
    """An order the rules refuse. ``reason`` is written for the player; ``alternatives``
    (orders) are the legal choices where listing them helps."""

    def __init__(self, reason: str, alternatives: Sequence[Any] = ()):
        super().__init__(reason)
        self.reason = reason
        self.alternatives = list(alternatives)


class NotationError(ValueError):
    """Text that is not an order of the game. ``line`` is the offending text."""

    def __init__(self, reason: str, line: str = ""):
        super().__init__(f"{reason}: {line!r}" if line else reason)
        self.reason = reason
        self.line = line


class NotAnOrder(NotationError):
    """A line that does not even start like an order of the game (a greeting, a remark).
    The referee reports it and uses the mail's other orders; a line that starts like an order
    but is malformed raises plain NotationError, and then nothing of the mail is used."""


@dataclass(frozen=True)
class Entry:
    """One parsed line: alternatives separated by `|`, the first legal one is used."""

    alternatives: tuple
    text: str = field(default="", compare=False)


@dataclass(frozen=True)
class Decision:
    """A decision owed by one seat: its kind (matches the kind of the orders that answer it),
    a sentence saying what it is about ('<title>: <details>'), and its stage: a number that
    changes whenever the seat faces a new decision, so the referee prompts once per decision
    (Bus: every order moves the game on; Bus Boss: one decision per round)."""

    seat: int
    kind: str
    prompt: str
    stage: int = 0


@dataclass(frozen=True)
class Result:
    """The end of a game: why it ended, the final score per seat, and the ranking as a list
    of lists of seats (ties share a place)."""

    reason: str
    scores: tuple
    ranking: tuple


Bot = Callable[[Any, int, random.Random], Any]
"""A bot: (state, seat, rng) -> a legal order for the decision the seat owes."""


def check_setup(rules, options: Mapping, players: Sequence[str]) -> None:
    """The options a game knows and the number of players it is for, or ValueError."""
    unknown = set(options) - set(rules.options)
    if unknown:
        raise ValueError(f"{rules.title} has no option {', '.join(sorted(unknown))}; "
                         f"its options are: {', '.join(rules.options)}")
    if not rules.min_players <= len(players) <= rules.max_players:
        raise ValueError(f"{rules.title} is for {rules.min_players} to {rules.max_players} "
                         f"players, not {len(players)}")


def progress_view(decisions: Sequence[Decision], result: Result | None) -> dict:
    """The part of every game's view that says who is awaited and how the game ended."""
    return {
        "awaiting": [{"seat": d.seat, "kind": d.kind, "prompt": d.prompt} for d in decisions],
        "result": None if result is None else {
            "reason": result.reason, "scores": list(result.scores),
            "ranking": [list(place) for place in result.ranking]},
    }
