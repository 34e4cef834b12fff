"""A whole game of each kind, played by bots, gives a person nothing but words its German
catalogue holds: every decision's title and prompt, every refusal met on the way (orders
out of turn, of the wrong kind, illegal; lines that are no orders), and the end. Each is
worded in German from the catalogue with its fields, as a German player will read it."""

import random
from collections.abc import Iterable, Iterator

import pytest
from test_catalogues import catalogue

from referee import registry
from referee.bus import rules as bus_rules
from referee.bus.notation import Order as BusOrder
from referee.contract import (
    HeldOrders,
    IllegalOrder,
    MissedOrderRule,
    NotationError,
    OwnDrop,
    Say,
    ShortChoices,
    SignUp,
    Words,
)
from referee.records import BadLine, RefusedOrder

PLAYERS = ["Ann", "Bob", "Cat", "Dan"]

# lines a player might write that are no orders of the game
BAD_LINES = {
    "bus": [
        "line",
        "line 15",
        "line x-21",
        "build castle 10",
        "build house",
        "action fly",
        "action",
        "pass now",
        "clock maybe",
        "vroom 15",
        "passengers 99",
        "hello there",
        "line 15-21 | line 3-4-5",
        "|",
        "build house 1234567",
    ],
    "busboss": [
        "round x",
        "round 3\nround 4",
        "hull-york",
        "york: leeds-york cost 3",
        "hello",
        "no runs\nrun 7H-QS: hull-york",
        "round 3",
        "build leeds-york\nround 3\nmissed x",
        "run 7H: hull",
        "run ZZ-QS: hull-york",
        "run 7H-QS with pink: hull-york",
        "run 7H-QS with bank: hull-york",
        "run 7H-QS",
        "run 7H-QS: hull",
        "run 7H-QS: hull(red)-york",
        "run 7H-QS: hull-yo!rk",
        "build",
        "build leeds",
        "run 7H-QS with: hull-york",
        "hull-beverley-york",
        "# a remark",
    ],
}


def said(say: Say) -> Iterator[Say]:
    """The Say and every Say among its fields' values."""
    yield say
    for value in say.params.values():
        if isinstance(value, Say):
            yield from said(value)


def says(words: Iterable[Words]) -> list[Say]:
    """The words to be worded in the reader's language (an order is not)."""
    return [w for w in words if isinstance(w, Say)]


def german(say: Say, translations) -> str:
    """The Say as a German reader reads it (its fields that are Says in German too), from
    the game's catalogue or, as the referee reads them, the shared one behind it (words
    every game uses: a list's commas, the maps' colours)."""
    message = translations.get(say.text) or SHARED.get(say.text)
    assert message is not None and message.string, f"no German for {say.text!r}"
    values = {
        k: german(v, translations) if isinstance(v, Say) else v for k, v in say.params.items()
    }
    return message.string.format(**values)


SHARED = catalogue("referee", "referee", "de")


def probes_bus(rng: random.Random) -> list[object]:
    """Orders of every kind, most of them illegal wherever the game stands."""
    pool: list[object] = [
        *bus_rules.ACTION_ORDERS.values(),
        bus_rules.PASS,
        *rng.sample(list(bus_rules.LINE_ORDERS.values()), 6),
        *rng.sample([o for orders in bus_rules.BUILD_ORDERS.values() for o in orders], 6),
        *bus_rules.CLOCK_ORDERS,
        *rng.sample(list(bus_rules.VROOM_ORDERS.values()), 6),
        *bus_rules.PASSENGER_ORDERS[3],
        BusOrder("build", (10, "castle")),
        BusOrder("action", ("fly",)),
        BusOrder("line", (1, 99)),
        BusOrder("clock", ("maybe",)),
        "no order at all",
    ]
    return pool


def probes_busboss(state, seat: int) -> list[object]:
    rules = registry.get("busboss").rules
    texts = [
        f"round {state.round + 1}\nbuild nothing",
        f"round {state.round}\nno runs",
        f"round {state.round}\nbuild nothing",
    ]
    return [entry.alternatives[0] for text in texts for entry in rules.parse(text)] + [
        "no order at all"
    ]


