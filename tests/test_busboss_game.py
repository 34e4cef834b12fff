"""The game contract of Bus Boss: simultaneous decisions, prompts, views, plain data, results."""

import json
import random

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
)

from referee.busboss.engine import RULES
from referee.busboss.orders import Build, Order, Purchase
from referee.contract import IllegalOrder

NOTHING = "build nothing"


def test_the_engine_describes_itself_and_checks_a_new_game():
    assert (RULES.name, RULES.title, RULES.min_players, RULES.max_players) == (
        "busboss",
        "Bus Boss",
        3,
        6,
    )
    with pytest.raises(ValueError, match="for 3 to 6 players, not 2"):
        RULES.new_game({}, ["a", "b"], 1)
    # the options are read by the game's description (issue 21): an unknown one is named
    with pytest.raises(ValueError, match="options.speed: unknown setting; known settings: map"):
        RULES.new_game({"speed": 2}, ["a", "b", "c"], 1)
    with pytest.raises(ValueError, match="no Bus Boss bot 'clever'"):
        RULES.bot("clever")


def test_every_seat_owes_one_decision_a_round_and_the_last_resolves_it():
    s = new()
    assert [(d.seat, d.kind) for d in RULES.awaiting(s)] == [(x, "orders") for x in range(4)]
    s, events = RULES.apply(s, CAT, order("build leeds-york"))
    assert english(events) == ["Cat (green) sent orders for round 1."]  # nothing given away
    assert [d.seat for d in RULES.awaiting(s)] == [ANN, BOB, DAN]
    assert s.routes_of(CAT) == [] and s.cash[CAT] == 100  # bought at resolution
    s, events = RULES.apply(s, CAT, order("build hull-beverley"))  # a change of mind
    assert english(events) == [
        "Cat (green) sent new orders for round 1; they replace those sent before."
    ]
    s, events = play(s, {ANN: NOTHING, BOB: NOTHING, DAN: NOTHING})
    assert "Round 1 is resolved." in events and "Round 2 begins." in events
    assert [s.map.routes[i].name for i in s.routes_of(CAT)] == ["beverley-hull"]
    assert s.round == 2 and s.pending == {}


def test_the_state_given_is_never_changed():
    s = new()
    before = RULES.to_data(s)
    RULES.apply(s, ANN, order("build leeds-york"))
    s2 = s
    for seat in range(4):
        s2, _ = RULES.apply(s2, seat, order(NOTHING))
    assert RULES.to_data(s) == before


def test_operating_rounds_owe_operate_decisions():
    s = at_round(new(), 7, "AS-QH")
    assert {d.kind for d in RULES.awaiting(s)} == {"orders"}
    assert "an operating round" in str(RULES.awaiting(s)[0].prompt)
    assert str(RULES.awaiting(s)[0].prompt) == (
        "Round 7, an operating round: enter up to 5 of the 1 run on offer, then buy routes "
        "after the runs."
    )


def test_orders_for_another_round_or_of_the_wrong_kind_are_refused():
    s = new()
    assert refusal(s, ANN, "round 2\nbuild leeds-york") == (
        "This order is for round 2, but the game is in round 1."
    )
    assert refusal(s, ANN, "no runs") == (
        "Round 1 is a building round: runs start in round 7. Send build lines only."
    )
    s = at_round(s, 7, "AS-QH")
    with pytest.raises(IllegalOrder):
        RULES.apply(s, ANN, "no runs")  # text, not an order


def test_an_operating_rounds_order_with_build_lines_only_enters_no_runs():
    s = at_round(new(), 7, "AS-QH")
    [entry] = RULES.parse("build leeds-york")
    after, events = RULES.apply(s, ANN, entry.alternatives[0])
    assert ANN not in [d.seat for d in RULES.awaiting(after)]


