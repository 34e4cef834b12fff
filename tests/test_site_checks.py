"""`referee check`, the tick lock held by every command that writes, and the game masters'
daily summary of failures."""

import threading
import time
from datetime import UTC, datetime, timedelta

from click.testing import CliRunner
from sites import PLAYERS, Mailboxes, make_site, person_mail, run_tick, text_of, with_game_master

from referee.cli import main
from referee.service.failures import SHOWN, note_failure
from referee.service.tick import tick
from referee.store.rest import TickLock

T0 = datetime(2026, 11, 23, 9, 0, tzinfo=UTC)


def referee(site, *args):
    return CliRunner().invoke(main, ["--config", str(site.config.path), *args])


def test_check_tells_every_problem_of_every_campaign_and_the_servers(tmp_path):
    site = make_site(tmp_path)
    site.new_campaign("bus", "good", PLAYERS, seed=1)
    site.new_campaign("bus", "bad", PLAYERS, seed=2)
    settings = site.data_root / "bad" / "campaign.yaml"
    settings.write_text(settings.read_text() + "deadlines: {hours: -4, policy: dice}\n")
    done = referee(site, "check")
    assert done.exit_code == 1
    assert "campaign good: ok" in done.output and "inbox: ok" in done.output
    assert "deadlines.hours must be a positive number" in done.output
    assert "deadlines.policy must be one of wait, bot, rules" in done.output
    assert "1 problem(s) found" in done.output
    settings.write_text(settings.read_text().replace("deadlines: {hours: -4, policy: dice}\n", ""))
    done = referee(site, "check")
    assert done.exit_code == 0 and "campaign bad: ok" in done.output


def test_check_names_an_unset_game_master_token_and_limits_at_odds(tmp_path, monkeypatch):
    site = make_site(tmp_path)
    monkeypatch.delenv("REFEREE_TEST_GIL_TOKEN", raising=False)
    path = site.config.path
    settings = path.read_text()
    path.write_text(
        settings.replace(
            "  name: Referee ",
            "  game_masters: [{address: gil@example.org, token_env: REFEREE_TEST_GIL_TOKEN}]\n"
            "  name: Referee ",
        ).replace("  queue: mail/queue\n", "  queue: mail/queue\n  give_up_days: 0.1\n", 1)
        + "limits: {per_hour: 100, per_day: 60, strangers_per_day: 80}\n"
    )
    done = referee(site, "check", "--no-servers")
    assert done.exit_code == 1 and "2 problem(s) found" in done.output  # the token, the limits
    assert "site game master gil@example.org: the variable REFEREE_TEST_GIL_TOKEN" in done.output
    assert "limits.per_hour (100) is more than limits.per_day (60)" in done.output
    assert "limits.strangers_per_day (80) is more than limits.per_day (60)" in done.output
    assert "outbox.retry_at_most_hours (4.0) is not less than outbox.give_up_days" in done.output
    # the token in referee.env, which the referee reads, and the limits mended
    (tmp_path / "referee.env").write_text("REFEREE_TEST_GIL_TOKEN='s3cret'\n")
    path.write_text(path.read_text().replace("give_up_days: 0.1", "give_up_days: 7"))
    path.write_text(path.read_text().replace("per_hour: 100, per_day: 60, ", "per_day: 80, "))
    done = referee(site, "check", "--no-servers")
    assert done.exit_code == 0, done.output
    assert "site game master gil@example.org: ok" in done.output and "limits: ok" in done.output


def test_a_game_master_token_beyond_ascii_is_named_by_check_and_stops_no_mail(
    tmp_path, monkeypatch
):
    """A mail's token is read as ASCII, so such a token never matches; comparing it raised
    TypeError (compare_digest takes ASCII strs only), and the game master's 'open' mail
    failed and was quarantined instead of being answered."""
    monkeypatch.setenv("REFEREE_TEST_GIL_TOKEN", "Bußgeld")
    site = with_game_master(make_site(tmp_path), "gil@example.org", "REFEREE_TEST_GIL_TOKEN")
    done = referee(site, "check", "--no-servers")
    assert done.exit_code == 1
    assert "REFEREE_TEST_GIL_TOKEN (token_env in referee.yaml) holds characters beyond ASCII" in (
        " ".join(done.output.split())
    )
    boxes = Mailboxes(site)
    body = "token Bußgeld\nopen bus spring 3"
    boxes.deliver(person_mail("Gil <gil@example.org>", "referee@example.org", "new", body))
    assert not tick(site).errors
    [refused] = boxes.new("gil@example.org")
    assert "Only a game master of this referee" in text_of(refused)


