"""Bus ``apply`` refuses any order object it cannot play with IllegalOrder (referee/contract.py),
whatever its kind, number of arguments or their types: an unknown kind, a wrong number of
arguments, arguments of the wrong types. An object equal to a legal order is that order."""

from __future__ import annotations

import pytest
from bus_positions import bot_game
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.bus.engine import RULES
from referee.bus.notation import Order
from referee.contract import IllegalOrder


def positions():
    """A state waiting for each kind of decision, from a random game."""
    found: dict[str, object] = {}

    def keep(s):
        due = RULES.awaiting(s)
        if due and due[0].kind not in found:
            found[due[0].kind] = s

    bot_game(4, 3, check=keep)
    assert set(found) == {"build", "line", "action", "passengers", "clock", "vroom"}
    return list(found.values())


POSITIONS = positions()
KINDS = ["build", "line", "action", "passengers", "clock", "vroom", "pass", "", "LINE"]
ATOMS = st.one_of(
    st.integers(-3, 40),
    st.sampled_from(["house", "pub", "line", "pass", "stop", "go", "vroom", "", "15"]),
    st.none(),
    st.booleans(),
    st.floats(allow_nan=True),
    st.lists(st.integers(0, 40), max_size=2),
    st.dictionaries(st.text(max_size=2), st.integers(), max_size=1),
)
ARGS = st.one_of(
    st.tuples(),
    st.tuples(ATOMS),
    st.tuples(ATOMS, ATOMS),
    st.tuples(ATOMS, ATOMS, ATOMS),
    st.lists(ATOMS, max_size=3),
    ATOMS,
)
ORDERS = st.builds(Order, st.one_of(st.sampled_from(KINDS), ATOMS), ARGS)


@settings(max_examples=400, deadline=None)
@given(st.sampled_from(range(len(POSITIONS))), st.integers(0, 3), ORDERS)
def test_any_order_object_is_played_as_the_legal_order_it_equals_or_refused(at, seat, order):
    s = POSITIONS[at]
    legal = RULES.legal_orders(s, seat)
    try:
        after, _ = RULES.apply(s, seat, order)
    except IllegalOrder:
        assert order not in legal
        return
    same = legal[legal.index(order)]
    assert RULES.to_data(after) == RULES.to_data(RULES.apply(s, seat, same)[0])


@pytest.mark.parametrize(
    "order",
    [
        Order("teleport", (15, 21)),
        Order("line", (15,)),
        Order("line", (15, 21, 22)),
        Order("line", ("15", "21")),
        Order("line", None),
        Order("build", (15, 3)),
        Order("passengers", ("a", 1)),
        Order(["line"], (15, 21)),  # type: ignore[arg-type]
        ("line", (15, 21)),
        None,
    ],
)
def test_a_malformed_order_is_refused_at_every_decision(order):
    for s in POSITIONS:
        seat = RULES.awaiting(s)[0].seat
        with pytest.raises(IllegalOrder):
            RULES.apply(s, seat, order)
