"""The rules of Bus, one rule in one place, named as the rule books name them.

A game moves through three phases: `setup` (first buildings, first and second line markers,
B14), then rounds of `choose` (B6) and `resolve` (the seven actions in order, B2), until
`over` (B13). After every order the engine runs on by itself through everything that needs
no decision (automatic passes, empty amounts, Buses, Starting Player, the end of a round), so
the state always waits for a real decision or is over.
"""

from __future__ import annotations

from enum import Enum
from operator import itemgetter

from ..contract import Decision, IllegalOrder, Say, Words, in_a_row
from .board import BOARD
from .notation import ACTIONS, BUILDING_TYPES, Order, format_order
from .state import (
    ACTION_BITS,
    BUS_CAP,
    EVERY_ACTION,
    PASSENGERS,
    SPACES,
    BusState,
    _new,
    added,
    replaced,
)

# the decision kind owed while an action resolves; actions missing here need no decision
RESOLVE_KIND = {
    "line": "line",
    "passengers": "passengers",
    "buildings": "build",
    "clock": "clock",
    "vroom": "vroom",
}
# B5: these resolve from the last space taken back to a; the others from a onwards
RESOLVE_BACKWARDS = ("line", "buildings")
PASS = Order("action", ("pass",))


# who must act ------------------------------------------------------------------------------


def owed(s: BusState) -> tuple[int, str] | None:
    """(seat, decision kind) of the one decision the game waits for, or None when over."""
    phase = s.phase
    if phase == "choose":
        return s.turn, "action"
    if phase == "setup":
        return s.setup[0]
    if phase == "resolve":
        action = ACTIONS[s.act]
        seats, slot = s.board[action], s.slot  # resolving_seat
        return seats[len(seats) - 1 - slot if action in RESOLVE_BACKWARDS else slot], RESOLVE_KIND[
            action
        ]
    return None


def resolving_seat(s: BusState) -> int:
    action = ACTIONS[s.act]
    return s.board[action][space_of_slot(s, action, s.slot)]


def space_of_slot(s: BusState, action: str, slot: int) -> int:
    taken = len(s.board[action])
    return taken - 1 - slot if action in RESOLVE_BACKWARDS else slot


def awaiting(s: BusState) -> list[Decision]:
    """The decisions the game waits for: one, or none when it is over."""
    if s.phase == "choose":  # most decisions: said here, without owed and _prompt
        seat = s.turn
        placed = s.placed[seat]
        title, text = CHOOSE_TEXTS[placed >= 2]
        # Say(...) made as the tuple it is, as Decision(...) below
        prompt = _make_tuple(
            Say, (text, {"round": s.round, "placed": placed, "left": s.markers[seat]})
        )
        # Decision(...) made as the tuple it is, without its __new__ in Python
        return [_make_tuple(Decision, (seat, "action", title, prompt, s.moves))]
    due = decision(s)
    return [due] if due else []


# the title and the prompt of a choice of action, before two markers are down this round and
# after (B6: passing is a choice then); the prompt's fields are filled in ``awaiting``
CHOOSE = (
    (
        Say("choose an action"),
        Say("Choose an action: round {round}, {placed} placed this round, {left} markers left."),
    ),
    (
        Say("choose an action or pass"),
        Say(
            "Choose an action or pass: round {round}, {placed} placed this round, "
            "{left} markers left."
        ),
    ),
)


_make_tuple = tuple.__new__

# the title and the wording of the prompt of a choice of action (``awaiting`` fills it in)
CHOOSE_TEXTS = tuple((title, prompt.text) for title, prompt in CHOOSE)


def decision(s: BusState) -> Decision | None:
    due = owed(s)
    if due is None:
        return None
    seat, kind = due
    # Decision(...) made as the tuple it is, as in awaiting
    return _make_tuple(Decision, (seat, kind, *_prompt(s, seat, kind), s.moves))


