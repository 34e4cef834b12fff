"""The course of a game of Bus Boss: simultaneous orders each round, resolved when the last
one is in (rules 2-40 with rulings K1-K12).

An order is judged in pieces (K10): only what makes the whole order meaningless refuses it
(the game is over, the wrong round, runs in a building round). A run entry that cannot count
is void by itself and a build alternative that cannot be bought is skipped for the next one;
the report names each with its rule, and ``review`` tells the player at once.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum
from operator import itemgetter
from typing import Any

from ..contract import Decision, HeldOrder, IllegalOrder, Result, Say, Words
from .building import execute_build, purchase_problem
from .journeys import JourneyError, Network, Plan, both, network, resolve
from .map import load_map
from .orders import (
    COLOURS,
    ORDERS,
    Build,
    Order,
    RunEntry,
    format_journey,
    format_order,
    format_purchase,
)
from .runs import RUNS_PER_ROUND, SHUFFLE_ROUNDS, award, deal_runs, race, share
from .state import BANK_SEAT, LAST_ROUND, RULINGS, BusBossState, Offer, new_offer

ENTRY_LIMIT = 5  # rule 20; one more ...
SMALL_GAME_ENTRY_LIMIT = 6  # ... with only two or three players left (K11)


def new_game(
    map_name: str,
    players: list[str],
    seed: int,
    map_version: int | None = None,
    colour_choices: Sequence[Sequence[str]] = (),
    companies: Sequence[str | None] = (),
    rulings: int = RULINGS,
) -> BusBossState:
    """A new game on the map (as it is in ``map_version``, or as it is now), played by the
    ``rulings`` of that version. Rule 6: each seat's colour preferences and company name, by
    seat, from the players' sign-up."""
    m = load_map(map_name, map_version)  # a bad map stops here (MapError)
    colours = assign_colours(colour_choices, len(players))
    named = [str(c) if c else None for c in companies] + [None] * len(players)
    s = BusBossState(
        map_name, players, seed, (), m.version, colours, named[: len(players)], rulings
    )
    order = list(range(len(players)))
    s.rng.shuffle(order)  # rule 4: the referee's draw (K8)
    s.order = s.previous_order = tuple(order)
    return s


def assign_colours(choices: Sequence[Sequence[str]], players: int) -> tuple[str, ...]:
    """Rule 6: in seat order (the order players joined), each company takes the first colour
    of its preference list that no company before it took; a company whose list is empty
    or all taken gets the first colour nobody chose, in the order of COLOURS."""
    colours: list[str | None] = [None] * players
    for seat in range(players):
        wanted = choices[seat] if seat < len(choices) and choices[seat] else ()
        colours[seat] = next((c for c in wanted if c in COLOURS and c not in colours), None)
    spare = iter(c for c in COLOURS if c not in colours)
    return tuple(c if c is not None else next(spare) for c in colours)


def entry_limit(s: BusBossState) -> int:
    """Rule 20 with K11: six runs each when two or three players were still in the game as
    the round began (a drop during the round counts from the next one), else five."""
    return SMALL_GAME_ENTRY_LIMIT if s.round_players <= 3 else ENTRY_LIMIT


def awaiting(s: BusBossState) -> list[Decision]:
    if s.over:
        return []
    title = TITLES[s.kind]
    text, pending, extra_build, stage = prompt(s), s.pending, s.extra_build, s.round
    due = []  # (a loop: a comprehension is a call of its own)
    for seat in s.order:
        if seat not in pending:
            # Decision(...) made as the tuple it is, without its __new__ in Python (as Bus's are)
            prompted = Say(EXTRA_BUILD.text, {"prompt": text}) if seat in extra_build else text
            due.append(_make_tuple(Decision, (seat, ORDERS, title, prompted, stage)))
    return due


_make_tuple = tuple.__new__


# the runs on offer when there are none
NO_RUNS = Say("none")
# a round's decision by its title, by the kind of round
TITLES = {"build": Say("a building round"), "operate": Say("an operating round")}
# the prompt of one who missed a building round: the round's, and the extra build
EXTRA_BUILD = Say(
    "{prompt} You may make an extra build this round, as you missed the last one (rule 38)."
)


