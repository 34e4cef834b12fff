"""Rulings B1-B14 of Bus, each with concrete positions on the real board."""

import random

import pytest
from bus_positions import PASS, bare, build, lay, line_choices, play, resolving

from referee.bus.board import BOARD
from referee.bus.engine import RULES, rules
from referee.bus.notation import Order
from referee.bus.state import free_actions
from referee.contract import IllegalOrder


def at_head(s, seat, head):
    return {m for m in line_choices(s, seat) if m.startswith(f"{head}-")}


# B1 ------------------------------------------------------------------------------------------


def test_b1_the_board_and_the_starting_passengers():
    assert len(BOARD.crossings) == 36 and len(BOARD.streets) == 70
    assert {z: len(v) for z, v in BOARD.lots_in_zone.items()} == {"A": 12, "B": 11, "C": 9, "D": 15}
    assert BOARD.stations == (11, 26) and BOARD.centrals == (15, 16, 21, 22)
    s = RULES.new_game({}, ["a", "b", "c"], 1)
    assert [c for c in BOARD.crossings if s.passengers[c]] == [15, 16, 21, 22]
    assert s.supply == 11


# B2 ------------------------------------------------------------------------------------------


def test_b2_spaces_and_the_order_actions_resolve_in():
    s = bare(4)
    view = RULES.view(s)
    assert view["action_spaces"] == {
        "line": 6,
        "buses": 1,
        "passengers": 6,
        "buildings": 6,
        "clock": 1,
        "vroom": 6,
        "start": 1,
    }
    lay(s, 0, "15-21")
    for seat, text in [
        (0, "action start"),
        (1, "action vroom"),
        (2, "action clock"),
        (3, "action buildings"),
        (0, "action passengers"),
        (1, "action buses"),
        (2, "action line"),
        (3, "action buildings"),
    ]:
        s, _ = play(s, seat, text)
    assert s.turn == 0 and Order("action", ("buses",)) not in RULES.legal_orders(s, 0)
    events = []
    for seat, text in [(0, "pass"), (1, "pass"), (2, "pass"), (3, "pass")]:
        s, ev = play(s, seat, text)
        events += ev
    # Cid lays first (line), Bob's bus is bought, then Ann's passengers wait for her
    assert RULES.awaiting(s)[0].kind == "line" and RULES.awaiting(s)[0].seat == 2
    s, ev = play(s, 2, RULES.format(RULES.legal_orders(s, 2)[0]))
    assert any("Bob buys a bus (2 buses)" in e for e in ev)
    assert RULES.awaiting(s)[0].kind == "passengers" and s.todo == 2
    s, ev = play(s, 0, "passengers 11:1 26:1")
    assert RULES.awaiting(s)[0].kind == "build" and RULES.awaiting(s)[0].seat == 3
    s, _ = play(s, 3, "build house 10")  # space b: M-1 = 1
    assert s.todo == 2  # space a: M = 2
    s, _ = play(s, 3, "build house 20\nbuild pub 17")
    assert RULES.awaiting(s)[0].kind == "clock"
    s, ev = play(s, 2, "clock go")
    assert "The clock turns to office." in ev
    # Bob has nothing to carry: the round ends and Ann, who took Starting Player, starts
    assert s.round == 2 and s.start == 0 and RULES.awaiting(s)[0].seat == 0


# B3 ------------------------------------------------------------------------------------------


def test_b3_editions_supplies():
    new = RULES.new_game({}, list("abcde"), 3)
    old = RULES.new_game({"edition": "1999"}, list("abcde"), 3)
    assert new.markers == [20] * 5 and old.markers == [20] * 5
    assert new.line_left == [25] * 5 and old.line_left == [28, 28, 28, 18, 18]
    assert new.clock_stones == 5 and RULES.new_game({}, list("abc"), 3).clock_stones == 4
    assert new.clock == "house" and sum(new.passengers) + new.supply == 15
    with pytest.raises(ValueError, match="edition"):
        RULES.new_game({"edition": "2001"}, list("abc"), 1)