def _prompt(s: BusState, seat: int, kind: str) -> tuple[Say, Say]:
    """What the decision is: its title, and its prompt as '<Title>: <details>' (a choice of
    action: ``awaiting``)."""
    if s.phase == "setup":
        if kind == "build":
            left = sum(1 for p, k in s.setup if p == seat and k == "build")
            return FIRST_BUILDINGS, Say(
                "First buildings: place a building in zone A ({left} left to place).",
                {"left": left},
            )
        if not s.streets[seat]:
            return FIRST_LINE, Say("First line: lay your first line marker on any street.")
        return FIRST_LINE, Say("First line: lay your second line marker at one end of your first.")
    # a count of one has a message of its own, which another language words in the
    # singular; its English keeps the "(s)" that old campaigns' turn reports have
    if kind == "line":
        laid = {"todo": s.todo, "heads": _crossings(head_crossings(s, seat))}
        return LINE_EXPANSION, (
            Say("Line expansion: lay 1 more street(s) at your heads ({heads}).", laid)
            if s.todo == 1
            else Say("Line expansion: lay {todo} more street(s) at your heads ({heads}).", laid)
        )
    if kind == "passengers":
        return PASSENGERS_TITLE, (
            Say("Passengers: place 1 new passenger(s) at the stations.")
            if s.todo == 1
            else Say("Passengers: place {todo} new passenger(s) at the stations.", {"todo": s.todo})
        )
    if kind == "build":
        built = {"todo": s.todo, "zone": s.open_zone()}
        return BUILDINGS, (
            Say("Buildings: erect 1 more building(s) in zone {zone}.", built)
            if s.todo == 1
            else Say("Buildings: erect {todo} more building(s) in zone {zone}.", built)
        )
    if kind == "clock":
        return CLOCK, Say(
            "Clock: stop time (take a clock stone, -1 point) or let it turn "
            "(now {now}, next {next}).",
            {"now": BUILDING_NAMES[s.clock], "next": BUILDING_NAMES[next_clock(s.clock)]},
        )
    if s.todo == 1:
        return VROOM, Say(
            "Vrrooomm!: carry a passenger (1 bus still free, time: {time}).",
            {"time": BUILDING_NAMES[s.clock]},
        )
    return VROOM, Say(
        "Vrrooomm!: carry a passenger ({buses} buses still free, time: {time}).",
        {"buses": s.todo, "time": BUILDING_NAMES[s.clock]},
    )


# the decisions' titles
FIRST_BUILDINGS = Say("first buildings")
FIRST_LINE = Say("first line")
LINE_EXPANSION = Say("line expansion")
PASSENGERS_TITLE = Say("passengers")
BUILDINGS = Say("buildings")
CLOCK = Say("clock")
VROOM = Say("vrrooomm!")
# a building type by its name in the notation (orders keep the notation's word)
BUILDING_NAMES = {"house": Say("house"), "office": Say("office"), "pub": Say("pub")}
# an action by its key in the notation, as events name it
ACTION_NAMES = {
    "line": Say("line"),
    "buses": Say("buses"),
    "passengers": PASSENGERS_TITLE,
    "buildings": BUILDINGS,
    "clock": CLOCK,
    "vroom": Say("vroom"),
    "start": Say("start"),
}


# legal choices -----------------------------------------------------------------------------


# every order a legal-order list can hold, made once: no Order is built per decision
ACTION_ORDERS = {a: Order("action", (a,)) for a in ACTIONS}
FIRST_LINE_ORDERS = tuple(Order("line", street) for street in BOARD.streets)
LINE_ORDERS = {
    (c, st): Order("line", (c, BOARD.other_end(st, c)))
    for c in BOARD.crossings
    for st in BOARD.streets_at[c]
}
BUILD_ORDERS = {c: tuple(Order("build", (c, t)) for t in BUILDING_TYPES) for c in BOARD.crossings}
CLOCK_ORDERS = (Order("clock", ("stop",)), Order("clock", ("go",)))
VROOM_ORDERS = {(a, b): Order("vroom", (a, b)) for a in BOARD.crossings for b in BOARD.crossings}
PASSENGER_ORDERS = [
    tuple(Order("passengers", (k, todo - k)) for k in range(todo + 1))
    for todo in range(PASSENGERS + 1)
]
# the text of each of them, by the order's id: written once, read by ``order_text``
TEXTS = {
    id(order): format_order(order, BOARD.stations)
    for order in (
        PASS,
        *ACTION_ORDERS.values(),
        *FIRST_LINE_ORDERS,
        *LINE_ORDERS.values(),
        *(o for orders in BUILD_ORDERS.values() for o in orders),
        *CLOCK_ORDERS,
        *VROOM_ORDERS.values(),
        *(o for orders in PASSENGER_ORDERS for o in orders),
    )
}