def prompt(s: BusBossState) -> Say:
    """What every seat is asked this round (one who missed a building round is told of
    the extra build as well)."""
    if s.kind == "build":
        return Say(
            "Round {round}, a building round: buy one route of any length, or two to "
            "four routes costing at most 12 together.",
            {"round": s.round},
        )
    if len(s.offers) == 1:
        return Say(
            "Round {round}, an operating round: enter up to {limit} of the 1 run on offer, "
            "then buy routes after the runs.",
            {"round": s.round, "limit": entry_limit(s)},
        )
    return Say(
        "Round {round}, an operating round: enter up to {limit} of the {runs} runs on offer, "
        "then buy routes after the runs.",
        {"round": s.round, "limit": entry_limit(s), "runs": len(s.offers)},
    )


# orders ----------------------------------------------------------------------------------------


def check_order(s: BusBossState, seat: int, order: Order) -> None:
    """What refuses a whole order (K10: everything else is judged piece by piece); raises
    IllegalOrder with the reason."""
    if s.over:
        raise IllegalOrder(Say("The game is over."))
    if not 0 <= seat < len(s.names) or not s.active[seat]:
        raise IllegalOrder(Say("You are no longer in the game (rule 40)."))
    if order.round is not None and order.round != s.round:
        raise IllegalOrder(
            Say(
                "This order is for round {given}, but the game is in round {round}.",
                {"given": order.round, "round": s.round},
            )
        )
    # an operating round's order with build lines only enters no runs (it names none)
    if order.part == "operate" and s.kind == "build":
        raise IllegalOrder(
            Say(
                "Round {round} is a building round: runs start in round 7. Send build lines only.",
                {"round": s.round},
            )
        )
    kept = s.pending.get(seat)
    if kept is not None and kept.missed and not order.missed:
        raise IllegalOrder(
            Say(
                "Your orders for round {round} were decided when the deadline passed, as a "
                "missed round (rules 37-39); they can no longer be changed.",
                {"round": s.round},
            )
        )


@dataclass(frozen=True)
class Void:
    """A piece of an order that does not count (K10): what it is, and why, with its rule."""

    piece: str  # "run 7H-QS", "build leeds-york" (the order's notation)
    reason: Say
    entry: RunEntry | None = None  # a run line's entry (K16 names it in a joint run's report)


def builds_allowed(s: BusBossState, seat: int) -> int:
    """One build line a round; two in the round after a missed building round (rule 38)."""
    return 2 if seat in s.extra_build else 1


def counted_builds(
    s: BusBossState, seat: int, order: Order
) -> tuple[tuple[Build, ...], list[Void]]:
    """The order's build lines that count (rule 38), and those that are void."""
    allowed = builds_allowed(s, seat)
    if len(order.builds) <= allowed:  # (nearly every order)
        return order.builds, []
    voids = [
        Void(
            "build " + " | ".join(format_purchase(p) for p in build.choices),
            Say("only 1 build line may be given this round (rules 8, 38)")
            if allowed == 1
            else Say(
                "only {allowed} build lines may be given this round (rules 8, 38)",
                {"allowed": allowed},
            ),
        )
        for build in order.builds[allowed:]
    ]
    return order.builds[:allowed], voids


def offers_by_cards(s: BusBossState) -> dict[tuple[str, str], Offer]:
    """The runs on offer by their two cards, as entries name them."""
    return {offer.cards: offer for offer in s.offers}


