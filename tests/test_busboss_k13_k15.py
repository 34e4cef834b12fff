"""Rulings K13-K15: a journey is its routes, doubled routes in journeys, and what rule 20
counts. A game played by the earlier rulings (``rulings: 1``, an old campaign's) keeps what
its orders did then, so that its log replays as it was played."""

import json
import shutil
from pathlib import Path

from busboss_positions import ANN, BOB, CAT, DAN, at_round, new, owning, play, void

from referee.busboss.engine import RULES
from referee.busboss.state import BusBossState
from referee.store.campaign import Campaign

NO_RUNS = "no runs"
OLD_BUSBOSS = Path(__file__).parent / "fixtures" / "old-logs" / "busboss-demo"

# K15 -----------------------------------------------------------------------------------------


def five_runs_from_leeds(rulings=None):
    """Ann owns the roads out of Leeds; five runs she can make are on offer, and 9C-3D."""
    s = owning(
        new(rulings=rulings),
        {ANN: "leeds-york leeds-harrogate bradford-leeds leeds-wakefield leeds-selby"},
    )
    return at_round(s, 7, "AS-QH KH-JC QD-4C AC-5C JD-2S 9C-3D")


FIVE_ENTRIES = [
    "run AS-QH: leeds-york",
    "run KH-JC: leeds-york",
    "run QD-4C: leeds-selby",
    "run AC-5C: bradford-leeds-harrogate",
    "run JD-2S: bradford-leeds-wakefield",
]


def with_line(second: str) -> str:
    return "\n".join(FIVE_ENTRIES[:1] + [second] + FIVE_ENTRIES[1:])


def test_k15_a_line_naming_a_run_not_on_offer_uses_up_none_of_the_limit():
    text = with_line("run 2D-3D: leeds-york")
    assert void(five_runs_from_leeds(), ANN, text) == [
        "run 2D-3D: no such run is on offer this round (the runs on offer: AS-QH, KH-JC, "
        "QD-4C, AC-5C, JD-2S, 9C-3D) (rules 16, 21)"
    ]
    s, _ = play(five_runs_from_leeds(), {ANN: text, BOB: NO_RUNS, CAT: NO_RUNS, DAN: NO_RUNS})
    assert [r["outcome"] for r in s.last["runs"]] == ["run"] * 5 + ["offered again"]
    assert s.cash[ANN] == 100 + 5 * 30


def test_k15_a_run_entered_again_uses_up_none_of_the_limit():
    text = with_line("run QH-AS: york-leeds")
    assert void(five_runs_from_leeds(), ANN, text) == [
        "run QH-AS: the run is entered on an earlier line (rule 20)"
    ]
    s, _ = play(five_runs_from_leeds(), {ANN: text, BOB: NO_RUNS, CAT: NO_RUNS, DAN: NO_RUNS})
    assert s.cash[ANN] == 100 + 5 * 30


def test_k15_past_the_limit_the_later_lines_are_void():
    s = owning(five_runs_from_leeds(), {ANN: "barnsley-wakefield"})
    s = at_round(s, 7, "AS-QH KH-JC QD-4C AC-5C JD-2S QC-3D")
    text = with_line("run 9C-3D: leeds-york") + "\nrun QC-3D: leeds-wakefield-barnsley"
    assert void(s, ANN, text) == [
        "run 9C-3D: no such run is on offer this round (the runs on offer: AS-QH, KH-JC, "
        "QD-4C, AC-5C, JD-2S, QC-3D) (rules 16, 21)",
        "run QC-3D: at most 5 runs may be entered in a round, and this would be run 6 "
        "(rule 20, K15)",
    ]


def test_before_k15_rule_20_counted_the_lines_of_the_order():
    text = with_line("run 2D-3D: leeds-york")
    s = five_runs_from_leeds(rulings=1)
    assert void(s, ANN, text)[-1] == (
        "run JD-2S: at most 5 runs may be entered in a round, and this is run line 6 (rule 20)"
    )
    s, _ = play(s, {ANN: text, BOB: NO_RUNS, CAT: NO_RUNS, DAN: NO_RUNS})
    assert s.cash[ANN] == 100 + 4 * 30


# K13 -----------------------------------------------------------------------------------------


def leeds_to_malton(rulings=None):
    """Ann owns leeds-york, which passes the Bramham junction, Bob york-malton."""
    s = owning(new(rulings=rulings), {ANN: "leeds-york", BOB: "york-malton"})
    return at_round(s, 10, "AS-4D", cash={ANN: 40, BOB: 60, CAT: 50, DAN: 50})


BRAMHAM_UNNAMED = "run AS-4D with blue: leeds-york-malton"
BRAMHAM_NAMED = "run AS-4D with red: leeds-bramham-york-malton"


