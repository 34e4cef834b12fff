"""The strong Bus bot: a rollout search that beats the default bot, deterministic for a seed
and a budget, and the bot a game master can choose for dropped seats and missed deadlines."""

import random

import pytest
from bus_positions import NAMES, bare
from click.testing import CliRunner
from sites import PLAYERS, make_site

from referee.bus.engine import RULES
from referee.bus.search import futile
from referee.bus.state import BUS_CAP
from referee.cli import main
from referee.records import Kind, Record
from referee.service.play import Outcome, campaign_bot, commit, decide_by_bot
from referee.store.campaign import CampaignError

ROLLOUTS = 16  # enough to beat the default bot, and a few seconds a game


def middle_game(seed: int = 3, orders: int = 60):
    """A 4-player game some way in, the default bot playing every seat."""
    s = RULES.new_game({}, NAMES[:4], seed)
    bot, rng = RULES.bot("default"), random.Random(seed)
    for _ in range(orders):
        seat = RULES.awaiting(s)[0].seat
        s, _ = RULES.apply(s, seat, bot(s, seat, rng))
    return s


def test_the_same_state_seed_and_budget_give_the_same_order():
    s = middle_game()
    seat = RULES.awaiting(s)[0].seat
    strong = RULES.bot("strong", 12)
    first = [strong(s, seat, random.Random(seed)) for seed in range(3)]
    again = [strong(s, seat, random.Random(seed)) for seed in range(3)]
    assert first == again
    assert all(order in RULES.legal_orders(s, seat) for order in first)


def test_searching_leaves_the_state_as_it_was():
    s = middle_game()
    before = RULES.to_data(s)
    RULES.bot("strong", 12)(s, RULES.awaiting(s)[0].seat, random.Random(1))
    assert RULES.to_data(s) == before


def test_a_forced_order_needs_no_search():
    s = RULES.new_game({}, NAMES[:4], 3)
    bot, rng = RULES.bot("default"), random.Random(3)
    while len(RULES.legal_orders(s, seat := RULES.awaiting(s)[0].seat)) > 1:
        s, _ = RULES.apply(s, seat, bot(s, seat, rng))
    assert RULES.bot("strong", 1)(s, seat, random.Random(1)) == RULES.legal_orders(s, seat)[0]


def test_a_budget_below_one_rollout_or_above_the_most_is_refused():
    with pytest.raises(ValueError, match="at least 1 rollout"):
        RULES.bot("strong", 0)
    with pytest.raises(ValueError, match="at most 2000, not 1000000000"):
        RULES.bot("strong", 10**9)  # days a decision: the tick would hold its lock that long
    assert RULES.bot("strong", 2000)
    with pytest.raises(ValueError, match="the bots are default, random, strong"):
        RULES.bot("genius")


@pytest.mark.slow
def test_the_strong_bot_wins_more_often_than_the_default_seats_and_plays_only_legal_orders():
    """Four games, the strong seat moving round the table, three default seats each: the
    strong bot takes more first places than the default seats' average, and every order it
    gives is one of the legal orders of its decision. (bench/engine_bench.py plays 400.)"""
    strong, default = RULES.bot("strong", ROLLOUTS), RULES.bot("default")
    wins = [0.0, 0.0]  # strong, all default seats together
    for game in range(4):
        seat_of_strong = game % 4
        s = RULES.new_game({}, NAMES[:4], 100 + game)
        rng = random.Random(game)
        while due := RULES.awaiting(s):
            seat = due[0].seat
            if seat == seat_of_strong:
                legal = RULES.legal_orders(s, seat)
                order = strong(s, seat, rng)
                assert order in legal
            else:
                order = default(s, seat, rng)
            s, _ = RULES.apply(s, seat, order)
        first = RULES.result(s).ranking[0]
        for seat in first:
            wins[seat != seat_of_strong] += 1 / len(first)
    assert wins[0] > wins[1] / 3, wins


def test_simulate_plays_the_strong_bot_with_a_budget_in_rollouts():
    args = ["simulate", "bus", "-p", "3", "-g", "1", "--bot", "strong", "--rollouts", "2"]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    assert "bot strong at 2 rollouts a decision" in result.output
    result = CliRunner().invoke(main, [*args[:-1], "0"])
    assert result.exit_code == 2