@pytest.mark.parametrize("edition,buses_after", [("2019", 5), ("1999", 6)])
def test_b3_bus_cap_only_in_2019(edition, buses_after):
    s = bare(3, edition)
    s.buses[1] = 5
    events = resolving(s, "buses", [1])
    assert s.buses[1] == buses_after
    if edition == "2019":
        assert "Bob already has 5 buses, the most there are." in events


def test_b3_the_clock_turns_house_office_pub_house():
    s = bare(3)
    seen = []
    for _ in range(3):
        resolving(s, "clock", [])
        seen.append(s.clock)
    assert seen == ["office", "pub", "house"]


# B4 ------------------------------------------------------------------------------------------


def test_b4_a_bus_bought_this_round_raises_passengers_and_buildings_not_the_line():
    s = bare(4)
    lay(s, 1, "15-21")
    for a in ("line", "buses", "passengers", "buildings"):
        s.board[a] = []
    s.board.update(line=[1], buses=[0], passengers=[2], buildings=[3])
    s.phase, s.act, s.slot, s.todo = "resolve", 0, 0, None
    rules._run_on(s, [])
    assert s.todo == 1  # M was 1 when the line resolved
    s, ev = play(s, 1, "line 21-22")
    assert "Ann buys a bus (2 buses)." in ev
    assert RULES.awaiting(s)[0].seat == 2 and s.todo == 2
    s, _ = play(s, 2, "passengers 11:2")
    assert RULES.awaiting(s)[0].seat == 3 and s.todo == 2


def test_b4_amounts_fall_by_one_per_space_and_never_below_zero():
    s = bare(4)
    s.buses = [2, 1, 1, 1]
    resolving(s, "passengers", [1, 2, 3])
    assert RULES.awaiting(s)[0].seat == 1 and s.todo == 2
    s, _ = play(s, 1, "passengers 11:2")
    assert RULES.awaiting(s)[0].seat == 2 and s.todo == 1
    s, _ = play(s, 2, "passengers 26:1")
    # Dot on space c would place 0: no decision, the game moves on
    assert RULES.awaiting(s)[0].kind != "passengers" and s.supply == 8


# B5 ------------------------------------------------------------------------------------------


def test_b5_line_and_buildings_resolve_backwards_passengers_and_vroom_forwards():
    s = bare(4)
    s.buses = [3, 1, 1, 1]
    resolving(s, "buildings", [0, 1, 2])
    assert RULES.awaiting(s)[0].seat == 2 and s.todo == 1  # space c first, with M-2
    s = bare(4)
    s.buses = [3, 1, 1, 1]
    resolving(s, "passengers", [0, 1, 2])
    assert RULES.awaiting(s)[0].seat == 0 and s.todo == 3  # space a first


# B6 ------------------------------------------------------------------------------------------


def test_b6_two_markers_before_passing_and_a_pass_is_final():
    s = bare(3)
    with pytest.raises(IllegalOrder, match="at least two markers"):
        play(s, 0, "pass")
    s, _ = play(s, 0, "action line")
    s, _ = play(s, 1, "action vroom")
    s, _ = play(s, 2, "action vroom")
    s, _ = play(s, 0, "action buildings")
    assert PASS not in RULES.legal_orders(s, 1)
    s, _ = play(s, 1, "action line")
    s, _ = play(s, 2, "action line")
    s, _ = play(s, 0, "pass")
    s, _ = play(s, 1, "action passengers")
    s, _ = play(s, 2, "pass")
    assert RULES.awaiting(s)[0].seat == 1  # Ann passed: Bob chooses again
    s, _ = play(s, 1, "action vroom")
    assert RULES.awaiting(s)[0].seat == 1


