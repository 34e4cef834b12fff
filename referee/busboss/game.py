"""The course of a game of Bus Boss: simultaneous orders each round, resolved when the last
one is in (rules 2-40 with rulings K1-K8)."""

from __future__ import annotations

from typing import Any

from ..contract import Decision, IllegalOrder, Result
from .building import execute_build, purchase_problem
from .journeys import JourneyError, Plan, network, resolve
from .map import load_map
from .orders import COLOURS, Order, RunEntry, format_journey, format_purchase
from .runs import RUNS_PER_ROUND, SHUFFLE_ROUNDS, award, deal_runs, race, share
from .state import BANK_SEAT, LAST_ROUND, BusBossState, Offer, owner_name

ENTRY_LIMIT = 5  # rule 20; one more ...
SMALL_GAME_ENTRY_LIMIT = 6  # ... with only two or three players left


def new_game(map_name: str, players: list[str], seed: int) -> BusBossState:
    load_map(map_name)  # a bad map stops here (MapError)
    s = BusBossState(map_name, players, seed, ())
    order = list(range(len(players)))
    s.rng.shuffle(order)  # rule 4: the referee's draw (K8)
    s.order = s.previous_order = tuple(order)
    return s


def entry_limit(s: BusBossState) -> int:
    return SMALL_GAME_ENTRY_LIMIT if s.players_left() <= 3 else ENTRY_LIMIT


def awaiting(s: BusBossState) -> list[Decision]:
    if s.over:
        return []
    return [
        Decision(seat, Order.kind, prompt(s, seat), s.round)
        for seat in s.order
        if seat not in s.pending
    ]


def prompt(s: BusBossState, seat: int) -> str:
    extra = (
        " You may make an extra build this round, as you missed the last one (rule 38)."
        if seat in s.extra_build
        else ""
    )
    if s.kind == "build":
        return (
            f"Round {s.round}, a building round: buy one route of any length, or two to "
            f"four routes costing at most 12 together.{extra}"
        )
    runs = f"{len(s.offers)} run{'s' if len(s.offers) != 1 else ''}"
    return (
        f"Round {s.round}, an operating round: enter up to {entry_limit(s)} of the "
        f"{runs} on offer, then buy routes after the runs.{extra}"
    )


# orders ----------------------------------------------------------------------------------------


def check_order(s: BusBossState, seat: int, order: Order) -> None:
    """Everything about an order that does not depend on the other players' orders of this
    round; raises IllegalOrder with the reason."""
    if s.over:
        raise IllegalOrder("The game is over.")
    if not 0 <= seat < len(s.names) or not s.active[seat]:
        raise IllegalOrder("You are no longer in the game (rule 40).")
    if order.round is not None and order.round != s.round:
        raise IllegalOrder(
            f"This order is for round {order.round}, but the game is in round {s.round}."
        )
    # an operating round's order with build lines only enters no runs (it names none)
    if order.part == "operate" and s.kind == "build":
        raise IllegalOrder(
            f"Round {s.round} is a building round: runs start in round 7. Send build lines only."
        )
    allowed = 2 if seat in s.extra_build else 1
    if len(order.builds) > allowed:
        raise IllegalOrder(
            "One build line a round, two only in the round after a missed building round (rule 38)."
        )
    for build in order.builds:
        for purchase in build.choices:
            problem = purchase.routes and purchase_problem(s, seat, purchase)
            if problem:
                raise IllegalOrder(f"build {format_purchase(purchase)}: {problem}.")
    limit = entry_limit(s)
    if len(order.runs) > limit:
        raise IllegalOrder(
            f"At most {limit} runs may be entered in a round (rule 20); "
            f"this order enters {len(order.runs)}."
        )
    net = network(s.map, s.owners)
    entered = set()
    for entry in order.runs:
        offer = offer_of(s, entry)
        if offer is None:
            on_offer = ", ".join(f"{o.cards[0]}-{o.cards[1]}" for o in s.offers)
            raise IllegalOrder(
                f"run {entry.run}: no such run is on offer this round; the runs "
                f"on offer are {on_offer}."
            )
        if offer.cards in entered:
            raise IllegalOrder(f"run {entry.run} is entered twice.")
        entered.add(offer.cards)
        company = (seat,) + partner_seats(s, seat, entry)
        if entry.journey is not None:
            try:
                resolve(net, company, offer.cards, entry.journey)
            except JourneyError as e:
                raise IllegalOrder(f"run {entry.run}: {e}.") from None


