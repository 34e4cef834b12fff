"""Operating rounds: rules 13-33 with rulings K3-K6, on the Yorkshire map."""

import random

import pytest
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
from referee.busboss.journeys import network, resolve
from referee.busboss.map import CARDS, load_map
from referee.busboss.runs import DIE, award, deal_runs, race, share

NO_RUNS = "no runs"


def entry(s, seat, text):
    """Applies one seat's order alone (nothing resolves while others are still out)."""
    return RULES.apply(s, seat, order(text))[0]


# K3: dealing the runs --------------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(5))
def test_k3_the_cards_are_dealt_in_pairs_each_card_once(seed):
    m = load_map()
    pairs = deal_runs(m, random.Random(seed))
    assert len(pairs) == 26
    assert sorted(c for pair in pairs for c in pair) == sorted(CARDS)
    for a, b in pairs:  # rule 17 and K3: no short runs, no run to itself
        assert m.card_destination[a] != m.card_destination[b]
        assert m.distance(a, b) >= 3


def test_k3_a_run_still_on_offer_is_not_dealt_again():
    m = load_map()
    first = deal_runs(m, random.Random(4))
    again = deal_runs(m, random.Random(4), on_offer=first[:20])
    assert not {frozenset(p) for p in first[:20]} & {frozenset(p) for p in again}


def test_rules_14_15_runs_per_round_and_every_card_once_in_each_half():
    s = at_round(new(), 6)
    s, _ = play(s, dict.fromkeys(range(4), "build nothing"))
    new_runs = {}
    for round_no in range(7, 13):
        assert s.round == round_no
        new_runs[round_no] = [o.cards for o in s.offers if o.since == round_no]
        s, _ = play(s, dict.fromkeys(range(4), NO_RUNS))
    assert [len(new_runs[r]) for r in range(7, 13)] == [9, 9, 8, 9, 9, 8]  # rule 14
    for half in ((7, 8, 9), (10, 11, 12)):  # rule 15
        cards = [c for r in half for pair in new_runs[r] for c in pair]
        assert sorted(cards) == sorted(CARDS)


# rule 31 and 32: points ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "entrants, points",
    [
        (1, [30]),
        (2, [20, 10]),
        (3, [16, 9, 5]),
        (4, [13, 8, 5, 4]),
        (5, [11, 7, 5, 4, 3]),
        (6, [10, 6, 5, 4, 3, 2]),
    ],
)
def test_rule_31_points_for_each_place(entrants, points):
    throws = [3 + i for i in range(entrants)]  # everyone arrives on a different throw
    places, won = award(throws[::-1], list(range(entrants)))
    assert won[::-1] == points and places[::-1] == list(range(1, entrants + 1))


def test_rule_32_three_entrants_two_joint_first():
    places, won = award([4, 4, 6], poorness=[2, 1, 3])  # the second entrant is poorer
    assert won == [12, 13, 5] and places == [1, 1, 3]


def test_rule_32_four_entrants_three_joint_first():
    places, won = award([5, 5, 5, 7], poorness=[3, 1, 2, 0])
    assert won == [8, 9, 9, 4] and places == [1, 1, 1, 4]


def test_rule_32_four_entrants_three_joint_second():
    places, won = award([6, 4, 6, 6], poorness=[1, 9, 0, 2])
    assert won == [6, 13, 6, 5] and places == [2, 1, 2, 2]


def test_shares_go_odd_amounts_to_the_favoured():
    assert share(25, ["poorer", "richer"]) == [13, 12]
    assert share(26, list("abc")) == [9, 9, 8]
    assert share(5, ["richer", "poorer"]) == [3, 2]


# K5: the race ----------------------------------------------------------------------------------


def test_k5_every_entrant_throws_the_average_die_until_it_arrives():
    distances = [7, 13, 20, 3]
    throws = race(distances, random.Random(11))
    for d, thrown in zip(distances, throws):
        assert set(thrown) <= set(DIE) and DIE == (2, 3, 3, 4, 4, 5)
        assert sum(thrown) >= d > sum(thrown[:-1])