# orders with pieces that will not count (K10), which the player is told of at once
VOID_PIECES = [
    "build leeds-york cost 99",
    "build nowhere-york",
    "build leeds-york leeds-york",
    "build leeds-york york-malton hull-beverley scarborough-whitby malton-pickering",
    "run 2C-3C: hull-york",
    "run 2C-3C with red: hull-york",
    "build leeds-york\nbuild york-malton",
]


def held_notes(state, seat: int) -> Iterator[Say]:
    """What Bus Boss tells a player of the order it holds for them, for a few orders with
    pieces that will not count."""
    rules, held = registry.get("busboss").rules, registry.get("busboss").offers(HeldOrders)
    for pieces in VOID_PIECES:
        order = rules.parse(f"round {state.round}\n{pieces}")[0].alternatives[0]
        try:
            after, _ = rules.apply(state, seat, order)
        except IllegalOrder:
            continue
        kept = held.held(after, seat) if held else None
        yield from kept.notes if kept else ()


def play_collecting(game: str, seed: int) -> list[Say]:
    """A whole game by the default bot, with every Say it gave on the way."""
    descriptor = registry.get(game)
    rules = descriptor.rules
    rng = random.Random(seed)
    bot = rules.bot("default")
    state = rules.new_game({}, PLAYERS, seed)
    met: list[Say] = []

    def refused(state, seat: int, order: object) -> None:
        try:
            rules.apply(state, seat, order)
        except IllegalOrder as refusal:
            met.append(refusal.reason)

    for line in BAD_LINES[game]:
        try:
            rules.parse(line)
        except NotationError as error:
            met.append(error.reason)
    missed = descriptor.offers(MissedOrderRule)
    dropped = descriptor.offers(OwnDrop)
    signup = descriptor.offers(SignUp)
    short = descriptor.offers(ShortChoices)
    # what the help and a drop tell of the game's own rules
    met += [dropped.note] if dropped else []
    met += [choice.summary for choice in signup.choices] if signup else []
    while due := rules.awaiting(state):
        for decision in due:
            met += [decision.title, decision.prompt]
            # the choices' comments, as listed in full and as the mails make them short
            choices = list(rules.prompt_lines(state, decision.seat))
            met += says(choices) + says(short.shorten(choices) if short else [])
        seat = due[0].seat
        others = [d.seat for d in due if d.seat != seat] or [(seat + 1) % len(PLAYERS)]
        probes = probes_bus(rng) if game == "bus" else probes_busboss(state, seat)
        for order in probes:
            refused(state, seat, order)
        if game == "busboss":
            met += held_notes(state, seat)
        refused(state, others[0], rng.choice(rules.legal_orders(state, seat) or [None]))
        if missed and rules.round(state) == 2 and seat == 0:
            # rules 37-39: a missed building round, which allows an extra build in the next
            state, events = rules.apply(state, seat, missed.adjudicate(state, seat))
            met += says(events)
            refused(state, seat, rules.legal_orders(state, seat)[0] if due[1:] else None)
            continue
        if dropped and rules.round(state) == 10 and not dropped.left(state, len(PLAYERS) - 1):
            state, events = dropped.drop(state, len(PLAYERS) - 1)  # rule 40
            met += says(events)
            refused(state, len(PLAYERS) - 1, bot(state, seat, rng))
            continue
        state, events = rules.apply(state, seat, bot(state, seat, rng))
        met += says(events)  # what happened, as told
    result = rules.result(state)
    assert result is not None
    met.append(result.reason)
    for order in probes_bus(rng) if game == "bus" else probes_busboss(state, 0):
        refused(state, 0, order)  # the game is over
    if dropped:
        try:
            dropped.drop(state, len(PLAYERS) - 1)  # no longer in the game
        except IllegalOrder as refusal:
            met.append(refusal.reason)
    return met


@pytest.mark.parametrize("game", ["bus", "busboss"])
def test_a_whole_game_gives_only_words_with_their_german(game):
    met = [s for say in play_collecting(game, seed=4) for s in said(say)]
    assert met and all(isinstance(say, Say) for say in met)
    translations = catalogue(f"referee.{game}", game, "de")
    worded = {say.text: (str(say), german(say, translations)) for say in met}
    # the game's words are many, and German: no message is left as its English
    assert len(worded) >= {"bus": 55, "busboss": 30}[game], sorted(worded)
    assert all(de != en for en, de in worded.values() if any(c.isalpha() for c in en))