def offer_of(s: BusBossState, entry: RunEntry) -> Offer | None:
    cards = set(entry.cards)
    return next((o for o in s.offers if set(o.cards) == cards), None)


def partner_seats(s: BusBossState, seat: int, entry: RunEntry) -> tuple[int, ...]:
    """The partner seats of a joint entry (rule 26: two or three players in all)."""
    seats = []
    for colour in entry.partners:
        partner = COLOURS.index(colour)
        if partner >= len(s.names) or not s.active[partner]:
            raise IllegalOrder(f"run {entry.run}: no player in the game plays {colour}.")
        if partner == seat:
            raise IllegalOrder(f"run {entry.run}: you cannot run jointly with yourself.")
        if partner in seats:
            raise IllegalOrder(f"run {entry.run}: {colour} is named twice.")
        seats.append(partner)
    if len(seats) > 2:
        raise IllegalOrder(f"run {entry.run}: a joint run is for two or three players (rule 26).")
    return tuple(seats)


def apply(s: BusBossState, seat: int, order: Order) -> tuple[BusBossState, list[str]]:
    check_order(s, seat, order)
    s = s.copy()
    again = seat in s.pending
    s.pending[seat] = order
    if order.missed:
        events = [
            f"{s.label(seat)} sent no orders for round {s.round}: "
            + (
                "no build this round, an extra build next round (rules 37-38)."
                if s.kind == "build"
                else "no runs and no build this round (rules 37, 39)."
            )
        ]
    else:
        events = [f"{s.label(seat)} {'changed' if again else 'sent'} orders for round {s.round}."]
    if all(x in s.pending for x in s.order):
        events += resolve_round(s)
    return s, events


def adjudicate(s: BusBossState, seat: int) -> Order | None:
    """Rules 37-39 (K7): a missed building round buys nothing and allows an extra build next
    round; a missed operating round enters no runs."""
    if s.over or seat not in s.order or seat in s.pending:
        return None
    return Order(s.kind, round=s.round, missed=True)


def drop(s: BusBossState, seat: int) -> tuple[BusBossState, list[str]]:
    """Rule 40 (K7): the game master drops a player. The bank takes their routes, which the
    others use paying the bank and may buy from it at the normal cost."""
    if s.over or not s.active[seat]:
        raise IllegalOrder(f"{s.label(seat)} is not in the game.")
    s = s.copy()
    s.active[seat] = False
    s.order = tuple(x for x in s.order if x != seat)
    s.pending.pop(seat, None)
    s.extra_build = tuple(x for x in s.extra_build if x != seat)
    taken = len(s.routes_of(seat))
    s.owners = tuple(tuple(BANK_SEAT if o == seat else o for o in owners) for owners in s.owners)
    events = [
        f"{s.label(seat)} is dropped from the game (rule 40); the bank takes "
        f"{taken} route{'s' if taken != 1 else ''}."
    ]
    if s.players_left() <= 1:
        s.end_reason = "only one player is left" if s.order else "no players are left"
        events.append(f"The game ends: {s.end_reason}.")
    elif all(x in s.pending for x in s.order):
        events += resolve_round(s)
    return s, events


# resolving a round ---------------------------------------------------------------------------


def resolve_round(s: BusBossState) -> list[str]:
    """All orders are in: runs (rounds 7-12), then building, then the next round. Mutates s."""
    events = [f"Round {s.round} is resolved."]
    record: dict[str, Any] = {"round": s.round, "runs": [], "purchases": [], "events": events}
    start_cash = list(s.cash)
    carried: list[Offer] = []
    if s.kind == "operate":
        # K5: "poorer" is cash at the start of the round, then earlier in the play order
        poorness = {seat: (start_cash[seat], i) for i, seat in enumerate(s.order)}
        for offer in s.offers:
            if not run_offer(s, offer, poorness, events, record) and s.round < LAST_ROUND:
                carried.append(offer)
        # rule 33: poorest first; ties in the reverse of the previous round's order of play
        previous = {seat: i for i, seat in enumerate(s.previous_order)}
        builders = sorted(s.order, key=lambda x: (start_cash[x], -previous.get(x, 0)))
    else:
        builders = list(s.order)
    for seat in builders:
        for build in s.pending[seat].builds:
            execute_build(s, seat, build, events, record["purchases"])
    s.last = record
    advance(s, tuple(carried))
    if s.over:
        events.append(f"The game is over: {s.end_reason}.")
    else:
        again = sum(1 for o in s.offers if o.since < s.round)
        events.append(
            f"Round {s.round} begins"
            + (
                f": {len(s.offers)} runs on offer, {again} of them offered again."
                if s.kind == "operate"
                else "."
            )
        )
    return events


