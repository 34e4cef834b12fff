"""Journeys over owned routes (rules 22-25, 28, 29, rulings K4, K9, K12-K14): checking a
player's journey and finding a good one for prompts and bots.

A journey is resolved into a Plan: its places, and for each leg the route, whose copy of it is
used and the spaces it covers. A leg runs along one route between two of its places: its towns
or a junction on it, where a bus may change to a route crossing there (K9). A company is the
seat entering a run, or the partners of a joint run (K6), who use each other's routes free and
change between them without penalty.
"""

from __future__ import annotations

import heapq
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import NamedTuple

from ..contract import Say, Words
from .map import Map, Route
from .orders import BANK, Journey
from .state import RULINGS, BusBossState, owned_routes, owner_name, owner_seat

PAYMENT_CAP = 10  # rule 24
DETOUR_FACTOR = 2  # rule 25


# a search's steps, the last outermost: (the path before, from place, route, owner, spaces)
Path = tuple["Path", str, Route, int, int] | None


class JourneyError(Exception):
    """A journey the rules refuse; ``reason`` says why, for the player."""

    def __init__(self, reason: Say):
        super().__init__(reason)
        self.reason = reason


@dataclass(slots=True)
class Plan:
    """A resolved journey, made once and never changed (not frozen: a frozen dataclass sets
    each field through object.__setattr__, and a bot or the race makes many plans)."""

    places: tuple[str, ...]
    legs: tuple[tuple[Route, int, int], ...]  # (route, owner seat or BANK_SEAT, spaces) per leg
    company: tuple[int, ...]
    # worked out with the plan, in one pass over its legs: prompts, bots and the race ask
    # for them again and again
    spaces: int = field(init=False, compare=False)
    changes: int = field(init=False, compare=False)  # of colour (rule 28); none between
    # partners (K6)
    distance: int = field(init=False, compare=False)  # to cover in the race: spaces and a
    # space for each change of colour (K5)
    paid: int = field(init=False, compare=False)  # to others in all: what the cap of rule 24
    # limits (K12)

    def __post_init__(self) -> None:
        company = self.company
        spaces = changes = paid = 0
        last = None
        for _, owner, length in self.legs:
            spaces += length
            if owner in company:
                colour = company[0]
            else:
                colour = owner
                paid += length
            if last is not None and colour != last:
                changes += 1
            last = colour
        self.spaces = spaces
        self.changes = changes
        self.distance = spaces + changes
        self.paid = paid

    def payments(self) -> dict[int, int]:
        """What the company owes each other owner, one a space (rule 23), by owner seat."""
        owed: dict[int, int] = {}
        for _, owner, spaces in self.legs:
            if owner not in self.company:
                owed[owner] = owed.get(owner, 0) + spaces
        return owed

    def own_spaces(self, seat: int | None = None) -> int:
        """Spaces on the company's routes, or on one partner's (rule 22, K12)."""
        owners = self.company if seat is None else (seat,)
        total = 0
        for _, owner, spaces in self.legs:
            if owner in owners:
                total += spaces
        return total

    def journey(self, owners: tuple[tuple[int, ...], ...], colours: Sequence[str]) -> Journey:
        """The journey as a player writes it: owners named only where the rules would not
        pick the same one (``owners``: each route's owners, by route index; ``colours``:
        the players' colours by seat)."""
        company = self.company
        named: list[str | None] = []
        for route, owner, _ in self.legs:
            route_owners = owners[route.index]
            # (most routes have one owner, whose copy the leg uses and the rules pick)
            if len(route_owners) == 1 or default_owner(route_owners, company) == owner:
                named.append(None)
            else:
                named.append(owner_name(owner, colours))
        return Journey(self.places, tuple(named))


