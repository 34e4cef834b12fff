"""B15: a line order names its head. `line A-B` lays the street from the head at A toward B,
judged by B7 at A, and is never read as `B-A`; an order illegal from A is refused and the
next alternative is tried. A campaign made before B15 keeps reading a line order as it was
read then, so that its log replays as it was played."""

import json
import shutil
from pathlib import Path

import pytest
from bus_positions import bare, lay, line_choices, play, resolving

from referee.bus.engine import RULES
from referee.contract import IllegalOrder
from referee.service.play import submit
from referee.store.campaign import Campaign, Table

OLD_DEMO = Path(__file__).parent / "fixtures" / "old-logs" / "bus-demo"


def ann_at_both_heads():
    """Ann's line 15-16-22-21 has heads at 15 and 21; Bob's 14-21-15 ends at 15 on 15-21 and
    at 14; Cid is far away. Ann is on Line Expansion, everyone has passed: she lays one
    street."""
    s = bare(3)
    lay(s, 0, "15-16-22-21")
    lay(s, 1, "14-21-15")
    lay(s, 2, "32-33")
    resolving(s, "line", [0])
    assert RULES.awaiting(s)[0].seat == 0 and s.todo == 1
    return s


def test_b15_a_street_legal_only_from_the_other_head_is_refused():
    s = ann_at_both_heads()
    # B7 at 15: Bob's line ends at 15 with 15-21, so Ann may lay along it there; at 21 Bob
    # passes through (his heads are at 14 and 15), and 21-20 is empty, so 21-15 is not hers
    assert "15-21" in line_choices(s, 0)
    assert "21-15" not in line_choices(s, 0)
    with pytest.raises(IllegalOrder, match="B7") as refused:
        play(s, 0, "line 21-15")
    assert RULES.format(refused.value.alternatives[0]).startswith("line ")
    # from the head it names the same street is laid, and the circle closes at 21
    s, events = play(s, 0, "line 15-21")
    assert events[0] == "Ann lays 15-21 (closing a circle)."
    assert [c for c, _ in s.heads[0]] == [21, 21]


def test_b15_a_street_written_from_its_far_end_is_refused():
    s = ann_at_both_heads()
    with pytest.raises(IllegalOrder, match="does not start at a head"):
        play(s, 0, "line 9-15")  # 15-9 is legal, but 9 is no head of Ann's
    s, _ = play(s, 0, "line 15-9")
    assert [c for c, _ in s.heads[0]] == [9, 21]


PLAYERS = ["Ann <ann@example.org>", "Bob <bob@example.org>", "Cid <cid@example.org>"]


def test_b15_the_next_alternative_is_tried(tmp_path):
    table = Table(Campaign.create(tmp_path, "b15", "bus", PLAYERS, 1), ann_at_both_heads())
    assert table.campaign.options["line_orders"] == "name-head"  # a new campaign keeps B15
    outcome = submit(table, 0, ["line 21-15 | line 21-20"])
    assert [a.text for a in outcome.applied] == ["line 21-20"]
    assert [c for c, _ in table.state.heads[0]] == [15, 20]


def test_b15_a_campaign_made_before_it_reads_line_orders_as_it_did(tmp_path):
    """A campaign.yaml without the option was made before B15: its players' logged orders
    were read with either end as the head, and still are (``unpinned``)."""
    campaign = Campaign.create(tmp_path, "old", "bus", PLAYERS, 1)
    campaign.options.pop("line_orders")
    assert campaign.game_options()["line_orders"] == "either-end"
    game = RULES.new_game(campaign.game_options(), ["a", "b", "c"], 1)
    assert game.line_orders == "either-end"
    s = ann_at_both_heads()
    s.line_orders = "either-end"
    s, events = play(s, 0, "line 21-15")
    assert events[0] == "Ann lays 15-21 (closing a circle)."
    s = ann_at_both_heads()
    s.line_orders = "either-end"
    s, _ = play(s, 0, "line 9-15")
    assert [c for c, _ in s.heads[0]] == [9, 21]


def test_b15_the_option_is_known_and_checked():
    assert RULES.new_game({}, ["a", "b", "c"], 1).line_orders == "name-head"
    with pytest.raises(ValueError, match="line_orders"):
        RULES.new_game({"line_orders": "any"}, ["a", "b", "c"], 1)


def test_b15_the_old_demo_log_holds_no_order_it_would_refuse(tmp_path):
    """The fixture's players named their heads: read by B15 it replays to the same game."""
    root = tmp_path / "demo"
    shutil.copytree(OLD_DEMO, root)
    campaign = Campaign.load(root)
    campaign.options["line_orders"] = "name-head"
    table = campaign.table()
    data = table.rules.to_data(table.state)
    assert data.pop("line_orders") == "name-head"
    assert data == json.loads((OLD_DEMO / "expected_state.json").read_text())
