"""Building: rules 4-12, 33-35 and ruling K2, on the Yorkshire map."""

from busboss_positions import (
    ANN,
    BOB,
    CAT,
    DAN,
    at_round,
    new,
    order,
    owning,
    play,
    route_owners,
    void,
)

from referee.busboss.engine import RULES
from referee.busboss.game import review

NOTHING = "build nothing"


def test_rules_4_5_7_start_cash_and_the_turning_order_of_play():
    s = RULES.new_game({}, ["a", "b", "c", "d"], 7)
    assert s.cash == [100] * 4  # rule 5
    assert sorted(s.order) == [0, 1, 2, 3]  # rule 4: drawn (K8)
    first = s.order
    assert [d.seat for d in RULES.awaiting(s)] == list(first)
    s, _ = play(s, dict.fromkeys(range(4), NOTHING))
    assert s.order == first[1:] + first[:1]  # rule 7: 1-2-3-4, 2-3-4-1
    s, _ = play(s, dict.fromkeys(range(4), NOTHING))
    assert s.order == first[2:] + first[:2]
    assert RULES.new_game({}, ["a", "b", "c", "d"], 7).order == first  # same seed, same draw


def test_rule_9_a_route_costs_its_length_plus_two():
    s, events = play(new(), {ANN: "build leeds-york", BOB: NOTHING, CAT: NOTHING, DAN: NOTHING})
    assert s.cash[ANN] == 100 - (5 + 2)
    assert route_owners(s, "leeds-york") == (ANN,)
    assert "Ann (red) buys leeds-york for 7 (cash 93)." in events


def test_rule_8_one_route_of_any_length():
    s, events = play(
        new(), {ANN: "build carterbar-newcastle", BOB: NOTHING, CAT: NOTHING, DAN: NOTHING}
    )
    assert s.cash[ANN] == 100 - 13 and route_owners(s, "newcastle-carterbar") == (ANN,)


def test_rule_8_two_to_four_routes_cost_at_most_12_together():
    # the Tyneside ring: four routes of one space, 3 each
    s, events = play(
        new(),
        {
            ANN: "build newcastle-washington washington-sunderland sunderland-southshields "
            "southshields-newcastle",
            BOB: "build leeds-bradford bradford-halifax halifax-huddersfield",  # 4 + 4 + 3
            CAT: NOTHING,
            DAN: NOTHING,
        },
    )
    assert len(s.routes_of(ANN)) == 4 and s.cash[ANN] == 100 - 12
    assert len(s.routes_of(BOB)) == 3 and s.cash[BOB] == 100 - 11


def test_k10_rule_8_an_alternative_over_the_limits_is_skipped_for_the_next():
    s = new()
    over_12 = "leeds-york york-malton"  # 7 + 6 = 13
    assert void(s, ANN, f"build {over_12} | york-malton") == [
        f"build {over_12}: two to four routes may cost at most 12 together; "
        "leeds-york malton-york cost 13 (rule 8)"
    ]
    five = (
        "leeds-bradford bradford-halifax halifax-huddersfield huddersfield-wakefield "
        "wakefield-leeds"
    )
    assert void(s, ANN, f"build {five}") == [
        f"build {five}: at most 4 routes can be bought in one build (rule 8)"
    ]
    s, events = play(
        s, {ANN: f"build {over_12} | york-malton", BOB: NOTHING, CAT: NOTHING, DAN: NOTHING}
    )
    assert (
        f"Ann (red) skips {over_12}: two to four routes may cost at most 12 together; "
        "leeds-york malton-york cost 13 (rule 8)." in events
    )
    assert route_owners(s, "malton-york") == (ANN,) and s.cash[ANN] == 100 - 6


def test_k2_the_first_route_anywhere_later_ones_must_touch_the_network():
    s = owning(new(), {ANN: "leeds-york"})
    s, events = play(
        s, {ANN: "build hull-beverley | york-malton", BOB: NOTHING, CAT: NOTHING, DAN: NOTHING}
    )
    assert (
        "Ann (red) skips hull-beverley: beverley-hull does not meet the company's routes at a "
        "town or junction (rule 10)." in events
    )
    assert route_owners(s, "york-malton") == (ANN,)  # the second preference