def order_text(order: Order) -> str:
    """The canonical text of an order (``format_order``): an order of the rules' own lists
    has it written already."""
    text = TEXTS.get(id(order))
    return format_order(order, BOARD.stations) if text is None else text


def legal_orders(s: BusState, seat: int) -> list[Order]:
    return list(listed(s, seat))


def listed(s: BusState, seat: int) -> list[Order]:
    """The seat's legal orders as the rules hold them, not to be changed (``legal_orders``
    gives a copy). They are listed once for a decision: when the rules listed them to see
    that the decision is owed (Line Expansion, Vrrooomm!), or a bot or prompt asked,
    applying the order chosen from them does not list them again."""
    global _last_legal
    last, moves, asked, legal = _last_legal
    if not (last is s and moves == s.moves and asked == seat):
        if s.phase == "choose" and seat == s.turn:  # most decisions: action_choices
            legal = CHOICES[s.free_actions][s.placed[seat] >= 2]
        else:
            legal = _legal(s, seat)
        _last_legal = (s, s.moves, seat, legal)
    return legal


# The legal orders of the last decision listed. A state the engine was shown is never changed
# in place (``apply`` works on a copy, the search steps its own copy and counts the move), so
# the state itself and its move count name the decision.
_last_legal: tuple[BusState | None, int, int, list[Order]] = (None, 0, 0, [])


def _legal(s: BusState, seat: int) -> list[Order]:
    if s.phase == "choose":  # most decisions
        return action_choices(s, seat) if seat == s.turn else []
    due = owed(s)
    if due is None or due[0] != seat:
        return []
    kind = due[1]
    if kind == "line":
        return _line_orders(s, seat)
    if kind == "build":
        return build_orders(s)
    if kind == "passengers":
        assert s.todo is not None  # counted when the decision came due
        return list(PASSENGER_ORDERS[s.todo])
    if kind == "clock":
        return list(CLOCK_ORDERS)
    return _vroom_orders(s, seat)


def _line_orders(s: BusState, seat: int) -> list[Order]:
    if not s.streets[seat]:
        return list(FIRST_LINE_ORDERS)  # the first marker goes on any street
    return [
        LINE_ORDERS[crossing, st]
        for crossing in head_crossings(s, seat)
        for st in streets_open_at(s, seat, crossing)
    ]


def _vroom_orders(s: BusState, seat: int) -> list[Order]:
    return [VROOM_ORDERS[move] for move in vroom_options(s, seat)]


def action_choices(s: BusState, seat: int) -> list[Order]:
    """B6: any space still free; passing only once two markers are down this round. The list
    is the rules' own, not to be changed (``listed``)."""
    return CHOICES[s.free_actions][s.placed[seat] >= 2]


# the actions with a space free (ACTION_BITS) -> the choices without passing, and with it:
# every board a round can show, listed once
CHOICES = [
    (
        [ACTION_ORDERS[a] for a, bit in ACTION_BITS.items() if free & bit],
        [ACTION_ORDERS[a] for a, bit in ACTION_BITS.items() if free & bit] + [PASS],
    )
    for free in range(EVERY_ACTION + 1)
]


def line_options(s: BusState, seat: int) -> list[tuple[int, int]]:
    """B7: the streets a line may grow by, as (head crossing, new crossing)."""
    if not s.streets[seat]:
        return list(BOARD.streets)  # the first marker goes on any street
    options: list[tuple[int, int]] = []
    for crossing in head_crossings(s, seat):
        options.extend(
            (crossing, BOARD.other_end(st, crossing)) for st in streets_open_at(s, seat, crossing)
        )
    return options


def head_crossings(s: BusState, seat: int) -> tuple[int, ...]:
    """The crossings of the seat's two heads in order, one when a circle has closed there,
    none before its first street."""
    if not s.heads[seat]:
        return ()
    (a, _), (b, _) = s.heads[seat]
    return (a,) if a == b else (a, b) if a < b else (b, a)


def streets_open_at(s: BusState, seat: int, crossing: int) -> list[int]:
    """B7 at one head: an empty street must be taken if there is one, except that a player may
    lay along another line whose head is at this crossing with that very street (every line
    on it must end there so). With no empty street, any street without the own line will do."""
    lines = s.street_lines
    candidates = [st for st in BOARD.streets_at[crossing] if not lines[st] >> seat & 1]
    empty = [st for st in candidates if lines[st] == 0]
    if not empty or len(empty) == len(candidates):
        return candidates
    return [st for st in candidates if lines[st] == 0 or _all_end_here(s, st, crossing)]


