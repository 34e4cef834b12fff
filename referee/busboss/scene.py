"""What a Bus Boss map shows, worked out once from the engine's view for both renderers.

The text map and the PNG map draw the same `BossScene`: each company's style, cash and
routes, who owns each copy of each route (a player, or the bank after rule 40), the runs on
offer, who is awaited and the result. Renderers only decide where and how to draw it; the
map itself (places and routes) comes from the engine's loader.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations
from typing import Any

from ..contract import ResultView, Say, Words, in_a_row
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
    status: Words  # this round: whether their order is in, dropped, missed rounds

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
    status: Words
    companies: tuple[Company, ...]  # by seat
    order_of_play: tuple[int, ...]
    entry_limit: int
    routes: dict[str, RouteFacts]  # by name, in the map's order
    bank_routes: tuple[str, ...]
    runs: tuple[RunFacts, ...]
    no_runs: Words  # what to say when no run is on offer
    awaiting: tuple[Words, ...]
    result: tuple[Words, ...]
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


STATUS = {
    "over": Say("round {round} of {last}, the game is over"),
    "building": Say("round {round} of {last}, a building round"),
    "operating": Say("round {round} of {last}, an operating round"),
}


def _status(view: BusBossView) -> Say:
    return Say(STATUS[view["phase"]].text, {"round": view["round"], "last": LAST_ROUND})


def _no_runs(view: BusBossView) -> Say:
    first = min(RUNS_PER_ROUND)
    if view["round"] < first:
        return Say("No runs yet: the first are offered in round {round}.", {"round": first})
    return Say("No runs on offer.")


def _company(
    view: BusBossView, p: dict[str, Any], routes: dict[str, RouteFacts], over: bool
) -> Company:
    notes = []
    if not p["in_game"]:
        notes.append(Say("dropped (rule 40)"))
    elif not over:
        notes.append(Say("order awaited") if p["awaiting"] else Say("order in"))
    if p["missed_in_a_row"] and p["in_game"]:
        n = p["missed_in_a_row"]
        notes.append(Say("missed 1 round") if n == 1 else Say("missed {n} rounds", {"n": n}))
    if p["extra_build"]:
        notes.append(Say("extra build"))
    return Company(
        p["seat"],
        p["name"],
        p.get("company"),  # a view kept from before companies had names has none
        COLOUR_STYLES[p["colour"]],
        p["cash"],
        tuple(p["routes"]),
        sum(routes[r].length for r in p["routes"]),
        in_a_row(notes, ", "),
    )


def _awaiting(view: BusBossView, companies: tuple[Company, ...]) -> tuple[Words, ...]:
    """One line a prompt, naming everyone it is for (most see the same one)."""
    grouped: dict[str, tuple[Words, list[int]]] = {}  # by the prompt's English
    for a in view["awaiting"]:
        grouped.setdefault(str(a["prompt"]), (a["prompt"], []))[1].append(a["seat"])
    return tuple(
        Say(
            "{who}: {prompt}",
            {"who": ", ".join(companies[s].label for s in seats), "prompt": prompt},
        )
        for prompt, seats in grouped.values()
    )


def _result(result: ResultView | None, companies: tuple[Company, ...]) -> tuple[Words, ...]:
    if result is None:
        return ()
    lines: list[Words] = [Say("Result ({reason}):", {"reason": result["reason"]})]
    for place, seats in enumerate(result["ranking"], 1):
        who = ", ".join(companies[s].label for s in seats)
        lines.append(f"{place}. {who}: {result['scores'][seats[0]]}")
    return tuple(lines)


@lru_cache(maxsize=8)
def abbreviations(m: Map) -> dict[str, str]:
    """Three characters for each town, unique whatever the case: the first three letters
    of its key where they are free, else its first letter and two later ones (its first
    letter and a number for a short key). Destinations are upper case, towns without cards
    lower case; a junction has none (it is drawn as a +)."""
    taken: set[str] = set()
    found = {}
    for key, place in m.places.items():
        if place.junction:
            continue
        letters = key.upper()
        candidates = [letters[0] + a + b for a, b in combinations(letters[1:], 2)]
        short = next(
            c for c in candidates + [f"{letters[0]}{n:02d}" for n in range(100)] if c not in taken
        )
        taken.add(short)
        found[key] = short if place.destination else short.lower()
    return found


def town_entries(m: Map) -> list[str]:
    """Every town by its abbreviation: the key orders write, the name where it is not just
    the key, and its cards ("AUC auckland (Bishop Auckland) 6D"), sorted by abbreviation."""
    short = abbreviations(m)
    entries = []
    for key in sorted(short, key=lambda k: short[k].upper()):
        place = m.places[key]
        name = place.destination or place.name
        title = "" if name.lower() == key else f" ({name})"
        cards = " ".join(m.destination_cards[place.destination]) if place.destination else ""
        entries.append(f"{short[key]} {key}{title} {cards}".rstrip())
    return entries


def map_key(scene: BossScene, m: Map) -> tuple[Words, ...]:
    """What the PNG map does not say for itself, a sentence a line, for the mail beside it:
    whose routes are which, the symbols, and every town's abbreviation."""
    owners = [
        Say(
            "{letter} {name}: {looks}",
            {"letter": c.style.letter, "name": c.name, "looks": c.style.looks},
        )
        for c in scene.companies
    ]
    if scene.bank_routes:
        owners.append(
            Say(
                "{letter} the bank (rule 40): {looks}",
                {"letter": BANK_STYLE.letter, "looks": BANK_STYLE.looks},
            )
        )
    return (
        Say(
            "Routes: {owners}; thin grey lines are free. Numbers are lengths.",
            {"owners": in_a_row(owners, "; ")},
        ),
        Say(
            "Towns: a ring is a town with cards (its abbreviation in capitals), a dot one"
            " without (in small letters); a small ring is a junction, where routes cross and"
            " buses change."
        ),
        Say(
            "Abbreviation, key in orders, name, cards: {towns}.",
            {"towns": "; ".join(town_entries(m))},
        ),
    )