def counted_entries(
    s: BusBossState, seat: int, order: Order, offered: dict[tuple[str, str], Offer]
) -> tuple[dict[Offer, RunEntry], list[Void]]:
    """The seat's run entries that name a run on offer once, within the limit of rule 20,
    with partners who may run with it (rule 26); and the entries that are void for any of
    these reasons (K10). K15: the limit counts the runs on offer entered, so a line void for
    naming none, or one entered already, uses up none of it (before K15 it counted lines).
    ``offered``: ``offers_by_cards``, found once for all the orders of a round."""
    entries: dict[Offer, RunEntry] = {}
    voids: list[Void] = []
    limit = entry_limit(s)
    counts_lines = s.rulings < RULINGS
    for number, entry in enumerate(order.runs, 1):
        piece = f"run {entry.run}"
        if counts_lines and number > limit:
            voids.append(
                Void(
                    piece,
                    Say(
                        "at most {limit} runs may be entered in a round, and this is run "
                        "line {number} (rule 20)",
                        {"limit": limit, "number": number},
                    ),
                    entry,
                )
            )
            continue
        # an entry names its run by the two cards in either order
        offer = offered.get(entry.cards) or offered.get(entry.cards[::-1])
        if offer is None:
            voids.append(
                Void(
                    piece,
                    Say(
                        "no such run is on offer this round (the runs on offer: {runs}) "
                        "(rules 16, 21)",
                        {"runs": ", ".join(o.name for o in s.offers) or NO_RUNS},
                    ),
                    entry,
                )
            )
            continue
        if offer in entries:
            voids.append(Void(piece, Say("the run is entered on an earlier line (rule 20)"), entry))
            continue
        if len(entries) == limit:  # (K15; before it, counted above)
            voids.append(
                Void(
                    piece,
                    Say(
                        "at most {limit} runs may be entered in a round, and this would be "
                        "run {number} (rule 20, K15)",
                        {"limit": limit, "number": limit + 1},
                    ),
                    entry,
                )
            )
            continue
        problem = partner_problem(s, seat, entry)
        if problem:
            voids.append(Void(piece, problem, entry))
            continue
        entries[offer] = entry
    return entries, voids


def review(s: BusBossState, seat: int, order: Order) -> list[Void]:
    """Every piece of the seat's order that will not count, as far as can be told before the
    round resolves (K10): void build lines and run entries, journeys that break rules 22-25
    or K4 and K12, and build alternatives that can never be bought. Whether a route is still
    free and affordable when the seat's turn comes, and whether partners join a joint run,
    shows when the round resolves."""
    builds, voids = counted_builds(s, seat, order)
    entries, entry_voids = counted_entries(s, seat, order, offers_by_cards(s))
    voids += entry_voids
    net = network(s.map, s.owners)
    for offer, entry in entries.items():
        if entry.journey is None:
            continue
        company = (seat,) + partner_seats(s, entry)
        try:
            resolve(net, company, offer.cards, entry.journey, s.colours, s.rulings, s.order)
        except JourneyError as e:
            voids.append(Void(f"run {entry.run}", e.reason))
    for build in builds:
        for purchase in build.choices:
            problem = purchase.routes and purchase_problem(s, seat, purchase)
            if problem:
                voids.append(Void(f"build {format_purchase(purchase)}", problem))
    return voids


def partner_problem(s: BusBossState, seat: int, entry: RunEntry) -> Say | None:
    """What is wrong with the partners a joint entry names (rule 26: two or three players
    in all, each in the game), or None."""
    seats: list[int] = []
    for colour in entry.partners:
        partner = s.colours.index(colour) if colour in s.colours else None
        if partner is None or not s.active[partner]:
            return Say("no player in the game plays {colour} (rule 26)", {"colour": colour})
        if partner == seat:
            return Say("a company cannot run jointly with itself (rule 26)")
        if partner in seats:
            return Say("{colour} is named twice (rule 26)", {"colour": colour})
        seats.append(partner)
    if len(seats) > 2:
        return Say("a joint run is for two or three players (rule 26)")
    return None


def partner_seats(s: BusBossState, entry: RunEntry) -> tuple[int, ...]:
    """The seats of a joint entry's partners (checked by ``partner_problem``)."""
    return tuple(s.colours.index(c) for c in entry.partners)