def test_k5_a_race_on_the_map_with_throws_places_and_points():
    s = owning(new(), {ANN: "leeds-york", BOB: "leeds-york"})
    s = at_round(s, 8, "AS-QH", cash={ANN: 30, BOB: 31, CAT: 50, DAN: 50})
    s, events = play(
        s, {ANN: "run AS-QH: leeds-york", BOB: "run QH-AS: york-leeds", CAT: NO_RUNS, DAN: NO_RUNS}
    )
    [run] = s.last["runs"]
    assert run["outcome"] == "run"
    ann, bob = run["entrants"]
    assert ann["seats"] == [ANN] and ann["spaces"] == 5 and ann["changes"] == 0
    for e in (ann, bob):
        assert sum(e["throws"]) >= 5 > sum(e["throws"][:-1])
        line = (
            f"on {e['journey']}: 5 spaces, 5 to go; throws "
            f"{' '.join(map(str, e['throws']))}: arrives on throw {len(e['throws'])}."
        )
        assert any(line in ev for ev in events)
    if len(ann["throws"]) == len(bob["throws"]):
        assert ann["points"] == [15] and bob["points"] == [15]
    else:
        first, second = sorted((ann, bob), key=lambda e: len(e["throws"]))
        assert (first["points"], second["points"]) == ([20], [10])
    assert s.cash[ANN] == 30 + ann["points"][0] and s.cash[BOB] == 31 + bob["points"][0]


def test_k5_and_rule_28_each_change_of_colour_adds_a_space():
    s = owning(new(), {ANN: "leeds-wakefield york-malton", BOB: "leeds-york"})
    net = network(s.map, s.owners)
    journey = order("run 2S-4D: wakefield-leeds-york-malton").runs[0].journey
    plan = resolve(net, (ANN,), ("2S", "4D"), journey, s.colours)
    assert (plan.spaces, plan.changes, plan.distance, plan.paid) == (11, 2, 13, 5)
    joint = resolve(
        net,
        (ANN, BOB),
        ("2S", "4D"),
        plan.journey(s.owners, s.colours),
        s.colours,
    )
    assert (joint.changes, joint.distance, joint.paid) == (0, 11, 0)  # K6: partners


# K4: entries -----------------------------------------------------------------------------------


def york_barnsley(extra_bob: str):
    s = owning(new(), {ANN: "york-selby", BOB: "selby-goole goole-doncaster " + extra_bob})
    return at_round(s, 8, "QH-3D", cash={ANN: 20, BOB: 20, CAT: 20, DAN: 20})


def test_rule_23_and_24_paying_others_up_to_ten():
    s = york_barnsley("doncaster-barnsley")
    s, events = play(
        s,
        {
            ANN: "run QH-3D: york-selby-goole-doncaster-barnsley",
            BOB: NO_RUNS,
            CAT: NO_RUNS,
            DAN: NO_RUNS,
        },
    )
    assert "  Ann (red) pays Bob (blue) 10." in events
    assert s.cash[ANN] == 20 + 30 - 10 and s.cash[BOB] == 20 + 10


def test_rule_24_k10_over_the_cap_of_ten_the_entry_is_void_and_the_rest_stands():
    s = york_barnsley("doncaster-rotherham rotherham-barnsley")
    text = "run QH-3D: york-selby-goole-doncaster-rotherham-barnsley\nbuild york-malton"
    assert void(s, ANN, text) == [
        "run QH-3D: the journey would pay 11 to other players; at most 10 is allowed (rule 24)"
    ]
    s, events = play(s, {ANN: text, BOB: NO_RUNS, CAT: NO_RUNS, DAN: NO_RUNS})
    assert (
        "  Ann (red): the entry is void, the journey would pay 11 to other players; at most "
        "10 is allowed (rule 24)." in events
    )
    assert s.last["runs"][0]["outcome"] == "offered again"
    assert route_owners(s, "malton-york") == (ANN,)  # K10: the build stands