def test_legal_orders_are_all_accepted():
    s = owning(new(), {ANN: "leeds-york leeds-wakefield", BOB: "york-malton"})
    for o in RULES.legal_orders(s, ANN):
        RULES.apply(s, ANN, o)
    builds = RULES.legal_orders(s, ANN)
    assert builds[0] == Order("build", builds=(Build((Purchase(()),)),), round=1)
    assert all(len(o.builds[0].choices[0].routes) == 1 for o in builds[1:])
    s = at_round(s, 7, "AS-QH 2S-4D 9C-3D")
    operate = RULES.legal_orders(s, ANN)
    assert operate[0] == Order("operate", round=7)
    assert [RULES.format(o) for o in operate[1:4]] == [
        "round 7\nrun AS-QH: leeds-york",
        "round 7\nrun 2S-4D: wakefield-leeds-york-malton",
        "round 7\nno runs\nbuild barnsley-wakefield cost 4",
    ]
    assert len(operate) == 3 + len(builds) - 1
    for o in operate:
        RULES.apply(s, ANN, o)


def test_prompt_lines_list_runs_shortest_first_and_routes_to_buy():
    s = owning(new(), {ANN: "leeds-york leeds-wakefield", BOB: "york-malton"})
    s = at_round(s, 7, "2S-4D 9C-3D AS-QH", cash={ANN: 8})
    lines = english(RULES.prompt_lines(s, ANN))
    assert lines[:5] == [
        "round 7",
        "# Runs you can enter, at most 5, shortest first (or write: no runs):",
        "run AS-QH: leeds-york   # Leeds to York: 5 spaces, all on your routes",
        "run 2S-4D: wakefield-leeds-york-malton   # Wakefield to Malton: 11 spaces, 1 change "
        "of colour, pays blue 4",
        "# run 9C-3D (Cumbria to Barnsley): no journey you can make alone",
    ]
    assert "build bradford-leeds cost 4   # Bradford to Leeds" in lines
    assert lines[-1] == "build nothing"
    costs = [int(line.split(" cost ")[1].split()[0]) for line in lines if " cost " in line]
    assert costs and max(costs) <= 8  # nothing dearer than Ann's cash
    text = "\n".join([lines[0], lines[2], lines[3], "build bradford-leeds cost 4"])
    s, _ = RULES.apply(s, ANN, order(text))  # copied lines make a legal order
    assert len(s.pending[ANN].runs) == 2


def test_prompt_lines_in_a_building_round_offer_the_extra_build():
    s = owning(new(), {ANN: "leeds-york"})
    s.extra_build = (ANN,)
    lines = english(RULES.prompt_lines(s, ANN))
    assert lines[0] == "round 1" and lines[-2:] == [
        "build nothing",
        "# You may add a second build line this round (rule 38).",
    ]
    assert "build malton-york cost 6   # Malton to York" in lines
    assert not any("beverley-hull" in line for line in lines)  # not connected
    assert str(RULES.prompt_lines(s, ANN)[1]).startswith("# Routes you can buy now")
    s, _ = RULES.apply(s, ANN, order("build nothing"))
    assert RULES.prompt_lines(s, BOB)[0] == "round 1"


def test_view_has_what_reports_and_maps_need():
    s = owning(new(), {ANN: "leeds-york"}, bank="hull-beverley")
    s = at_round(s, 8, "AS-QH 9C-3D", since=7)
    view = RULES.view(s)
    json.dumps(view)
    assert set(view) == {
        "game",
        "map",
        "map_name",
        "map_version",
        "round",
        "phase",
        "order_of_play",
        "entry_limit",
        "players",
        "cash",
        "places",
        "routes",
        "bank_routes",
        "runs",
        "last_round",
        "awaiting",
        "result",
    }
    assert (view["round"], view["phase"], view["cash"]) == (8, "operating", [100] * 4)
    assert view["players"][ANN] == {
        "seat": 0,
        "name": "Ann",
        "company": None,
        "colour": "red",
        "cash": 100,
        "in_game": True,
        "missed_in_a_row": 0,
        "extra_build": False,
        "awaiting": True,
        "routes": ["leeds-york"],
    }
    leeds_york = next(r for r in view["routes"] if r["name"] == "leeds-york")
    assert leeds_york == {
        "name": "leeds-york",
        "ends": ["leeds", "york"],
        "length": 5,
        "cost": 7,
        "copies": 2,
        "junctions": [["bramham", 2]],  # K9: 2 spaces from leeds
        "owners": ["red"],
    }
    assert view["bank_routes"] == ["beverley-hull"]
    leeds = next(p for p in view["places"] if p["key"] == "leeds")
    assert leeds == {
        "key": "leeds",
        "name": "Leeds",
        "pos": [41, 78],
        "destination": "Leeds",
        "kind": "destination",
        "cards": ["AS", "KH", "QD"],
    }
    kinds = {p["key"]: p["kind"] for p in view["places"]}
    assert (kinds["thirsk"], kinds["bramham"], view["map_version"]) == ("town", "junction", 2)
    assert [r["reoffered"] for r in view["runs"]] == [True, True]
    assert view["last_round"] is None and view["result"] is None


