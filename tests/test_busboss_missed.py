"""Missed orders: rules 37-40 with ruling K7."""

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
    route_owners,
    void,
)

from referee.busboss import game as busboss_game
from referee.busboss.engine import RULES
from referee.busboss.orders import Order
from referee.contract import IllegalOrder

NOTHING = "build nothing"


def miss(s, seat):
    missed = busboss_game.adjudicate(s, seat)
    return RULES.apply(s, seat, missed)


def test_rule_38_a_missed_building_round_buys_nothing_and_allows_an_extra_build():
    s = at_round(new(), 3)
    s, _ = play(s, {BOB: NOTHING, CAT: NOTHING, DAN: NOTHING})
    missed = busboss_game.adjudicate(s, ANN)
    assert missed == Order("build", round=3, missed=True)
    assert RULES.format(missed) == "round 3\nmissed"
    s, events = RULES.apply(s, ANN, missed)
    assert english(events)[0] == (
        "Ann (red) sent no orders for round 3: no build this round, an extra "
        "build next round (rules 37-38)."
    )
    assert s.round == 4 and s.routes_of(ANN) == [] and s.cash[ANN] == 100
    assert s.extra_build == (ANN,) and RULES.view(s)["players"][ANN]["missed_in_a_row"] == 1
    prompts = {d.seat: str(d.prompt) for d in RULES.awaiting(s)}
    assert "extra build" in prompts[ANN] and "extra build" not in prompts[BOB]
    assert void(s, BOB, "build leeds-york\nbuild york-malton") == [
        "build york-malton: only 1 build line may be given this round (rules 8, 38)"
    ]
    s, events = play(
        s,
        {
            ANN: "build leeds-york\nbuild york-malton | york-selby",
            BOB: "build leeds-york\nbuild york-malton",
            CAT: NOTHING,
            DAN: NOTHING,
        },
    )
    assert route_owners(s, "leeds-york") == (BOB, ANN) and route_owners(s, "york-malton") == (ANN,)
    assert s.cash[ANN] == 100 - 7 - 6 and s.cash[BOB] == 100 - 7  # K10: Bob's first line stands
    assert (
        "Bob (blue): build york-malton is void, only 1 build line may be given this round "
        "(rules 8, 38)." in events
    )
    assert s.extra_build == () and s.missed == [0, 0, 0, 0]


def test_rule_38_the_extra_build_is_not_carried_forward():
    s = at_round(new(), 5)
    s, _ = play(s, {BOB: NOTHING, CAT: NOTHING, DAN: NOTHING})
    s, _ = miss(s, ANN)
    s, _ = play(s, dict.fromkeys(range(4), NOTHING))  # round 6: one build line used
    assert s.round == 7 and s.extra_build == ()
    assert void(s, ANN, "no runs\nbuild leeds-york\nbuild york-malton") == [
        "build york-malton: only 1 build line may be given this round (rules 8, 38)"
    ]


def test_rule_38_a_missed_sixth_round_gives_the_extra_build_after_the_runs_of_round_7():
    s = at_round(new(), 6)
    s, _ = play(s, {BOB: NOTHING, CAT: NOTHING, DAN: NOTHING})
    s, _ = miss(s, ANN)
    assert s.round == 7 and s.extra_build == (ANN,)
    s, _ = play(
        s,
        {
            ANN: "no runs\nbuild leeds-york\nbuild york-malton",
            BOB: "no runs",
            CAT: "no runs",
            DAN: "no runs",
        },
    )
    assert len(s.routes_of(ANN)) == 2


def test_rule_39_a_missed_operating_round_enters_no_runs():
    s = at_round(
        owning(new(), {ANN: "leeds-york", BOB: "leeds-york"}),
        8,
        "AS-QH",
        cash={ANN: 10, BOB: 10, CAT: 10, DAN: 10},
    )
    s, _ = play(s, {BOB: "run AS-QH: leeds-york", CAT: "no runs", DAN: "no runs"})
    missed = busboss_game.adjudicate(s, ANN)
    assert RULES.format(missed) == "round 8\nmissed\nno runs"
    s, events = RULES.apply(s, ANN, missed)
    assert (
        "Ann (red) sent no orders for round 8: no runs and no build this round "
        "(rules 37, 39)." in english(events)
    )
    assert [e["seats"] for e in s.last["runs"][0]["entrants"]] == [[BOB]]
    assert s.cash[ANN] == 10 and s.cash[BOB] == 40
    assert s.extra_build == ()  # K7: only building rounds


