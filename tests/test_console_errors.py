"""What a game master meets on the command line when something is wrong (a damaged file, a
campaign not started, a path that cannot be written): `referee <command>` run as they run
it, on a site made on the embedded default. Each mistake is one plain line that says what
is wrong and what to do, with a non-zero exit code, never a traceback, and a refused
command leaves the campaign's files as they were."""

from __future__ import annotations

import json
import os
import re
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from sites import PLAYERS, make_site

from referee.cli import main

GM = "Gil <gil@example.org>"


def referee(site, *args: str) -> Result:
    return CliRunner().invoke(main, ["--config", str(site.config.path), *args])


def refused(result: Result) -> str:
    """What a refusal says after click's 'Error: ' (one line, or a settings file's problems
    listed one a line below it), checked to be a refusal and not a fault."""
    assert result.exit_code != 0, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert "Traceback" not in result.output
    _, error, said = result.output.partition("Error: ")
    assert error, result.output
    return " ".join(said.split())


def files(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in root.rglob("*") if p.is_file()}


def running(tmp_path):
    """A Bus campaign `g1` with a game master and a few records in its log."""
    site = make_site(tmp_path)
    site.new_campaign("bus", "g1", PLAYERS, seed=1, gm=GM)
    for command in ("pause", "resume", "extend 24"):
        assert referee(site, "gm", "g1", *command.split()).exit_code == 0
    return site


READING = [("show", "g1"), ("replay", "g1"), ("archive", "g1"), ("status", "g1")]
EVERY = [*READING, ("gm", "g1", "pause")]


@pytest.mark.parametrize("command", EVERY, ids=" ".join)
def test_a_log_damaged_in_the_middle_is_named_not_a_traceback(tmp_path, command):
    site = running(tmp_path)
    campaign = site.campaign("g1")
    lines = campaign.log_path.read_text().splitlines(keepends=True)
    lines[1] = "[1, 2]\n"  # not a record, and not the last line (which a crash may tear)
    campaign.log_path.write_text("".join(lines))
    (campaign.root / "snapshot.json").unlink()
    before = files(campaign.root)
    said = refused(referee(site, *command))
    assert "log.jsonl: line 2 is not a JSON object" in said and "repair" in said
    assert files(campaign.root) == before


@pytest.mark.parametrize("command", EVERY, ids=" ".join)
def test_a_campaign_of_an_unknown_game_is_named_not_a_traceback(tmp_path, command):
    site = running(tmp_path)
    path = site.campaign("g1").root / "campaign.yaml"
    path.write_text(path.read_text().replace("game: bus", "game: chess"))
    said = refused(referee(site, *command))
    assert "campaign.yaml" in said and "'chess'" in said and "bus, busboss" in said


def test_check_names_the_unknown_game_in_its_file(tmp_path):
    site = running(tmp_path)
    path = site.campaign("g1").root / "campaign.yaml"
    path.write_text(path.read_text().replace("game: bus", "game: chess"))
    result = referee(site, "check", "--no-servers")
    assert result.exit_code == 1
    told = " ".join(result.output.partition("campaign g1: ")[2].split())
    assert "campaign.yaml" in told and "game: 'chess' is not one of: bus, busboss" in told


@pytest.mark.parametrize("name", ["mailed.json", "deadlines.json"])
def test_a_game_masters_command_on_a_damaged_state_file_says_so_and_runs_again(tmp_path, name):
    """The file is derived: it was moved aside and starts afresh, so the command, refused
    this once with nothing changed, runs when given again (as a tick waits one pass for it),
    instead of being logged and then stopped before its mail was queued."""
    site = running(tmp_path)
    state = site.campaign("g1").root / name
    state.write_text("{garbage")
    log = site.campaign("g1").log_path.read_bytes()
    said = refused(referee(site, "gm", "g1", "pause"))
    assert f"{name} could not be read" in said and "run the command again" in said
    assert site.campaign("g1").log_path.read_bytes() == log
    assert referee(site, "gm", "g1", "pause").exit_code == 0
    assert site.campaign("g1").status == "paused"
    assert json.loads(state.read_text())


