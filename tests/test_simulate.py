"""`referee simulate`: bot games from the command line, with figures."""

import json

from click.testing import CliRunner

from referee.bus.engine import RULES
from referee.cli import main
from referee.simulate import play_game, replay


def run(*args):
    result = CliRunner().invoke(main, list(args))
    return result


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
