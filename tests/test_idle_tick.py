"""A tick with nothing to do costs what it does: cron starts `referee tick` every minute and
most ticks find no mail and no deadline due, so that tick reads referee.yaml, takes the
lock, looks at the inbox, the queue and state/waits.json, and ends, without importing the
template engine, the drawing library, the games, the email package or click. What it passes
over is still done by the first tick that has it to do."""

import json
import os
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path

from sites import PLAYERS, Mailboxes, make_site, person_mail, run_tick, with_game_master

from referee.service.failures import note_failure
from referee.service.tick import tick

T0 = datetime(2026, 11, 23, 9, 0, tzinfo=UTC)
ROOT = Path(__file__).resolve().parents[1]

# what `referee ARGS` imported, run as the console script runs it (referee.cli:main)
ENTRY = """
import json, sys
sys.argv = ["referee", *sys.argv[1:]]
from referee.cli import main
try:
    main()
    status = 0
except SystemExit as end:
    status = end.code
print(json.dumps({"status": status, "modules": sorted(sys.modules)}))
"""
# a tick with nothing to do needs none of these
HEAVY = ("jinja2", "PIL", "imapclient", "click", "email", "smtplib", "ssl")
# nor the games, their registry and contract, or a campaign's settings (time zones, ids)
GAMES = ("referee.bus", "referee.busboss", "referee.registry", "referee.contract")
CAMPAIGNS = "referee.settings.campaign"


def referee(site_root: Path, *args: str) -> tuple[int, list[str], str]:
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]),
    }
    done = subprocess.run(
        [sys.executable, "-c", ENTRY, *args],
        cwd=site_root,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    *printed, last = done.stdout.splitlines()
    found = json.loads(last)
    return found["status"], found["modules"], "\n".join(printed)


def site_at_rest(tmp_path):
    """A site with a Bus game waiting for its players and a Bus Boss game open for sign-up,
    every mail answered and sent, and a deadline far off."""
    site = make_site(tmp_path)
    site.new_campaign("bus", "bus1", PLAYERS, seed=1, settings={"deadlines": {"hours": 48}})
    site.new_campaign("busboss", "boss1", [], seats=4, gm="Gil <gil@example.org>")
    run_tick(site)
    return site


def test_an_idle_tick_imports_no_template_engine_drawing_library_game_or_click(tmp_path):
    site = site_at_rest(tmp_path)
    status, modules, printed = referee(site.root, "tick")
    assert status == 0
    assert printed == "fetched 0, applied 0, ignored 0, queued 0, sent 0, still queued 0"
    loaded = {name.split(".")[0] for name in modules}
    assert loaded.isdisjoint(HEAVY), sorted(loaded & set(HEAVY))
    assert not [name for name in modules if name.startswith(GAMES)]
    assert CAMPAIGNS not in modules
    # the same with the options cron's wrapper may give, in any order
    config = str(site.config.path)
    status, modules, printed = referee(tmp_path.parent, "-v", "--config", config, "-q", "tick")
    assert status == 0 and printed.startswith("fetched 0")
    assert {name.split(".")[0] for name in modules}.isdisjoint(HEAVY)


def test_a_tick_with_mail_reads_it_and_a_command_line_click_knows_is_clicks(tmp_path):
    site = site_at_rest(tmp_path)
    bus1 = site.campaign("bus1")
    to = site.identity.plus("bus1", bus1.players[0].token)
    Mailboxes(site).deliver(person_mail(PLAYERS[0], to, "orders", "build house 15"))
    status, modules, printed = referee(site.root, "tick")
    assert status == 0 and printed.startswith("fetched 1, applied 1")
    assert "referee.bus" in modules and "jinja2" in modules  # the game, the answers' words
    assert [o.text for r in site.campaign("bus1").records() for o in r.orders] == ["build house 15"]
    status, _, printed = referee(site.root, "tick", "--help")
    assert status == 0 and printed.startswith("Usage: referee tick")
    status, _, _ = referee(site.root, "--config", str(site.root), "tick")  # a folder
    assert status == 2  # click's usage error, as before


def test_a_tick_with_no_mail_still_sends_what_is_queued_and_keeps_the_deadlines(tmp_path):
    site = site_at_rest(tmp_path)
    boxes = Mailboxes(site)
    boxes.new()
    site.post.queue(None, person_mail("Referee <referee@example.org>", "ann@example.org", "x", "y"))
    report = tick(site)
    assert (report.fetched, report.sent) == (0, 1)
    assert [str(m["To"]) for m in boxes.new()] == ["ann@example.org"]
    # the deadline of 48 hours passes: the players who owe a decision are reminded
    # before it, and the game master is told when it is missed (policy: wait)
    later = datetime.now(UTC) + timedelta(hours=47)
    report = tick(site, later)
    assert report.answered >= 1 and not report.errors
    assert any("bus1" in str(m["Subject"]) for m in boxes.new())


def test_a_failure_noted_is_summarised_by_the_next_tick_even_with_nothing_else_to_do(tmp_path):
    site = site_at_rest(tmp_path)
    site = with_game_master(site, "gm@example.org", "GM_TOKEN")
    run_tick(site)  # the first summary (of nothing) is not due: nothing failed
    boxes = Mailboxes(site)
    boxes.new()
    note_failure(site, "mail <m1@x>", "unreadable", T0)
    tick(site, datetime.now(UTC))
    [summary] = boxes.new("gm@example.org")
    assert "mail <m1@x>" in str(summary.get_body(("plain",)).get_content())
