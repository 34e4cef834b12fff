"""A line that groups orders, copied from a mail that lists many choices (``build house:
10, 15``), is told to be a list; one that lists a single order (the last line of a long
group that wrapped, ``build house: 34``) says that order and is read as it: a player who
copies it has given an order, not a list."""

from __future__ import annotations

from referee.bus.engine import RULES as BUS
from referee.busboss.engine import RULES as BUS_BOSS
from referee.service.play import read_orders
from referee.words.render import grouped


def test_a_group_of_one_is_its_order_and_a_group_of_more_is_told_to_be_a_list():
    assert read_orders(BUS, ["build house: 34"]).entries == ["build house 34"]
    assert read_orders(BUS, ["line: 1-2"]).entries == ["line 1-2"]
    told = read_orders(BUS, ["build house: 10, 15"])
    assert told.entries == [] and told.errors == [
        ("build house: 10, 15", "'build house: 10, 15' is a list: write one, e.g. 'build house 10'")
    ]


def test_in_a_game_of_many_lines_a_group_of_one_is_a_line_of_the_order():
    reading = read_orders(BUS_BOSS, ["round 1", "build: leeds-york", "Thanks"])
    assert reading.entries == ["round 1\nbuild leeds-york"] and reading.ignored == ["Thanks"]


def test_a_long_group_wraps_into_lines_that_each_read_alone():
    """A group too long for a line goes on in a line of its own, which may hold one."""
    lines = grouped([f"build house {n}" for n in range(1, 20)] + ["pass"])
    assert lines[1:] == ["build house: 19", "pass"]
    assert read_orders(BUS, [lines[0]]).errors and not read_orders(BUS, [lines[0]]).entries
    assert read_orders(BUS, [lines[1]]).entries == ["build house 19"]