def _all_end_here(s: BusState, street: int, crossing: int) -> bool:
    bits = s.street_lines[street]
    for other in range(s.n):
        if bits >> other & 1 and (crossing, street) not in s.heads[other]:
            return False
    return True


def build_orders(s: BusState) -> list[Order]:
    """B10: every type on every crossing with a free lot in the open zone (the lowest with
    free lots)."""
    zone = s.open_zone()
    if zone is None:
        return []
    lots, orders = s.lots, list[Order]()
    for first, last, building_here in ZONE_BUILDS[zone]:
        if lots[first] is None or lots[last] is None:
            orders += building_here
    return orders


# per zone, its crossings in order, each with its lots in that zone
ZONE_SITES = {
    zone: tuple(
        (c, tuple(i for i in ids if BOARD.lots[i].crossing == c))
        for c in sorted({BOARD.lots[i].crossing for i in ids})
    )
    for zone, ids in BOARD.lots_in_zone.items()
}
# the same as (its first lot, its last, the orders building there): a crossing has one lot in
# a zone or two (B1), so these are all its lots there
ZONE_BUILDS = {
    zone: tuple((ids[0], ids[-1], BUILD_ORDERS[c]) for c, ids in sites)
    for zone, sites in ZONE_SITES.items()
}
assert all(len(ids) <= 2 for sites in ZONE_SITES.values() for _, ids in sites)


def vroom_options(s: BusState, seat: int) -> list[tuple[int, int]]:
    """B11: from a crossing of the line with a passenger who wants to leave, to a crossing of
    the line with a free building of the current type."""
    sources, targets = _vroom_ends(s, seat)
    return [(a, b) for a in sources for b in targets]


def _vroom_ends(s: BusState, seat: int) -> tuple[list[int], list[int]]:
    """The crossings of the line with passengers who want to leave, and with free buildings
    of the current type, in order."""
    sources, targets = [], []
    passengers, lots, lots_at, clock = s.passengers, s.lots, BOARD.lots_at, s.clock
    for c in sorted(s.reach[seat]):
        waiting = passengers[c]
        for i in lots_at[c]:
            if lots[i] == clock:
                waiting -= 1
        if waiting > 0:
            sources.append(c)
        elif waiting < 0:
            targets.append(c)
    return sources, targets


# applying orders ---------------------------------------------------------------------------


# the types of each kind's arguments (bool, though an int, is no crossing or count)
SHAPES = {
    "build": (int, str),
    "line": (int, int),
    "action": (str,),
    "passengers": (int, int),
    "clock": (str,),
    "vroom": (int, int),
}


def apply(s: BusState, seat: int, order: Order) -> tuple[BusState, list[Words]]:
    last, moves, asked, legal = _last_legal
    if not (last is s and moves == s.moves and asked == seat):
        order = _checked(s, seat, order)
    else:
        # most often one of the legal orders just listed for the seat, that very object:
        # found by identity, not compared field by field with the others
        for listed_order in legal:
            if listed_order is order:
                break
        else:  # the listed one equal to it is played (an equal object may hold True for 1)
            order = _checked(s, seat, order)
    state = _new(BusState)  # BusState.copy
    state.__dict__ = s.__dict__.copy()
    state.moves += 1
    events: list[Words] = []
    APPLY[order.kind](state, seat, order.args, events)
    _run_on(state, events)
    return state, events


def _checked(s: BusState, seat: int, order: Order) -> Order:
    """The legal order of the rules' list that ``order`` names, or IllegalOrder saying why
    it is none."""
    if not isinstance(order, Order):
        raise IllegalOrder(_not_an_order(order))
    due = owed(s)
    if due is None:
        raise IllegalOrder(Say("The game is over; no more orders are taken."))
    if due[0] != seat:
        raise IllegalOrder(
            Say(
                "It is not your turn: the game waits for {name} ({decision}).",
                {"name": s.names[due[0]], "decision": KIND_NAMES[due[1]]},
            )
        )
    if order.kind != due[1]:
        if not well_formed(order):
            raise IllegalOrder(_not_an_order(order), legal_orders(s, seat))
        raise IllegalOrder(
            Say(
                "This is not the time for {given}: the game waits for your {owed}.",
                {"given": KIND_NAMES[order.kind], "owed": KIND_NAMES[due[1]]},
            ),
            legal_orders(s, seat),
        )
    return _check_legal(s, seat, order)