def test_k13_partners_who_write_the_same_routes_differently_run_jointly():
    s, events = play(
        leeds_to_malton(),
        {ANN: BRAMHAM_UNNAMED, BOB: BRAMHAM_NAMED, CAT: NO_RUNS, DAN: NO_RUNS},
    )
    [run] = s.last["runs"]
    assert run["outcome"] == "run" and run["void"] == []
    [company] = run["entrants"]
    assert company["seats"] == [ANN, BOB] and company["points"] == [15, 15]
    # the report writes the journey one way, whichever partner's spelling
    assert company["journey"] == "leeds-york-malton"
    assert any(
        e.startswith("  Ann (red) and Bob (blue) on leeds-york-malton: 9 spaces") for e in events
    )


def test_k13_a_journey_naming_a_junction_it_passes_is_reported_without_it():
    s = owning(new(), {ANN: "leeds-york"})
    s = at_round(s, 7, "AS-QH")
    s, _ = play(s, {ANN: "run AS-QH: leeds-bramham-york", BOB: NO_RUNS, CAT: NO_RUNS, DAN: NO_RUNS})
    assert s.last["runs"][0]["entrants"][0]["journey"] == "leeds-york"


def test_k13_partners_on_other_routes_still_do_not_match():
    s = owning(leeds_to_malton(), {ANN: "leeds-wetherby wetherby-york"})
    s, _ = play(
        s,
        {
            ANN: BRAMHAM_UNNAMED,
            BOB: "run AS-4D with red: leeds-wetherby-york-malton",
            CAT: NO_RUNS,
            DAN: NO_RUNS,
        },
    )
    assert s.last["runs"][0]["void"] == [
        {"seats": [ANN, BOB], "reason": "the partners' journeys do not match (rule 26)"}
    ]


def test_before_k13_the_same_routes_written_differently_did_not_match():
    s, _ = play(
        leeds_to_malton(rulings=1),
        {ANN: BRAMHAM_UNNAMED, BOB: BRAMHAM_NAMED, CAT: NO_RUNS, DAN: NO_RUNS},
    )
    assert s.last["runs"][0]["void"] == [
        {"seats": [ANN, BOB], "reason": "the partners' journeys do not match (rule 26)"}
    ]


# K14 -----------------------------------------------------------------------------------------


def both_copies(rulings=None):
    """Ann and Bob each own a copy of the doubled leeds-york."""
    s = owning(new(rulings=rulings), {ANN: "leeds-york", BOB: "leeds-york"})
    return at_round(s, 10, "AS-QH", cash={ANN: 40, BOB: 60, CAT: 50, DAN: 50})


def test_k14_partners_owning_a_copy_each_of_a_doubled_route_both_own_its_spaces():
    text = "run AS-QH with blue: leeds-york"
    assert void(both_copies(), ANN, text) == []
    s, _ = play(both_copies(), {ANN: text, BOB: "run AS-QH with red", CAT: NO_RUNS, DAN: NO_RUNS})
    [run] = s.last["runs"]
    assert run["outcome"] == "run" and run["entrants"][0]["points"] == [15, 15]


def test_k14_switching_copies_at_a_junction_between_partners_is_no_change_of_colour():
    text = "run AS-QH with blue: leeds-bramham(red)-york(blue)"
    s, _ = play(both_copies(), {ANN: text, BOB: "run AS-QH with red", CAT: NO_RUNS, DAN: NO_RUNS})
    [company] = s.last["runs"][0]["entrants"]
    assert (company["spaces"], company["changes"]) == (5, 0)


def test_before_k14_the_partner_whose_copy_went_unused_owned_no_space():
    text = "run AS-QH with blue: leeds-york"
    assert void(both_copies(rulings=1), ANN, text) == [
        "run AS-QH: the journey uses no route of blue's: in a joint run each partner must "
        "own at least one space of it (rule 22, K12)"
    ]
    assert void(both_copies(rulings=1), ANN, "run AS-QH with blue: leeds-bramham-york(blue)") == []


# the rulings a game is played by ---------------------------------------------------------------


def test_a_game_keeps_its_rulings_in_its_data():
    s = new(rulings=1)
    assert s.rulings == 1 and BusBossState.from_data(RULES.to_data(s)).rulings == 1
    assert new().rulings == 2
    data = RULES.to_data(new())
    del data["rulings"]  # the data of a game from before K13-K15
    assert BusBossState.from_data(data).rulings == 1


def test_an_old_campaign_is_played_by_the_rulings_it_began_with(tmp_path):
    shutil.copytree(OLD_BUSBOSS, tmp_path / "demo")
    campaign = Campaign.load(tmp_path / "demo")
    assert "rulings" not in campaign.options and campaign.game_options()["rulings"] == 1
    table = campaign.table()
    assert table.state.rulings == 1
    expected = json.loads((OLD_BUSBOSS / "expected_state.json").read_text())
    assert RULES.to_data(table.state)["cash"] == expected["cash"]