def advance(s: BusBossState, carried: tuple[Offer, ...]) -> None:
    for seat in s.order:
        s.missed[seat] = s.missed[seat] + 1 if s.pending[seat].missed else 0
    # rule 38: an extra build in the round after a missed building round, not carried further
    s.extra_build = tuple(x for x in s.order if s.pending[x].missed and s.round <= 6)
    s.pending = {}
    s.previous_order = s.order
    s.order = s.order[1:] + s.order[:1]  # rule 7
    s.round += 1
    if s.round > LAST_ROUND:
        s.offers, s.end_reason = (), f"round {LAST_ROUND} is over"
        return
    if s.round in SHUFFLE_ROUNDS:
        s.deal = deal_runs(s.map, s.rng, [o.cards for o in carried])
    if s.round in RUNS_PER_ROUND:
        n = RUNS_PER_ROUND[s.round]
        s.offers = carried + tuple(Offer(pair, s.round) for pair in s.deal[:n])
        s.deal = s.deal[n:]


def run_title(s: BusBossState, offer: Offer) -> str:
    """'Hull to Leeds', with the round it was first offered if it is offered again."""
    m = s.map
    a, b = offer.cards
    again = f", offered since round {offer.since}" if offer.since < s.round else ""
    return f"{m.card_destination[a]} to {m.card_destination[b]}{again}"


def describe(s: BusBossState, offer: Offer) -> str:
    return f"{offer.cards[0]}-{offer.cards[1]} ({run_title(s, offer)})"


def entrants(
    s: BusBossState, offer: Offer, events: list[str], record: dict[str, Any]
) -> list[Plan]:
    """The valid entrants of a run in play order: single players and joint companies (K6).
    Entries that fail are reported and left out (K4)."""
    net = network(s.map, s.owners)
    entries = {}
    for seat in s.order:
        entry = next((e for e in s.pending[seat].runs if set(e.cards) == set(offer.cards)), None)
        if entry is not None:
            entries[seat] = entry
    plans: list[Plan] = []
    done: set[int] = set()

    def void(seats: tuple[int, ...], reason: str) -> None:
        names = " and ".join(s.label(x) for x in seats)
        events.append(f"  {names}: the entry is void, {reason}.")
        record["void"].append({"seats": list(seats), "reason": reason})

    for seat in s.order:
        if seat not in entries or seat in done:
            continue
        entry = entries[seat]
        group = {seat} | {COLOURS.index(c) for c in entry.partners}
        company = tuple(x for x in s.order if x in group) + tuple(
            x for x in sorted(group) if x not in s.order
        )
        agreeing = tuple(
            x
            for x in company
            if x in entries and {x} | {COLOURS.index(c) for c in entries[x].partners} == group
        )
        done.update(agreeing)
        if len(agreeing) < len(company):
            missing = [s.label(x) for x in company if x not in agreeing]
            void(agreeing, f"{' and '.join(missing)} did not enter the joint run (rule 26)")
            continue
        try:
            journeys = (entries[x].journey for x in company)
            found = [
                resolve(net, company, offer.cards, journey)
                for journey in journeys
                if journey is not None
            ]
        except JourneyError as e:
            void(company, str(e))
            continue
        if not found:
            void(company, "no partner gave the journey (rule 26)")
            continue
        if any(_signature(p) != _signature(found[0]) for p in found[1:]):
            void(company, "the partners' journeys do not match (rule 26)")
            continue
        plans.append(found[0])
    return plans


def _signature(plan: Plan) -> tuple:
    """A joint journey as the partners see it: places and, per leg, another owner's colour
    or the company's own route."""
    legs = tuple(-2 if o in plan.company else o for _, o in plan.legs)
    forward = (plan.places, legs)
    backward = (plan.places[::-1], legs[::-1])
    return min(forward, backward)