def test_b6_single_use_spaces_and_players_without_markers():
    s = bare(3)
    s.markers = [5, 0, 5]
    s, _ = play(s, 0, "action clock")
    assert RULES.awaiting(s)[0].seat == 2  # Bob has no markers: no part in the round
    assert Order("action", ("clock",)) not in RULES.legal_orders(s, 2)
    with pytest.raises(IllegalOrder, match="Every space of clock is taken"):
        play(s, 2, "action clock")
    s.markers[2] = 1
    s, _ = play(s, 2, "action line")
    assert RULES.awaiting(s)[0].seat == 0  # Cid ran out: he is passed for good


def test_b6_a_player_with_every_space_taken_passes_automatically():
    s = bare(3)
    s.board = {
        "line": [0] * 6,
        "buses": [0],
        "passengers": [0] * 6,
        "buildings": [0] * 6,
        "clock": [0],
        "vroom": [0] * 5,
        "start": [0],
    }
    s.free_actions = free_actions(s.board)  # (derived from the board, as from_data does)
    s.turn = 1
    s, _ = play(s, 1, "action vroom")
    # the board is full now: Cid and Ann pass without being asked, the round resolves
    assert s.phase == "resolve" and all(s.passed)


# B7 ------------------------------------------------------------------------------------------


def test_b7_a_head_is_forced_into_the_one_empty_street():
    s = bare(4)
    lay(s, 0, "16-17")
    lay(s, 1, "10-17-11")
    lay(s, 2, "18-17-23")
    resolving(s, "line", [0])
    assert at_head(s, 0, 17) == {"17-24"}
    assert line_choices(s, 0) == {"17-24", "16-15", "16-22"}


def test_b7_laying_along_a_line_whose_head_is_here_with_that_street():
    s = bare(4)
    lay(s, 0, "21-22")
    lay(s, 1, "23-22")  # Bob's head is at 22 on 22-23
    resolving(s, "line", [0])
    assert "22-23" in at_head(s, 0, 22)
    assert at_head(s, 0, 22) == {"22-16", "22-23", "22-27", "22-28", "22-29"}


def test_b7_the_chance_is_lost_once_their_head_moves_on():
    s = bare(4)
    lay(s, 0, "21-22")
    lay(s, 1, "23-22-16")  # Bob has gone on from 22
    resolving(s, "line", [0])
    assert "22-23" not in at_head(s, 0, 22)
    with pytest.raises(IllegalOrder, match="runs along another line"):
        play(s, 0, "line 22-23")


def test_b7_the_chance_is_lost_when_a_third_line_joins_first():
    s = bare(4)
    lay(s, 0, "21-22")
    lay(s, 1, "23-22")
    lay(s, 2, "28-22-23")  # Cid ran along first; his head is at 23
    resolving(s, "line", [0])
    assert "22-23" not in at_head(s, 0, 22)


def test_b7_no_parallel_line_when_the_heads_do_not_touch():
    s = bare(4)
    lay(s, 0, "16-22")
    lay(s, 1, "21-22-23")  # Bob passes through 22, heads elsewhere
    resolving(s, "line", [0])
    assert at_head(s, 0, 22) == {"22-27", "22-28", "22-29"}


def test_b7_no_backing_up_along_ones_own_line():
    s = bare(4)
    lay(s, 0, "15-16-17")
    lay(s, 1, "10-17-11")
    lay(s, 2, "18-17-23")
    lay(s, 3, "17-24-31")
    resolving(s, "line", [0])
    # no empty street at 17: any street will do, but never back along 16-17
    assert at_head(s, 0, 17) == {"17-10", "17-11", "17-18", "17-23", "17-24"}
    with pytest.raises(IllegalOrder, match="already runs along 17-16"):
        play(s, 0, "line 17-16")


