"""Adding a game touches no shared file: Take-away (tests/takeaway, a package kept outside the
referee, with its own templates and no PNG map) is registered at run time and played by mail
on the Maildir default, from the welcomes to the result, the history and the archive."""

from __future__ import annotations

import json
import random
from datetime import UTC, datetime, timedelta
from enum import Enum
from pathlib import Path

import pytest
from click.testing import CliRunner
from sites import Mailboxes, logged, make_site, reply_to, run_tick, text_of

from referee import registry
from referee.cli import main
from referee.contract import IllegalOrder, NotAnOrder, NotationError, Outcome, Rules
from referee.service.tick import tick
from referee.service.verify import verify
from referee.words.history import history_text

REFEREE = Path(__file__).resolve().parent.parent / "referee"
PLAYERS = ["Ann <ann@example.org>", "Bob <bob@example.org>"]
ANN, BOB = "ann@example.org", "bob@example.org"
T0 = datetime(2026, 11, 23, 9, 0, tzinfo=UTC)


@pytest.fixture
def takeaway(monkeypatch):
    """The rules of Take-away, registered for this test only (the registry is restored)."""
    monkeypatch.setattr(registry, "_PACKAGES", dict(registry._PACKAGES))
    registry.register("takeaway", "takeaway")
    return registry.get("takeaway").rules


def one(mails: list, subject: str):
    """The one mail among ``mails`` whose subject holds ``subject``."""
    [found] = [m for m in mails if subject in str(m["Subject"])]
    return found


def answer(site, boxes: Mailboxes, mail, address: str, text: str) -> tuple[str, list]:
    """Reply to ``mail`` with ``text`` and run a tick: the text of the one answer to it (a
    confirmation, or the sender's report that says the mail was read), and every new mail
    to the sender."""
    boxes.deliver(reply_to(mail, address, text))
    run_tick(site)
    mails = boxes.new(address)
    [answered] = [m for m in mails if "was read." in text_of(m)]
    return text_of(answered), mails


def orders_in_log(site, campaign_id: str = "pile") -> list[list]:
    return [o for r in logged(site.campaign(campaign_id)) for o in r.get("orders", ())]


# the rules on their own ------------------------------------------------------------------------


def test_the_rules_keep_the_whole_contract(takeaway):
    protocol = {n for n in vars(Rules) if not n.startswith("_")} | set(Rules.__annotations__)
    assert not {n for n in protocol if not hasattr(takeaway, n)}
    state = takeaway.new_game({}, ["Ann", "Bob"], seed=1)
    assert state.pile == 15 and state.to_move == 0  # seed 1: Ann starts
    with pytest.raises(ValueError, match="is for 2 to 2 players, not 3"):
        takeaway.new_game({}, ["Ann", "Bob", "Cid"], seed=1)
    with pytest.raises(ValueError, match="pile must be"):
        takeaway.new_game({"pile": "0"}, ["Ann", "Bob"], seed=1)
    [due] = takeaway.awaiting(state)
    assert (due.seat, due.kind, due.stage) == (0, "take", 0)
    assert takeaway.prompt_lines(state, 0) == ["take 1", "take 2", "take 3"]
    assert takeaway.legal_orders(state, 1) == []
    [entry] = takeaway.parse("TAKE 3 | take 1")
    assert [takeaway.format(o) for o in entry.alternatives] == ["take 3", "take 1"]
    assert (
        takeaway.parse(takeaway.format(entry.alternatives[0]))[0].alternatives
        == entry.alternatives[:1]
    )
    with pytest.raises(NotAnOrder):
        takeaway.parse("Hello Bob")
    for bad in ("take 4", "take two", "take 2 | hello"):
        with pytest.raises(NotationError) as raised:
            takeaway.parse(bad)
        assert not isinstance(raised.value, NotAnOrder) and raised.value.line == bad
    assert not takeaway.referee_only(entry.alternatives[0])
    with pytest.raises(IllegalOrder, match="It is Ann's turn"):
        takeaway.apply(state, 1, entry.alternatives[0])
    state, events = takeaway.apply(state, 0, takeaway.parse("take 3")[0].alternatives[0])
    assert events == ["Ann takes 3; 12 left."] and takeaway.awaiting(state)[0].seat == 1
    view = takeaway.view(state)
    assert {"game", "round", "phase", "players", "awaiting", "result"} <= set(view)
    assert view["players"][0] == {"seat": 0, "name": "Ann", "taken": 3}
    assert takeaway.from_data(json.loads(json.dumps(takeaway.to_data(state)))) == state
    # the default bot leaves a multiple of four; the random one plays any legal take
    assert takeaway.format(takeaway.bot()(state, 1, random.Random(1))) == "take 1"  # 12 left
    rng = random.Random(7)
    assert all(
        takeaway.bot("random")(state, 1, rng) in takeaway.legal_orders(state, 1) for _ in range(20)
    )
    with pytest.raises(ValueError, match="no Take-away bot 'clever'"):
        takeaway.bot("clever")
    assert takeaway.result(state) is None