def test_adjudicate_only_for_a_seat_still_owing_its_order():
    s, _ = RULES.apply(new(), ANN, order(NOTHING))
    assert busboss_game.adjudicate(s, ANN) is None
    assert busboss_game.adjudicate(s, BOB) == Order("build", round=1, missed=True)


def two_missed_rounds():
    """Ann misses rounds 7 and 8; Bob owns the Wakefield end of the run to Malton."""
    s = owning(new(), {ANN: "leeds-york york-malton", BOB: "leeds-wakefield", CAT: "york-selby"})
    s = at_round(s, 7, "2S-4D", cash={ANN: 30, BOB: 30, CAT: 30, DAN: 30})
    for _ in range(2):
        s, _ = play(s, {BOB: "no runs", CAT: "no runs", DAN: "no runs"})
        s, _ = miss(s, ANN)
    return s


def test_rule_40_after_two_missed_rounds_the_bank_takes_the_routes():
    s = two_missed_rounds()
    assert s.round == 9 and RULES.view(s)["players"][ANN]["missed_in_a_row"] == 2
    assert RULES.view(s)["entry_limit"] == 5
    s, events = busboss_game.drop(s, ANN)
    assert english(events) == [
        "Ann (red) is dropped from the game (rule 40); the bank takes 2 routes."
    ]
    view = RULES.view(s)
    assert sorted(view["bank_routes"]) == ["leeds-york", "malton-york"]
    assert view["players"][ANN]["in_game"] is False and view["players"][ANN]["routes"] == []
    assert sorted(d.seat for d in RULES.awaiting(s)) == [BOB, CAT, DAN]
    assert view["entry_limit"] == 5  # K11: four were in the game as round 9 began
    with pytest.raises(IllegalOrder) as caught:
        RULES.apply(s, ANN, order("no runs"))
    assert str(caught.value.reason) == "You are no longer in the game (rule 40)."


def test_rule_40_others_pay_the_bank_and_may_buy_its_routes():
    s, _ = busboss_game.drop(two_missed_rounds(), ANN)
    s, events = play(
        s,
        {
            BOB: "run 2S-4D: wakefield-leeds-york-malton",
            CAT: "no runs\nbuild york-malton",
            DAN: "no runs",
        },
    )
    assert "  Bob (blue) pays the bank 9." in events
    assert s.cash[BOB] == 30 + 30 - 9
    assert "Cat (green) buys malton-york for 6 (cash 24)." in events
    assert route_owners(s, "malton-york") == (CAT,)
    assert RULES.view(s)["bank_routes"] == ["leeds-york"]


def test_rule_40_a_drop_completes_the_round_when_everyone_else_has_sent_orders():
    s = two_missed_rounds()
    s, _ = play(s, {BOB: "no runs", CAT: "no runs", DAN: "no runs"})
    s, events = busboss_game.drop(s, ANN)
    assert "Round 9 is resolved." in english(events) and s.round == 10


def test_rule_40_the_game_ends_with_one_player_left_and_dropped_players_rank_last():
    s = at_round(new(3), 2, cash={ANN: 80, BOB: 120, CAT: 90})
    s, _ = busboss_game.drop(s, BOB)
    assert RULES.result(s) is None
    s, events = busboss_game.drop(s, ANN)
    assert english(events)[-1] == "The game ends: only one player is left."
    result = RULES.result(s)
    assert result.ranking == ((CAT,), (BOB,), (ANN,))
    assert result.scores == (80, 120, 90)
    assert RULES.awaiting(s) == []
    with pytest.raises(IllegalOrder):
        busboss_game.drop(s, CAT)
