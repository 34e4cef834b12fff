"""The strong Bus Boss bot: it buys the routes that put the most likely runs within its reach
where few rivals can race it (rules 14-17: the runs are the 52 cards dealt in pairs), and it
enters the runs whose races it expects to gain most from, rivals' entries foreseen (rules
20-33). Deterministic for a seed: it draws nothing but what the default bot would.

A run's worth is in points against the rivals: what the bot expects to win and what it pays,
less what the rivals gain from it (what it pays them, and the points they win or lose by its
entry), shared over the rivals, for the richest player wins (rule 3)."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Sequence
from functools import cache
from itertools import combinations

from .bots import default_runs, each_build
from .building import MAX_ROUTES, SHARED_BUDGET, available, buyable
from .game import entry_limit
from .journeys import network, seat_places
from .map import Map, Route
from .orders import Build, Order, Purchase, RunEntry
from .prompts import entry_of, quickest, run_options
from .runs import DIE, MIN_RUN, POINTS, RUNS_PER_ROUND
from .state import BANK_SEAT, BusBossState

HALF = sum(RUNS_PER_ROUND[r] for r in (7, 8, 9))  # runs dealt from the 52 cards (rule 15)
PARTNERS_OF_A_CARD = 51  # a card is dealt with one of the 51 others
RESERVE = 6  # cash kept back from routes


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


def coverage_value(
    m: Map, mine: frozenset[str], rivals: Sequence[frozenset[str]], new: Iterable[str]
) -> float:
    """The points a half of the deal is expected to bring from the runs between the
    destinations ``new`` adds to ``mine`` and those of ``mine`` (or each other), raced
    against the rivals who reach both ends too."""
    weights = pair_weights(m)
    value = 0.0
    # summed in the destinations' order, not a set's: a sum of floats in another order may
    # differ in its last bit, and a set's order changes with the process (PYTHONHASHSEED),
    # which made the bot's choice between two near-equal purchases differ from run to run
    ends = sorted(mine)
    for d in sorted(set(new) - mine):
        for other in ends:
            a, b = (d, other) if d < other else (other, d)
            w = weights.get((a, b))
            if w:
                racing = 1 + sum(1 for r in rivals if a in r and b in r)
                value += w * share_of(racing)
        ends.append(d)
    return value


def purchase_preferences(s: BusBossState, seat: int) -> tuple[Purchase, ...]:
    """The purchase that adds most to what the runs to come are expected to bring, less its
    cost; then the best single routes (others may buy first, rule 35); then nothing."""
    m = s.map
    halves = runs_to_come(s)
    spend = s.cash[seat] - RESERVE
    if halves <= 0 or spend <= 0:
        return (Purchase(()),)
    network_now = seat_places(s, seat)
    mine = reached(m, network_now)
    rivals = [reached(m, seat_places(s, x)) for x in s.order if x != seat]
    candidates = [r for r in buyable(s, seat) if r.cost <= spend]
    # the routes a group may grow by: those free to buy (rule 12, 40), joined within it
    free = [
        r
        for r in m.routes
        if r.cost <= spend and seat not in s.owners[r.index] and available(s.owners[r.index], r)
    ]

    def gain(routes: Sequence[Route]) -> float:
        new = {p for r in routes for p in r.ends}
        return halves * coverage_value(m, mine, rivals, reached(m, new)) - sum(
            r.cost for r in routes
        )

    budget = min(spend, SHARED_BUDGET)
    singles = sorted(candidates, key=lambda r: (-gain([r]), r.name))
    groups = [grown([r], free, network_now, budget, gain) for r in singles[:8] if r.cost <= budget]
    best = max(groups + [[r] for r in singles[:3]], key=lambda g: (gain(g), -len(g)), default=[])
    if not best or gain(best) <= 0:
        return (Purchase(()),)
    preferences = [Purchase(tuple(r.ends for r in best))]
    for r in singles[:3]:
        if gain([r]) > 0 and Purchase((r.ends,)) not in preferences:
            preferences.append(Purchase((r.ends,)))
    return tuple(preferences) + (Purchase(()),)


def grown(
    group: list[Route],
    free: list[Route],
    network_now: frozenset[str],
    budget: int,
    gain: Callable[[Sequence[Route]], float],
) -> list[Route]:
    """The group grown by the free routes that join it (rules 8, 10), each the one that
    adds most, while one adds anything."""
    places = set(network_now).union(*(r.places for r in group))
    total = sum(r.cost for r in group)
    while len(group) < MAX_ROUTES:
        fits = [
            r
            for r in free
            if r not in group and total + r.cost <= budget and not places.isdisjoint(r.places)
        ]
        if not fits:
            break
        best = max(fits, key=lambda r: (gain(group + [r]), r.name))
        if gain(group + [best]) <= gain(group):
            break
        group = group + [best]
        total += best.cost
        places.update(best.places)
    return group