def well_formed(order: Order) -> bool:
    """An order of a kind this game has, with arguments of that kind's number and types."""
    kind, args = order
    shape = SHAPES.get(kind) if type(kind) is str else None
    return (
        shape is not None
        and type(args) is tuple
        and len(args) == len(shape)
        and all(type(arg) is type_ for arg, type_ in zip(args, shape))
    )


def _not_an_order(order: object) -> Say:
    return Say("{order} is not a Bus order.", {"order": repr(order)})


# each kind of decision by its name in a sentence
KIND_NAMES = {
    "action": Say("choice of action"),
    "line": LINE_EXPANSION,
    "build": Say("building"),
    "passengers": PASSENGERS_TITLE,
    "clock": Say("clock decision"),
    "vroom": Say("Vrrooomm! move"),
}


def _check_legal(s: BusState, seat: int, order: Order) -> Order:
    legal = listed(s, seat)
    if order in legal:
        return legal[legal.index(order)]
    if not well_formed(order):
        raise IllegalOrder(_not_an_order(order), legal)
    if order.kind == "line" and (not s.streets[seat] or s.line_orders == "either-end"):
        # the first marker has no head to name (B7); B15 reads any other `line A-B` from the
        # head at A only, but a game made before B15 read it from B when A did not do
        flipped = Order("line", order.args[::-1])
        if flipped in legal:
            return flipped
    raise IllegalOrder(_why_illegal(s, seat, order), legal)


def _why_illegal(s: BusState, seat: int, order: Order) -> Say:
    kind, args = order
    if kind == "line":
        street = BOARD.street(*args)
        if street is None:
            return Say("There is no street between {a} and {b}.", {"a": args[0], "b": args[1]})
        if s.owns(seat, street):
            return Say(
                "Your line already runs along {a}-{b}; a line never doubles back.",
                {"a": args[0], "b": args[1]},
            )
        heads = head_crossings(s, seat)
        if args[0] not in heads:
            return Say(
                "Street {a}-{b} does not start at a head of your line (heads at {heads}); "
                "write the head first, as in 'line {head}-...' (B15).",
                {"a": args[0], "b": args[1], "heads": _crossings(heads), "head": heads[0]},
            )
        return Say(
            "Street {a}-{b} runs along another line while an empty street is free at {a}, "
            "and not every line on it ends there (B7).",
            {"a": args[0], "b": args[1]},
        )
    if kind == "build":
        if args[1] not in BUILDING_TYPES:
            return Say(
                "There is no building {given!r}; build a {types}.",
                {"given": args[1], "types": ", ".join(BUILDING_TYPES)},
            )
        return Say(
            "Crossing {crossing} has no free lot in zone {zone}, the zone open now.",
            {"crossing": args[0], "zone": s.open_zone()},
        )
    if kind == "action":
        if args[0] == "pass":
            return Say("You must place at least two markers this round before you pass.")
        if args[0] not in ACTIONS:
            return Say(
                "There is no action {given!r}; the actions are {actions}.",
                {"given": args[0], "actions": ", ".join(ACTIONS)},
            )
        return Say("Every space of {action} is taken this round.", {"action": args[0]})
    if kind == "passengers":
        if s.todo == 1:
            return Say("Place exactly 1 passenger(s), split between stations 11 and 26.")
        return Say(
            "Place exactly {todo} passenger(s), split between stations 11 and 26.",
            {"todo": s.todo},
        )
    if kind == "vroom":
        return Say(
            "No passenger can go from {a} to {b}: the start must be a crossing of your line "
            "with a passenger who wants to leave, the end a crossing of your line with a "
            "free {building}.",
            {"a": args[0], "b": args[1], "building": BUILDING_NAMES[s.clock]},
        )
    return Say("That clock order is not possible.")


def _crossings(crossings: tuple[int, ...]) -> Say | str:
    """A line's heads: two as 'a and b', one (a closed circle), or none (no street yet)."""
    if len(crossings) == 2:
        return Say("{a} and {b}", {"a": crossings[0], "b": crossings[1]})
    return " ".join(map(str, crossings))