class Network:
    """The owned routes of one moment of a game, with lookups the searches need.

    ``adjacent[p]``: from place p, each next place along each owned route through p (a town
    or a junction, K9), as (place, route, spaces): the map's own steps, the route's owners
    looked up by the search that needs them. ``places[seat]``: the places along the seat's
    routes (``seat_places``), found in the same pass over the owned routes."""

    def __init__(self, m: Map, owners: tuple[tuple[int, ...], ...]):
        self.map = m
        self.owners = owners
        adjacent: dict[str, list[tuple[str, Route, int]]] = {p: [] for p in m.places}
        places: dict[int, set[str]] = {}
        # the owned routes' steps, in the order of Map.steps_at (the map's order of routes):
        # a search meets them in that order, whatever the owners
        for route, who in owned_routes(m, owners):
            for here, step in m.route_steps[route.index]:
                adjacent[here].append(step)
            for seat in who:
                if seat in places:
                    places[seat].update(route.places)
                else:
                    places[seat] = set(route.places)
        self.adjacent = adjacent
        self.places = {seat: frozenset(found) for seat, found in places.items()}
        # what searches found, remembered with the network they searched (every bot of a
        # round asks, for itself and for its rivals): let go with it
        self._shortest: dict[tuple[str, str], int | None] = {}
        self._reach: dict[tuple[int, ...], Reach] = {}
        self._plans: dict[tuple[tuple[int, ...], tuple[str, str]], Plan | None] = {}

    def reach(self, company: tuple[int, ...]) -> Reach:
        """What the company pays to reach its routes (``paid_to_reach``)."""
        found = self._reach.get(company)
        if found is None:
            found = self._reach[company] = paid_to_reach(self, company)
        return found

    def best_plan(self, company: tuple[int, ...], cards: tuple[str, str]) -> Plan | None:
        """The company's quickest journey for the run (``best_plan``), or None."""
        key = (company, cards)
        if key not in self._plans:
            self._plans[key] = best_plan(self, company, cards)
        return self._plans[key]

    def planned(self, company: tuple[int, ...], cards: tuple[str, str]) -> Plan | None:
        """The company's quickest journey for the run if it was sought on this network (by a
        bot or a prompt), without seeking it."""
        return self._plans.get((company, cards))

    def shortest(self, cards: tuple[str, str]) -> int | None:
        """The shortest journey for a run over all owned routes, whoever owns them (rule 25),
        changing routes at towns and junctions (rule 29). Searched toward the end: the
        shortest over the whole map from a place on is never more than over owned routes,
        so the first end reached is the nearest (A*)."""
        if cards not in self._shortest:
            m = self.map
            to_end = m.to_destination[m.card_destination[cards[1]]]
            targets = m.places_of_card(cards[1])
            best = dict.fromkeys(m.places_of_card(cards[0]), 0)
            heap = [(to_end[p], 0, p) for p in sorted(best)]
            found = None
            while heap:
                _, spaces, place = heapq.heappop(heap)
                if place in targets:
                    found = spaces
                    break
                if spaces > best[place]:
                    continue
                for nxt, _, length in self.adjacent[place]:
                    further = spaces + length
                    if further < best.get(nxt, further + 1):
                        best[nxt] = further
                        heapq.heappush(heap, (further + to_end[nxt], further, nxt))
            self._shortest[cards] = found
        return self._shortest[cards]


NETWORKS_KEPT = 8
_networks: dict[int, Network] = {}  # the last networks made, by the id of their owners


def network(m: Map, owners: tuple[tuple[int, ...], ...]) -> Network:
    """The network of these owners, kept for the few owners a game is at (every bot of a
    round and the round's resolution ask for it). Looked up by the owners tuple itself, which
    a state and its copies share, not by its value: hashing the tuple of every route's
    owners at each look-up cost a random game 0.7% of its instructions. A kept network holds
    its owners, so no other tuple can take their id while it is kept."""
    found = _networks.get(id(owners))
    if found is None or found.owners is not owners or found.map is not m:
        found = Network(m, owners)
        if len(_networks) >= NETWORKS_KEPT:
            del _networks[next(iter(_networks))]  # the oldest
        _networks[id(owners)] = found
    return found


def seat_places(s: BusBossState, seat: int) -> frozenset[str]:
    """The places along the seat's routes, junctions too (rule 10, K9)."""
    return network(s.map, s.owners).places.get(seat, frozenset())


UNREACHED = PAYMENT_CAP + 1  # what a place or card beyond the cap of rule 24 counts as paying


class Reach(NamedTuple):
    """The least a journey pays (rule 23) from a place to one on the company's own routes,
    where that is within the cap of rule 24: by place (its own pay nothing), and by card
    (the card's nearest place)."""

    places: dict[str, int]
    cards: dict[str, int]