def held(s: BusBossState, seat: int) -> HeldOrder | None:
    """The seat's order for this round while the round waits for others: a new order
    replaces it until the round resolves; notes for the player alone on what will not count
    (K10)."""
    order = s.pending.get(seat)
    if order is None or s.over:
        return None
    if order.missed:
        return HeldOrder(
            ORDERS,
            (
                Say(
                    "Your round {round} was decided as missed when the deadline passed "
                    "(rules 37-39).",
                    {"round": s.round},
                ),
            ),
        )
    voids = review(s, seat, order)
    notes = [
        Say(
            "Your orders for round {round} are held until the round resolves; a new order "
            "sent before then replaces them.",
            {"round": s.round},
        )
    ]
    if voids:
        notes.append(Say("These pieces of them will not count (K10):"))
        notes += [
            Say("  {piece}: {reason}.", {"piece": v.piece, "reason": v.reason}) for v in voids
        ]
    else:
        notes.append(
            Say(
                "Every piece of them is valid now; whether a route is still free and "
                "affordable when your turn to build comes is settled as the round resolves "
                "(rule 35)."
            )
            if order.builds and any(p.routes for b in order.builds for p in b.choices)
            else Say("Every piece of them is valid now.")
        )
    return HeldOrder(ORDERS, tuple(notes), format_order(order))


def apply(s: BusBossState, seat: int, order: Order) -> tuple[BusBossState, list[Words]]:
    check_order(s, seat, order)
    s = s.copy()
    again = seat in s.pending
    s.pending[seat] = order
    who = {"player": s.label(seat), "round": s.round}
    if order.missed:
        missed = (
            Say(
                "{player} sent no orders for round {round}: no build this round, an extra "
                "build next round (rules 37-38)."
            )
            if s.kind == "build"
            else Say(
                "{player} sent no orders for round {round}: no runs and no build this round "
                "(rules 37, 39)."
            )
        )
        events: list[Words] = [missed._replace(params=who)]
    elif again:
        events = [
            Say(
                "{player} sent new orders for round {round}; they replace those sent before.",
                who,
            )
        ]
    else:
        events = [Say("{player} sent orders for round {round}.", who)]
    if s.pending.keys() >= set(s.order):  # every order is in
        events += resolve_round(s)
    return s, events


def adjudicate(s: BusBossState, seat: int) -> Order | None:
    """Rules 37-39 (K7): a missed building round buys nothing and allows an extra build next
    round; a missed operating round enters no runs."""
    if s.over or seat not in s.order or seat in s.pending:
        return None
    return Order(s.kind, round=s.round, missed=True)


def drop(s: BusBossState, seat: int) -> tuple[BusBossState, list[Words]]:
    """Rule 40 (K7): the game master drops a player. The bank takes their routes, which the
    others use paying the bank and may buy from it at the normal cost."""
    if s.over or not s.active[seat]:
        raise IllegalOrder(Say("{name} is not in the game.", {"name": s.label(seat)}))
    s = s.copy()
    s.active[seat] = False
    s.order = tuple(x for x in s.order if x != seat)
    s.pending.pop(seat, None)
    s.extra_build = tuple(x for x in s.extra_build if x != seat)
    taken = len(s.routes_of(seat))
    s.owners = tuple(tuple(BANK_SEAT if o == seat else o for o in owners) for owners in s.owners)
    dropped = {"player": s.label(seat), "count": taken}
    events: list[Words] = [
        Say("{player} is dropped from the game (rule 40); the bank takes 1 route.", dropped)
        if taken == 1
        else Say(
            "{player} is dropped from the game (rule 40); the bank takes {count} routes.", dropped
        )
    ]
    if s.players_left() <= 1:
        ending = Ending.ONE_LEFT if s.order else Ending.NONE_LEFT
        s.end_reason = str(ending.value)
        events.append(Say("The game ends: {reason}.", {"reason": ending.value}))
    elif s.pending.keys() >= set(s.order):  # every order is in
        events += resolve_round(s)
    return s, events


# resolving a round ---------------------------------------------------------------------------