def test_the_default_bot_wins_from_a_pile_it_can_make_a_multiple_of_four(takeaway):
    state = takeaway.new_game({"pile": "10"}, ["Ann", "Bob"], seed=1)
    bot, rng = takeaway.bot("default"), random.Random(1)
    while takeaway.result(state) is None:
        seat = takeaway.awaiting(state)[0].seat
        state, _events = takeaway.apply(state, seat, bot(state, seat, rng))
    result = takeaway.result(state)
    assert (str(result.reason), result.scores, result.ranking) == (
        "Ann took the last counter",
        (1, 0),
        ((0,), (1,)),
    )
    with pytest.raises(IllegalOrder, match="The game is over"):
        takeaway.apply(state, 1, takeaway.parse("take 1")[0].alternatives[0])


# a whole campaign by mail ----------------------------------------------------------------------


def test_a_whole_campaign_by_mail_to_its_result_history_status_and_archive(takeaway, tmp_path):
    site = make_site(tmp_path)
    site.new_campaign("takeaway", "pile", PLAYERS, seed=1, options={"pile": "7"})
    run_tick(site)
    boxes = Mailboxes(site)
    welcome = one(boxes.new(ANN), "Welcome to Take-away, Ann")
    text = text_of(welcome)
    assert "Orders of Take-away" in text  # the game's own help template
    assert "YOUR DECISION: Take counters: 7 left, take 1 to 3" in text
    assert "    take 1\n    take 2\n    take 3\n" in text
    assert "The game waits for Ann (take counters)" in text_of(one(boxes.new(BOB), "Welcome"))

    # Ann takes 2: confirmed to her; Bob's digest has the text map and no PNG
    confirmation, _ = answer(site, boxes, welcome, ANN, "take 2")
    assert "+ take 2\n      Ann takes 2; 5 left." in confirmation
    assert "Nothing is awaited from you now." in confirmation
    assert orders_in_log(site) == [[0, "take 2", "mail"]]
    digest = one(boxes.new(BOB), "Round 1: your turn - take counters")
    assert digest.get_content_type() == "text/plain" and not list(digest.iter_attachments())
    text = text_of(digest)
    assert "\n- Ann takes 2; 5 left." in text
    assert "The pile: 5 of 7 counters left\n  |||||\n" in text
    assert "  Ann              2  counters taken\n  Bob              0  counters taken" in text

    # a greeting is passed over and the first legal alternative used
    confirmation, _ = answer(site, boxes, digest, BOB, "Hello Ann!\ntake 3 | take 1")
    assert "Passed over (not orders):\n    Hello Ann!" in confirmation
    assert "+ take 3\n      Bob takes 3; 2 left." in confirmation

    # a malformed order stops the mail; an illegal one is refused with the reason
    digest = one(boxes.new(ANN), "Round 2: your turn")
    assert "The pile: 2 of 7 counters left\n  ||\n" in text_of(digest)
    confirmation, _ = answer(site, boxes, digest, ANN, "take 4")
    assert "? take 4\n      '4': take 1, 2 or 3 counters" in confirmation
    confirmation, _ = answer(site, boxes, digest, ANN, "take 3")
    assert "Refused:\n  - take 3\n      Take 1 to 2: the pile has 2 counters." in confirmation
    assert "YOUR DECISION: Take counters: 2 left, take 1 to 2" in confirmation
    assert orders_in_log(site) == [[0, "take 2", "mail"], [1, "take 3", "mail"]]

    # Ann takes 1: Bob's only take is forced, and he wins; both are told
    _, ann = answer(site, boxes, digest, ANN, "take 1")
    assert orders_in_log(site)[2:] == [[0, "take 1", "mail"], [1, "take 1", "forced"]]
    bob_final = one(boxes.new(BOB), "The game is over")
    for final, event in (
        (one(ann, "The game is over"), "Bob takes 1; 0 left."),
        (bob_final, "Ann takes 1; 1 left."),
    ):
        text = text_of(final)
        assert f"\n- {event}" in text
        assert "THE GAME IS OVER: Bob took the last counter.\n  1. Bob (1)\n  2. Ann (0)" in text
        assert "The pile: 0 of 7 counters left\n  (empty)" in text
        assert "The secret seed was 1" in text
    campaign = site.campaign("pile")
    assert campaign.status == "finished"
    table = campaign.table()
    assert takeaway.result(table.state).ranking == ((1,), (0,))

    # the history by mail, after the end
    history, _ = answer(site, boxes, bob_final, BOB, "history")
    assert logged(site.campaign("pile"))[-1]["seat"] == 1
    assert "Round 1\n  - Ann takes 2; 5 left.\n  - Bob takes 3; 2 left.\n" in history
    assert "  Standings by taken: Ann 2, Bob 3" in history
    assert "Round 2\n  - Ann takes 1; 1 left.\n  - Bob takes 1; 0 left.\n" in history
    assert "  Standings by taken: Ann 3, Bob 4" in history
    assert "THE GAME IS OVER: Bob took the last counter." in history

    # the turns folder: reports and text maps, no PNG, and their hashes; verify agrees
    turns = campaign.root / "turns"
    assert sorted(p.name for p in turns.iterdir()) == [
        "hashes.json",
        "round-01.map.txt",
        "round-01.txt",
        "round-02.map.txt",
        "round-02.txt",
    ]
    assert (turns / "round-02.map.txt").read_text() == "The pile: 0 of 7 counters left\n  (empty)\n"
    assert verify(campaign.root).ok

    # `referee status`, and `referee show --png` says there is no PNG map
    config = str(site.config.path)
    result = CliRunner().invoke(main, ["--config", config, "status", "pile", "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.output) == {
        "id": "pile",
        "game": "takeaway",
        "state": "finished",
        "round": 2,
        "awaiting": [],
        "scores": {"Ann": 3, "Bob": 4},
        "finished": True,
    }
    result = CliRunner().invoke(main, ["--config", config, "status"])
    assert result.output.startswith("pile                 takeaway finished  round 2")
    assert result.output.rstrip().endswith("scores: Ann 3, Bob 4")
    png = tmp_path / "map.png"
    result = CliRunner().invoke(main, ["--config", config, "show", "pile", "--png", str(png)])
    assert result.exit_code == 1 and "Take-away has no PNG map" in result.output
    assert not png.exists()

    # `referee archive`: the static site, with no PNG
    out = tmp_path / "site"
    result = CliRunner().invoke(main, ["--config", config, "archive", "pile", "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert {p.name for p in out.iterdir()} == {
        "style.css",
        "index.html",
        "players.html",
        "history.txt",
        "round-01.html",
        "round-02.html",
    }
    index = (out / "index.html").read_text()
    assert "Finished in round 2: Bob took the last counter." in index
    assert 'data-player="Ann" data-values="2 3"' in index
    assert 'data-player="Bob" data-values="3 4"' in index
    page = (out / "round-02.html").read_text()
    assert "The pile: 0 of 7 counters left" in page and "<img" not in page
    assert (out / "history.txt").read_text() == history_text(table)
    players = (out / "players.html").read_text()
    assert "<dt>Pile</dt><dd>7</dd>" in players and "Taken at the end" in players
    assert 'background: #2e5eaa"></span>Bob</td><td class="num">4</td>' in players


def test_a_missed_deadline_lets_the_games_bot_take(takeaway, tmp_path):
    site = make_site(tmp_path)
    site.new_campaign(
        "takeaway", "pile", PLAYERS, seed=1, settings={"deadlines": {"hours": 24, "policy": "bot"}}
    )
    assert not tick(site, T0).errors
    boxes = Mailboxes(site)
    boxes.new()
    assert not tick(site, T0 + timedelta(hours=25)).errors
    [record] = [r for r in logged(site.campaign("pile")) if r.get("missed")]
    assert record["orders"] == [[0, "take 3", "bot"]]  # 15 left: it leaves Bob 12
    assert record["missed"][0]["done"] == "the bot decided for them: take 3"
    assert boxes.new(ANN) == []  # she hears of it with her next decision
    bob = one(boxes.new(BOB), "Round 1: your turn - take counters")
    assert "\n- Ann takes 3; 12 left." in text_of(bob)
    assert "The pile: 12 of 15 counters left" in text_of(bob)
    boxes.deliver(reply_to(bob, BOB, "take 1"))
    assert not tick(site, T0 + timedelta(hours=26)).errors
    ann = text_of(one(boxes.new(ANN), "Round 2: your turn - take counters"))
    assert "\nFor you:\n! your deadline passed: the bot decided for you" in ann
    assert "\n- Ann takes 3; 12 left.\n- Bob takes 1; 11 left." in ann


# the shared code names no game but through the registry ---------------------------------------


def test_only_the_bus_boss_package_and_the_registry_name_bus_boss():
    naming = {
        path.relative_to(REFEREE.parent).as_posix()
        for path in REFEREE.rglob("*.py")
        if "busboss" in path.read_text(encoding="utf-8").lower()
    }
    allowed = {"referee/registry.py", "referee/contract.py"}
    assert {p for p in naming if not p.startswith("referee/busboss/")} <= allowed


def test_a_game_registered_after_the_cli_was_imported_can_be_named_on_the_command_line(
    takeaway, tmp_path
):
    site = make_site(tmp_path)
    config = str(site.config.path)
    result = CliRunner().invoke(
        main,
        [
            "--config",
            config,
            "new",
            "takeaway",
            "heap",
            "--player",
            "Ann <ann@example.org>",
            "--player",
            "Bob <bob@example.org>",
        ],
    )
    assert result.exit_code == 0, result.output
    assert site.campaign("heap").game == "takeaway"
    result = CliRunner().invoke(main, ["--config", config, "new", "chess", "board"])
    assert result.exit_code == 2 and "'chess' is not one of" in result.output
    assert "'takeaway'" in result.output


def test_the_wording_is_the_ending_s_with_the_players_it_names(takeaway):
    state = takeaway.new_game({"pile": "2"}, ["Ann", "Bob"], seed=1)
    state, _ = takeaway.apply(state, 0, takeaway.parse("take 2")[0].alternatives[0])
    result = takeaway.result(state)
    assert isinstance(result.ending, Enum) and result.ending.name == "LAST_COUNTER"
    assert str(result.reason) == "Ann took the last counter"
    assert result.named == {"winner": "Ann"}
    assert [result.outcome(seat) for seat in (0, 1)] == [Outcome.WON, Outcome.LOST]