def test_rule_22_k10_a_run_must_use_a_space_of_ones_own_or_its_entry_is_void():
    s = york_barnsley("doncaster-barnsley")
    assert void(s, CAT, "run QH-3D: york-selby-goole-doncaster-barnsley") == [
        "run QH-3D: the journey uses none of your own routes (rule 22)"
    ]


def test_rule_25_at_most_twice_the_shortest_journey():
    s = owning(
        new(),
        {
            BOB: "leeds-york",
            ANN: "leeds-wetherby wetherby-boroughbridge boroughbridge-york "
            "leeds-harrogate harrogate-ripon ripon-boroughbridge",
        },
    )
    s = at_round(s, 7, "AS-QH")
    assert void(s, ANN, "run AS-QH: leeds-wetherby-boroughbridge-york") == []  # 10 = 2 x 5
    assert void(s, ANN, "run AS-QH: leeds-harrogate-ripon-boroughbridge-york") == [
        "run AS-QH: the journey is 11 spaces, more than twice the shortest journey of 5 (rule 25)"
    ]


def others_copies(rulings=None):
    return at_round(
        owning(new(rulings=rulings), {ANN: "york-malton", BOB: "leeds-york", CAT: "leeds-york"}),
        7,
        "AS-4D",
        cash={ANN: 20, BOB: 20, CAT: 20, DAN: 20},
    )


def test_k4_before_k14_where_several_could_serve_the_journey_names_whose_route():
    assert void(others_copies(rulings=1), ANN, "run AS-4D: leeds-york-malton") == [
        "run AS-4D: leeds-york is owned by blue and green: name whose route you use, "
        "e.g. leeds-york(blue) (K4)"
    ]


def test_k14_an_unnamed_leg_on_others_copies_takes_the_earlier_owner_in_play_order():
    s = others_copies()
    assert void(s, ANN, "run AS-4D: leeds-york-malton") == []
    s, events = play(
        s, {ANN: "run AS-4D: leeds-york-malton", BOB: NO_RUNS, CAT: NO_RUNS, DAN: NO_RUNS}
    )
    assert "  Ann (red) pays Bob (blue) 5." in events and s.cash[BOB] == 25


def test_k4_a_journey_may_name_whose_route_a_leg_uses():
    s = others_copies()
    assert void(s, ANN, "run AS-4D: leeds-york(purple)-malton") == [
        "run AS-4D: purple has no route leeds-york (K4)"
    ]
    s, events = play(
        s, {ANN: "run AS-4D: leeds-york(green)-malton", BOB: NO_RUNS, CAT: NO_RUNS, DAN: NO_RUNS}
    )
    assert "  Ann (red) pays Cat (green) 5." in events and s.cash[CAT] == 25


def test_k4_the_journey_runs_between_the_runs_destinations_over_owned_routes():
    s = at_round(owning(new(), {ANN: "leeds-york"}), 7, "AS-4D")
    assert void(s, ANN, "run AS-4D: leeds-york") == [
        "run AS-4D: the journey must run between leeds and malton (K4)"
    ]
    assert void(s, ANN, "run AS-4D: leeds-york-malton") == [
        "run AS-4D: nobody owns malton-york yet (K4)"
    ]
    assert void(s, ANN, "run AS-4D: leeds-hull-malton") == [
        "run AS-4D: no route runs from leeds to hull: a journey names each town or junction "
        "where it changes route (K4, rule 29)"
    ]
    assert void(s, ANN, "run AS-QH: leeds-york") == [
        "run AS-QH: no such run is on offer this round (the runs on offer: AS-4D) (rules 16, 21)"
    ]


def test_rule_19_a_run_may_start_or_end_at_either_place_of_a_destination():
    s = owning(
        new(),
        {ANN: "carterbar-newcastle", BOB: "newcastle-morpeth morpeth-alnwick alnwick-coldstream"},
    )
    s = at_round(s, 9, "10C-QS", cash={ANN: 10, BOB: 10, CAT: 10, DAN: 10})
    assert void(s, BOB, "run 10C-QS: newcastle-morpeth-alnwick-berwick") == [
        "run 10C-QS: the journey must run between coldstream or carterbar and newcastle (K4)"
    ]
    s, events = play(
        s,
        {
            ANN: "run 10C-QS: carterbar-newcastle",
            BOB: "run 10C-QS: newcastle-morpeth-alnwick-coldstream",
            CAT: NO_RUNS,
            DAN: NO_RUNS,
        },
    )
    assert [e["spaces"] for e in s.last["runs"][0]["entrants"]] == [11, 15]


