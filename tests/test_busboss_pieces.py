"""Rulings K10-K12: an order judged piece by piece, the entry limit counted as the round
begins, and each partner of a joint run owning a space of it."""

import pytest
from busboss_positions import (
    ANN,
    BOB,
    CAT,
    DAN,
    at_round,
    english,
    new,
    order,
    owning,
    play,
    refusal,
    route_owners,
    void,
)

from referee.busboss import game as busboss_game
from referee.busboss.engine import RULES

NO_RUNS = "no runs"


# K10: void entries and the rest of the order ---------------------------------------------------


def three_bad_entries():
    """Ann can run Harrogate to Ripon on her own routes; her other three entries break rules
    22, 24 and 25."""
    s = owning(
        new(),
        {
            ANN: "leeds-wetherby wetherby-boroughbridge boroughbridge-york leeds-harrogate "
            "harrogate-ripon ripon-boroughbridge",
            BOB: "leeds-york york-selby selby-goole goole-doncaster doncaster-barnsley",
            CAT: "york-malton",
        },
    )
    return at_round(s, 8, "5C-4S QH-4D 4S-3D AS-QH", cash={ANN: 50, BOB: 50, CAT: 50, DAN: 50})


BAD_ENTRIES = """run 5C-4S: harrogate-ripon
run QH-4D: york-malton
run 4S-3D: ripon-boroughbridge-york-selby-goole-doncaster-barnsley
run AS-QH: leeds-harrogate-ripon-boroughbridge-york
build harrogate-skipton"""


def test_k10_k4_an_entry_breaking_rule_22_24_or_25_is_void_and_the_rest_stands():
    s = three_bad_entries()
    assert void(s, ANN, BAD_ENTRIES) == [
        "run QH-4D: the journey uses none of your own routes (rule 22)",
        "run 4S-3D: the journey would pay 13 to other players; at most 10 is allowed (rule 24)",
        "run AS-QH: the journey is 11 spaces, more than twice the shortest journey of 5 (rule 25)",
    ]
    s, events = play(s, {ANN: BAD_ENTRIES, BOB: NO_RUNS, CAT: NO_RUNS, DAN: NO_RUNS})
    runs = {r["run"]: r for r in s.last["runs"]}
    assert runs["5C-4S"]["outcome"] == "run"  # the good entry runs ...
    assert [r["outcome"] for r in s.last["runs"][1:]] == ["offered again"] * 3
    assert route_owners(s, "harrogate-skipton") == (ANN,)  # ... and the build is made
    assert s.cash[ANN] == 50 + 30 - 7
    # the report names each void entry with its rule, then the runs not run in one line
    assert events[events.index("Run QH-4D (York to Malton): no valid entry.") + 1] == (
        "  Ann (red): the entry is void, the journey uses none of your own routes (rule 22)."
    )
    assert "Run 4S-3D (Ripon to Barnsley): no valid entry." in events
    assert "Run AS-QH (Leeds to York): no valid entry." in events
    assert "Not run: 3 runs, offered again next round (rule 21): QH-4D, 4S-3D, AS-QH." in events


def test_k10_what_still_refuses_a_whole_order():
    s = at_round(new(), 3)
    assert refusal(s, ANN, "round 4\nbuild leeds-york") == (
        "This order is for round 4, but the game is in round 3."
    )
    assert refusal(s, ANN, "no runs") == (
        "Round 3 is a building round: runs start in round 7. Send build lines only."
    )


def test_k10_the_player_is_told_at_once_what_will_not_count():
    s = three_bad_entries()
    assert busboss_game.held(s, ANN) is None  # nothing held before Ann's order
    s, _ = RULES.apply(s, ANN, order(BAD_ENTRIES))
    held = busboss_game.held(s, ANN)
    assert held.kind == "orders"
    assert tuple(map(str, held.notes)) == (
        "Your orders for round 8 are held until the round resolves; a new order sent "
        "before then replaces them.",
        "These pieces of them will not count (K10):",
        "  run QH-4D: the journey uses none of your own routes (rule 22).",
        "  run 4S-3D: the journey would pay 13 to other players; at most 10 is allowed (rule 24).",
        "  run AS-QH: the journey is 11 spaces, more than twice the shortest journey of 5 "
        "(rule 25).",
    )
    s, _ = RULES.apply(s, ANN, order("run 5C-4S: harrogate-ripon"))
    assert str(busboss_game.held(s, ANN).notes[1]) == "Every piece of them is valid now."


def test_k10_a_new_order_before_the_round_resolves_replaces_the_held_one():
    s = three_bad_entries()
    s, _ = RULES.apply(s, ANN, order(BAD_ENTRIES))
    s, events = RULES.apply(s, ANN, order("round 8\nno runs\nbuild harrogate-skipton"))
    assert english(events) == [
        "Ann (red) sent new orders for round 8; they replace those sent before."
    ]
    s, _ = play(s, {BOB: NO_RUNS, CAT: NO_RUNS, DAN: NO_RUNS})
    assert [r["outcome"] for r in s.last["runs"]] == ["offered again"] * 4
    assert s.cash[ANN] == 50 - 7


def test_k10_rules_37_39_a_round_decided_as_missed_is_not_replaced():
    s = at_round(new(), 3)
    s, _ = RULES.apply(s, ANN, busboss_game.adjudicate(s, ANN))
    held = busboss_game.held(s, ANN)
    assert held.kind == "orders" and held.text == ""
    assert tuple(map(str, held.notes)) == (
        "Your round 3 was decided as missed when the deadline passed (rules 37-39).",
    )
    assert refusal(s, ANN, "build leeds-york") == (
        "Your orders for round 3 were decided when the deadline passed, as a missed round "
        "(rules 37-39); they can no longer be changed."
    )