@pytest.mark.parametrize(
    "order,closing,next_streets",
    [
        ("line 15-21", 21, {"21-14", "21-20"}),
        ("line 21-15", 15, {"15-9", "15-10", "15-14"}),
    ],
)
def test_b7_closing_a_circle_from_either_head(order, closing, next_streets):
    s = bare(4)
    lay(s, 0, "15-16-22-21")
    resolving(s, "line", [0], todo=None)
    s.buses[0] = 2  # two streets to lay
    s.todo = 2
    assert {"15-21", "21-15"} <= line_choices(s, 0)
    s, events = play(s, 0, order)
    assert "closing a circle" in events[0]
    assert [c for c, _ in s.heads[0]] == [closing, closing]
    assert line_choices(s, 0) == next_streets
    # and the line goes on from the closing crossing, still a trail between its heads
    s, _ = play(s, 0, RULES.format(RULES.legal_orders(s, 0)[0]))
    assert sorted(c for c, _ in s.heads[0]).count(closing) == 1


def test_b7_running_along_occupied_streets_then_turning_into_an_empty_one():
    s = bare(4)
    lay(s, 0, "16-17")
    lay(s, 1, "10-17-11")
    lay(s, 2, "18-17-24")
    lay(s, 3, "22-23-17")
    resolving(s, "line", [0])
    s.todo = 2
    assert at_head(s, 0, 17) == {"17-10", "17-11", "17-18", "17-23", "17-24"}
    s, _ = play(s, 0, "line 17-23")  # along Dot: no empty street at 17
    assert at_head(s, 0, 23) == {"23-24", "23-30"}  # at 23 an empty street must be taken
    assert s.street_lines[BOARD.street(17, 23)] == 0b1001


def test_b7_first_marker_anywhere_second_by_the_expansion_rules():
    s = RULES.new_game({}, ["a", "b", "c"], 5)
    for _ in range(6):
        seat = RULES.awaiting(s)[0].seat
        s, _ = RULES.apply(s, seat, RULES.legal_orders(s, seat)[0])
    first = RULES.awaiting(s)[0].seat
    assert len(RULES.legal_orders(s, first)) == 70
    s, _ = play(s, first, "line 21-22")
    second = RULES.awaiting(s)[0].seat
    s, _ = play(s, second, "line 22-21")  # a first marker may share a street, written
    # either way: it has no head to name (B15)
    assert s.street_lines[BOARD.street(21, 22)] == (1 << first) | (1 << second)


def test_b7_five_players_lay_one_street_more():
    s = bare(5)
    lay(s, 0, "15-16")
    lay(s, 1, "27-28")
    resolving(s, "line", [0, 1])
    assert RULES.awaiting(s)[0].seat == 1 and s.todo == 1  # space b: M
    s, _ = play(s, 1, "line 28-35")
    assert RULES.awaiting(s)[0].seat == 0 and s.todo == 2  # space a: M+1


# B8 ------------------------------------------------------------------------------------------


def test_b8_expansion_ends_early_only_when_nothing_is_legal():
    s = bare(3)
    lay(s, 0, "12-5-11-12")  # a closed circle at 12, a crossing of two
    assert [c for c, _ in s.heads[0]] == [12, 12]
    lay(s, 1, "15-16")
    s.buses = [3, 1, 1]
    resolving(s, "line", [1, 0])  # Ann on b would lay 2: she cannot
    assert RULES.awaiting(s)[0].seat == 1 and s.todo == 3
    s.line_left[1] = 1  # and Bob has one marker left
    s, _ = play(s, 1, "line 16-22")
    assert RULES.awaiting(s)[0].kind != "line" and len(s.streets[1]) == 2


# B9 ------------------------------------------------------------------------------------------


def test_b9_passengers_up_to_the_supply_split_as_the_player_likes():
    s = bare(3)
    s.buses = [3, 1, 1]
    s.supply = 2
    resolving(s, "passengers", [0])
    assert s.todo == 2
    assert {RULES.format(o) for o in RULES.legal_orders(s, 0)} == {
        "passengers 26:2",
        "passengers 11:1 26:1",
        "passengers 11:2",
    }
    with pytest.raises(IllegalOrder, match="exactly 2"):
        play(s, 0, "passengers 11:3")
    s, _ = play(s, 0, "passengers 11:1 26:1")
    assert s.supply == 0 and s.passengers[11] == 1 and s.passengers[26] == 1
    resolving(s, "passengers", [1])  # the supply is empty: nothing to do
    assert RULES.awaiting(s)[0].kind != "passengers"


