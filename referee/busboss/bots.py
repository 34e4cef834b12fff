"""Bots for Bus Boss. ``random_bot`` picks uniformly among the choices it can list;
``default_bot`` builds a connected network towards towns with many cards and enters the runs
it expects to earn from."""

from __future__ import annotations

import random
from collections.abc import Callable
from itertools import islice

from .building import MAX_ROUTES, SHARED_BUDGET, buyable, buyable_bits, meets
from .game import entry_limit
from .journeys import network, seat_places
from .map import Map, Route
from .orders import Build, Order, Purchase, RunEntry
from .prompts import NOTHING, entry_of, purchase_of, quickest, quickest_journeys, run_options
from .runs import POINTS
from .state import LAST_ROUND, BusBossState


def each_build(s: BusBossState, seat: int, pick: Callable[[], Build]) -> tuple[Build, ...]:
    """One build, or two in the round after a missed building round (rule 38)."""
    return (pick(), pick()) if seat in s.extra_build else (pick(),)


JOINT_CHANCE = 0.1


def random_bot(s: BusBossState, seat: int, rng: random.Random) -> Order:
    routes = buyable_bits(s, seat)  # (one is picked: they are not listed)
    count = routes.bit_count()

    def pick() -> Build:
        choice = rng.randrange(count + 1)
        return (
            NOTHING if choice == count else Build((purchase_of(s.map.nth_route(routes, choice)),))
        )

    builds = each_build(s, seat, pick)
    if s.kind == "build":
        return Order("build", builds=builds, round=s.round)
    # as many runs as it wants, drawn from the offers in random order: a journey is sought
    # only for the offers looked at, not for all of them
    wanted = rng.randrange(entry_limit(s) + 1)  # (randint(0, limit)'s draw, one call less)
    entries: list[RunEntry] = []
    if wanted:
        shuffled = rng.sample(s.offers, len(s.offers))
        found = quickest_journeys(network(s.map, s.owners), (seat,), shuffled)
        for offer, plan in islice(found, wanted):
            entry = entry_of(s, offer, plan)
            if rng.random() < JOINT_CHANCE:  # a proposal a partner seldom takes up
                others = [s.colours[x] for x in s.order if x != seat]
                entry = RunEntry(entry.cards, (rng.choice(others),), entry.journey)
            entries.append(entry)
    return Order("operate", runs=tuple(entries), builds=builds, round=s.round)


# the default bot ---------------------------------------------------------------------------------

PAYMENT_WEIGHT = 1.5  # paying a rival helps them too
RESERVE = 10  # cash never spent on routes
OPENINGS = 6  # the first route is drawn from this many of the best, so that
# bots do not all crowd into the same towns


def default_bot(s: BusBossState, seat: int, rng: random.Random) -> Order:
    builds = each_build(s, seat, lambda: Build(_purchase_preferences(s, seat, rng)))
    if s.kind == "build":
        return Order("build", builds=builds, round=s.round)
    return Order("operate", runs=default_runs(s, seat), builds=builds, round=s.round)


def default_runs(s: BusBossState, seat: int) -> tuple[RunEntry, ...]:
    """Runs worth entering: the place expected from the race lengths of everyone who could
    enter, its points, less what the journey pays to rivals."""
    net = network(s.map, s.owners)
    valued = []
    for offer, plan in run_options(s, seat):
        rivals = [
            p for p in (quickest(net, (x,), offer) for x in s.order if x != seat) if p is not None
        ]
        table = POINTS[len(rivals) + 1]
        place = sum(1 for p in rivals if p.distance < plan.distance)
        value = table[place] - PAYMENT_WEIGHT * plan.paid
        if value > 0:
            valued.append((-value, plan.spaces, offer.cards, offer, plan))
    valued.sort(key=lambda t: t[:3])
    return tuple(entry_of(s, offer, plan) for *_, offer, plan in valued[: entry_limit(s)])


def _purchase_preferences(s: BusBossState, seat: int, rng: random.Random) -> tuple[Purchase, ...]:
    """The best affordable group of routes, then the best single routes, then nothing.
    A route is worth its cost while the rounds left can repay it."""
    rounds_left = LAST_ROUND - max(s.round, 6)  # operating rounds after this build
    spend = s.cash[seat] - RESERVE
    if rounds_left <= 0 or spend <= 0:
        return (Purchase(()),)
    threshold = 1.2 / rounds_left
    m = s.map
    reached = {m.places[p].destination for p in seat_places(s, seat)}
    rivals = {p for x in s.order if x != seat for p in seat_places(s, x)}
    candidates = [r for r in buyable(s, seat) if r.cost <= spend]
    worth = {r: _gain(m, r, reached, rivals) / r.cost for r in candidates}
    ranked = sorted(candidates, key=lambda r: (-worth[r], r.name))
    ranked = [r for r in ranked if worth[r] >= threshold]
    if not ranked:
        return (Purchase(()),)
    if not reached:
        opening = rng.choice(ranked[:OPENINGS])
        ranked.remove(opening)
        ranked.insert(0, opening)
    group = _greedy_group(s, seat, ranked, reached, rivals, min(spend, SHARED_BUDGET), threshold)
    preferences = [Purchase(tuple(r.ends for r in group))] if group else []
    for r in ranked[:3]:
        single = Purchase((r.ends,))
        if single not in preferences:
            preferences.append(single)
    return tuple(preferences) + (Purchase(()),)


def _greedy_group(
    s: BusBossState,
    seat: int,
    ranked: list[Route],
    reached: set,
    rivals: set,
    budget: int,
    threshold: float,
) -> list[Route]:
    """Up to four routes within the budget, each the best value joining the network so far;
    the first is the best ranked that fits."""
    m = s.map
    network_now = set(seat_places(s, seat))
    reached = set(reached)
    group: list[Route] = []
    total = 0
    while len(group) < MAX_ROUTES:
        fits = [
            r
            for r in ranked
            if r not in group
            and total + r.cost <= budget
            and (not network_now or meets(network_now, r))
        ]
        if not fits:
            break
        best = (
            fits[0]
            if not group
            else max(fits, key=lambda r: (_gain(m, r, reached, rivals) / r.cost, r.name))
        )
        if _gain(m, best, reached, rivals) / best.cost < threshold:
            break
        group.append(best)
        total += best.cost
        network_now.update(best.places)
        reached.update(m.places[p].destination for p in best.ends)
    return group


def _gain(m: Map, route: Route, reached: set, rivals: set) -> float:
    """Cards newly within reach at the route's ends (less where rivals are already there to
    share the runs), and a little for the cards one route further on."""
    gain = 0.0
    for end in route.ends:
        dest = m.places[end].destination
        if dest is not None and dest not in reached:
            gain += len(m.destination_cards[dest]) * (0.6 if end in rivals else 1.0)
        for nxt in m.routes_at[end]:
            beyond = m.places[nxt.other_end(end)].destination
            if beyond is not None and beyond not in reached:
                gain += 0.2 * len(m.destination_cards[beyond])
    return gain


BOTS = {"default": default_bot, "random": random_bot}