def resolve_round(s: BusBossState) -> list[Words]:
    """All orders are in: runs (rounds 7-12), then building, then the next round. Mutates s.
    Pieces of orders that do not count are named with their rule first (K10). The round's
    record keeps its events (``BusBossState.last_record`` gives them in English, as the
    saved state always kept them)."""
    events: list[Words] = [Say("Round {round} is resolved.", {"round": s.round})]
    record: dict[str, Any] = {
        "round": s.round,
        "runs": [],
        "purchases": [],
        "void": [],
        "skipped": [],
    }
    start_cash = list(s.cash)
    entries: dict[int, dict[Offer, RunEntry]] = {}
    void_lines: dict[int, list[Void]] = {}  # each seat's void run lines (K16)
    builds: dict[int, tuple[Build, ...]] = {}
    offered = offers_by_cards(s)
    for seat in s.order:
        order = s.pending[seat]
        builds[seat], voids = counted_builds(s, seat, order)
        entries[seat], entry_voids = counted_entries(s, seat, order, offered)
        void_lines[seat] = entry_voids
        for v in entry_voids + voids:
            events.append(
                Say(
                    "{player}: {piece} is void, {reason}.",
                    {"player": s.label(seat), "piece": v.piece, "reason": v.reason},
                )
            )
            record["void"].append({"seats": [seat], "piece": v.piece, "reason": str(v.reason)})
    carried: list[Offer] = []
    if s.kind == "operate":
        # K5: "poorer" is cash at the start of the round, then earlier in the play order
        poorness = {seat: (start_cash[seat], i) for i, seat in enumerate(s.order)}
        not_run: list[Offer] = []
        not_run_names: list[str] = []
        by_offer: dict[Offer, dict[int, RunEntry]] = {}  # each run's entries, in play order
        for seat in s.order:
            for offer, entry in entries[seat].items():
                by_offer.setdefault(offer, {})[seat] = entry
        not_run_outcome = "offered again" if s.round < LAST_ROUND else "lapsed"
        net = network(s.map, s.owners)  # (the runs come before the building: rule 33)
        run_records = record["runs"]
        for offer in s.offers:
            name = offer.name
            run_record: dict[str, Any] = {
                "run": name,
                "since": offer.since,
                "entrants": [],
                "void": [],
                "payments": [],
            }
            run_records.append(run_record)
            # most runs nobody entered: those not run are named together after the runs
            entered = by_offer.get(offer)
            if not entered or not run_offer(
                s, net, offer, entered, void_lines, poorness, events, run_record
            ):
                run_record["outcome"] = not_run_outcome
                not_run.append(offer)
                not_run_names.append(name)
        if s.round < LAST_ROUND:
            carried = not_run
        if not_run:
            events.append(not_run_line(s, not_run_names))
        # rule 33: poorest first; ties in the reverse of the previous round's order of play
        previous = {seat: i for i, seat in enumerate(s.previous_order)}
        builders = sorted(s.order, key=lambda x: (start_cash[x], -previous.get(x, 0)))
    else:
        builders = list(s.order)
    for seat in builders:
        for build in builds[seat]:
            execute_build(s, seat, build, events, record["purchases"], record["skipped"])
    advance(s, tuple(carried))
    if s.over:
        assert s.end_reason is not None  # what "over" means
        events.append(Say("The game is over: {reason}.", {"reason": ENDINGS[s.end_reason].value}))
    elif s.kind == "operate":
        events.append(
            Say(
                "Round {round} begins: {runs} runs on offer, {again} of them offered again.",
                {"round": s.round, "runs": len(s.offers), "again": len(carried)},
            )
        )
    else:
        events.append(Say("Round {round} begins.", {"round": s.round}))
    s.last = {**record, "events": tuple(events)}
    return events