def test_b9_passengers_settle_into_buildings_of_the_time():
    s = bare(3)
    build(s, 15, "house")
    build(s, 21, "office")
    view = {p["crossing"]: p for p in RULES.view(s)["passengers"]}
    assert view[15] == {"crossing": 15, "seated": 1, "waiting": 0}
    assert view[21] == {"crossing": 21, "seated": 0, "waiting": 1}
    resolving(s, "clock", [])  # house -> office
    view = {p["crossing"]: p for p in RULES.view(s)["passengers"]}
    assert view[15]["waiting"] == 1 and view[21]["seated"] == 1


# B10 -----------------------------------------------------------------------------------------


def test_b10_the_next_zone_opens_during_an_action():
    s = bare(3)
    for lot in BOARD.lots_in_zone["A"][:-1]:
        s.lots[lot] = "pub"
    last = BOARD.lots[BOARD.lots_in_zone["A"][-1]].crossing
    s.buses = [2, 1, 1]
    resolving(s, "buildings", [0])
    assert {o.args[0] for o in RULES.legal_orders(s, 0)} == {last}
    s, events = play(s, 0, f"build office {last}")
    assert "Zone A is full: zone B opens." in events
    zone_b = {BOARD.lots[i].crossing for i in BOARD.lots_in_zone["B"]}
    assert {o.args[0] for o in RULES.legal_orders(s, 0)} == zone_b
    with pytest.raises(IllegalOrder, match="no free lot in zone B"):
        play(s, 0, "build pub 1")  # zone D


# B11 -----------------------------------------------------------------------------------------


def test_b11_the_rule_book_example_three_companies_each_score_one():
    s = bare(3)
    s.passengers = [0] * 37
    s.clock = "office"
    s.buses = [3, 2, 1]
    # Yellow (Ann): one passenger wants to leave at 8, the one at 14 sits in its office
    lay(s, 0, "8-14-21")
    s.passengers[8] = 1
    s.passengers[14] = 1
    build(s, 14, "office")
    build(s, 21, "office")
    # Green (Bob): two wait at the station 26, but one office is free on his line after Ann
    lay(s, 1, "26-20-21")
    s.passengers[26] = 2
    build(s, 20, "office")
    # Blue (Cid): plenty to carry and room for it, but one bus
    lay(s, 2, "9-15-10")
    s.passengers[9] = 2
    build(s, 15, "office")
    build(s, 10, "office")
    resolving(s, "vroom", [0, 1, 2])
    assert RULES.legal_orders(s, 0) == [Order("vroom", (8, 21))]
    s, _ = play(s, 0, "vroom 8 to 21")
    assert RULES.awaiting(s)[0].seat == 1  # Ann's other buses have no one to carry
    assert {RULES.format(o) for o in RULES.legal_orders(s, 1)} == {"vroom 26 to 20"}
    s, _ = play(s, 1, "vroom 26 to 20")
    assert RULES.awaiting(s)[0].seat == 2
    s, _ = play(s, 2, "vroom 9 to 15")
    assert RULES.awaiting(s)[0].kind != "vroom"
    assert s.points == [1, 1, 1]


def test_b11_every_vroom_space_uses_all_buses_again_and_carrying_is_not_optional():
    s = bare(3)
    s.passengers = [0] * 37
    lay(s, 0, "15-21")
    s.passengers[15] = 3
    build(s, 21, "house")
    build(s, 21, "house")
    resolving(s, "vroom", [0, 0])
    s, _ = play(s, 0, "vroom 15 to 21")
    assert RULES.awaiting(s)[0].seat == 0 and RULES.awaiting(s)[0].kind == "vroom"
    with pytest.raises(IllegalOrder, match="No passenger can go from 21 to 15"):
        play(s, 0, "vroom 21 to 15")
    s, _ = play(s, 0, "vroom 15 to 21")
    assert s.points[0] == 2 and s.passengers[21] == 2