def six_runs(players: int):
    s = owning(
        new(players),
        {
            ANN: "leeds-york leeds-harrogate bradford-leeds leeds-wakefield "
            "leeds-selby barnsley-wakefield bradford-halifax"
        },
    )
    return at_round(s, 7, "AS-QH KH-JC QD-4C AC-5C JD-2S 2D-3D")


SIX_ENTRIES = """run AS-QH: leeds-york
run KH-JC: leeds-york
run QD-4C: leeds-selby
run AC-5C: bradford-leeds-harrogate
run JD-2S: bradford-leeds-wakefield
run 2D-3D: halifax-bradford-leeds-wakefield-barnsley"""


def test_rule_20_k10_five_entries_or_six_with_three_players_and_later_lines_are_void():
    reason = "at most 5 runs may be entered in a round, and this would be run 6 (rule 20, K15)"
    assert void(six_runs(4), ANN, SIX_ENTRIES) == [f"run 2D-3D: {reason}"]
    s, events = play(six_runs(4), {ANN: SIX_ENTRIES, BOB: NO_RUNS, CAT: NO_RUNS, DAN: NO_RUNS})
    assert [r["outcome"] for r in s.last["runs"]] == ["run"] * 5 + ["offered again"]
    assert events[5] == f"Ann (red): run 2D-3D is void, {reason}."
    assert s.last["void"] == [{"seats": [ANN], "piece": "run 2D-3D", "reason": reason}]
    s, events = play(six_runs(3), {ANN: SIX_ENTRIES, BOB: NO_RUNS, CAT: NO_RUNS})
    assert [r["outcome"] for r in s.last["runs"]] == ["run"] * 6
    assert s.cash[ANN] == 100 + 6 * 30


def test_k10_a_run_is_entered_once_and_a_second_line_for_it_is_void():
    assert void(six_runs(4), ANN, "run AS-QH: leeds-york\nrun QH-AS: york-leeds") == [
        "run QH-AS: the run is entered on an earlier line (rule 20)"
    ]


# rule 21 and K3: runs not made -----------------------------------------------------------------


def test_rule_21_a_run_nobody_makes_is_offered_again_and_marked():
    s = at_round(owning(new(), {ANN: "leeds-york"}), 7, "AS-QH 9C-3D")
    s, events = play(s, {ANN: "run AS-QH: leeds-york", BOB: NO_RUNS, CAT: NO_RUNS, DAN: NO_RUNS})
    assert "Not run: 9C-3D, offered again next round (rule 21)." in events
    assert [(o.cards, o.since) for o in s.offers] == [(("9C", "3D"), 7)]
    [run] = RULES.view(s)["runs"]
    assert run["name"] == "9C-3D" and run["reoffered"] and run["since"] == 7
    assert run["destinations"] == ["Cumbria", "Barnsley"]
    assert run["places"] == [["alston", "brough"], ["barnsley"]]


def test_k3_no_run_is_carried_out_of_round_12():
    s = at_round(new(), 12, "9C-3D AS-QH", since=10)
    s, events = play(s, dict.fromkeys(range(4), NO_RUNS))
    assert s.offers == () and s.phase == "over"
    assert [r["outcome"] for r in s.last["runs"]] == ["lapsed", "lapsed"]
    assert "Not run: 2 runs; no run is carried out of round 12 (K3): 9C-3D, AS-QH." in events
    assert not [e for e in events if e.startswith("Run ")]  # one line for them all
    assert str(RULES.result(s).reason) == "round 12 is over"


# rule 26 and K6: joint runs --------------------------------------------------------------------