def not_run_line(s: BusBossState, runs: list[str]) -> Say:
    """One line for every run of the round that was not run (rule 21, K3), by name."""
    fields = {"names": ", ".join(runs), "count": len(runs), "round": LAST_ROUND}
    if s.round < LAST_ROUND:
        if len(runs) == 1:
            return Say("Not run: {names}, offered again next round (rule 21).", fields)
        return Say("Not run: {count} runs, offered again next round (rule 21): {names}.", fields)
    if len(runs) == 1:
        return Say("Not run: {names}; no run is carried out of round {round} (K3).", fields)
    return Say(
        "Not run: {count} runs; no run is carried out of round {round} (K3): {names}.", fields
    )


def advance(s: BusBossState, carried: tuple[Offer, ...]) -> None:
    missed_building: list[int] = []
    for seat in s.order:
        if s.pending[seat].missed:
            s.missed[seat] += 1
            if s.round <= 6:
                missed_building.append(seat)
        else:
            s.missed[seat] = 0
    # rule 38: an extra build in the round after a missed building round, not carried further
    s.extra_build = tuple(missed_building)
    s.pending = {}
    s.previous_order = s.order
    s.order = s.order[1:] + s.order[:1]  # rule 7
    s.round_players = s.players_left()  # K11: rule 20 counts them as the round begins
    s.round += 1
    if s.round > LAST_ROUND:
        s.offers, s.end_reason = (), str(Ending.LAST_ROUND.value)
        return
    if s.round in SHUFFLE_ROUNDS:
        s.deal = deal_runs(s.map, s.rng, [o.cards for o in carried])
    if s.round in RUNS_PER_ROUND:
        n = RUNS_PER_ROUND[s.round]
        s.offers = carried + tuple(new_offer(pair, s.round) for pair in s.deal[:n])
        s.deal = s.deal[n:]


def run_title(s: BusBossState, offer: Offer) -> Say:
    """'Hull to Leeds', with the round it was first offered if it is offered again."""
    m = s.map
    a, b = offer.cards
    ends = {"a": m.card_destination[a], "b": m.card_destination[b], "since": offer.since}
    if offer.since < s.round:
        return Say("{a} to {b}, offered since round {since}", ends)
    return Say("{a} to {b}", ends)


def describe(s: BusBossState, offer: Offer) -> Say:
    return Say("{run} ({title})", {"run": offer.name, "title": run_title(s, offer)})


def entrants(
    s: BusBossState,
    net: Network,
    offer: Offer,
    entries: dict[int, RunEntry],
    void_lines: dict[int, list[Void]],
    events: list[Words],
    record: dict[str, Any],
) -> list[Plan]:
    """The valid entrants of a run in play order: single players and joint companies (K6),
    from the seats' counted ``entries`` of it (``void_lines``: each seat's void run lines,
    which K16 names). Entries that fail are reported and left out (K4, K10, K12, K16)."""
    plans: list[Plan] = []
    done: set[int] = set()

    def void(seats: tuple[int, ...], reason: Say) -> None:
        names = both([s.label(x) for x in seats])
        events.append(
            Say("  {names}: the entry is void, {reason}.", {"names": names, "reason": reason})
        )
        record["void"].append({"seats": list(seats), "reason": str(reason)})

    for seat in s.order:
        if seat not in entries or seat in done:
            continue
        entry = entries[seat]
        if not entry.partners:  # (most entries) a company of one, with nobody to agree
            company: tuple[int, ...] = (seat,)
            done.add(seat)
        else:
            group = {seat, *partner_seats(s, entry)}
            company = tuple(x for x in s.order if x in group) + tuple(
                x for x in sorted(group) if x not in s.order
            )
            agreeing = tuple(
                x for x in company if x in entries and {x, *partner_seats(s, entries[x])} == group
            )
            done.update(agreeing)
            if len(agreeing) < len(company):
                void(agreeing, joint_run_void(s, offer, company, agreeing, entries, void_lines))
                continue
        try:
            found = [
                resolve(net, company, offer.cards, journey, s.colours, s.rulings, s.order)
                for journey in [entries[x].journey for x in company]
                if journey is not None
            ]
        except JourneyError as e:
            void(company, e.reason)
            continue
        if not found:
            void(company, Say("no partner gave the journey (rule 26)"))
            continue
        if len(found) > 1 and any(_signature(p) != _signature(found[0]) for p in found[1:]):
            void(company, Say("the partners' journeys do not match (rule 26)"))
            continue
        plans.append(found[0])
    return plans


