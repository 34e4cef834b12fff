"""Take-away, a game kept outside the referee: its rules, its text map (no PNG map), and its
own templates in ``templates/`` beside this module. ``GAME`` is what the referee knows of it."""

from __future__ import annotations

from referee.contract import GameDescriptor, Say, View, Wording

from .rules import RULES

COLOURS = ("#b03a2e", "#2e5eaa")


def text_map(view: View, word: Wording) -> str:
    """The pile as a row of counters in groups of five, and how many are left."""
    pile, start = view["pile"], view["start"]  # type: ignore[typeddict-item]
    counters = " ".join("|" * min(5, pile - first) for first in range(0, pile, 5))
    left = word(Say("The pile: {pile} of {start} counters left", {"pile": pile, "start": start}))
    return f"{left}\n  {counters or word(Say('(empty)'))}"


def player_colour(player: dict) -> str:
    return COLOURS[player["seat"]]


GAME = GameDescriptor(
    rules=RULES, measure="taken", text_map=text_map, png_map=None, player_colour=player_colour
)
