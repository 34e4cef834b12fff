"""The strong Bus Boss bot: it buys the routes that put the most likely runs within its reach
where few rivals can race it (rules 14-17: the runs are the 52 cards dealt in pairs), and it
enters the runs whose races it expects to gain most from, rivals' entries foreseen (rules
20-33). Deterministic for a seed: it draws nothing but what the default bot would.

A run's worth is in points against the rivals: what the bot expects to win and what it pays,
less what the rivals gain from it (what it pays them, and the points they win or lose by its
entry), shared over the rivals, for the richest player wins (rule 3)."""

from __future__ import annotations

import random
from bisect import bisect_right
from collections.abc import Callable, Iterable, Sequence
from functools import cache
from itertools import combinations

from .bots import default_runs, each_build
from .building import MAX_ROUTES, SHARED_BUDGET, buyable, ownership
from .game import entry_limit
from .journeys import network
from .map import Map, Route
from .orders import Build, Order, Purchase, RunEntry
from .prompts import entry_of, quickest, run_options
from .runs import DIE, MIN_RUN, POINTS, RUNS_PER_ROUND
from .state import BANK_SEAT, BusBossState, owned_routes

HALF = sum(RUNS_PER_ROUND[r] for r in (7, 8, 9))  # runs dealt from the 52 cards (rule 15)
PARTNERS_OF_A_CARD = 51  # a card is dealt with one of the 51 others
RESERVE = 6  # cash kept back from routes
ACCESS = 0.5  # a run reached over others' routes: the share of its worth the bot counts
ALTERNATIVES = 8  # purchases a preference list names at most (rule 35), before nothing


def strong_bot(s: BusBossState, seat: int, rng: random.Random) -> Order:
    builds = each_build(s, seat, lambda: Build(purchase_preferences(s, seat)))
    if s.kind == "build":
        return Order("build", builds=builds, round=s.round)
    return Order("operate", runs=chosen_runs(s, seat), builds=builds, round=s.round)


# races ----------------------------------------------------------------------------------------


@cache
def arrivals(distance: int) -> tuple[float, ...]:
    """The chance that a bus with ``distance`` to go arrives on each throw (K5: the average
    die, rule 27), from the first throw on."""
    running = {0: 1.0}
    found: list[float] = []
    while running:
        arrived = 0.0
        going: dict[int, float] = {}
        for covered, chance in running.items():
            for face in DIE:
                p = chance / len(DIE)
                if covered + face >= distance:
                    arrived += p
                else:
                    going[covered + face] = going.get(covered + face, 0.0) + p
        found.append(arrived)
        running = going
    return tuple(found)


def expected_points(distances: Sequence[int]) -> list[float]:
    """Each entrant's expected points in a race of these distances (rules 31-32: tied
    places share their points)."""
    table = POINTS[len(distances)]
    chances = [arrivals(d) for d in distances]
    found = []
    for i, mine in enumerate(chances):
        total = 0.0
        for throw, p in enumerate(mine):
            if not p:
                continue
            # the others, by how many arrive before this throw and how many on it
            spread = {(0, 0): 1.0}
            for j, theirs in enumerate(chances):
                if j == i:
                    continue
                before = sum(theirs[:throw])
                same = theirs[throw] if throw < len(theirs) else 0.0
                after = 1.0 - before - same
                nxt: dict[tuple[int, int], float] = {}
                for (ahead, tied), q in spread.items():
                    for key, r in (((ahead + 1, tied), before), ((ahead, tied + 1), same)):
                        nxt[key] = nxt.get(key, 0.0) + q * r
                    nxt[ahead, tied] = nxt.get((ahead, tied), 0.0) + q * after
                spread = nxt
            total += p * sum(
                q * sum(table[ahead : ahead + tied + 1]) / (tied + 1)
                for (ahead, tied), q in spread.items()
            )
        found.append(total)
    return found


# runs -----------------------------------------------------------------------------------------


def chosen_runs(s: BusBossState, seat: int) -> tuple[RunEntry, ...]:
    """The runs worth most against the rivals, up to the limit (rule 20): each rival's
    entries foreseen as the default bot would make them."""
    net = network(s.map, s.owners)
    rivals = [x for x in s.order if x != seat]
    entering: dict[tuple[str, str], list[int]] = {}
    for rival in rivals:
        for entry in default_runs(s, rival):
            entering.setdefault(entry.cards, []).append(rival)
    valued = []
    for offer, plan in run_options(s, seat):
        others = [
            (x, p.distance)
            for x in entering.get(offer.cards, ())
            if (p := quickest(net, (x,), offer)) is not None
        ]
        value = against_rivals(plan.distance, plan.payments(), others, len(rivals))
        if value > 0:
            valued.append((-value, plan.spaces, offer.cards, offer, plan))
    valued.sort(key=lambda t: t[:3])
    return tuple(entry_of(s, offer, plan) for *_, offer, plan in valued[: entry_limit(s)])