def test_the_last_round_is_kept_for_the_report():
    s = at_round(owning(new(), {ANN: "leeds-york"}), 7, "AS-QH")
    s, events = play(
        s,
        {
            ANN: "run AS-QH: leeds-york\nbuild york-malton",
            BOB: "no runs",
            CAT: "no runs",
            DAN: "no runs",
        },
    )
    last = RULES.view(s)["last_round"]
    assert last["round"] == 7 and last["events"] == events[-len(last["events"]) :]
    assert s.to_data()["last"] == last  # the saved state keeps the events in English too
    assert last["purchases"] == [{"seat": ANN, "routes": ["malton-york"], "cost": 6}]
    assert last["runs"][0]["entrants"][0]["points"] == [30]


def test_plain_data_round_trip_with_orders_pending():
    rng = random.Random(3)
    s = RULES.new_game({}, ["a", "b", "c", "d", "e"], 3)
    bot = RULES.bot("default")
    while s.round < 9:
        for d in RULES.awaiting(s):
            s, _ = RULES.apply(s, d.seat, bot(s, d.seat, rng))
    first = RULES.awaiting(s)[0].seat
    s, _ = RULES.apply(s, first, bot(s, first, rng))
    data = json.loads(json.dumps(RULES.to_data(s)))
    back = RULES.from_data(data)
    assert RULES.to_data(back) == RULES.to_data(s)
    assert back.pending == s.pending and back.rng.random() == s.copy().rng.random()


def test_the_richest_player_wins_and_ties_share_a_place():
    s = at_round(new(), 12, cash={ANN: 150, BOB: 180, CAT: 150, DAN: 90})
    s, _ = play(s, dict.fromkeys(range(4), "no runs"))
    result = RULES.result(s)
    assert result.ranking == ((BOB,), (ANN, CAT), (DAN,))
    assert result.scores == (150, 180, 150, 90)
    assert RULES.view(s)["result"]["ranking"] == [[BOB], [ANN, CAT], [DAN]]
    assert refusal(s, ANN, "no runs") == "The game is over."


def test_a_copy_is_the_same_game_and_draws_apart_from_its_original():
    s = RULES.new_game({}, ["a", "b", "c", "d"], 5)
    s.pending = {0: Order("build", round=1)}
    copy = s.copy()
    assert RULES.to_data(copy) == RULES.to_data(s)
    for name in s.__slots__:
        if not name.startswith("_rng"):  # the generator: compared by its state below
            assert getattr(copy, name) == getattr(s, name), name
    assert copy.rng.getstate() == s.rng.getstate()
    for name in ("cash", "active", "pending", "missed"):  # mutable: not shared
        assert getattr(copy, name) is not getattr(s, name)
    # the generator is shared until one of them draws (copy on write): each draw leaves the
    # other where it was, whichever draws first
    copy = s.copy()
    first = s.rng.random()  # the original draws first
    assert copy.rng.random() == first
    again = s.copy()
    assert again.rng.random() == s.rng.random()  # the copy draws first
