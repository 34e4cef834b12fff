"""Journeys over owned routes (rules 22-25, 28, ruling K4): checking a player's journey and
finding a good one for prompts and bots.

A journey is resolved into a Plan: its places, and for each leg the route and whose copy of
it is used. A company is the seat entering a run, or the partners of a joint run (K6), who use
each other's routes free and change between them without penalty.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from itertools import count

from .map import Map, Route, shortest
from .orders import Journey
from .state import owner_name, owner_seat

PAYMENT_CAP = 10  # rule 24
DETOUR_FACTOR = 2  # rule 25


class JourneyError(Exception):
    """A journey the rules refuse; the message is written for the player."""


@dataclass(frozen=True)
class Plan:
    places: tuple[str, ...]
    legs: tuple[tuple[Route, int], ...]  # (route, owner seat or BANK_SEAT) per leg
    company: tuple[int, ...]

    @property
    def spaces(self) -> int:
        return sum(r.length for r, _ in self.legs)

    @property
    def changes(self) -> int:
        """Changes of colour along the way (rule 28); none between partners (K6)."""
        colours = [self._colour(o) for _, o in self.legs]
        return sum(1 for a, b in zip(colours, colours[1:]) if a != b)

    @property
    def distance(self) -> int:
        """Spaces to cover in the race: each change of colour adds one (K5)."""
        return self.spaces + self.changes

    def payments(self) -> dict[int, int]:
        """What the company owes each other owner (rule 23), by owner seat."""
        owed: dict[int, int] = {}
        for route, owner in self.legs:
            if owner not in self.company:
                owed[owner] = owed.get(owner, 0) + route.length
        return owed

    @property
    def paid(self) -> int:
        return sum(self.payments().values())

    def own_spaces(self) -> int:
        return sum(r.length for r, o in self.legs if o in self.company)

    def _colour(self, owner: int) -> int:
        return self.company[0] if owner in self.company else owner

    def journey(self, owners_of: Callable[[Route], tuple[int, ...]]) -> Journey:
        """The journey as a player writes it: owners named only where the rules would not
        pick the same one (``owners_of(route)`` gives a route's owners)."""
        named = tuple(
            None if default_owner(owners_of(r), self.company) == o else owner_name(o)
            for r, o in self.legs
        )
        return Journey(self.places, named)


class Network:
    """The owned routes of one moment of a game, with lookups the searches need."""

    def __init__(self, m: Map, owners: tuple[tuple[int, ...], ...]):
        self.map = m
        self.owners = owners
        self.adjacent: dict[str, list[tuple[str, Route, tuple[int, ...]]]] = {}
        for route in m.routes:
            who = owners[route.index]
            if who:
                a, b = route.ends
                self.adjacent.setdefault(a, []).append((b, route, who))
                self.adjacent.setdefault(b, []).append((a, route, who))
        self._shortest: dict[tuple[str, str], int | None] = {}

    def shortest(self, cards: tuple[str, str]) -> int | None:
        """The shortest journey for a run over all owned routes, whoever owns them (rule 25)."""
        if cards not in self._shortest:
            m = self.map
            self._shortest[cards] = shortest(
                m.places_of_card(cards[0]),
                set(m.places_of_card(cards[1])),
                lambda p: ((q, r.length) for q, r, _ in self.adjacent.get(p, ())),
            )
        return self._shortest[cards]


@lru_cache(maxsize=8)
def network(m: Map, owners: tuple[tuple[int, ...], ...]) -> Network:
    return Network(m, owners)


def default_owner(owners: tuple[int, ...], company: tuple[int, ...]) -> int | None:
    """Whose route a leg uses when the journey does not say: the company's own if it has
    one, else the only other owner; None when that is ambiguous or nobody owns it."""
    for seat in company:
        if seat in owners:
            return seat
    others = sorted(set(owners))
    return others[0] if len(others) == 1 else None


def resolve(
    net: Network, company: tuple[int, ...], cards: tuple[str, str], journey: Journey
) -> Plan:
    """The plan of a journey written by a player; raises JourneyError saying what is wrong."""
    m = net.map
    ends_a, ends_b = m.places_of_card(cards[0]), m.places_of_card(cards[1])
    first, last = journey.places[0], journey.places[-1]
    if not ((first in ends_a and last in ends_b) or (first in ends_b and last in ends_a)):
        raise JourneyError(
            f"the journey must run between {' or '.join(ends_a)} and {' or '.join(ends_b)}"
        )
    if len(set(journey.places)) < len(journey.places):
        raise JourneyError("the journey passes a place twice")
    legs = []
    for a, b, named in zip(journey.places, journey.places[1:], journey.owners):
        route = m.route(a, b)
        if route is None:
            unknown = [p for p in (a, b) if p not in m.places]
            raise JourneyError(
                f"there is no place {unknown[0]!r} on the map"
                if unknown
                else f"there is no route {a}-{b} on the map"
            )
        owners = net.owners[route.index]
        if not owners:
            raise JourneyError(f"nobody owns {a}-{b} yet")
        if named is None:
            owner = default_owner(owners, company)
            if owner is None:
                names = " and ".join(owner_name(o) for o in sorted(set(owners)))
                raise JourneyError(
                    f"{a}-{b} is owned by {names}: name whose route you use, "
                    f"e.g. {a}-{b}({owner_name(owners[0])})"
                )
        else:
            owner = owner_seat(named)
            if owner not in owners:
                raise JourneyError(f"{named} has no route {a}-{b}")
        legs.append((route, owner))
    plan = Plan(journey.places, tuple(legs), company)
    check(net, plan, cards)
    return plan


def check(net: Network, plan: Plan, cards: tuple[str, str]) -> None:
    """Rules 22, 24 and 25 for a resolved plan."""
    if not plan.own_spaces():
        raise JourneyError("the journey uses none of your own routes (rule 22)")
    if plan.paid > PAYMENT_CAP:
        raise JourneyError(
            f"the journey would pay {plan.paid} to other players; at most "
            f"{PAYMENT_CAP} is allowed (rule 24)"
        )
    shortest_spaces = net.shortest(cards)
    assert shortest_spaces is not None  # the plan itself is a journey for the run
    limit = DETOUR_FACTOR * shortest_spaces
    if plan.spaces > limit:
        raise JourneyError(
            f"the journey is {plan.spaces} spaces, more than twice the "
            f"shortest journey of {limit // 2} (rule 25)"
        )


def best_plan(net: Network, company: tuple[int, ...], cards: tuple[str, str]) -> Plan | None:
    """A legal journey for the run that is quick in the race (fewest spaces plus colour
    changes, then least paid), or None if the company can make none."""
    shortest_spaces = net.shortest(cards)
    if shortest_spaces is None:
        return None
    m = net.map
    limit = DETOUR_FACTOR * shortest_spaces
    targets = set(m.places_of_card(cards[1]))
    adjacent = net.adjacent
    tie = count()
    # (distance, paid, tie, place, last colour, uses own route, path of (place, route, owner))
    heap: list[tuple[int, int, int, str, int | None, bool, tuple[tuple[str, Route, int], ...]]] = [
        (0, 0, next(tie), p, None, False, ()) for p in m.places_of_card(cards[0])
    ]
    settled: set[tuple[str, int | None, bool, int]] = set()
    while heap:
        dist, paid, _, place, colour, own, path = heapq.heappop(heap)
        if place in targets and own:
            return Plan(
                tuple(step[0] for step in path) + (place,),
                tuple((r, o) for _, r, o in path),
                company,
            )
        key = (place, colour, own, paid)
        if key in settled:
            continue
        settled.add(key)
        visited = {step[0] for step in path}
        spaces = sum(r.length for _, r, _ in path)
        for nxt, route, owners in adjacent.get(place, ()):
            if nxt in visited or spaces + route.length > limit:
                continue
            mine = default_owner(owners, company)
            choices = [mine] if mine in company else sorted(set(owners))
            for owner in choices:
                ours = owner in company
                cost = 0 if ours else route.length
                if paid + cost > PAYMENT_CAP:
                    continue
                new_colour = company[0] if ours else owner
                change = 1 if colour is not None and colour != new_colour else 0
                heapq.heappush(
                    heap,
                    (
                        dist + route.length + change,
                        paid + cost,
                        next(tie),
                        nxt,
                        new_colour,
                        own or ours,
                        path + ((place, route, owner),),
                    ),
                )
    return None