@pytest.mark.parametrize(
    "command",
    ["resume", "start", "rollback 99", "drop Zed", "extend soon", "replace Zed with Al <a@b.org>"],
)
def test_a_refused_game_masters_command_changes_no_file(tmp_path, command):
    """The refusal is printed where the game master typed the command: nothing is logged
    (a refusal by mail is logged, to be answered by mail), no snapshot or mark rewritten."""
    site = running(tmp_path)
    before = files(site.campaign("g1").root), files(site.state_dir)
    result = referee(site, "gm", "g1", *command.split())
    assert result.exit_code == 1 and result.output.startswith("refused: "), result.output
    assert (files(site.campaign("g1").root), files(site.state_dir)) == before


def test_show_png_into_a_folder_that_is_not_there_says_so(tmp_path):
    site = running(tmp_path)
    said = refused(referee(site, "show", "g1", "--png", str(tmp_path / "no" / "map.png")))
    assert said.startswith(f"cannot write {tmp_path / 'no' / 'map.png'}:"), said
    assert "No such file or directory" in said


@pytest.mark.parametrize("command", ["show", "replay", "archive"])
def test_a_campaign_open_for_sign_up_has_no_game_to_show_and_says_why(tmp_path, command):
    """Not 'cannot be replayed with this referee: Bus is for 3 to 5 players, not 1'."""
    site = make_site(tmp_path)
    site.new_campaign("bus", "o1", PLAYERS[:1], seats=3, gm=GM)
    said = refused(referee(site, command, "o1"))
    assert said == (
        "campaign o1 is open for sign-up (1 of 3 seats taken): there is no game yet; it "
        "starts when every seat is taken, or with `referee gm o1 start` once 3 have joined"
    )
    assert not (site.campaign("o1").root / "archive").exists()


def test_status_tells_how_far_a_sign_up_is(tmp_path):
    site = running(tmp_path)
    site.new_campaign("bus", "o1", PLAYERS[:1], seats=3, gm=GM)
    result = referee(site, "status")
    assert result.exit_code == 0
    [line] = [line for line in result.output.splitlines() if line.startswith("o1 ")]
    assert " ".join(line.split()) == "o1 bus open sign-up: 1 of 3 seats taken (Ann)"


def test_status_of_an_unreadable_campaign_names_a_verify_command_that_runs(tmp_path):
    site = running(tmp_path)
    path = site.campaign("g1").root / "campaign.yaml"
    path.write_text(path.read_text().replace("seed: 1\n", "seed: one\n"))
    said = refused(referee(site, "status"))
    command = said.partition("`")[2].partition("`")[0]
    assert command == f"referee verify {site.data_root / 'g1'}", said
    result = referee(site, *command.split()[1:])
    assert result.exit_code == 1 and "seed: expected a whole number, found 'one'" in result.output


def test_help_and_history_on_the_command_line_print_what_they_say_is_below(tmp_path):
    """They were answered 'The history you asked for is below.' with nothing below (and no
    mail: the command line's game master is told on the terminal)."""
    site = running(tmp_path)
    site.campaign("g1")
    result = referee(site, "gm", "g1", "history")
    assert result.exit_code == 0, result.output
    assert "The game master pauses the campaign." in result.output
    result = referee(site, "gm", "g1", "help")
    assert result.exit_code == 0 and "build house 15" in result.output, result.output
    result = referee(site, "gm", "g1", "history", "turn", "9")
    assert result.exit_code == 1 and "refused: " in result.output and "turn 9" in result.output


def test_archive_into_a_folder_that_cannot_be_made_says_so(tmp_path):
    site = running(tmp_path)
    (tmp_path / "file").write_text("not a folder")
    out = tmp_path / "file" / "archive"
    said = refused(referee(site, "archive", "g1", "--out", str(out)))
    assert said.startswith(f"cannot write the archive to {out}:"), said


@pytest.mark.parametrize("command", [["init"], ["demo", "--dir"]], ids=" ".join)
def test_a_site_folder_that_cannot_be_made_says_so(tmp_path, command):
    (tmp_path / "file").write_text("not a folder")
    folder = tmp_path / "file" / "site"
    result = CliRunner().invoke(main, [*command, str(folder)])
    said = refused(result)
    assert said.startswith(f"cannot write the site in {folder}:"), said