def choose_action(s: BusState, seat: int, args: tuple, events: list[Words]) -> None:
    """B6: a marker on the next free space of the action, or a final pass."""
    name = s.names[seat]
    if args[0] == "pass":
        s.passed = replaced(s.passed, seat, True)
        events.append(_make_tuple(Say, (PASSES, {"name": name})))
    else:
        action = args[0]
        seats = s.board[action]
        space = len(seats)
        taken = {"name": name, "action": ACTION_NAMES[action], "space": "abcdef"[space]}
        events.append(_make_tuple(Say, (TAKES, taken)))
        s.board = board = s.board.copy()
        board[action] = seats + [seat]
        if space == SPACES[action] - 1:  # its last space
            s.free_actions ^= ACTION_BITS[action]
        s.markers = markers = s.markers[:]
        markers[seat] -= 1
        s.placed = placed = s.placed[:]
        placed[seat] += 1
    s.turn = (seat + 1) % s.n


# the wordings of the events of most orders, each built as the tuple a Say is (as a prompt
# in ``awaiting``): an event is made for every order a bot's search plays
PASSES = Say("{name} passes.").text
TAKES = Say("{name} takes {action} ({space}).").text
LAYS = Say("{name} lays {start}-{end}.").text
CLOSES = Say("{name} lays {start}-{end} (closing a circle).").text
CLOCK_TURNS = Say("The clock turns to {clock}.").text
CARRIES = (
    Say(
        "{name} carries a passenger from {start} to the {building} at {end} ({points} points)."
    ).text,
    Say(
        "{name} carries a passenger from {start} to the {building} at {end} ({points} point)."
    ).text,
)


def line_expansion(s: BusState, seat: int, args: tuple, events: list[Words]) -> None:
    """B7: the street joins the line at the head it starts from; that head moves on."""
    start, end = args
    street = BOARD.street(start, end)
    assert street is not None  # a legal order lays a street of the board
    heads = s.heads[seat][:]
    if not heads:
        heads.extend([(start, street), (end, street)])
    else:
        # with both heads on one crossing (a closed circle) the one that closed it moves on
        moving = 1 if heads[1][0] == start else 0
        heads[moving] = (end, street)
        if moving == 0 and heads[1][0] == end:
            heads.reverse()  # keep the head moved last in place 1
    s.heads = replaced(s.heads, seat, heads)
    s.street_lines = replaced(s.street_lines, street, s.street_lines[street] | 1 << seat)
    s.streets = replaced(s.streets, seat, s.streets[seat] + [street])
    s.reach = replaced(s.reach, seat, s.reach[seat] | {start, end})
    s.line_left = added(s.line_left, seat, -1)
    _done_one(s)
    laid = {"name": s.names[seat], "start": start, "end": end}
    events.append(_make_tuple(Say, (CLOSES if heads[0][0] == heads[1][0] else LAYS, laid)))


def passengers(s: BusState, seat: int, args: tuple, events: list[Words]) -> None:
    """B9: new passengers arrive from the supply at the two stations."""
    s.passengers = s.passengers[:]
    for station, count in zip(BOARD.stations, args):
        s.passengers[station] += count
    s.supply -= sum(args)
    s.todo = 0
    where = in_a_row(
        (
            Say("{count} at {station}", {"count": count, "station": station})
            for station, count in zip(BOARD.stations, args)
            if count
        ),
        ", ",
    )
    brought = {"name": s.names[seat], "count": sum(args), "where": where}
    events.append(  # one passenger in a message of its own, as a prompt's count of one
        Say("{name} brings 1 passenger(s): {where}.", brought)
        if sum(args) == 1
        else Say("{name} brings {count} passenger(s): {where}.", brought)
    )


def buildings(s: BusState, seat: int, args: tuple, events: list[Words]) -> None:
    """B10: the builder picks the lot (any free one of the open zone) and the type."""
    crossing, btype = args
    zone = s.open_zone()
    assert zone is not None  # a legal order builds on a free lot
    s.lots = lots = s.lots[:]
    lot = next(i for i in ZONE_LOTS_AT[zone][crossing] if lots[i] is None)
    lots[lot] = btype
    events.append(
        Say(BUILDS[btype].text, {"name": s.names[seat], "crossing": crossing, "zone": zone})
    )
    _done_one(s)
    if None not in ZONE_LOTS[zone](lots) and s.any_lot_free():
        events.append(
            Say("Zone {zone} is full: zone {next} opens.", {"zone": zone, "next": s.open_zone()})
        )


