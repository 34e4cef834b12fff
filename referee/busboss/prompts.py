"""What a seat can do now: the legal building blocks of its order, and prompt lines in the
order language, ready to copy into a reply (rules 8, 20, 22-25, 34, 36)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from ..contract import Say, Words
from .building import buyable
from .game import entry_limit, run_title
from .journeys import PAYMENT_CAP, Network, Plan, network
from .map import Route
from .orders import Build, Journey, Order, Purchase, RunEntry, format_entry, format_purchase
from .state import BusBossState, Offer


def quickest(net: Network, company: tuple[int, ...], offer: Offer) -> Plan | None:
    """The run's quickest journey for the company (best_plan), or None if it has none."""
    return next(quickest_journeys(net, company, (offer,)), (offer, None))[1]


def quickest_journeys(
    net: Network, company: tuple[int, ...], offers: Iterable[Offer]
) -> Iterator[tuple[Offer, Plan]]:
    """The runs on offer the company can make, in the order given, each with its quickest
    journey; found as they are asked for, and remembered for the owners of one moment
    (every bot of a round asks). A run whose ends are too dear to reach from the company's
    routes has no journey (rules 22, 24): that is known without a search."""
    paid_from = net.reach(company).cards  # (a card beyond the cap of rule 24 is not in it)
    for offer in offers:
        a, b = cards = offer.cards
        # rule 24: a journey pays at least its way from one end to the company's routes
        # and from them to the other end (most runs on offer fail at the first end)
        if a in paid_from and b in paid_from and paid_from[a] + paid_from[b] <= PAYMENT_CAP:
            plan = net.best_plan(company, cards)
            if plan is not None:
                yield offer, plan


def run_options(s: BusBossState, seat: int) -> list[tuple[Offer, Plan]]:
    """The runs on offer the seat can enter alone, each with its quickest journey, shortest
    first."""
    found = quickest_journeys(network(s.map, s.owners), (seat,), s.offers)
    return sorted(found, key=lambda t: (t[1].spaces, t[1].distance, t[1].paid, t[0].cards))


def journey_of(s: BusBossState, plan: Plan) -> Journey:
    return plan.journey(s.owners, s.colours)


def entry_of(s: BusBossState, offer: Offer, plan: Plan) -> RunEntry:
    return RunEntry(offer.cards, (), journey_of(s, plan))


def single_purchases(s: BusBossState, seat: int) -> list[Purchase]:
    return [purchase_of(r) for r in buyable(s, seat)]


def purchase_of(route: Route) -> Purchase:
    """The purchase of one route, with its cost stated (rule 34)."""
    return Purchase((route.ends,), route.cost)


NOTHING = Build((Purchase(()),))


def legal_orders(s: BusBossState, seat: int) -> list[Order]:
    """One order for each simple legal choice: do nothing, buy one route, or (rounds 7-12)
    enter one run with its quickest journey. Orders combine these."""
    if s.over or seat not in s.order or not s.active[seat]:
        return []
    buys = [Build((p,)) for p in single_purchases(s, seat)]
    if s.kind == "build":
        return [Order("build", builds=(b,), round=s.round) for b in [NOTHING] + buys]
    return (
        [Order("operate", round=s.round)]
        + [
            Order("operate", runs=(entry_of(s, o, p),), round=s.round)
            for o, p in run_options(s, seat)
        ]
        + [Order("operate", builds=(b,), round=s.round) for b in buys]
    )


# the lines of a seat's choices: an order alone is text (copied as it is); an order with its
# comment, and a comment, are worded in the reader's language (the order a field, kept as it
# is); ``short_choices`` knows its lines by these messages, not by their words
WITH_NOTE = Say("{order}   # {note}")  # a route to buy: {route} and {cost} name it
RUN_NOTE = Say("{order}   # {title}: {note}")
STRANDED = Say("# run {run} ({title}): no journey you can make alone")
NOTHING_LINE = "build nothing"