def test_the_game_master_chooses_the_bot_and_a_replay_never_asks_it(tmp_path):
    site = make_site(tmp_path)
    campaign = site.new_campaign(
        "bus", "g1", PLAYERS, seed=1, settings={"bot": {"name": "strong", "rollouts": 3}}
    )
    table = campaign.table()
    for _ in range(8):  # the bot decides for whoever is awaited: the first buildings, lines
        outcome = Outcome(round=table.round)
        decide_by_bot(table, table.rules.awaiting(table.state)[0].seat, outcome)
        commit(table, outcome, Record(Kind.REFEREE))
    played = RULES.to_data(table.state)
    assert site.campaign("g1").table().state.moves == 8
    # another bot chosen later changes only the orders still to come
    for setting in ("random", {"name": "strong", "rollouts": 50}):
        campaign = site.campaign("g1")
        campaign.settings["bot"] = setting
        campaign.save()
        assert RULES.to_data(site.campaign("g1").table().state) == played


@pytest.mark.parametrize(
    "setting, error",
    [
        ("genius", "no Bus bot 'genius'"),
        ({"name": "strong", "rollouts": "many"}, "rollouts must be a whole number"),
        ({"name": "strong", "rollouts": 0}, "at least 1 rollout"),
        ({"name": "strong", "rollouts": 10**9}, "at most 2000"),
    ],
)
def test_a_bot_setting_the_game_cannot_use_is_the_game_masters_to_fix(tmp_path, setting, error):
    site = make_site(tmp_path)
    campaign = site.new_campaign("bus", "g1", PLAYERS, seed=1, settings={"bot": setting})
    with pytest.raises(CampaignError, match=error):
        campaign_bot(campaign.table())


def test_referee_new_names_the_campaigns_bot(tmp_path):
    site = make_site(tmp_path)
    players = [arg for p in PLAYERS for arg in ("--player", p)]
    base = ["--config", str(site.config.path), "new", "bus"]
    result = CliRunner().invoke(
        main, [*base, "g1", *players, "--bot", "strong", "--rollouts", "50"]
    )
    assert result.exit_code == 0, result.output
    assert site.campaign("g1").settings["bot"] == {"name": "strong", "rollouts": 50}
    result = CliRunner().invoke(main, [*base, "g2", *players, "--bot", "genius"])
    assert result.exit_code == 2 and "no Bus bot 'genius'" in result.output


def test_applying_an_order_never_changes_the_state_it_was_given():
    """States share the lists a rule did not replace (BusState.copy): every order of a few
    random games leaves the state before it exactly as it was."""
    for seed in (3, 5):
        s = RULES.new_game({}, NAMES[:seed], seed)
        bot, rng = RULES.bot("random"), random.Random(seed)
        while due := RULES.awaiting(s):
            before = RULES.to_data(s)
            after, _ = RULES.apply(s, due[0].seat, bot(s, due[0].seat, rng))
            assert RULES.to_data(s) == before
            s = after
        assert RULES.to_data(RULES.from_data(RULES.to_data(s))) == RULES.to_data(s)


def test_no_marker_is_placed_where_it_is_sure_to_do_nothing_when_the_seat_may_pass():
    """The markers play_figures would count as wasted: Line Expansion's next space lays
    M - 5 = 0 streets (B4), Passengers has an empty supply (B9), Buses is at the cap (B3),
    Starting Player goes to Bob next anyway (B12)."""
    s = bare(4)  # Ann starts, one bus each
    s.board["line"] = [2, 3, 0, 2, 3]  # f: M - 5 = 0 streets
    s.supply = 0
    s.placed[1] = 2  # Bob may pass (B6)
    s.turn = 1
    s.buses[1] = BUS_CAP["2019"]  # so M is 5: Line Expansion's b would lay 4
    assert [futile(s, 1, a) for a in ("line", "passengers", "buses", "start")] == [True] * 4
    assert not any(futile(s, 1, a) for a in ("buildings", "clock", "vroom"))
    choices = {RULES.bot("strong", 12)(s, 1, random.Random(seed)) for seed in range(4)}
    assert {o.args[0] for o in choices} <= {"buildings", "clock", "vroom", "pass"}
    s.buses[1] = 1
    assert not futile(s, 1, "buses") and futile(s, 2, "passengers")