def test_k2_the_routes_of_one_purchase_join_in_any_order():
    s, _ = play(
        new(),
        {
            ANN: "build bradford-halifax leeds-wakefield bradford-leeds",
            BOB: "build hull-beverley selby-york",
            CAT: NOTHING,
            DAN: NOTHING,
        },
    )
    assert sorted(s.map.routes[i].name for i in s.routes_of(ANN)) == [
        "bradford-halifax",
        "bradford-leeds",
        "leeds-wakefield",
    ]
    assert s.routes_of(BOB) == []  # two pieces that never meet
    assert s.cash[BOB] == 100


def test_k2_k9_towns_without_cards_connect_too():
    s = owning(new(), {ANN: "leeds-wetherby"})
    s, _ = play(s, {ANN: "build wetherby-boroughbridge", BOB: NOTHING, CAT: NOTHING, DAN: NOTHING})
    assert route_owners(s, "boroughbridge-wetherby") == (ANN,)


def test_k2_no_more_spent_than_there_is():
    s = at_round(owning(new(), {ANN: "leeds-york"}), 3, cash={ANN: 6})
    s, _ = play(
        s, {ANN: "build york-malton | york-selby", BOB: NOTHING, CAT: NOTHING, DAN: NOTHING}
    )
    assert route_owners(s, "malton-york") == (ANN,) and s.cash[ANN] == 0
    s = at_round(owning(new(), {ANN: "leeds-york"}), 3, cash={ANN: 5})
    s, events = play(
        s, {ANN: "build york-malton | york-selby", BOB: NOTHING, CAT: NOTHING, DAN: NOTHING}
    )
    assert "Ann (red) skips york-malton: it costs 6 and only 5 is left (K2)." in events
    assert route_owners(s, "selby-york") == (ANN,) and s.cash[ANN] == 0


def test_rule_11_first_round_routes_may_meet_other_players_routes():
    s, _ = play(
        new(),
        {ANN: "build leeds-york", BOB: "build york-malton", CAT: "build york-selby", DAN: NOTHING},
    )
    assert [route_owners(s, r) for r in ("leeds-york", "york-malton", "york-selby")] == [
        (ANN,),
        (BOB,),
        (CAT,),
    ]


def test_rule_12_identical_routes_one_each_and_never_two_for_one_player():
    s, events = play(
        new(),
        {
            ANN: "build leeds-york",
            BOB: "build york-leeds",
            CAT: "build leeds-york | york-selby",
            DAN: NOTHING,
        },
    )
    assert route_owners(s, "leeds-york") == (ANN, BOB)
    assert "Cat (green) skips leeds-york: leeds-york is taken (rule 35)." in events
    assert route_owners(s, "york-selby") == (CAT,)
    assert void(s, ANN, "build york-leeds") == [
        "build york-leeds: the company owns one of the 2 identical routes leeds-york "
        "already; a player may only ever buy one (rule 12)"
    ]


def test_k10_rule_12_a_route_owned_already_is_skipped_for_the_next_preference():
    # the case: leeds-york is Ann's already, so her order falls to york-malton
    s = owning(new(), {ANN: "leeds-york"})
    text = "build leeds-york | york-malton"
    assert void(s, ANN, text) == [
        "build leeds-york: the company owns one of the 2 identical routes leeds-york "
        "already; a player may only ever buy one (rule 12)"
    ]
    s, events = play(s, {ANN: text, BOB: NOTHING, CAT: NOTHING, DAN: NOTHING})
    assert events[5] == (
        "Ann (red) skips leeds-york: the company owns one of the 2 identical routes "
        "leeds-york already; a player may only ever buy one (rule 12)."
    )
    assert events[6] == "Ann (red) buys malton-york for 6 (cash 94)."
    assert s.last["skipped"] == [
        {
            "seat": ANN,
            "purchase": "leeds-york",
            "reason": "the company owns one of the 2 identical routes leeds-york already; "
            "a player may only ever buy one (rule 12)",
        }
    ]


def test_rule_12_routes_that_part_ways_may_both_be_bought():
    # leeds-wetherby and leeds-york leave Leeds side by side on the map but part
    s, _ = play(
        new(), {ANN: "build leeds-york leeds-wetherby", BOB: NOTHING, CAT: NOTHING, DAN: NOTHING}
    )
    assert len(s.routes_of(ANN)) == 2