def prompt_lines(s: BusBossState, seat: int) -> list[Words]:
    """The seat's choices as lines of the order language, with '#' comments."""
    if s.over or seat not in s.order:
        return []
    m = s.map
    lines: list[Words] = [f"round {s.round}"]
    if s.kind == "operate":
        options = run_options(s, seat)
        lines.append(
            Say(
                "# Runs you can enter, at most {limit}, shortest first (or write: no runs):",
                {"limit": entry_limit(s)},
            )
        )
        for offer, plan in options:
            lines.append(
                RUN_NOTE._replace(
                    params={
                        "order": format_entry(entry_of(s, offer, plan)),
                        "title": run_title(s, offer),
                        "note": journey_note(s, plan),
                    }
                )
            )
        cannot = [o for o in s.offers if o not in {opt[0] for opt in options}]
        for offer in cannot:
            lines.append(
                STRANDED._replace(params={"run": offer.name, "title": run_title(s, offer)})
            )
        lines.append(
            Say(
                "# Routes you can buy after the runs (one of any length, or two to four "
                "costing at most 12 together; cash may change in the runs):"
            )
        )
    else:
        lines.append(
            Say(
                "# Routes you can buy now (one of any length, or two to four costing at "
                "most 12 together, as 'build a-b c-d'; alternatives with '|'):"
            )
        )
    for purchase in single_purchases(s, seat):
        a, b = purchase.routes[0]
        ends = {"a": m.places[a].name, "b": m.places[b].name}
        lines.append(
            WITH_NOTE._replace(
                params={
                    "order": f"build {format_purchase(purchase)}",
                    "note": Say("{a} to {b}", ends),
                    "route": f"{a}-{b}",
                    "cost": purchase.cost,
                }
            )
        )
    lines.append(NOTHING_LINE)
    if seat in s.extra_build:
        lines.append(Say("# You may add a second build line this round (rule 38)."))
    return lines


def journey_note(s: BusBossState, plan: Plan) -> Say:
    """A run's quickest journey for the seat, in a few words: its spaces, its changes of
    colour, and whom it pays."""
    pay = ", ".join(f"{s.owner_name(o)} {a}" for o, a in sorted(plan.payments().items()))
    changes: Words = ""
    if plan.changes == 1:
        changes = Say(", 1 change of colour")
    elif plan.changes:
        changes = Say(", {changes} changes of colour", {"changes": plan.changes})
    paid = Say(", pays {pay}", {"pay": pay}) if pay else Say(", all on your routes")
    return Say(
        "{spaces} spaces{changes}{paid}", {"spaces": plan.spaces, "changes": changes, "paid": paid}
    )


def short_choices(lines: list[Words]) -> list[Words]:
    """``prompt_lines`` as the mails show them (``choices`` lists them whole): the runs
    the seat cannot enter on one line, and the routes it can buy by cost, one line a cost,
    instead of a line each."""
    out: list[Words] = []
    stranded: list[str] = []
    by_cost: dict[int, list[str]] = {}
    for line in lines:
        if isinstance(line, Say) and line.text == STRANDED.text:
            stranded.append(line.params["run"])
            continue
        if isinstance(line, Say) and line.text == WITH_NOTE.text and "cost" in line.params:
            by_cost.setdefault(line.params["cost"], []).append(line.params["route"])
            continue
        if stranded:
            out.append(
                Say("# No journey you can make alone for: {runs}", {"runs": ", ".join(stranded)})
            )
            stranded = []
        if by_cost and line == NOTHING_LINE:
            first = next(iter(by_cost.values()))[0]
            out.append(Say("# By cost; write one as, for example: build {route}", {"route": first}))
            # a line a cost, however long: the mail wraps it to its reader's width (the
            # plain text at 78 columns, as a comment; the HTML at the screen's edge)
            out += [f"#    {cost}: {', '.join(routes)}" for cost, routes in by_cost.items()]
            by_cost = {}
        out.append(line)
    return out