# the event of a building, by its type: a sentence each, as a language's article goes with it
BUILDS = {
    "house": Say("{name} builds a house at {crossing} (zone {zone})."),
    "office": Say("{name} builds an office at {crossing} (zone {zone})."),
    "pub": Say("{name} builds a pub at {crossing} (zone {zone})."),
}


# per zone, its lots (a getter of a state's lots) and the lots at each of its crossings
ZONE_LOTS = {zone: itemgetter(*ids) for zone, ids in BOARD.lots_in_zone.items()}
ZONE_LOTS_AT = {zone: dict(sites) for zone, sites in ZONE_SITES.items()}


def next_clock(btype: str) -> str:
    return NEXT_CLOCK[btype]


NEXT_CLOCK = {t: BUILDING_TYPES[(i + 1) % 3] for i, t in enumerate(BUILDING_TYPES)}


def clock(s: BusState, seat: int, args: tuple, events: list[Words]) -> None:
    """B3/B13: stopping time costs a clock stone; the last stone ends the game at once."""
    s.todo = 0
    if args[0] == "go":
        events.append(Say("{name} lets the clock turn.", {"name": s.names[seat]}))
        _turn_clock(s, events)
        return
    s.clock_stones -= 1
    s.stones = added(s.stones, seat, 1)
    events.append(
        Say(
            "{name} stops the clock at {clock} and takes a clock stone ({left} left).",
            {"name": s.names[seat], "clock": BUILDING_NAMES[s.clock], "left": s.clock_stones},
        )
    )
    if s.clock_stones == 0:
        _game_over(s, "clock", events)


def _turn_clock(s: BusState, events: list[Words]) -> None:
    s.clock = next_clock(s.clock)
    events.append(_make_tuple(Say, (CLOCK_TURNS, {"clock": BUILDING_NAMES[s.clock]})))


def vrrooomm(s: BusState, seat: int, args: tuple, events: list[Words]) -> None:
    """B11: one bus carries one passenger; one point for each."""
    start, end = args
    s.passengers = s.passengers[:]
    s.passengers[start] -= 1
    s.passengers[end] += 1
    s.points = added(s.points, seat, 1)
    s.score_seq += 1
    s.reached = replaced(
        s.reached, seat, s.score_seq
    )  # B13's second tie-break: who reached this total first
    _done_one(s)
    carried = {
        "name": s.names[seat],
        "start": start,
        "building": BUILDING_NAMES[s.clock],
        "end": end,
        "points": s.points[seat],
    }
    events.append(_make_tuple(Say, (CARRIES[s.points[seat] == 1], carried)))


def _done_one(s: BusState) -> None:
    if s.phase == "setup":
        s.setup = s.setup[1:]
    else:
        assert s.todo is not None  # counted when the decision came due
        s.todo -= 1


APPLY = {
    "action": choose_action,
    "line": line_expansion,
    "passengers": passengers,
    "build": buildings,
    "clock": clock,
    "vroom": vrrooomm,
}


# running on to the next decision ---------------------------------------------------------------


def _run_on(s: BusState, events: list[Words]) -> None:
    while True:
        phase = s.phase
        if phase == "choose":
            # B6: the next seat clockwise that still chooses; automatic passes on the way
            n, turn, passed, markers = s.n, s.turn, s.passed, s.markers
            free = s.free_actions != 0
            for i in range(n):
                seat = (turn + i) % n
                if passed[seat]:
                    continue
                if not free or markers[seat] == 0:
                    s.passed = passed = passed[:]
                    passed[seat] = True
                    continue
                s.turn = seat
                return
            s.phase, s.act, s.slot, s.todo = "resolve", 0, 0, None
            events.append(
                Say("Round {round}: all have passed; the actions resolve.", {"round": s.round})
            )
            continue
        if phase == "resolve":
            if _resolve_step(s, events):
                return
            continue
        if phase == "setup":
            if not s.setup:
                _new_round(s, s.start, events)
                continue
            seat, kind = s.setup[0]
            if kind == "line" and not line_options(s, seat):
                s.setup = s.setup[1:]  # B8: nothing legal, nothing to do
                continue
            return
        return