def test_rule_35_the_first_legal_preference_when_the_players_turn_comes():
    # order of play Ann, Bob, Cat, Dan: Ann takes the single copy of york-malton first
    s, events = play(
        new(),
        {
            ANN: "build york-malton",
            BOB: "build malton-york | hull-beverley",
            CAT: NOTHING,
            DAN: NOTHING,
        },
    )
    assert route_owners(s, "malton-york") == (ANN,)
    assert route_owners(s, "beverley-hull") == (BOB,)
    assert events.index("Ann (red) buys malton-york for 6 (cash 94).") < events.index(
        "Bob (blue) skips malton-york: malton-york is taken (rule 35)."
    )


def test_rule_34_k10_a_stated_cost_is_checked_and_a_wrong_one_skipped():
    assert void(new(), ANN, "build leeds-york cost 6 | york-selby") == [
        "build leeds-york cost 6: leeds-york cost 7, not 6 (rule 34)"
    ]
    s, _ = RULES.apply(new(), ANN, order("build leeds-york cost 7"))
    assert ANN in s.pending and review(s, ANN, s.pending[ANN]) == []
    s, events = play(
        new(),
        {ANN: "build leeds-york cost 6 | york-selby", BOB: NOTHING, CAT: NOTHING, DAN: NOTHING},
    )
    assert "Ann (red) skips leeds-york cost 6: leeds-york cost 7, not 6 (rule 34)." in events
    assert route_owners(s, "selby-york") == (ANN,)


def test_k10_unknown_routes_and_places_are_skipped_with_the_reason():
    assert void(new(), ANN, "build leeds-scarborough | leeds-gotham | nothing") == [
        "build leeds-scarborough: there is no route leeds-scarborough on the map (K1)",
        "build leeds-gotham: there is no place 'gotham' on the map (K1)",
    ]


def test_rule_33_after_the_runs_the_poorest_builds_first():
    s = owning(new(), {ANN: "leeds-york", BOB: "york-selby"})
    s = at_round(s, 7, "AS-QH", cash={ANN: 50, BOB: 40, CAT: 60, DAN: 70})
    s, events = play(
        s,
        {
            ANN: "no runs\nbuild york-malton",
            BOB: "no runs\nbuild york-malton",
            CAT: "no runs",
            DAN: "no runs",
        },
    )
    assert route_owners(s, "malton-york") == (BOB,)
    assert "Ann (red) skips york-malton: malton-york is taken (rule 35)." in events


def test_rule_33_ties_reverse_the_previous_rounds_order_of_play():
    s = owning(new(), {ANN: "leeds-york", BOB: "york-selby"})
    s = at_round(s, 7, "AS-QH", cash={ANN: 50, BOB: 50, CAT: 60, DAN: 70})
    assert s.previous_order == (0, 1, 2, 3)  # Bob played after Ann, so builds first
    s, _ = play(
        s,
        {
            ANN: "no runs\nbuild york-malton",
            BOB: "no runs\nbuild york-malton",
            CAT: "no runs",
            DAN: "no runs",
        },
    )
    assert route_owners(s, "malton-york") == (BOB,)
    s = owning(new(), {ANN: "leeds-york", BOB: "york-selby"})
    s = at_round(s, 7, "AS-QH", cash={ANN: 50, BOB: 50, CAT: 60, DAN: 70})
    s.previous_order = (1, 0, 2, 3)
    s, _ = play(
        s,
        {
            ANN: "no runs\nbuild york-malton",
            BOB: "no runs\nbuild york-malton",
            CAT: "no runs",
            DAN: "no runs",
        },
    )
    assert route_owners(s, "malton-york") == (ANN,)


def test_building_rounds_follow_the_order_of_play_not_cash():
    s = at_round(new(), 2, cash={ANN: 90, BOB: 20})
    s, _ = play(s, {ANN: "build york-malton", BOB: "build york-malton", CAT: NOTHING, DAN: NOTHING})
    assert route_owners(s, "malton-york") == (ANN,)


def test_the_nth_route_of_a_set_is_that_of_its_list_cheapest_first():
    # the random bot picks one route of those it may buy without listing them all
    m = RULES.new_game({}, ["Ann", "Bob", "Cid"], 1).map
    every = (1 << len(m.routes)) - 1
    for bits in (every, every & ~0b1011 << 20, 1 << (len(m.routes) - 1), 0b1001):
        listed = m.routes_of(bits)
        assert [m.nth_route(bits, n) for n in range(len(listed))] == listed
        assert len(listed) == bits.bit_count()
