"""Buying routes (rules 8-12, 35, 38, 40 and rulings K2, K9, K10)."""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Sequence
from collections.abc import Set as AbstractSet

from ..contract import Say, Words
from .map import Map, Route
from .orders import Build, Purchase, format_purchase
from .state import BANK_SEAT, BusBossState, Ownership, owned_routes

MAX_ROUTES = 4  # rule 8: two to four routes in one build ...
SHARED_BUDGET = 12  # ... costing at most 12 together; a single route may cost more


def routes_of_purchase(m: Map, purchase: Purchase) -> list[Route]:
    """The map's routes a purchase names; raises ValueError naming one that does not exist."""
    routes = []
    for a, b in purchase.routes:
        route = m.route(a, b)
        if route is None:
            unknown = [p for p in (a, b) if p not in m.places]
            junction = [p for p in (a, b) if p in m.places and m.places[p].junction]
            raise ValueError(
                Say("there is no place {place!r} on the map (K1)", {"place": unknown[0]})
                if unknown
                else Say(
                    "there is no route {a}-{b} on the map: routes run between towns, and "
                    "{junction} is a junction along routes (K9)",
                    {"a": a, "b": b, "junction": junction[0]},
                )
                if junction
                else Say("there is no route {a}-{b} on the map (K1)", {"a": a, "b": b})
            )
        routes.append(route)
    return routes


def purchase_problem(s: BusBossState, seat: int, purchase: Purchase) -> Say | None:
    """What is wrong with a purchase whatever the other players do, or None (rules 8, 12, 34);
    K10: such an alternative is skipped. Whether a route is still free, connects and is
    affordable is judged at the player's turn."""
    return checked_purchase(s, seat, purchase)[2]


def checked_purchase(
    s: BusBossState, seat: int, purchase: Purchase
) -> tuple[list[Route], int, Say | None]:
    """The routes a purchase names, what they cost together (rule 9), and what is wrong with
    it (``purchase_problem``)."""
    try:
        routes = routes_of_purchase(s.map, purchase)
    except ValueError as e:
        return [], 0, e.args[0]
    total = cost_of(routes)
    if len(routes) > 1:
        names = [r.name for r in routes]
        if len(set(names)) < len(names):
            twice = sorted({n for n in names if names.count(n) > 1})
            return routes, total, Say("{route} is named twice (rule 8)", {"route": twice[0]})
        if len(routes) > MAX_ROUTES:
            return (
                routes,
                total,
                Say(
                    "at most {most} routes can be bought in one build (rule 8)",
                    {"most": MAX_ROUTES},
                ),
            )
        if total > SHARED_BUDGET:
            return (
                routes,
                total,
                Say(
                    "two to four routes may cost at most {budget} together; {routes} cost "
                    "{total} (rule 8)",
                    {"budget": SHARED_BUDGET, "routes": " ".join(names), "total": total},
                ),
            )
    if purchase.cost is not None and purchase.cost != total:
        names = [r.name for r in routes]
        return (
            routes,
            total,
            Say(
                "{routes} cost {total}, not {given} (rule 34)",
                {"routes": " ".join(names), "total": total, "given": purchase.cost},
            ),
        )
    for r in routes:
        if seat in s.owners[r.index]:
            return routes, total, owned_already(r)
    return routes, total, None


def owned_already(route: Route) -> Say:
    if route.copies > 1:
        return Say(
            "the company owns one of the {copies} identical routes {route} already; a player "
            "may only ever buy one (rule 12)",
            {"copies": route.copies, "route": route.name},
        )
    return Say("the company owns {route} already (rule 12)", {"route": route.name})


def cost_of(routes: Sequence[Route]) -> int:
    """What the routes cost together (rule 9)."""
    total = 0
    for route in routes:
        total += route.cost
    return total


def available(owners: tuple[int, ...], route: Route) -> bool:
    """Whether the route, with these owners, has a copy nobody has bought, or one the bank
    holds (rule 40)."""
    return len(owners) < route.copies or BANK_SEAT in owners


def buy(s: BusBossState, seat: int, routes: Sequence[Route], total: int) -> Say | None:
    """Buys for the seat the routes of a purchase ``checked_purchase`` passed, costing
    ``total``, if they can be bought now, and says why not otherwise. Mutates ``s``."""
    if total > s.cash[seat]:
        return Say(
            "it costs {total} and only {cash} is left (K2)", {"total": total, "cash": s.cash[seat]}
        )
    for r in routes:
        if not available(s.owners[r.index], r):
            return Say("{route} is taken (rule 35)", {"route": r.name})
    before = ownership(s)
    unjoined = unconnected(s.map, before.owned.get(seat, 0), before.near.get(seat, 0), routes)
    if unjoined:
        return Say(
            "{route} does not meet the company's routes at a town or junction (rule 10)",
            {"route": unjoined.name},
        )
    owners = list(s.owners)
    from_bank = False
    for r in routes:
        who = owners[r.index]
        if len(who) < r.copies:
            owners[r.index] = who + (seat,)
        else:  # bought from the bank (rule 40)
            i = who.index(BANK_SEAT)
            owners[r.index] = who[:i] + (seat,) + who[i + 1 :]
            from_bank = True
    s.owners = tuple(owners)
    # (the bank's routes, seldom bought, are worked out again: what meets them is not
    # what met them less the route sold)
    s.ownership = None if from_bank else with_bought(s.map, before, s.owners, seat, routes)
    s.cash[seat] -= total
    return None


