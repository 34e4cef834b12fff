"""`referee simulate`: bot games from the command line, with figures."""

import json

import pytest
from click.testing import CliRunner

from referee.bus.engine import RULES
from referee.busboss.engine import RULES as BUSBOSS
from referee.cli import main
from referee.simulate import (
    first_order,
    play_game,
    play_seated,
    replay,
    seating,
    simulate,
    wilson,
)


def run(*args):
    result = CliRunner().invoke(main, list(args))
    return result


@pytest.mark.slow
def test_simulate_bus_200_games_all_finish_with_no_illegal_order():
    result = run("simulate", "bus", "--players", "4", "--games", "200", "--seed", "1", "--json")
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    assert report["games"] == report["finished"] == 200
    assert report["illegal"] == 0
    assert report["decisions"] > 200 * 100
    assert sum(report["end_reasons"].values()) == 200
    assert report["mean_rounds"] > 3 and report["seconds"] > 0


def test_the_default_bot_scores_and_beats_random_play():
    sensible = json.loads(run("simulate", "bus", "-g", "40", "--json").output)
    random_ = json.loads(run("simulate", "bus", "-g", "40", "--bot", "random", "--json").output)
    assert random_["illegal"] == 0 and random_["finished"] == 40
    assert sensible["mean_score"] > 3 and sensible["mean_score"] > random_["mean_score"] + 3


def test_the_same_seed_gives_the_same_games():
    a = json.loads(run("simulate", "bus", "-p", "5", "-g", "5", "-s", "9", "--json").output)
    b = json.loads(run("simulate", "bus", "-p", "5", "-g", "5", "-s", "9", "--json").output)
    del a["seconds"], b["seconds"]
    assert a == b


def test_plain_output_and_clear_errors():
    result = run("simulate", "bus", "-p", "3", "-g", "3")
    assert result.exit_code == 0 and "3 of 3 games of Bus finished" in result.output
    result = run("simulate", "bus", "-p", "7")
    assert result.exit_code == 2 and "Bus is for 3 to 5 players" in result.output
    result = run("simulate", "bus", "--bot", "genius")
    assert result.exit_code == 2 and "no Bus bot 'genius'" in result.output
    result = run("simulate", "chess")
    assert result.exit_code == 2 and "'chess'" in result.output


def test_replay_from_the_log_gives_the_same_final_state():
    final, log, illegal = play_game(RULES, 4, 77)
    assert illegal == 0
    again = replay(RULES, [f"Bot {i + 1}" for i in range(4)], 77, log)
    assert RULES.to_data(again) == RULES.to_data(final)


# bots compared seat by seat ---------------------------------------------------------------------


def test_the_seats_rotate_so_that_every_seat_plays_each_bot():
    bots = ["strong", "default", "default", "random"]
    games = [seating(bots, i) for i in range(4)]
    assert games[0] == bots
    for seat in range(4):
        assert sorted(game[seat] for game in games) == sorted(bots)


def test_wilson_interval():
    low, high = wilson(0.5, 100)
    assert (round(low, 4), round(high, 4)) == (0.4038, 0.5962)
    assert wilson(0.0, 10)[0] == 0.0 and 0.27 < wilson(0.0, 10)[1] < 0.28


def test_seats_report_each_bot_by_its_seat_games():
    result = run("simulate", "busboss", "-g", "4", "--seats", "default,random,random", "--json")
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    assert report["players"] == 3 and report["lineup"] == ["default", "random", "random"]
    default, random_ = report["bots"]["default"], report["bots"]["random"]
    assert (default["games"], random_["games"]) == (4, 8)
    # a first place tied is shared: the shares of one game add up to one
    assert default["win_share"] * 4 + random_["win_share"] * 8 == pytest.approx(4)
    low, high = default["wilson95"]
    assert low <= default["win_share"] <= high
    assert default["decisions"] + random_["decisions"] == report["decisions"]
    assert default["cpu_ms_per_decision"] > 0 and default["mean_score"] > random_["mean_score"]
    # and by seat, each with the bot that played it there, and the game's own figures: a
    # seat counted by its place in the game's first order of play
    seats = report["seats"]
    assert sorted({s["seat"] for s in seats}) == [0, 1, 2]
    for place in range(3):
        assert sum(s["games"] for s in seats if s["seat"] == place) == 4
    for name, figures in report["bots"].items():
        assert sum(s["games"] for s in seats if s["bot"] == name) == figures["games"]
    for seat in seats:
        low, high = seat["wilson95"]
        assert low <= seat["win_share"] <= high and seat["routes_owned_mean"] > 0
    assert sum(s["win_share"] * s["games"] for s in seats) == pytest.approx(4)


def test_a_seat_is_its_place_in_the_first_order_of_play():
    """Whatever seat the game's own draw puts first (rule 4 in Bus Boss), the first to be
    asked is counted as the first seat."""
    assert first_order([(2, "a"), (0, "b"), (2, "c")], 4) == [2, 0, 1, 3]
    for seed in range(3):
        game = play_seated(BUSBOSS, ["default"] * 3, seed, timed=False)
        start = BUSBOSS.new_game({}, ["Bot 1", "Bot 2", "Bot 3"], seed)
        assert first_order(game.log, 3) == list(start.order)  # rule 4's draw


def test_a_games_own_figures_are_summed_per_bot():
    calls = []

    def orders_given(start, played):
        calls.append((start, played))
        counted: dict[int, dict[str, int]] = {}
        for seat, _order, _after in played:
            counted.setdefault(seat, {"orders": 0})["orders"] += 1
        return counted

    report = simulate(RULES, 3, 3, 5, seats=["random", "default", "default"], figures=orders_given)
    assert len(calls) == 3
    start, played = calls[0]
    assert RULES.result(start) is None and RULES.result(played[-1][2]) is not None
    for figures in report["bots"].values():
        assert figures["orders"] == figures["decisions"]


def test_seats_must_name_bots_the_game_has_one_a_player():
    result = run("simulate", "busboss", "-p", "3", "--seats", "default,default")
    assert result.exit_code == 2 and "--seats names 2 bots for 3 players" in result.output
    result = run("simulate", "busboss", "--seats", "default,genius,default")
    assert result.exit_code == 2 and "no Bus Boss bot 'genius'" in result.output
    result = run("simulate", "busboss", "-g", "2", "--seats", "random,default,default")
    assert result.exit_code == 0
    assert "seats random,default,default, rotating" in result.output
    assert "random: 2 seat-games, wins" in result.output