def against_rivals(
    distance: int, payments: dict[int, int], others: list[tuple[int, int]], rivals: int
) -> float:
    """What entering a race gains the bot over the average rival: its expected points less
    what it pays, less what the rivals gain by its entry (the payments to them, and the
    points its entry takes from them)."""
    with_me = expected_points([distance] + [d for _, d in others])
    without_me = expected_points([d for _, d in others]) if others else []
    taken = sum(without_me) - sum(with_me[1:])
    paid = sum(payments.values())
    to_rivals = sum(amount for owner, amount in payments.items() if owner != BANK_SEAT)
    return with_me[0] - paid + (taken - to_rivals) / rivals


# building -------------------------------------------------------------------------------------


def runs_to_come(s: BusBossState) -> float:
    """Runs still to be dealt after this round's building, in halves of the deal."""
    later = sum(n for r, n in RUNS_PER_ROUND.items() if r > s.round)
    return later / HALF


@cache
def pair_weights(m: Map) -> dict[tuple[str, str], float]:
    """Destination pairs that make a run (rule 17), each with the runs expected between them
    in one half of the deal: each of A's cards goes with one of the 51 others."""
    cards = m.destination_cards
    return {
        (a, b): len(cards[a]) * len(cards[b]) / PARTNERS_OF_A_CARD
        for a, b in combinations(sorted(cards), 2)
        if m.distance(cards[a][0], cards[b][0]) >= MIN_RUN
    }


def reached(m: Map, places: Iterable[str]) -> frozenset[str]:
    """The destinations at these places."""
    return frozenset(d for p in places if (d := m.places[p].destination) is not None)


def share_of(entrants: int) -> float:
    """The points an entrant expects of a race among as many equal entrants."""
    return sum(POINTS[entrants]) / entrants


class Prospect:
    """What purchases are worth to a seat at one decision: the points the runs to come are
    expected to bring (each half of the deal, ``pair_weights``) between the destinations its
    routes reach, raced against the rivals who reach both ends too, less what they cost.

    A run between one of its own destinations and one it reaches only over other companies'
    routes counts too, at ``ACCESS`` of the worth (it pays them, rules 22-24): so a company
    with no route yet, or few, sees what a route beside its rivals' opens up, and does not
    keep its money for want of a network of its own."""

    def __init__(self, s: BusBossState, seat: int):
        m = self.map = s.map
        self.halves = runs_to_come(s)
        net = network(m, s.owners)
        self.places = net.places.get(seat, frozenset())
        self.rivals = [reached(m, net.places.get(x, ())) for x in s.order if x != seat]
        self.mine = reached(m, self.places)
        self.beyond = reach_over_others(m, s.owners, seat)
        # destinations reached over others' routes only
        self.access = frozenset().union(*(self.beyond.get(p, ()) for p in self.places)) - self.mine
        self.weights = pair_weights(m)
        self._to_mine: dict[str, float] = {}
        self._to_access: dict[str, float] = {}
        self._gains: dict[frozenset[Route], float] = {}

    def pair(self, a: str, b: str) -> float:
        """The points a half of the deal is expected to bring from runs between a and b."""
        w = self.weights.get((a, b) if a < b else (b, a))
        if not w:
            return 0.0
        return w * share_of(1 + sum(1 for r in self.rivals if a in r and b in r))

    def to_all(self, d: str, ends: frozenset[str], memo: dict[str, float]) -> float:
        found = memo.get(d)
        if found is None:
            # summed in the destinations' order, not a set's: a sum of floats in another
            # order may differ in its last bit, and a set's order changes with the process
            # (PYTHONHASHSEED), which made the bot's choice between two near-equal purchases
            # differ from run to run
            found = memo[d] = sum(self.pair(d, o) for o in sorted(ends))
        return found

    def gain(self, routes: Sequence[Route]) -> float:
        """What buying the routes adds to the points expected of the runs to come, less
        their cost (rule 9)."""
        key = frozenset(routes)
        found = self._gains.get(key)
        if found is None:
            found = self._gains[key] = self.halves * self.added(routes) - sum(
                r.cost for r in routes
            )
        return found

    def added(self, routes: Sequence[Route]) -> float:
        """The points a half of the deal is expected to bring more with the routes."""
        m, mine, access = self.map, self.mine, self.access
        places = {p for r in routes for p in r.places}
        new = sorted(reached(m, places) - mine)
        opened = sorted(
            frozenset().union(*(self.beyond.get(p, ()) for p in places)) - mine - access - set(new)
        )
        upgraded = [d for d in new if d in access]  # reached over others' routes before
        value = 0.0
        for i, d in enumerate(new):
            value += self.to_all(d, mine, self._to_mine)
            value += sum(self.pair(d, o) for o in new[:i])
            value += ACCESS * (
                self.to_all(d, access, self._to_access)
                - sum(self.pair(d, o) for o in upgraded)
                + sum(self.pair(d, o) for o in opened)
            )
        value += ACCESS * sum(self.to_all(d, mine, self._to_mine) for d in opened)
        value -= ACCESS * sum(self.to_all(d, mine, self._to_mine) for d in upgraded)
        return value