def run_offer(
    s: BusBossState,
    offer: Offer,
    poorness: dict[int, tuple[int, int]],
    events: list[str],
    record: dict[str, Any],
) -> bool:
    """Races one run if anyone can run it; False if it is not run (rule 21)."""
    run_record: dict[str, Any] = {
        "run": f"{offer.cards[0]}-{offer.cards[1]}",
        "since": offer.since,
        "entrants": [],
        "void": [],
        "payments": [],
    }
    record["runs"].append(run_record)
    notes: list[str] = []
    plans = entrants(s, offer, notes, run_record)
    if not plans:
        again = s.round < LAST_ROUND
        run_record["outcome"] = "offered again" if again else "lapsed"
        events.append(
            f"Run {describe(s, offer)} is not run: "
            + (
                "it is offered again next round (rule 21)."
                if again
                else f"no run is carried out of round {LAST_ROUND} (K3)."
            )
        )
        events.extend(notes)
        return False
    run_record["outcome"] = "run"
    events.append(f"Run {describe(s, offer)}:")
    events.extend(notes)
    throws = race([p.distance for p in plans], s.rng)
    ranks = [min(poorness[x] for x in p.company) for p in plans]
    places, points = award([len(t) for t in throws], ranks)
    for plan, thrown, place, won in zip(plans, throws, places, points):
        company = plan.company
        names = " and ".join(s.label(x) for x in company)
        journey = format_journey(plan.journey(lambda r: s.owners[r.index]))
        change = (
            f" and {plan.changes} change{'s' if plan.changes != 1 else ''} of colour"
            if plan.changes
            else ""
        )
        events.append(
            f"  {names} on {journey}: {plan.spaces} spaces{change}, "
            f"{plan.distance} to go; throws {' '.join(map(str, thrown))}: "
            f"arrives on throw {len(thrown)}."
        )
        poorer_first = sorted(company, key=lambda x: poorness[x])
        gains = dict(zip(poorer_first, share(won, poorer_first)))
        owed = plan.payments()
        costs = dict(zip(poorer_first[::-1], share(sum(owed.values()), poorer_first[::-1])))
        for seat in company:
            s.cash[seat] += gains[seat] - costs[seat]
        for owner, amount in sorted(owed.items()):
            if owner != BANK_SEAT:
                s.cash[owner] += amount
            events.append(
                f"  {names} pay{'s' if len(company) == 1 else ''} {s.label(owner)} {amount}."
            )
            run_record["payments"].append({"to": owner_name(owner), "amount": amount})
        if len(company) > 1:
            events.append(
                f"  {names} share {won} points ({_split(s, company, gains)}) and "
                f"{sum(owed.values())} paid ({_split(s, company, costs)}) (K6)."
            )
        run_record["entrants"].append(
            {
                "seats": list(company),
                "journey": journey,
                "spaces": plan.spaces,
                "changes": plan.changes,
                "throws": thrown,
                "place": place,
                "points": [gains[x] for x in company],
                "paid": [costs[x] for x in company],
            }
        )
    standings = sorted(zip(places, points, plans), key=lambda t: t[0])
    events.append(
        "  Places: "
        + "; ".join(
            f"{_ordinal(place)}{'=' if places.count(place) > 1 else ''} "
            f"{' and '.join(s.label(x) for x in plan.company)} {won}"
            for place, won, plan in standings
        )
        + "."
    )
    return True


def _split(s: BusBossState, company: tuple[int, ...], amounts: dict[int, int]) -> str:
    return ", ".join(f"{s.names[x]} {amounts[x]}" for x in company)


def _ordinal(n: int) -> str:
    return {1: "1st", 2: "2nd", 3: "3rd"}.get(n, f"{n}th")


# the end -----------------------------------------------------------------------------------------


def result(s: BusBossState) -> Result | None:
    """Rule 3: the richest player wins; players dropped (rule 40) rank after those left."""
    if not s.over:
        return None
    assert s.end_reason is not None  # what "over" means
    ranking: list[list[int]] = []
    for still_in in (True, False):
        seats = sorted(
            (x for x in range(len(s.names)) if s.active[x] == still_in), key=lambda x: -s.cash[x]
        )
        for seat in seats:
            if (
                ranking
                and s.active[ranking[-1][0]] == still_in
                and s.cash[ranking[-1][0]] == s.cash[seat]
            ):
                ranking[-1].append(seat)
            else:
                ranking.append([seat])
    return Result(s.end_reason, tuple(s.cash), tuple(tuple(place) for place in ranking))