def joint_run_void(
    s: BusBossState,
    offer: Offer,
    company: tuple[int, ...],
    agreeing: tuple[int, ...],
    entries: dict[int, RunEntry],
    void_lines: dict[int, list[Void]],
) -> Say:
    """K16: why a joint run is void, naming each partner whose line for it is missing or
    void and why, and that the others' lines still took their places in the limit."""
    why: Words = ""
    for x in company:
        if x not in agreeing:
            missing = missing_partner(s, offer, x, company, entries.get(x), void_lines.get(x, []))
            why = Say("{a}; {b}", {"a": why, "b": missing}) if why else missing
    names = both([s.names[x] for x in agreeing])
    limits = (
        Say("{names}'s limit of runs", {"names": names})
        if len(agreeing) == 1
        else Say("the limits of runs of {names}", {"names": names})
    )
    return Say(
        "{why}; a joint run is void for all its partners (rule 26), and the entry still "
        "takes its place in {limits} (rule 20, K16)",
        {"why": why, "limits": limits},
    )


def missing_partner(
    s: BusBossState,
    offer: Offer,
    seat: int,
    company: tuple[int, ...],
    counted: RunEntry | None,
    void_lines: list[Void],
) -> Say:
    """K16: why the seat's order does not enter the joint run of ``company``: its line for
    the run is void (rule 20: past the limit or entered already; rule 26: its partners), its
    line proposing the run with these partners names no run on offer (rule 21), it entered
    the run with other partners or alone (rule 26), or it has no line for the run (rule 26)."""
    label = s.label(seat)
    partners = {s.colours[x] for x in company if x != seat}
    on_offer = {o.cards for o in s.offers}
    for line in void_lines:
        entry = line.entry
        if entry is None:
            continue
        this_run = set(entry.cards) == set(offer.cards)
        meant = entry.cards not in on_offer and entry.cards[::-1] not in on_offer
        if this_run or (meant and partners & set(entry.partners)):
            return Say(
                "{player}'s line {piece} is void: {reason}",
                {"player": label, "piece": line.piece, "reason": line.reason},
            )
    if counted is not None:
        if others := partner_seats(s, counted):
            return Say(
                "{player} entered it with {partners} (rule 26)",
                {"player": label, "partners": both([s.label(x) for x in others])},
            )
        return Say("{player} entered it alone (rule 26)", {"player": label})
    return Say("{player} did not enter it (rule 26)", {"player": label})


def _signature(plan: Plan) -> tuple:
    """A joint journey as the partners see it: places and, per leg, another owner's colour
    or the company's own route (K13: a resolved journey names a place only where it changes
    route, so two spellings of the same routes have one signature)."""
    legs = tuple(-2 if o in plan.company else o for _, o, _ in plan.legs)
    forward = (plan.places, legs)
    backward = (plan.places[::-1], legs[::-1])
    return min(forward, backward)