def joint_position():
    s = owning(
        new(),
        {
            ANN: "leeds-york leeds-wetherby wetherby-york",
            BOB: "york-malton",
            CAT: "malton-scarborough",
        },
    )
    return at_round(s, 10, "AS-5S", cash={ANN: 40, BOB: 60, CAT: 50, DAN: 50})


def test_k6_a_joint_run_shares_revenue_and_payments_and_runs_one_bus():
    s, events = play(
        joint_position(),
        {
            ANN: "run AS-5S with blue: leeds-york-malton-scarborough",
            BOB: "run AS-5S with red",
            CAT: NO_RUNS,
            DAN: NO_RUNS,
        },
    )
    [run] = s.last["runs"]
    [company] = run["entrants"]
    assert company["seats"] == [ANN, BOB]
    assert (company["spaces"], company["changes"]) == (14, 1)  # none between partners
    assert company["points"] == [15, 15]
    assert company["paid"] == [2, 3]  # the odd amount falls on the richer
    assert (s.cash[ANN], s.cash[BOB], s.cash[CAT]) == (40 + 15 - 2, 60 + 15 - 3, 50 + 5)
    assert (
        "  Ann (red) and Bob (blue) share 30 points (Ann 15, Bob 15) and 5 paid "
        "(Ann 2, Bob 3) (K6)."
    ) in events


def test_k6_both_partners_may_give_the_journey_if_it_matches():
    s, _ = play(
        joint_position(),
        {
            ANN: "run AS-5S with blue: leeds-york-malton-scarborough",
            BOB: "run AS-5S with red: scarborough-malton-york-leeds",
            CAT: NO_RUNS,
            DAN: NO_RUNS,
        },
    )
    assert s.last["runs"][0]["outcome"] == "run"


def test_k6_journeys_that_do_not_match_void_the_joint_run():
    s, events = play(
        joint_position(),
        {
            ANN: "run AS-5S with blue: leeds-york-malton-scarborough",
            BOB: "run AS-5S with red: leeds-wetherby-york-malton-scarborough",
            CAT: NO_RUNS,
            DAN: NO_RUNS,
        },
    )
    [run] = s.last["runs"]
    assert run["outcome"] == "offered again"
    assert run["void"] == [
        {"seats": [ANN, BOB], "reason": "the partners' journeys do not match (rule 26)"}
    ]
    assert (
        "  Ann (red) and Bob (blue): the entry is void, the partners' journeys do not "
        "match (rule 26)." in events
    )
    assert s.cash[ANN] == 40 and s.cash[BOB] == 60


def test_k6_a_partner_who_does_not_join_voids_the_entry():
    s, _ = play(
        joint_position(),
        {
            ANN: "run AS-5S with blue: leeds-york-malton-scarborough",
            BOB: NO_RUNS,
            CAT: NO_RUNS,
            DAN: NO_RUNS,
        },
    )
    [run] = s.last["runs"]
    assert run["void"] == [
        {
            "seats": [ANN],
            "reason": "Bob (blue) did not enter it (rule 26); a joint run is void for all its "
            "partners (rule 26), and the entry still takes its place in Ann's limit of runs "
            "(rule 20, K16)",
        }
    ]


def test_k6_one_partner_must_give_the_journey():
    s, _ = play(
        joint_position(),
        {ANN: "run AS-5S with blue", BOB: "run AS-5S with red", CAT: NO_RUNS, DAN: NO_RUNS},
    )
    assert s.last["runs"][0]["void"][0]["reason"] == "no partner gave the journey (rule 26)"


def test_rule_26_k10_two_or_three_players_to_a_joint_run_or_the_entry_is_void():
    s = joint_position()
    assert void(s, ANN, "run AS-5S with blue green yellow") == [
        "run AS-5S: a joint run is for two or three players (rule 26)"
    ]
    assert void(s, ANN, "run AS-5S with red") == [
        "run AS-5S: a company cannot run jointly with itself (rule 26)"
    ]
    assert void(s, ANN, "run AS-5S with orange") == [
        "run AS-5S: no player in the game plays orange (rule 26)"
    ]
