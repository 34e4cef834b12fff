"""The order language of Bus: every decision's choices written and read back."""

import json

import pytest
from bus_positions import bot_game

from referee.bus.engine import RULES
from referee.bus.notation import Order
from referee.contract import NotationError


def test_every_legal_choice_round_trips_through_text():
    kinds = set()

    def check(s):
        for d in RULES.awaiting(s):
            for order in RULES.legal_orders(s, d.seat):
                kinds.add(order.kind)
                [entry] = RULES.parse(RULES.format(order))
                assert entry.alternatives == (order,)

    for seed in range(3):
        bot_game(4, seed, "default", check)
    assert kinds == {"build", "line", "action", "passengers", "clock", "vroom"}


@pytest.mark.parametrize(
    "text,expected",
    [
        ("Build House 15", Order("build", (15, "house"))),
        ("build 15 pub", Order("build", (15, "pub"))),
        ("build o at 21", Order("build", (21, "office"))),
        ("LINE 21-15", Order("line", (21, 15))),
        ("line 21 15", Order("line", (21, 15))),
        ("ACTION Vrrooomm!", Order("action", ("vroom",))),
        ("action line expansion", Order("action", ("line",))),
        ("action starting player", Order("action", ("start",))),
        ("take bus", Order("action", ("buses",))),
        ("pass", Order("action", ("pass",))),
        ("passengers 11 11 26", Order("passengers", (2, 1))),
        ("passengers 26:3", Order("passengers", (0, 3))),
        ("passengers none", Order("passengers", (0, 0))),
        ("clock stop", Order("clock", ("stop",))),
        ("stop", Order("clock", ("stop",))),
        ("clock run", Order("clock", ("go",))),
        ("vroom 15 to 21", Order("vroom", (15, 21))),
        ("vrooom from 15 to 21", Order("vroom", (15, 21))),
        ("vroom 15->21", Order("vroom", (15, 21))),
        ("vroom 15-21", Order("vroom", (15, 21))),
    ],
)
def test_forgiving_spellings(text, expected):
    [entry] = RULES.parse(text)
    assert entry.alternatives == (expected,)


def test_several_orders_paths_queues_and_alternatives():
    entries = RULES.parse("""
        action line vroom
        line 15-21-22
        # a comment line
        clock stop | clock go
    """)
    assert [e.alternatives for e in entries] == [
        (Order("action", ("line",)),),
        (Order("action", ("vroom",)),),
        (Order("line", (15, 21)),),
        (Order("line", (21, 22)),),
        (Order("clock", ("stop",)), Order("clock", ("go",))),
    ]
    assert entries[4].text == "clock stop | clock go"


@pytest.mark.parametrize(
    "text,reason",
    [
        ("fly to the moon", "not an order"),
        ("action dance", "is not an action"),
        ("build castle 15", "one type"),
        ("line 15", "two crossings"),
        ("line x-21", "is not a crossing number"),
        ("passengers 15:2", "stations 11 and 26"),
        ("clock maybe", "clock stop"),
        ("vroom 15", "from a crossing to a crossing"),
        ("action line vroom | pass", "one single order"),
    ],
)
def test_bad_lines_say_what_is_wrong(text, reason):
    with pytest.raises(NotationError, match=reason) as err:
        RULES.parse("pass\n" + text)
    assert err.value.line.strip() == text


def test_state_to_plain_data_and_back_mid_game():
    s, _ = bot_game(4, 11, "default")
    for state in (s, RULES.new_game({"edition": "1999"}, list("abc"), 4)):
        data = RULES.to_data(state)
        text = json.dumps(data)
        again = RULES.from_data(json.loads(text))
        assert RULES.to_data(again) == data
        assert RULES.view(again) == RULES.view(state)


def test_a_game_replays_exactly_from_its_log():
    final, log = bot_game(5, 3, "default")
    s = RULES.new_game({}, ["Ann", "Bob", "Cid", "Dot", "Eve"], 3)
    for seat, text in log:
        [entry] = RULES.parse(text)
        s, _ = RULES.apply(s, seat, entry.alternatives[0])
    assert RULES.to_data(s) == RULES.to_data(final)
    assert RULES.result(s) == RULES.result(final)
