"""The strong Bus Boss bot: races reckoned from the average die (rules 27, 31-32), purchases
planned toward the runs the 52 cards will make (rules 14-17), every order it gives legal
and whole, the same for a seed, and better than the default bot."""

import random

import pytest
from busboss_positions import ANN, BOB, CAT, at_round, new, owning

from referee.busboss import GAME
from referee.busboss.engine import RULES
from referee.busboss.game import review
from referee.busboss.strong import (
    against_rivals,
    arrivals,
    chosen_runs,
    expected_points,
    purchase_preferences,
    strong_bot,
)
from referee.contract import PlayFigures
from referee.simulate import seating, simulate


def test_a_bus_arrives_on_some_throw_and_no_sooner_than_the_die_allows():
    assert sum(arrivals(9)) == pytest.approx(1)
    assert arrivals(9)[0] == 0 and arrivals(9)[1] == pytest.approx(5 / 36)  # 4+5, 5+4, 5+5
    assert arrivals(2) == pytest.approx((1.0,))


@pytest.mark.parametrize("distances", [[7], [7, 7], [5, 9, 12], [4, 4, 8, 20], [6] * 6])
def test_expected_points_share_the_table_of_rule_31(distances):
    from referee.busboss.runs import POINTS

    found = expected_points(distances)
    assert sum(found) == pytest.approx(sum(POINTS[len(distances)]))
    assert found == sorted(found, reverse=True)  # the shorter journey expects more
    if len(set(distances)) == 1:
        assert found == pytest.approx([found[0]] * len(found))


def test_a_run_is_worth_its_points_less_what_it_pays_and_what_rivals_gain():
    assert against_rivals(9, {}, [], 3) == pytest.approx(30)
    # paying a rival 5: 5 less, and the rival's 5 shared over three rivals
    assert against_rivals(9, {BOB: 5}, [], 3) == pytest.approx(30 - 5 - 5 / 3)
    # racing a rival who would run alone takes points from him
    raced = against_rivals(9, {}, [(BOB, 9)], 3)
    assert raced == pytest.approx(15 + 15 / 3)
    # second for sure to him, paying him 10: nothing gained (so not entered)
    assert against_rivals(20, {BOB: 10}, [(BOB, 5)], 3) == pytest.approx(0)


def test_it_enters_the_runs_it_can_make_and_only_those():
    s = owning(new(), {ANN: "leeds-york", BOB: "hull-beverley"})
    s = at_round(s, 7, "AS-QH KD-5D 8S-6S")
    assert [e.run for e in chosen_runs(s, ANN)] == ["AS-QH"]
    assert [e.run for e in chosen_runs(s, BOB)] == ["KD-5D"]
    assert chosen_runs(s, CAT) == ()


def test_the_first_purchase_reaches_towns_with_many_cards():
    s = new()
    [best, *_] = purchase_preferences(s, ANN)
    cards = s.map.destination_cards
    reached = {s.map.places[p].destination for route in best.routes for p in route}
    assert sum(len(cards[d]) for d in reached if d) >= 5


def test_strong_seats_that_lose_their_first_choice_buy_their_next_best():
    """Rule 35: every strong seat orders the same first choice; one later in the play
    order that finds it taken buys the next of its preference list, and a seat left with
    none by the second round buys one then."""
    s = new()
    rng = random.Random(1)
    for seat in s.order:
        s, _ = RULES.apply(s, seat, strong_bot(s, seat, rng))
    first, second = s.last["purchases"][:2]
    assert first["seat"] == ANN and second["seat"] == BOB and first["routes"] != second["routes"]
    assert any(e["seat"] == BOB for e in s.last["skipped"])  # Ann's took Bob's first choice
    for seat in s.order:
        s, _ = RULES.apply(s, seat, strong_bot(s, seat, rng))
    assert all(s.routes_of(seat) for seat in range(4))


def test_a_strong_seat_last_in_the_first_play_order_still_wins_against_defaults():
    """Last to build in round 1, it finds the best routes taken and buys its next best:
    it wins at least half its games (bench/busboss_strong_bench.py: 200 games)."""
    wins = 0.0
    for seed in range(6):
        s = RULES.new_game({}, [f"Bot {i + 1}" for i in range(4)], seed)
        last = s.order[-1]
        rng = random.Random(seed)
        while due := RULES.awaiting(s):
            seat = due[0].seat
            bot = RULES.bot("strong" if seat == last else "default")
            s, _ = RULES.apply(s, seat, bot(s, seat, rng))
        result = RULES.result(s)
        wins += 1 / len(result.ranking[0]) if last in result.ranking[0] else 0
    assert wins >= 3