def test_the_game_words_met_include_every_decision_and_the_end():
    """The play above is no sample of a few words: it meets every kind of Bus decision,
    Bus Boss's two kinds of round and its extra build, refusals of each kind, the end."""
    bus = {s.text for say in play_collecting("bus", seed=4) for s in said(say)}
    assert {title.text for title, _ in bus_rules.CHOOSE} <= bus
    for title in ("first buildings", "first line", "line expansion", "passengers", "clock"):
        assert title in bus
    assert "It is not your turn: the game waits for {name} ({decision})." in bus
    assert "This is not the time for {given}: the game waits for your {owed}." in bus
    busboss = {s.text for say in play_collecting("busboss", seed=4) for s in said(say)}
    assert {"a building round", "an operating round", "round {round} is over"} <= busboss
    assert any(text.startswith("{prompt} You may make an extra build") for text in busboss)
    assert "You are no longer in the game (rule 40)." in busboss
    assert {"The game is over.", "{name} is not in the game."} <= busboss
    assert "The game is over; no more orders are taken." in bus
    # what happened, as each player is told it: every action's event, the clock, the end
    assert {
        "{name} passes.",
        "{name} takes {action} ({space}).",
        "{name} lays {start}-{end}.",
        "{name} brings {count} passenger(s): {where}.",
        "{count} at {station}",
        "{name} builds a house at {crossing} (zone {zone}).",
        "{name} builds an office at {crossing} (zone {zone}).",
        "{name} builds a pub at {crossing} (zone {zone}).",
        "Zone {zone} is full: zone {next} opens.",
        "{name} buys a bus ({buses} buses).",
        "{name} lets the clock turn.",
        "The clock turns to {clock}.",
        "{name} carries a passenger from {start} to the {building} at {end} ({points} points).",
        "Round {round}: all have passed; the actions resolve.",
        "Round {round} begins; {name} starts.",
        "The game ends: {reason}.",
    } <= bus
    assert "This order is for round {given}, but the game is in round {round}." in busboss
    assert "These pieces of them will not count (K10):" in busboss
    assert "the bank takes their routes (rule 40)" in busboss
    # what happened, as the round resolves, and the comments of the choices
    assert {
        "{player} sent orders for round {round}.",
        "Round {round} is resolved.",
        "{player} buys {routes} for {cost} (cash {cash}).",
        "Run {run}:",
        "  Places: {standings}.",
        "1st",
        "Not run: {count} runs, offered again next round (rule 21): {names}.",
        "Round {round} begins: {runs} runs on offer, {again} of them offered again.",
        "The game is over: {reason}.",
        "# Runs you can enter, at most {limit}, shortest first (or write: no runs):",
        "# run {run} ({title}): no journey you can make alone",
        "# No journey you can make alone for: {runs}",
        "# By cost; write one as, for example: build {route}",
        "{spaces} spaces{changes}{paid}",
    } <= busboss
    assert any(text.startswith("{player} is dropped from the game (rule 40)") for text in busboss)
    assert any(text.startswith("{player} sent no orders for round {round}") for text in busboss)


def test_the_log_and_the_views_keep_the_games_words_in_english():
    """A campaign's log, snapshots and turn files keep what they always kept: a refusal's
    reason and a bad line's as English text, a view's prompts and end as English text; a
    campaign written before the games gave Says reads the same."""
    reason = Say(
        "Crossing {crossing} has no free lot in zone {zone}, the zone open now.",
        {"crossing": 10, "zone": "B"},
    )
    english = "Crossing 10 has no free lot in zone B, the zone open now."
    refused = RefusedOrder(0, "build house 10", reason)
    assert refused.to_json()["reason"] == english
    assert RefusedOrder.from_json(refused.to_json()).reason == english
    assert BadLine("line 99", reason).to_json() == ["line 99", english]
    for game in ("bus", "busboss"):
        rules = registry.get(game).rules
        state = rules.new_game({}, PLAYERS, 4)
        [awaited, *_] = rules.view(state)["awaiting"]
        [due, *_] = rules.awaiting(state)
        assert awaited["prompt"] == str(due.prompt) and isinstance(awaited["prompt"], str)