# B12 -----------------------------------------------------------------------------------------


def test_b12_the_starting_player():
    s = bare(3)
    s.start = 1
    events = resolving(s, "start", [2])
    assert s.start == 2 and "Round 2 begins; Cid starts." in events
    s = bare(3)
    s.start = 2
    resolving(s, "start", [])
    assert s.start == 0


# B13 -----------------------------------------------------------------------------------------


def test_b13_the_last_clock_stone_ends_the_game_at_once():
    s = bare(3)
    s.clock_stones = 1
    lay(s, 1, "15-21")
    build(s, 21, "pub")
    s.board.update(clock=[0], vroom=[1])
    s.phase, s.act, s.slot, s.todo = "resolve", 4, 0, None
    rules._run_on(s, [])
    s, events = play(s, 0, "clock stop")
    assert s.phase == "over" and RULES.awaiting(s) == []
    assert s.points[1] == 0  # Bob's Vrrooomm! never happens
    result = RULES.result(s)
    assert str(result.reason) == "the last clock stone was taken" and result.scores == (-1, 0, 0)
    assert result.ranking == ((1, 2), (0,))


def test_b13_the_game_ends_when_one_player_has_markers_left():
    s = bare(3)
    s.markers = [0, 0, 3]
    resolving(s, "start", [])
    assert s.phase == "over" and s.end_reason == "markers"


def test_b13_the_game_ends_when_no_lot_is_free():
    s = bare(3)
    s.lots = ["house"] * len(s.lots)
    resolving(s, "start", [])
    assert s.phase == "over" and s.end_reason == "lots"


def test_b13_ties_more_clock_stones_win():
    s = bare(3)
    s.phase, s.end_reason = "over", "lots"
    s.points, s.stones = [5, 4, 1], [1, 0, 0]
    assert RULES.result(s).ranking == ((0,), (1,), (2,))


def test_b13_ties_then_who_reached_the_points_first():
    s = bare(3)
    s.phase, s.end_reason = "over", "lots"
    s.points, s.stones, s.reached = [4, 4, 2], [1, 1, 0], [9, 7, 3]
    assert RULES.result(s).ranking == ((1,), (0,), (2,))


def test_b13_reached_first_is_recorded_by_vrrooomm():
    s = bare(3)
    s.passengers = [0] * 37
    lay(s, 0, "15-21")
    lay(s, 1, "16-22")
    s.passengers[15] = 1
    s.passengers[16] = 1
    build(s, 21, "house")
    build(s, 22, "house")
    resolving(s, "vroom", [1, 0])
    s, _ = play(s, 1, "vroom 16 to 22")
    s, _ = play(s, 0, "vroom 15 to 21")
    s.phase, s.end_reason = "over", "lots"
    assert RULES.result(s).ranking == ((1,), (0,), (2,))


# B14 -----------------------------------------------------------------------------------------


def test_b14_the_start_player_comes_from_the_seed():
    starts = {RULES.new_game({}, list("abcd"), seed).start for seed in range(40)}
    assert starts == {0, 1, 2, 3}
    assert RULES.new_game({}, list("abcd"), 7).start == random.Random(7).randrange(4)


def test_b14_setup_order():
    s = RULES.new_game({}, list("abcd"), 2)
    start = s.start
    order = [(start + i) % 4 for i in range(4)]
    seen = []
    while s.phase == "setup":
        d = RULES.awaiting(s)[0]
        seen.append((d.seat, d.kind))
        s, _ = RULES.apply(s, d.seat, RULES.legal_orders(s, d.seat)[0])
    assert seen == (
        [(p, "build") for p in order for _ in range(2)]
        + [(p, "line") for p in order]
        + [(p, "line") for p in reversed(order)]
    )
    assert sum(1 for b in s.lots if b) == 8 and s.round == 1 and s.turn == start
    assert all(BOARD.lots[i].zone == "A" for i, b in enumerate(s.lots) if b)
