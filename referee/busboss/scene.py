"""What a Bus Boss map shows, worked out once from the engine's view for both renderers.

The text map and the PNG map draw the same `BossScene`: each company's style, cash and
routes, who owns each copy of each route (a player, or the bank after rule 40), the runs on
offer, who is awaited and the result. Renderers only decide where and how to draw it; the
map itself (places and routes) comes from the engine's loader.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..contract import ResultView
from ..maps.styles import COLOUR_STYLES, PlayerStyle
from .engine import BusBossView
from .map import Map, load_map
from .orders import BANK
from .runs import RUNS_PER_ROUND
from .state import LAST_ROUND

# The bank (owner of a dropped player's routes, rule 40) is drawn as an owner too: grey,
# and dashed on the PNG.
BANK_STYLE = PlayerStyle("#", (88, 88, 88), "grey", "gaps")


@dataclass(frozen=True)
class Company:
    """A player: their bus company."""

    seat: int
    name: str  # the player's
    company: str | None  # the name they gave their company (rule 6), if any
    style: PlayerStyle
    cash: int
    routes: tuple[str, ...]  # route names, in the map's order
    spaces: int  # the length of all their routes together
    status: str  # this round: whether their order is in, dropped, missed rounds

    @property
    def label(self) -> str:
        return f"{self.name} ({self.style.letter})"

    @property
    def title(self) -> str:
        """The company's name with its player's, or the player's alone (rule 6)."""
        return f"{self.company} ({self.name})" if self.company else self.name


@dataclass(frozen=True)
class RouteFacts:
    name: str
    ends: tuple[str, str]
    length: int
    copies: int
    owners: tuple[PlayerStyle, ...]  # by copy, in the order bought; fewer than copies if free


@dataclass(frozen=True)
class RunFacts:
    name: str  # its cards, as orders write it: "KH-7H"
    cards: tuple[str, str]
    destinations: tuple[str, str]
    places: tuple[tuple[str, ...], ...]  # place keys of each destination
    since: int
    reoffered: bool  # carried over from an earlier round (rule 21)


@dataclass(frozen=True)
class BossScene:
    title: str
    map_title: str
    status: str
    companies: tuple[Company, ...]  # by seat
    order_of_play: tuple[int, ...]
    entry_limit: int
    routes: dict[str, RouteFacts]  # by name, in the map's order
    bank_routes: tuple[str, ...]
    runs: tuple[RunFacts, ...]
    no_runs: str  # what to say when no run is on offer
    awaiting: tuple[str, ...]
    result: tuple[str, ...]
    over: bool


def view_map(view: BusBossView) -> Map:
    """The map the view's game is played on, in the version it is played on, as the engine
    loaded it (a view kept from before maps had versions is drawn on the map as it is)."""
    return load_map(view["map_name"], view.get("map_version"))


def owner_style(owner: str) -> PlayerStyle:
    """How an owner in the view (a colour, or the bank) is drawn."""
    return BANK_STYLE if owner == BANK else COLOUR_STYLES[owner]


def build_scene(view: BusBossView) -> BossScene:
    """Everything both maps show, from the engine's `view(state)`."""
    routes = {
        r["name"]: RouteFacts(
            r["name"],
            tuple(r["ends"]),
            r["length"],
            r["copies"],
            tuple(owner_style(o) for o in r["owners"]),
        )
        for r in view["routes"]
    }
    over = view["result"] is not None
    companies = tuple(_company(view, p, routes, over) for p in view["players"])
    runs = tuple(
        RunFacts(
            r["name"],
            tuple(r["cards"]),
            tuple(r["destinations"]),
            tuple(tuple(p) for p in r["places"]),
            r["since"],
            r["reoffered"],
        )
        for r in view["runs"]
    )
    return BossScene(
        title="Bus Boss",
        map_title=view["map"],
        status=_status(view),
        companies=companies,
        order_of_play=tuple(view["order_of_play"]),
        entry_limit=view["entry_limit"],
        routes=routes,
        bank_routes=tuple(view["bank_routes"]),
        runs=runs,
        no_runs=_no_runs(view),
        awaiting=_awaiting(view, companies),
        result=_result(view["result"], companies),
        over=over,
    )


def _status(view: BusBossView) -> str:
    if view["phase"] == "over":
        return f"round {view['round']} of {LAST_ROUND}, the game is over"
    kind = "a building round" if view["phase"] == "building" else "an operating round"
    return f"round {view['round']} of {LAST_ROUND}, {kind}"


def _no_runs(view: BusBossView) -> str:
    first = min(RUNS_PER_ROUND)
    if view["round"] < first:
        return f"No runs yet: the first are offered in round {first}."
    return "No runs on offer."


def _company(
    view: BusBossView, p: dict[str, Any], routes: dict[str, RouteFacts], over: bool
) -> Company:
    notes = []
    if not p["in_game"]:
        notes.append("dropped (rule 40)")
    elif not over:
        notes.append("order awaited" if p["awaiting"] else "order in")
    if p["missed_in_a_row"] and p["in_game"]:
        n = p["missed_in_a_row"]
        notes.append(f"missed {n} round{'s' if n > 1 else ''}")
    if p["extra_build"]:
        notes.append("extra build")
    return Company(
        p["seat"],
        p["name"],
        p.get("company"),  # a view kept from before companies had names has none
        COLOUR_STYLES[p["colour"]],
        p["cash"],
        tuple(p["routes"]),
        sum(routes[r].length for r in p["routes"]),
        ", ".join(notes),
    )


def _awaiting(view: BusBossView, companies: tuple[Company, ...]) -> tuple[str, ...]:
    """One line a prompt, naming everyone it is for (most see the same one)."""
    seats_of: dict[str, list[int]] = {}
    for a in view["awaiting"]:
        seats_of.setdefault(a["prompt"], []).append(a["seat"])
    return tuple(
        f"{', '.join(companies[s].label for s in seats)}: {prompt}"
        for prompt, seats in seats_of.items()
    )


def _result(result: ResultView | None, companies: tuple[Company, ...]) -> tuple[str, ...]:
    if result is None:
        return ()
    lines = [f"Result ({result['reason']}):"]
    for place, seats in enumerate(result["ranking"], 1):
        who = ", ".join(companies[s].label for s in seats)
        lines.append(f"{place}. {who}: {result['scores'][seats[0]]}")
    return tuple(lines)