def test_check_tells_a_refused_mail_server_login(tmp_path):
    site = make_site(tmp_path)
    path = site.config.path
    text = path.read_text().replace(
        "inbox:\n  type: maildir\n  path: mail/inbox\n  processed_folder: processed",
        "inbox:\n  type: imap\n  host: 127.0.0.1\n  port: 9\n  security: none\n"
        "  user: referee\n  password_env: REFEREE_TEST_NO_PASSWORD",
    )
    path.write_text(text)
    done = referee(site, "check")
    assert done.exit_code == 1
    assert "inbox:" in done.output and "REFEREE_TEST_NO_PASSWORD" in done.output


def test_referee_new_waits_for_a_running_tick(tmp_path):
    site = make_site(tmp_path)
    seen_while_locked = []

    def hold():
        with TickLock(site.state_dir / "tick.lock"):
            time.sleep(1.0)
            seen_while_locked.append((site.data_root / "bus1").exists())

    holder = threading.Thread(target=hold)
    holder.start()
    time.sleep(0.2)
    done = referee(site, "new", "bus", "bus1", *sum((["--player", p] for p in PLAYERS), []))
    holder.join()
    assert done.exit_code == 0, done.output
    assert seen_while_locked == [False]  # nothing was written while the tick held the lock
    assert (site.data_root / "bus1" / "campaign.yaml").exists()


def test_the_game_masters_get_one_bounded_summary_of_failures_a_day(tmp_path):
    site = with_game_master(make_site(tmp_path), "gm@example.org", "GM_TOKEN")
    for n in range(SHOWN + 5):
        note_failure(site, f"mail <m{n}@x>", f"unreadable: reason {n}", T0)
    tick(site, T0)
    boxes = Mailboxes(site)
    [summary] = boxes.new("gm@example.org")
    assert str(summary["Subject"]).startswith(f"referee: {SHOWN + 5} failure(s)")
    text = text_of(summary)
    assert "mail <m0@x>" in text and f"mail <m{SHOWN}@x>" not in text
    assert "... and 5 more" in text
    note_failure(site, "campaign c", "boom", T0)
    tick(site, T0 + timedelta(hours=3))  # not again the same day
    assert boxes.new("gm@example.org") == []
    tick(site, T0 + timedelta(days=1, minutes=1))
    [second] = boxes.new("gm@example.org")
    assert "campaign c" in text_of(second) and "mail <m0@x>" not in text_of(second)
    run_tick(site)
    assert boxes.new("gm@example.org") == []  # nothing new: no summary


def test_check_reads_a_game_s_options_by_the_game_s_own_description(tmp_path):
    """Every game declares its options as a described section (``Rules.options``): check names
    a misspelt option with its near miss and a value the game does not have, all at once."""
    site = make_site(tmp_path)
    site.new_campaign("bus", "odd", PLAYERS, seed=1)
    settings = site.data_root / "odd" / "campaign.yaml"
    text = settings.read_text()
    assert "  line_orders: name-head\n" in text  # B15, pinned for a new campaign
    settings.write_text(
        text.replace("  line_orders: name-head\n", "  editon: 1999\n  line_orders: x\n")
    )
    done = referee(site, "check")
    assert done.exit_code == 1
    assert "options.editon: unknown setting; did you mean `edition`?" in done.output
    assert "options.line_orders: 'x' is not one of: name-head, either-end" in done.output
    settings.write_text(text.replace("options:\n", "options:\n  edition: 1999\n"))
    assert referee(site, "check").exit_code == 0


def test_check_reads_the_inbox_password_from_referee_env(mailrig, tmp_path, monkeypatch):
    """The tick reads referee.env itself, so check does too: it said the IMAP password was
    unset while the tick logged in with it."""
    account = mailrig.new_account("referee")
    monkeypatch.delenv("REFEREE_TEST_IMAP_PASSWORD", raising=False)
    site = make_site(tmp_path)
    path = site.config.path
    path.write_text(
        path.read_text().replace(
            "inbox:\n  type: maildir\n  path: mail/inbox\n  processed_folder: processed",
            f"inbox:\n  type: imap\n  host: 127.0.0.1\n  port: {mailrig.imap_port}\n"
            f"  security: none\n  user: {account.address}\n"
            "  password_env: REFEREE_TEST_IMAP_PASSWORD",
        )
    )
    (tmp_path / "referee.env").write_text(f"REFEREE_TEST_IMAP_PASSWORD={account.password}\n")
    done = referee(site, "check")
    assert "inbox: ok" in done.output, done.output
    (tmp_path / "referee.env").write_text("REFEREE_TEST_IMAP_PASSWORD=wrong\n")
    done = referee(site, "check")
    assert done.exit_code == 1 and "inbox: ok" not in done.output
