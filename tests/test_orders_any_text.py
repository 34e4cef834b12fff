"""Any text at all, read as orders by either engine, gives orders, bad lines or lines passed
over: an engine's ``parse`` raises only NotationError, so no text can stop a mail."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee import registry
from referee.contract import Say
from referee.service.play import read_orders

WORDS = st.sampled_from(
    ["build", "house", "pub", "office", "line", "pass", "action", "passengers", "clock",
     "vroom", "run", "round", "cost", "missed", "with", "to", "-", "|", ":", "15", "21",
     "²", "①", "٣", "9" * 5000, "", " "]
)  # fmt: skip
TEXT = st.one_of(st.text(max_size=200), st.lists(WORDS, max_size=12).map(" ".join))


@pytest.mark.parametrize("game", registry.names())
@settings(max_examples=300, deadline=None)
@given(lines=st.lists(TEXT, max_size=5))
def test_any_text_is_read_as_orders_bad_lines_or_lines_passed_over(game, lines):
    rules = registry.get(game).rules
    lines = [s for s in (line.strip() for line in lines) if s]
    reading = read_orders(rules, lines)
    # a bad line comes with a reason for the player; an entry is canonical: read again, it
    # is the same entry
    assert all(isinstance(reason, str | Say) and str(reason) for _, reason in reading.errors)
    if not rules.multiline_orders:
        for entry in reading.entries:
            assert read_orders(rules, [entry]).entries == [entry]


@pytest.mark.parametrize(
    ("game", "line"),
    [
        ("bus", "|"),
        ("bus", "pass | |"),
        # (a "²" is read as 2 since text is folded before the games read it; an Ethiopic
        # digit is a digit to str.isdigit, which int() refuses, and no fold makes it one)
        ("bus", "build house ፪"),
        ("bus", "line 15-" + "9" * 5000),
        ("busboss", "round ፪"),
        ("busboss", "round " + "9" * 5000),
    ],
)
def test_the_lines_that_once_raised_are_bad_lines_with_a_reason(game, line):
    reading = read_orders(registry.get(game).rules, [line])
    assert not reading.entries
    [(bad, reason)] = reading.errors
    assert bad == line and reason