def paid_to_reach(net: Network, company: tuple[int, ...]) -> Reach:
    """The company's ``Reach`` over the network: a search by what is paid, a list of places
    for each amount."""
    m = net.map
    own = (
        net.places.get(company[0], frozenset())
        if len(company) == 1
        else frozenset().union(*(net.places.get(x, ()) for x in company))
    )
    # the company's own places pay nothing, known before the search: a step along its
    # routes leads to one of them and is never counted as paid
    paid = dict.fromkeys(own, 0)
    adjacent = net.adjacent
    reached: list[list[str]] = [list(own)] + [[] for _ in range(PAYMENT_CAP)]
    for cost, places in enumerate(reached):
        room = PAYMENT_CAP - cost
        for place in places:
            if cost and paid.setdefault(place, cost) < cost:
                continue  # reached for less
            for nxt, _, length in adjacent[place]:
                if length <= room and nxt not in paid:
                    reached[cost + length].append(nxt)
    cards_at = m.cards_at
    # the places dearest first (paid lists them cheapest first): a card keeps the cost of
    # its nearest place, written last
    by_card = {card: cost for place, cost in reversed(paid.items()) for card in cards_at[place]}
    return Reach(paid, by_card)


def default_owner(owners: tuple[int, ...], company: tuple[int, ...]) -> int | None:
    """Whose route a leg uses when the journey does not say: the company's own if it has
    one, else the only other owner; None when that is ambiguous or nobody owns it."""
    for seat in company:
        if seat in owners:
            return seat
    return owners[0] if owners and owners.count(owners[0]) == len(owners) else None


def resolve(
    net: Network,
    company: tuple[int, ...],
    cards: tuple[str, str],
    journey: Journey,
    colours: Sequence[str],
    rulings: int = RULINGS,
    play_order: Sequence[int] = (),
) -> Plan:
    """The plan of a journey written by a player; raises JourneyError saying what is wrong.
    ``colours``: the players' colours by seat, as journeys name owners; ``play_order``: the
    round's, which settles whose copy an unnamed leg uses where nothing else does (K14)."""
    planned = net.planned(company, cards)
    if planned is not None and planned.journey(net.owners, colours) == journey:
        # the journey of a plan this network found (a bot's, or one copied from a prompt):
        # that plan is what the journey resolves to, its places and legs already worked out
        check(net, planned, cards, colours, rulings)
        return planned
    m = net.map
    ends_a, ends_b = m.places_of_card(cards[0]), m.places_of_card(cards[1])
    first, last = journey.places[0], journey.places[-1]
    if not ((first in ends_a and last in ends_b) or (first in ends_b and last in ends_a)):
        raise JourneyError(
            Say(
                "the journey must run between {a} and {b} (K4)",
                {"a": _either(ends_a), "b": _either(ends_b)},
            )
        )
    legs = []
    passed: list[str] = [first]
    for a, b, named in zip(journey.places, journey.places[1:], journey.owners):
        found = m.leg(a, b)
        if found is None:
            unknown = [p for p in (a, b) if p not in m.places]
            raise JourneyError(
                Say("there is no place {place!r} on the map (K4)", {"place": unknown[0]})
                if unknown
                else Say(
                    "no route runs from {a} to {b}: a journey names each town or junction "
                    "where it changes route (K4, rule 29)",
                    {"a": a, "b": b},
                )
            )
        route, spaces = found
        if len(route.places) == 2:  # (most routes: two towns, no junction between)
            passed.append(b)
        else:
            passed += route.between(a, b)[1:]
        owners = net.owners[route.index]
        if not owners:
            raise JourneyError(Say("nobody owns {route} yet (K4)", {"route": route.name}))
        if named is None:
            # (most routes have one owner, whose copy it is whoever runs)
            owner = owners[0] if len(owners) == 1 else default_owner(owners, company)
            if owner is None and rulings >= RULINGS:
                owner = cheapest_owner(owners, play_order)
            if owner is None:
                names = [owner_name(o, colours) for o in sorted(set(owners))]
                raise JourneyError(
                    Say(
                        "{route} is owned by {owners}: name whose route you use, "
                        "e.g. {a}-{b}({owner}) (K4)",
                        {
                            "route": route.name,
                            "owners": both(names),
                            "a": a,
                            "b": b,
                            "owner": owner_name(owners[0], colours),
                        },
                    )
                )
        else:
            playing = named == BANK or named in colours
            owner = owner_seat(named, colours) if playing else None
            if owner is None or owner not in owners:
                raise JourneyError(
                    Say("{owner} has no route {route} (K4)", {"owner": named, "route": route.name})
                )
        legs.append((route, owner, spaces))
    if len(set(passed)) < len(passed):  # (seldom: then the first place passed again)
        twice = next(p for i, p in enumerate(passed) if p in passed[:i])
        raise JourneyError(Say("the journey passes {place} twice (K4)", {"place": twice}))
    places = journey.places
    if rulings >= RULINGS:
        places, legs = by_routes(places, legs, company)
    plan = Plan(places, tuple(legs), company)
    check(net, plan, cards, colours, rulings)
    return plan