def run_offer(
    s: BusBossState,
    net: Network,
    offer: Offer,
    entries: dict[int, RunEntry],
    void_lines: dict[int, list[Void]],
    poorness: dict[int, tuple[int, int]],
    events: list[Words],
    run_record: dict[str, Any],
) -> bool:
    """Races a run that seats entered if any entry is valid; False if it is not run (rule
    21). Its report goes to ``events`` and ``run_record``."""
    notes: list[Words] = []
    plans = entrants(s, net, offer, entries, void_lines, notes, run_record)
    if not plans:
        events.append(Say("Run {run}: no valid entry.", {"run": describe(s, offer)}))
        events.extend(notes)
        return False
    run_record["outcome"] = "run"
    events.append(Say("Run {run}:", {"run": describe(s, offer)}))
    events.extend(notes)
    throws = race([p.distance for p in plans], s.rng)
    ranks = [min(map(poorness.__getitem__, p.company)) for p in plans]
    places, points = award([len(t) for t in throws], ranks)
    entrant_names = [both([s.label(x) for x in p.company]) for p in plans]
    for plan, names, thrown, place, won in zip(plans, entrant_names, throws, places, points):
        company = plan.company
        journey = format_journey(plan.journey(s.owners, s.colours))
        raced = {
            "names": names,
            "journey": journey,
            "spaces": plan.spaces,
            "changes": plan.changes,
            "distance": plan.distance,
            "throws": " ".join(map(str, thrown)),
            "count": len(thrown),
        }
        if not plan.changes:
            said = Say(
                "  {names} on {journey}: {spaces} spaces, {distance} to go; throws {throws}: "
                "arrives on throw {count}.",
                raced,
            )
        elif plan.changes == 1:
            said = Say(
                "  {names} on {journey}: {spaces} spaces and 1 change of colour, {distance} to "
                "go; throws {throws}: arrives on throw {count}.",
                raced,
            )
        else:
            said = Say(
                "  {names} on {journey}: {spaces} spaces and {changes} changes of colour, "
                "{distance} to go; throws {throws}: arrives on throw {count}.",
                raced,
            )
        events.append(said)
        poorer_first = sorted(company, key=poorness.__getitem__)
        gains = dict(zip(poorer_first, share(won, poorer_first)))
        owed = plan.payments()
        costs = dict(zip(poorer_first[::-1], share(sum(owed.values()), poorer_first[::-1])))
        for seat in company:
            s.cash[seat] += gains[seat] - costs[seat]
        for owner, amount in sorted(owed.items()):
            if owner != BANK_SEAT:
                s.cash[owner] += amount
            paid = {"names": names, "owner": s.label(owner), "amount": amount}
            events.append(
                Say("  {names} pays {owner} {amount}.", paid)
                if len(company) == 1
                else Say("  {names} pay {owner} {amount}.", paid)
            )
            run_record["payments"].append({"to": s.owner_name(owner), "amount": amount})
        if len(company) > 1:
            events.append(
                Say(
                    "  {names} share {points} points ({gains}) and {paid} paid ({costs}) (K6).",
                    {
                        "names": names,
                        "points": won,
                        "gains": _split(s, company, gains),
                        "paid": sum(owed.values()),
                        "costs": _split(s, company, costs),
                    },
                )
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
    standings: Words = ""
    for place, won, names in sorted(zip(places, points, entrant_names), key=itemgetter(0)):
        placed = {"place": _ordinal(place), "names": names, "points": won}
        standing = (
            Say("{place}= {names} {points}", placed)
            if places.count(place) > 1
            else Say("{place} {names} {points}", placed)
        )
        standings = Say("{a}; {b}", {"a": standings, "b": standing}) if standings else standing
    events.append(Say("  Places: {standings}.", {"standings": standings}))
    return True


def _split(s: BusBossState, company: tuple[int, ...], amounts: dict[int, int]) -> str:
    return ", ".join(f"{s.names[x]} {amounts[x]}" for x in company)


ORDINALS = {1: Say("1st"), 2: Say("2nd"), 3: Say("3rd")}


def _ordinal(n: int) -> Say:
    return ORDINALS.get(n) or Say("{n}th", {"n": n})


# the end -----------------------------------------------------------------------------------------


def left(s: BusBossState, seat: int) -> bool:
    """Whether the seat was dropped from the game (rule 40)."""
    return not s.active[seat]


class Ending(Enum):
    """The ways a game ends: its last round played (rule 3), or too few players left to play
    on (rule 40). The state keeps an ending by its words in English (``ENDINGS``)."""

    LAST_ROUND = Say("round {round} is over", {"round": LAST_ROUND})
    ONE_LEFT = Say("only one player is left")
    NONE_LEFT = Say("no players are left")


# an ending by the words the state keeps
ENDINGS = {str(ending.value): ending for ending in Ending}


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
    return Result(ENDINGS[s.end_reason], tuple(s.cash), tuple(tuple(place) for place in ranking))
