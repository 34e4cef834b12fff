"""The Bus Boss order language: parsed, written back, forgiving of case and spacing."""

import pytest
from busboss_positions import order

from referee.busboss.engine import RULES
from referee.busboss.orders import Build, Journey, Order, Purchase, RunEntry
from referee.contract import Entry, NotationError

OPERATE = Order(
    "operate",
    runs=(
        RunEntry(
            ("7H", "QS"), (), Journey(("hull", "beverley", "york", "leeds"), (None, None, "blue"))
        ),
        RunEntry(("2C", "10S"), ("blue", "green"), Journey(("skipton", "bradford"), (None,))),
        RunEntry(("5D", "9S"), ("red",), None),
    ),
    builds=(
        Build(
            (
                Purchase((("leeds", "york"), ("york", "malton")), 18),
                Purchase((("leeds", "harrogate"),)),
                Purchase(()),
            )
        ),
    ),
    round=8,
)


def test_an_operating_order_is_written_and_read_back():
    text = RULES.format(OPERATE)
    assert text == (
        "round 8\n"
        "run 7H-QS: hull-beverley-york-leeds(blue)\n"
        "run 2C-10S with blue green: skipton-bradford\n"
        "run 5D-9S with red\n"
        "build leeds-york york-malton cost 18 | leeds-harrogate | nothing"
    )
    assert RULES.parse(text) == [Entry((OPERATE,))]


@pytest.mark.parametrize(
    "o",
    [
        Order("build", builds=(Build((Purchase((("a", "b"),)),)),)),
        Order("build", builds=(Build((Purchase(()),)),), round=2),
        Order(
            "build",
            builds=(Build((Purchase((("a", "b"),)),)), Build((Purchase((("b", "c"),)),))),
            round=4,
        ),  # the extra build of rule 38
        Order("build", round=3, missed=True),
        Order("operate", round=9, missed=True),
        Order("operate", round=7),
        Order(
            "operate", runs=(RunEntry(("10H", "AS"), (), Journey(("x", "y", "z"), ("bank", None))),)
        ),
    ],
)
def test_round_trip(o):
    assert order(RULES.format(o)) == o


def test_missed_and_no_runs_are_written_out():
    assert RULES.format(Order("build", round=3, missed=True)) == "round 3\nmissed"
    assert RULES.format(Order("operate", round=9, missed=True)) == "round 9\nmissed\nno runs"


def test_case_spacing_commas_and_comments_are_forgiven():
    text = """
        ROUND 8   # my orders
        Run 7h - qs :  Hull - Beverley - York - Leeds ( Blue )
        run 2c-10s WITH Blue and Green: Skipton-Bradford
        RUN 5d-9s with red
        Buy Leeds - York, York-Malton cost 18 | leeds-harrogate or NOTHING
    """
    assert order(text) == OPERATE


def test_ten_may_be_written_t_and_multi_word_places_run_together():
    o = order("run th-as: South Shields - Sunderland")
    assert o.runs[0].cards == ("10H", "AS")
    assert o.runs[0].journey.places == ("southshields", "sunderland")


def test_the_whole_text_is_one_entry():
    [entry] = RULES.parse("round 1\nbuild leeds-york")
    assert entry.text == "round 1\nbuild leeds-york"
    assert entry.alternatives == (
        Order("build", builds=(Build((Purchase((("leeds", "york"),)),)),), round=1),
    )


@pytest.mark.parametrize(
    "text, reason",
    [
        ("", "no orders found"),
        ("round 4", "no orders found"),
        ("hello there", "not a Bus Boss order"),
        ("round eight\nbuild nothing", "write the round as a number"),
        ("round 7\nround 8\nno runs", "one round's orders at a time"),
        ("no runs\nrun 7H-QS: hull-leeds", "'no runs' together with run lines"),
        ("run 1H-QS: hull-leeds", "'1h' is not a card"),
        ("run 7H: hull-leeds", "name the run by its two cards"),
        ("run 7H-QS", "give the journey after a colon"),
        ("run 7H-QS hull-leeds", "after the cards write 'with'"),
        ("run 7H-QS with pink", "'pink' is not a player's colour"),
        ("run 7H-QS with bank", "the bank runs no buses"),
        ("run 7H-QS: hull", "at least two places"),
        ("run 7H-QS: hull(blue)-leeds", "first place has no leg before it"),
        ("run 7H-QS: hull-leeds(mauve)", "'mauve' is not a player's colour"),
        ("run 7H-QS: hull-le!eds", "'le!eds' is not a place"),
        ("build leeds", "'leeds' is not a route"),
        ("build leeds-york-malton", "is not a route"),
        ("build cost 5", "name the routes to buy"),
    ],
)
def test_notation_errors_say_what_is_wrong(text, reason):
    with pytest.raises(NotationError) as caught:
        RULES.parse(text)
    assert reason in str(caught.value)


def test_each_build_alternative_may_say_build_again_as_bus_orders_may():
    """`build a | build b` reads as `build a | b` (issue 23, item 8): Bus accepts `a | b`
    with the verb repeated everywhere, and Bus Boss refused it ("'build' is not a route")."""
    assert RULES.parse("build leeds-york | build york-malton") == RULES.parse(
        "build leeds-york | york-malton"
    )
    assert RULES.parse("build leeds-york | build nothing") == RULES.parse(
        "build leeds-york | nothing"
    )