def cheapest_owner(owners: tuple[int, ...], play_order: Sequence[int]) -> int:
    """K14: among other owners' copies, which all cost one a space (rule 23), the earlier
    owner in the round's play order; the bank last."""
    return min(owners, key=lambda o: play_order.index(o) if o in play_order else len(play_order))


def by_routes(
    places: tuple[str, ...], legs: list[tuple[Route, int, int]], company: tuple[int, ...]
) -> tuple[tuple[str, ...], list[tuple[Route, int, int]]]:
    """K13: a journey is its routes. Legs that go on along the company's copies of one route
    (a junction named on the way) are one leg, so a journey reads the same however written."""
    kept, merged = [places[0]], [legs[0]]
    for place, (route, owner, spaces) in zip(places[1:], legs[1:]):
        last_route, last_owner, last_spaces = merged[-1]
        same_copy = last_owner == owner or (last_owner in company and owner in company)
        if route is last_route and same_copy:
            merged[-1] = (route, last_owner, last_spaces + spaces)
        else:
            kept.append(place)
            merged.append((route, owner, spaces))
    return tuple(kept) + places[-1:], merged


def check(
    net: Network,
    plan: Plan,
    cards: tuple[str, str],
    colours: Sequence[str],
    rulings: int = RULINGS,
) -> None:
    """Rules 22, 24 and 25 for a resolved plan; in a joint run rule 22 holds for each
    partner, and the cap of rule 24 for the company's payments together (K12); a partner
    owning either copy of a doubled route the company travels owns its spaces (K14)."""
    if plan.paid == plan.spaces:  # (what it does not pay for is on the company's routes)
        raise JourneyError(Say("the journey uses none of your own routes (rule 22)"))
    if len(plan.company) > 1:
        for seat in plan.company:
            owns = (
                any(o in plan.company and seat in net.owners[r.index] for r, o, _ in plan.legs)
                if rulings >= RULINGS
                else plan.own_spaces(seat)
            )
            if not owns:
                raise JourneyError(
                    Say(
                        "the journey uses no route of {partner}'s: in a joint run each partner "
                        "must own at least one space of it (rule 22, K12)",
                        {"partner": owner_name(seat, colours)},
                    )
                )
    if plan.paid > PAYMENT_CAP:
        raise JourneyError(
            Say(
                "the journey would pay {paid} to other players; at most {cap} is allowed (rule 24)",
                {"paid": plan.paid, "cap": PAYMENT_CAP},
            )
            if len(plan.company) == 1
            else Say(
                "the partners would pay {paid} to other players together; at most {cap} is "
                "allowed (rule 24, K12)",
                {"paid": plan.paid, "cap": PAYMENT_CAP},
            )
        )
    if plan.spaces <= DETOUR_FACTOR * net.map.distance(*cards):
        return  # within twice the shortest over the whole map, so over the owned routes
    shortest_spaces = net.shortest(cards)
    assert shortest_spaces is not None  # the plan itself is a journey for the run
    limit = DETOUR_FACTOR * shortest_spaces
    if plan.spaces > limit:
        raise JourneyError(
            Say(
                "the journey is {spaces} spaces, more than twice the shortest journey of "
                "{shortest} (rule 25)",
                {"spaces": plan.spaces, "shortest": limit // 2},
            )
        )


def best_plan(net: Network, company: tuple[int, ...], cards: tuple[str, str]) -> Plan | None:
    """A legal journey for the run that is quick in the race (fewest spaces plus colour
    changes, then least paid), or None if the company can make none. For one seat: a joint
    company's journey must also use a route of each partner (K12), which this does not seek."""
    m = net.map
    # rule 25: twice the shortest journey over the owned routes. Twice the shortest over
    # the whole map is no more and known without a search: the owned routes' is sought
    # only for a journey longer than that (a third of the searches)
    limit, exact = DETOUR_FACTOR * m.distance(*cards), False
    targets = m.places_of_card(cards[1])  # one place or two: a tuple is searched quickest
    adjacent, route_owners = net.adjacent, net.owners
    to_end = m.to_destination[m.card_destination[cards[1]]]
    to_own = net.reach(company).places
    push, pop = heapq.heappush, heapq.heappop
    # (distance, paid, tie, place, last colour, uses own route, spaces, path, places passed);
    # a path is (the path before, its last step's four): a step added copies no steps
    heap: list[tuple[int, int, int, str, int | None, bool, int, Path, tuple[str, ...]]]
    heap = [
        (0, 0, i, p, None, False, 0, None, ()) for i, p in enumerate(m.places_of_card(cards[0]))
    ]
    tie = len(heap)  # first in, first out among equals
    settled: set[tuple[str, int | None, bool, int]] = set()
    owner_choices: dict[tuple[int, ...], Sequence[int]] = {}  # owners of a route -> whose copy
    mine = company[0]
    while heap:
        dist, paid, _, place, colour, own, spaces, path, passed = pop(heap)
        if own and place in targets:
            return _plan(path, place, company)
        key = (place, colour, own, paid)
        if key in settled:
            continue
        settled.add(key)
        passed += (place,)  # a few places: a tuple is quicker to search than a set to build
        for nxt, route, length in adjacent[place]:
            if nxt in passed:
                continue
            further = spaces + length
            # no journey on from nxt reaches the end in fewer spaces than over the whole map
            if further + to_end[nxt] > limit:
                if exact:
                    continue
                shortest_spaces = net.shortest(cards)
                if shortest_spaces is None:
                    return None
                limit, exact = DETOUR_FACTOR * shortest_spaces, True
                if further + to_end[nxt] > limit:
                    continue
            # (most routes have one owner, whose copy it is whoever asks)
            owners = route_owners[route.index]
            choices = owners if len(owners) == 1 else owner_choices.get(owners)
            if choices is None:
                default = default_owner(owners, company)
                # (no default owner: a choice among several)
                choices = owner_choices[owners] = (
                    (default,) if default is not None else sorted(set(owners))
                )
            for owner in choices:
                if owner in company:
                    ours, cost, new_colour = True, 0, mine
                # rule 24: the cap, with what is still to pay to reach the company's routes
                elif paid + length + (0 if own else to_own.get(nxt, UNREACHED)) > PAYMENT_CAP:
                    continue
                else:
                    ours, cost, new_colour = False, length, owner
                change = colour is not None and colour != new_colour
                push(
                    heap,
                    (
                        dist + length + change,
                        paid + cost,
                        tie,
                        nxt,
                        new_colour,
                        own or ours,
                        further,
                        (path, place, route, owner, length),
                        passed,
                    ),
                )
                tie += 1
    return None


def _plan(path: Path, end: str, company: tuple[int, ...]) -> Plan:
    """The plan of a search's path: steps along the same copy of one route make one leg, so
    a journey names a junction only where it changes route there (K9)."""
    steps: list[tuple[str, Route, int, int]] = []
    while path is not None:
        path, place, route, owner, spaces = path
        steps.append((place, route, owner, spaces))
    places: list[str] = []
    legs: list[tuple[Route, int, int]] = []
    for place, route, owner, spaces in reversed(steps):
        if legs and legs[-1][0] is route and legs[-1][1] == owner:
            legs[-1] = (route, owner, legs[-1][2] + spaces)
        else:
            places.append(place)
            legs.append((route, owner, spaces))
    return Plan(tuple(places) + (end,), tuple(legs), company)


def _either(places: Sequence[str]) -> Say | str:
    """A run's end: its one place, or its places as 'a or b (or c)' (a card of several)."""
    if len(places) < 2:
        return "".join(places)
    return Say("{a} or {b}", {"a": _either(places[:-1]), "b": places[-1]})


def both(owners: Sequence[Words]) -> Words:
    """Owners of a route, or the partners of a joint run: one, or several as 'a and b
    (and c)', worded in the reader's language."""
    if len(owners) < 2:
        return owners[0] if owners else ""
    return Say("{a} and {b}", {"a": both(owners[:-1]), "b": owners[-1]})