def unconnected(m: Map, mine: int, near: int, routes: Sequence[Route]) -> Route | None:
    """K2: the first route of a player's network may go anywhere; every later one, the
    second of the same purchase too, must touch the network at a town or at a junction
    along it (rule 10, K9). The routes of one purchase may be listed in any order. ``mine``:
    the player's routes, ``near``: the routes meeting them (``Ownership``). Returns a route
    that cannot join."""
    if len(routes) == 1:  # (most purchases)
        route = routes[0]
        return route if mine and not near & m.bit[route.index] else None
    todo = list(routes)
    joined: set[str] = set()  # the places of the purchase's routes that have joined
    while todo:
        for joining in todo:
            if near & m.bit[joining.index] or not joined.isdisjoint(joining.places):
                break
        else:
            if joined or mine:  # (the player owns a route)
                return todo[0]
            joining = todo[0]  # the company's first route
        joined.update(joining.places)
        todo.remove(joining)
    return None


def meets(network: AbstractSet[str], route: Route) -> bool:
    """Whether the route touches the network at one of its towns or junctions (rule 10)."""
    return not network.isdisjoint(route.places)


def execute_build(
    s: BusBossState,
    seat: int,
    build: Build,
    events: list[Words],
    record: list[dict],
    skipped: list[dict] | None = None,
) -> None:
    """Rule 35 and K10: the first alternative that can be bought now is bought; each one
    before it is skipped, and the report says why, with its rule."""
    for purchase in build.choices:
        if not purchase.routes:
            events.append(Say("{player} buys nothing.", {"player": s.label(seat)}))
            return
        routes, cost, problem = checked_purchase(s, seat, purchase)
        if problem is None:
            problem = buy(s, seat, routes, cost)
            if problem is None:
                names = [r.name for r in routes]
                bought = {"player": s.label(seat), "routes": " ".join(names), "cost": cost}
                events.append(
                    Say(
                        "{player} buys {routes} for {cost} (cash {cash}).",
                        {**bought, "cash": s.cash[seat]},
                    )
                )
                record.append({"seat": seat, "routes": names, "cost": cost})
                return
        events.append(
            Say(
                "{player} skips {purchase}: {problem}.",
                {
                    "player": s.label(seat),
                    "purchase": format_purchase(purchase),
                    "problem": problem,
                },
            )
        )
        if skipped is not None:
            skipped.append(
                {"seat": seat, "purchase": format_purchase(purchase), "reason": str(problem)}
            )
    events.append(Say("{player} buys nothing.", {"player": s.label(seat)}))


def buyable(s: BusBossState, seat: int) -> list[Route]:
    """Routes the seat could buy alone now, cheapest first: not its own already, a copy
    free or the bank's (rule 40), meeting its routes (rule 10) and within its cash."""
    return s.map.routes_of(buyable_bits(s, seat))


def buyable_bits(s: BusBossState, seat: int) -> int:
    """``buyable`` as a set of routes (``Map.bit``)."""
    m = s.map
    _, free, owned, near = ownership(s)
    mine = owned.get(seat, 0)
    wanted = free & ~mine & ((1 << bisect_right(m.costs, s.cash[seat])) - 1)
    if mine:  # the first route may go anywhere (K2)
        wanted &= near[seat]
    return wanted


def ownership(s: BusBossState) -> Ownership:
    """The state's owners as sets of routes: those ``buy`` left, or worked out again where
    the owners were set otherwise (a game read back, a player dropped)."""
    found = s.ownership
    if found is None or found.owners is not s.owners:
        found = s.ownership = owned_bits(s.map, s.owners)
    return found


def owned_bits(m: Map, owners: tuple[tuple[int, ...], ...]) -> Ownership:
    """The ``Ownership`` of these owners, from every route somebody owns."""
    taken = 0
    owned: dict[int, int] = {}
    near: dict[int, int] = {}
    for route, who in owned_routes(m, owners):
        bit, meeting = m.bit[route.index], m.meeting[route.index]
        if len(who) == route.copies and BANK_SEAT not in who:  # (not available())
            taken |= bit
        for owner in who:
            if owner in owned:
                owned[owner] |= bit
                near[owner] |= meeting
            else:
                owned[owner], near[owner] = bit, meeting
    return Ownership(owners, ((1 << len(m.routes)) - 1) & ~taken, owned, near)


def with_bought(
    m: Map,
    before: Ownership,
    owners: tuple[tuple[int, ...], ...],
    seat: int,
    routes: Sequence[Route],
) -> Ownership:
    """``before`` with the seat's new routes, none of them bought from the bank: the owners
    after the purchase (``owners``) as sets of routes, without going over every route."""
    free, owned, near = before.free, dict(before.owned), dict(before.near)
    for route in routes:
        bit = m.bit[route.index]
        if not available(owners[route.index], route):
            free &= ~bit
        owned[seat] = owned.get(seat, 0) | bit
        near[seat] = near.get(seat, 0) | m.meeting[route.index]
    return Ownership(owners, free, owned, near)