@pytest.mark.parametrize(
    "setting, in_the_way",
    [
        ("data_root: games.txt", "games.txt"),
        ("  queue: queue.txt", "queue.txt"),
        ("  queue: mail/queue", "mail/queue/sent"),  # a folder of the queue's own
    ],
    ids=["data_root", "queue", "queue's sent"],
)
@pytest.mark.parametrize("command", [["tick"], ["check"], ["status", "--json"]], ids=" ".join)
def test_a_site_folder_where_a_file_lies_is_named_not_a_traceback(
    tmp_path, command, setting, in_the_way
):
    """It was a FileExistsError's traceback (the queue's, only once there was mail to queue
    or a monitoring system asked for the status)."""
    site = make_site(tmp_path)
    path = site.config.path
    key = setting.strip().partition(":")[0]
    text = path.read_text()
    path.write_text(re.sub(rf"^\s*{key}: .*$", setting, text, count=1, flags=re.M))
    shutil.rmtree(tmp_path / in_the_way, ignore_errors=True)
    (tmp_path / in_the_way).write_text("a file where a folder of the site belongs")
    said = refused(referee(site, *command))
    assert said == (
        f"cannot use {tmp_path / in_the_way} as a folder of the site (File exists): "
        f"mend the paths in {path}, or move what is in the way"
    )


def test_a_demo_in_a_site_with_mail_servers_or_a_broken_referee_yaml_says_so(tmp_path):
    site = make_site(tmp_path / "servers")
    path = site.config.path
    imap = "type: imap\n  host: imap.example.org\n  user: r\n  password_env: PW\n"
    text = path.read_text().replace("type: maildir\n  path: mail/inbox\n", imap, 1)
    path.write_text(text.replace("  processed_folder: processed\n", "", 1))
    said = refused(CliRunner().invoke(main, ["demo", "--dir", str(path.parent)]))
    assert str(path) in said
    (tmp_path / "broken").mkdir()
    (tmp_path / "broken" / "referee.yaml").write_text("x: [")
    said = refused(CliRunner().invoke(main, ["demo", "--dir", str(tmp_path / "broken")]))
    assert "referee.yaml is not valid YAML" in said


def test_new_open_for_no_seats_says_how_many_the_game_takes(tmp_path):
    """Not 'name the players or open the game for sign-up', which --open 0 had done."""
    site = make_site(tmp_path)
    said = refused(referee(site, "new", "bus", "o1", "--open", "0"))
    assert said == "Bus is for 3 to 5 players, not 0"
    assert not site.has_campaign("o1")


def test_new_with_both_hours_and_times_is_refused_not_half_applied(tmp_path):
    """A deadline is hours after each decision or at times of day: with both, the times
    were dropped without a word (hours win)."""
    site = make_site(tmp_path)
    result = referee(site, "new", "bus", "o1", "--open", "3", "--hours", "5", "--times", "08:00")
    assert result.exit_code == 2 and "--hours or --times, not both" in result.output
    assert not site.has_campaign("o1")


def test_gm_with_an_empty_command_says_to_give_one(tmp_path):
    site = running(tmp_path)
    before = files(site.campaign("g1").root)
    result = referee(site, "gm", "g1", " ")
    assert result.exit_code == 2 and "referee gm --help" in result.output, result.output
    assert files(site.campaign("g1").root) == before


def test_a_command_the_campaigns_bot_would_follow_is_refused_before_it_changes_anything(tmp_path):
    """With a seat dropped and campaign.yaml naming a bot its game does not have, `resume`
    was logged and saved (the game ran again), then stopped on the bot with an error, so the
    game master read that it had failed and nobody was told it had not."""
    site = running(tmp_path)
    for command in ("pause", "drop Ann"):
        assert referee(site, "gm", "g1", *command.split()).exit_code == 0
    path = site.campaign("g1").root / "campaign.yaml"
    path.write_text(path.read_text() + "bot: clever\n")
    before = files(site.campaign("g1").root)
    said = refused(referee(site, "gm", "g1", "resume"))
    assert said == "campaign.yaml: bot: no Bus bot 'clever'; the bots are default, random, strong"
    assert files(site.campaign("g1").root) == before


def test_replay_and_verify_do_not_count_the_orders_a_rollback_undid_as_replayed(tmp_path):
    site = running(tmp_path)
    for command in ("adjudicate", "adjudicate", "adjudicate", "rollback 1"):
        assert referee(site, "gm", "g1", *command.split()).exit_code == 0
    result = referee(site, "replay", "g1")
    assert result.exit_code == 0
    assert "2 orders replayed (1 undone by rollbacks, not replayed)" in result.output
    result = referee(site, "verify", str(site.data_root / "g1"))
    assert result.exit_code == 0
    replays = "the log replays: 2 orders, all legal (1 undone by rollbacks, not replayed)"
    assert replays in result.output, result.output