def test_a_seat_with_no_route_after_others_built_buys_one():
    """A company with no route yet values what a route beside its rivals' opens (runs it
    can make over their routes, rules 22-24): it orders a purchase before nothing."""
    s = owning(
        at_round(new(), 3),
        {ANN: "leeds-york selby-york", BOB: "bradford-leeds leeds-wakefield"},
    )
    preferences = purchase_preferences(s, CAT)
    assert preferences[0].routes and preferences[-1].routes == ()
    assert len(preferences) > 3  # more than one choice, in case earlier players take some


def test_the_preferences_are_ranked_and_name_no_purchase_twice():
    s = new()
    preferences = purchase_preferences(s, ANN)
    assert len(set(preferences)) == len(preferences)
    assert [p.routes == () for p in preferences].index(True) == len(preferences) - 1


def strong_games(games: int, players: int = 4):
    """Games with the strong bot in one seat (rotating) and the default bot in the others,
    each order checked as the strong bot gives it."""
    checked = 0
    for game in range(games):
        bots = seating(["strong"] + ["default"] * (players - 1), game)
        s = RULES.new_game({}, [f"Bot {i + 1}" for i in range(players)], game)
        rng = random.Random(game)
        while due := RULES.awaiting(s):
            seat = due[0].seat
            order = RULES.bot(bots[seat])(s, seat, rng)
            s, _ = RULES.apply(s, seat, order)  # an illegal order raises
            if bots[seat] == "strong" and not s.over and seat in s.pending:
                assert review(s, seat, s.pending[seat]) == [], order
                checked += 1
        assert RULES.result(s) is not None
    return checked


def test_every_order_it_gives_is_legal_and_no_piece_of_it_is_void():
    assert strong_games(4) > 30
    assert strong_games(2, players=3) and strong_games(2, players=6)


@pytest.mark.slow
def test_it_is_the_same_for_a_seed_and_wins_more_than_the_default_bot():
    seats = ["strong", "default", "default", "default"]
    first = simulate(RULES, 4, 12, 5, seats=seats)
    again = simulate(RULES, 4, 12, 5, seats=seats)
    for report in (first, again):
        for figures in report["bots"].values():
            del figures["cpu_ms_per_decision"]
        del report["seconds"]
    assert first == again and first["illegal"] == 0
    assert first["bots"]["strong"]["win_share"] > 0.5
    assert first["bots"]["strong"]["mean_score"] > first["bots"]["default"]["mean_score"]


@pytest.mark.slow
def test_strong_bots_from_every_seat_each_build_a_network():
    """Four strong seats: each ends owning routes, whatever its place in the play order
    (bench/busboss_strong_bench.py gives the figures over 30 games)."""
    report = simulate(RULES, 4, 6, 3, bot="strong", figures=GAME.offers(PlayFigures).figures)
    assert report["illegal"] == 0 and report["finished"] == 6
    assert [s["seat"] for s in report["seats"]] == [0, 1, 2, 3]
    assert all(seat["routes_owned_mean"] >= 5 for seat in report["seats"])


def test_a_campaign_names_it_and_a_budget_changes_nothing():
    assert RULES.bot("strong") is strong_bot and RULES.bot("strong", 200) is strong_bot
    s = at_round(owning(new(), {ANN: "leeds-york", CAT: "york-malton"}), 8, "AS-QH KH-4D")
    assert strong_bot(s, ANN, random.Random(1)) == strong_bot(s, ANN, random.Random(2))
    with pytest.raises(ValueError, match="the bots are default, random, strong"):
        RULES.bot("genius")


@pytest.mark.slow  # runs other processes
def test_it_plays_the_same_whatever_the_processs_string_hashing():
    """A seed and a budget decide its play (issue 24): not the order a set of places
    happens to have in one process (PYTHONHASHSEED), which once tipped near-equal purchases
    one way or the other from run to run."""
    import json
    import os
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]

    def played(hash_seed: str) -> dict:
        command = "simulate busboss --players 4 --games 100 --seed 3 --json"
        seats = ["--seats", "strong,default,default,default"]
        out = subprocess.run(
            [
                sys.executable,
                "-c",
                "from referee.cli import main; main()",
                *command.split(),
                *seats,
            ],
            env={**os.environ, "PYTHONPATH": str(root), "PYTHONHASHSEED": hash_seed},
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        report = json.loads(out)
        for figures in report["bots"].values():
            del figures["cpu_ms_per_decision"]
        del report["seconds"]
        return report

    assert played("1") == played("2") == played("3")