# K11: the entry limit is counted as the round begins -------------------------------------------


def six_lines(s):
    return "\n".join(f"run {o.cards[0]}-{o.cards[1]}: leeds-york" for o in s.offers[:6])


def leeds_york_runs(s):
    """Six runs from Leeds to York on offer (all three of Leeds' cards, both of York's:
    five pairs; the sixth names a pair again in the other order, as a separate run)."""
    return at_round(s, 8, "AS-QH KH-JC QD-QH AS-JC KH-QH QD-JC")


def test_k11_rule_20_a_player_dropped_during_the_round_counts_until_the_next_round():
    s = leeds_york_runs(owning(new(), {ANN: "leeds-york"}))
    s.missed[DAN] = 2
    s, _ = busboss_game.drop(s, DAN)  # three players left, but four were in as round 8 began
    assert RULES.view(s)["entry_limit"] == 5
    assert void(s, ANN, six_lines(s)) == [
        "run QD-JC: at most 5 runs may be entered in a round, and this would be run 6 "
        "(rule 20, K15)"
    ]
    s, _ = play(s, {ANN: six_lines(s), BOB: NO_RUNS, CAT: NO_RUNS})
    assert s.round == 9 and RULES.view(s)["entry_limit"] == 6  # K11: three as round 9 begins
    assert "enter up to 6 of the" in str(RULES.awaiting(s)[0].prompt)


def test_k11_rule_20_counts_players_left_not_the_players_the_game_began_with():
    s = owning(new(), {ANN: "leeds-york"})
    s.missed[DAN] = 2
    s, _ = busboss_game.drop(s, DAN)
    s, _ = play(s, {ANN: "build nothing", BOB: "build nothing", CAT: "build nothing"})
    s = leeds_york_runs(s)
    assert s.round_players == 3 and RULES.view(s)["entry_limit"] == 6
    assert void(s, ANN, six_lines(s)) == []
    s, _ = play(s, {ANN: six_lines(s), BOB: NO_RUNS, CAT: NO_RUNS})
    assert [r["outcome"] for r in s.last["runs"]] == ["run"] * 6


@pytest.mark.parametrize("players, limit", [(3, 6), (4, 5), (5, 5), (6, 5)])
def test_k11_rule_20_the_limit_by_players_in_the_game(players, limit):
    assert RULES.view(at_round(new(players), 7))["entry_limit"] == limit


# K12: joint runs ----------------------------------------------------------------------------------


def coast_run():
    """Leeds to Beverley round by the coast: Ann's leeds-york, Cat's roads to Scarborough,
    Dan's to Bridlington, Bob's last leg to Beverley."""
    s = owning(
        new(),
        {
            ANN: "leeds-york",
            CAT: "york-malton malton-scarborough",
            DAN: "scarborough-bridlington",
            BOB: "bridlington-beverley",
        },
    )
    return at_round(s, 9, "AS-5D", cash={ANN: 40, BOB: 60, CAT: 50, DAN: 50})


def test_k12_rule_24_the_cap_of_ten_holds_for_the_partners_payment_together():
    # 13 to others: 6 and 7 each, under ten, but the company pays 13
    s = coast_run()
    journey = "leeds-york-malton-scarborough-bridlington-beverley"
    s, events = play(
        s,
        {
            ANN: f"run AS-5D with blue: {journey}",
            BOB: "run AS-5D with red",
            CAT: NO_RUNS,
            DAN: NO_RUNS,
        },
    )
    assert s.last["runs"][0]["void"] == [
        {
            "seats": [ANN, BOB],
            "reason": "the partners would pay 13 to other players together; at most 10 is "
            "allowed (rule 24, K12)",
        }
    ]
    assert s.cash == [40, 60, 50, 50]


def joint_with_a_partner_owning_nothing_of_it():
    s = owning(new(), {ANN: "leeds-york york-malton", BOB: "hull-beverley"})
    return at_round(s, 10, "AS-4D", cash={ANN: 40, BOB: 60, CAT: 50, DAN: 50})


def test_k12_rule_22_a_partner_who_owns_no_space_of_the_journey_voids_the_joint_run():
    s = joint_with_a_partner_owning_nothing_of_it()
    text = "run AS-4D with blue: leeds-york-malton"
    assert void(s, ANN, text) == [
        "run AS-4D: the journey uses no route of blue's: in a joint run each partner must "
        "own at least one space of it (rule 22, K12)"
    ]
    s, _ = play(s, {ANN: text, BOB: "run AS-4D with red", CAT: NO_RUNS, DAN: NO_RUNS})
    [run] = s.last["runs"]
    assert run["outcome"] == "offered again" and run["entrants"] == []
    assert run["void"][0]["seats"] == [ANN, BOB] and "(rule 22, K12)" in run["void"][0]["reason"]
    assert s.cash[BOB] == 60  # no half of the points for Bob


def test_k12_each_partner_owning_a_space_may_run_jointly():
    s = owning(new(), {ANN: "leeds-york", BOB: "york-malton"})
    s = at_round(s, 10, "AS-4D", cash={ANN: 40, BOB: 60, CAT: 50, DAN: 50})
    s, _ = play(
        s,
        {
            ANN: "run AS-4D with blue: leeds-york-malton",
            BOB: "run AS-4D with red",
            CAT: NO_RUNS,
            DAN: NO_RUNS,
        },
    )
    [company] = s.last["runs"][0]["entrants"]
    assert company["seats"] == [ANN, BOB] and company["points"] == [15, 15]