def _resolve_step(s: BusState, events: list[Words]) -> bool:
    """Advance the resolution slot by slot until a decision is owed (True) or the round's
    actions are all resolved (False)."""
    board = s.board  # (replaced only when a new round begins, which ends this phase)
    while s.phase == "resolve":
        action = ACTIONS[s.act]
        seats, slot = board[action], s.slot
        if slot >= len(seats):
            if action == "clock" and not seats:
                _turn_clock(s, events)  # nobody took the clock: it turns
            if action == "start":
                _end_of_round(s, events)
                return False
            s.act, s.slot, s.todo = s.act + 1, 0, None
            continue
        space = len(seats) - 1 - slot if action in RESOLVE_BACKWARDS else slot
        seat = seats[space]
        todo = s.todo
        if todo is None:
            s.todo = todo = _amount(s, action, seat, space, events)
        if todo > 0 and _possible(s, action, seat):
            return True
        s.slot, s.todo = slot + 1, None
    return False


def space_amount(action: str, space: int, most: int, players: int) -> int:
    """B4: a does M, b M-1, ... never below 0, M being ``most``; five players lay one more
    street."""
    return max(0, most - space + (1 if action == "line" and players == 5 else 0))


def _amount(s: BusState, action: str, seat: int, space: int, events: list[Words]) -> int:
    """B4's amounts (M read now), Passengers up to the supply (B9)."""
    if action in ("line", "buildings"):
        return space_amount(action, space, max(s.buses), s.n)
    if action == "passengers":
        return min(space_amount(action, space, max(s.buses), s.n), s.supply)
    if action == "vroom":
        return s.buses[seat]
    if action == "buses":
        cap = BUS_CAP[s.edition]
        if cap is None or s.buses[seat] < cap:
            s.buses = added(s.buses, seat, 1)
            events.append(
                Say(
                    "{name} buys a bus ({buses} buses).",
                    {"name": s.names[seat], "buses": s.buses[seat]},
                )
            )
        else:
            events.append(
                Say(
                    "{name} already has {cap} buses, the most there are.",
                    {"name": s.names[seat], "cap": cap},
                )
            )
        return 0
    if action == "clock":
        return 1
    return 0  # start: settled at the end of the round


def _possible(s: BusState, action: str, seat: int) -> bool:
    if action == "line" and s.line_left[seat] <= 0:
        return False
    if action in ("line", "vroom"):  # the seat owes the decision if it has any choice
        legal = _line_orders(s, seat) if action == "line" else _vroom_orders(s, seat)
        if legal:  # owed: the state waits for this decision, with these orders
            global _last_legal
            _last_legal = (s, s.moves, seat, legal)
        return bool(legal)
    if action == "buildings":
        return s.any_lot_free()
    return True


def _end_of_round(s: BusState, events: list[Words]) -> None:
    """B12 and B13."""
    start = s.board["start"][0] if s.board["start"] else (s.start + 1) % s.n
    if sum(1 for m in s.markers if m > 0) <= 1:
        _game_over(s, "markers", events)
    elif not s.any_lot_free():
        _game_over(s, "lots", events)
    else:
        _new_round(s, start, events)


def _new_round(s: BusState, start: int, events: list[Words]) -> None:
    s.phase, s.round, s.start, s.turn = "choose", s.round + 1, start, start
    s.last_board, s.board = s.board, {a: [] for a in ACTIONS}  # last_board: never changed
    s.free_actions = EVERY_ACTION
    s.placed = [0] * s.n
    s.passed = [False] * s.n
    s.act = s.slot = 0
    s.todo = None
    events.append(
        Say("Round {round} begins; {name} starts.", {"round": s.round, "name": s.names[start]})
    )


class Ending(Enum):
    """B13: the ways a game ends (``BusState.end_reason`` keeps the name, lower-case)."""

    CLOCK = Say("the last clock stone was taken")
    MARKERS = Say("at most one player has action markers left")
    LOTS = Say("no building lot is free")


def _game_over(s: BusState, reason: str, events: list[Words]) -> None:
    s.phase, s.end_reason = "over", reason
    events.append(Say("The game ends: {reason}.", {"reason": Ending[reason.upper()].value}))


def ranking(s: BusState) -> list[list[int]]:
    """B13: score, then more clock stones, then who reached the points total first."""

    def key(p: int) -> tuple:
        return (-s.score(p), -s.stones[p], s.reached[p] if s.points[p] else 0)

    places: list[list[int]] = []
    for p in sorted(range(s.n), key=key):
        if places and key(places[-1][0]) == key(p):
            places[-1].append(p)
        else:
            places.append([p])
    return places