def reach_over_others(
    m: Map, owners: tuple[tuple[int, ...], ...], seat: int
) -> dict[str, frozenset[str]]:
    """By place on another company's routes (or the bank's), the destinations a bus reaches
    from it over others' routes alone."""
    parent: dict[str, str] = {}

    def root(p: str) -> str:
        while parent[p] != p:
            parent[p] = parent[parent[p]]
            p = parent[p]
        return p

    for route, who in owned_routes(m, owners):
        if any(x != seat for x in who):
            for p in route.places:
                parent.setdefault(p, p)
            first = root(route.places[0])
            for p in route.places[1:]:
                parent[root(p)] = first
    groups: dict[str, list[str]] = {}
    for p in parent:
        groups.setdefault(root(p), []).append(p)
    found: dict[str, frozenset[str]] = {}
    for places in groups.values():
        destinations = reached(m, places)
        found.update(dict.fromkeys(places, destinations))
    return found


def purchase_preferences(s: BusBossState, seat: int) -> tuple[Purchase, ...]:
    """Rule 35: every purchase worth more than its cost, best first, so that a seat whose
    choice an earlier player took buys its next best: groups grown from the best single
    routes, and those routes alone; nothing only after them all."""
    spend = s.cash[seat] - RESERVE
    prospect = Prospect(s, seat)
    if prospect.halves <= 0 or spend <= 0:
        return (Purchase(()),)
    m, gain = s.map, prospect.gain
    candidates = [r for r in buyable(s, seat) if r.cost <= spend]
    # the routes a group may grow by: those free to buy (rules 12, 40), joined within it
    _, free, owned, near = ownership(s)
    free &= ~owned.get(seat, 0)
    budget = min(spend, SHARED_BUDGET)
    singles = sorted(candidates, key=lambda r: (-gain([r]), r.name))
    groups = [
        grown(m, [r], free, near.get(seat, 0), budget, gain)
        for r in singles[:8]
        if r.cost <= budget
    ]
    ranked: dict[frozenset[Route], list[Route]] = {}  # (one group bought in any order)
    for group in sorted(
        groups + [[r] for r in singles], key=lambda g: (-gain(g), len(g), [r.name for r in g])
    ):
        if gain(group) <= 0 or len(ranked) == ALTERNATIVES:
            break
        ranked.setdefault(frozenset(group), group)
    return tuple(Purchase(tuple(r.ends for r in g)) for g in ranked.values()) + (Purchase(()),)


def grown(
    m: Map,
    group: list[Route],
    free: int,
    near: int,
    budget: int,
    gain: Callable[[Sequence[Route]], float],
) -> list[Route]:
    """The group grown by the ``free`` routes (as ``Map.bit`` sets) that join it or the
    network (``near``: the routes meeting the network; rules 8, 10), each the one that adds
    most, while one adds anything."""
    total = sum(r.cost for r in group)
    for r in group:
        free &= ~m.bit[r.index]
        near |= m.meeting[r.index]
    while len(group) < MAX_ROUTES:
        fits = m.routes_of(free & near & ((1 << bisect_right(m.costs, budget - total)) - 1))
        if not fits:
            break
        best = max(fits, key=lambda r: (gain(group + [r]), r.name))
        if gain(group + [best]) <= gain(group):
            break
        group = group + [best]
        total += best.cost
        free &= ~m.bit[best.index]
        near |= m.meeting[best.index]
    return group