def test_verify_takes_a_campaign_id_of_the_site_as_every_other_command_does(tmp_path):
    """`referee verify g1` was refused ('Directory 'g1' does not exist'), though show,
    replay, gm and status take the id; a folder (anyone's copy of a campaign) still works."""
    site = running(tmp_path)
    result = referee(site, "verify", "g1")
    assert result.exit_code == 0 and "campaign g1: verified" in result.output, result.output
    said = refused(referee(site, "verify", "nope"))
    assert said == "no campaign folder nope, and no campaign 'nope' (campaigns: g1)"
    path = site.campaign("g1").root / "campaign.yaml"  # what verify is for: a broken one
    path.write_text(path.read_text().replace("seed: 1\n", "seed: one\n"))
    result = referee(site, "verify", "g1")
    assert result.exit_code == 1 and "seed: expected a whole number" in result.output
    outside = CliRunner().invoke(main, ["--config", str(tmp_path / "none.yaml"), "verify", "g1"])
    assert refused(outside) == "no campaign folder g1"


def test_a_command_waiting_for_a_running_tick_says_so_and_gives_up_plainly(tmp_path, monkeypatch):
    """It waited up to five minutes without a word, then said what a second tick says
    ('this one does nothing, the next run will catch up'): not so for a command."""
    from referee import console
    from referee.store.rest import TickLock

    site = running(tmp_path)
    monkeypatch.setattr(console, "LOCK_WAIT", 0.3)
    before = files(site.campaign("g1").root)
    with TickLock(site.state_dir / "tick.lock"):
        result = referee(site, "gm", "g1", "pause")
    assert f"a tick is running (pid {os.getpid()}, since " in result.output
    assert "waiting for it to end" in result.output
    said = refused(result)
    assert said.startswith("the tick still runs after 0.3 seconds: the command did nothing;")
    assert "next run" not in said
    assert files(site.campaign("g1").root) == before


SMTP_UNSET = """outbox:
  type: smtp
  host: 127.0.0.1
  security: none
  user: referee@example.org
  password_env: REFEREE_TEST_UNSET_PASSWORD
  queue: mail/queue
"""


def test_new_and_gm_with_the_mail_password_unset_are_done_and_their_mail_stays_queued(
    tmp_path, monkeypatch
):
    """The campaign was made (the command applied), then a traceback: the game master could
    not tell that it was, nor that its mail waits in the queue."""
    monkeypatch.delenv("REFEREE_TEST_UNSET_PASSWORD", raising=False)
    site = make_site(tmp_path)
    path = site.config.path
    text = path.read_text()
    maildir = "outbox:\n  type: maildir\n  path: mail/outbox\n  queue: mail/queue\n"
    assert maildir in text
    path.write_text(text.replace(maildir, SMTP_UNSET, 1))
    players = [arg for player in PLAYERS for arg in ("--player", player)]
    for command in (["new", "bus", "g1", *players, "--gm", GM], ["gm", "g1", "pause"]):
        result = referee(site, *command)
        assert result.exit_code == 0 and result.exception is None, result.output
        assert "mail not sent: the variable REFEREE_TEST_UNSET_PASSWORD" in result.output
        assert "it stays queued for the next tick" in result.output
    assert result.output.splitlines()[-1] == "mail: 0 sent, 7 queued"
    assert site.campaign("g1").status == "paused"


def test_new_with_the_rules_policy_for_a_game_without_missed_order_rules_is_refused(tmp_path):
    """Bus has no rule for a missed order: --policy rules made a campaign that waits for
    the game master at every missed deadline, as 'wait' does, without a word."""
    site = make_site(tmp_path)
    result = referee(site, "new", "bus", "o1", "--open", "3", "--hours", "24", "--policy", "rules")
    assert result.exit_code == 2, result.output
    assert "Bus has no rules of its own for a missed order: choose wait or bot" in result.output
    assert not site.has_campaign("o1")
    result = referee(site, "new", "busboss", "o2", "--open", "3", "--policy", "rules")
    assert result.exit_code == 0, result.output


def test_show_for_a_player_named_by_nothing_is_refused_not_the_public_view(tmp_path):
    site = running(tmp_path)
    said = refused(referee(site, "show", "g1", "--player", ""))
    assert said == "no player '' in g1; the players are Ann, Bob, Cid"
