"""The Bus positions the map tests draw: engine views stored as JSON (see
fixtures/make_bus_views.py), and a small hand-made view for cases no stored game shows."""
from __future__ import annotations

import copy
import json
from pathlib import Path

FIXTURES = Path(__file__).resolve().parent / "fixtures"
POSITIONS = ("start", "middle", "end")


def stored(name: str) -> dict:
    return json.loads((FIXTURES / f"bus_view_{name}.json").read_text(encoding="utf-8"))


def with_lines(view: dict, lines: dict[int, tuple[str, list[int]]]) -> dict:
    """A copy of `view` whose players have other lines: seat -> (path like '15-21-22',
    heads). Streets are laid in path order."""
    view = copy.deepcopy(view)
    for seat, (path, heads) in lines.items():
        crossings = [int(c) for c in path.split("-")]
        view["players"][seat]["streets"] = [sorted(pair) for pair in zip(crossings, crossings[1:])]
        view["players"][seat]["heads"] = heads
    return view
