"""A tick with nothing to do costs what it does: cron starts `referee tick` every minute and
most ticks find no mail and no deadline due, so that tick reads referee.yaml, takes the
lock, looks at the inbox, the queue and state/waits.marshal, and ends, without importing
the template engine, the drawing library, the games, the email package or click. What it passes
over is still done by the first tick that has it to do."""

import ast
import os
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path

from click.testing import CliRunner
from sites import (
    PLAYERS,
    Mailboxes,
    make_site,
    person_mail,
    run_tick,
    status_health,
    text_of,
    with_game_master,
)

from referee.cli import main
from referee.service.failures import note_failure
from referee.service.tick import tick
from referee.store.rest import at_rest
from referee.ticking import rest_tick

T0 = datetime(2026, 11, 23, 9, 0, tzinfo=UTC)
ROOT = Path(__file__).resolve().parents[1]

# what `referee ARGS` imported, run as the console script runs it (referee.cli:main), told
# without importing anything (a tick at rest imports no json: neither does this)
ENTRY = """
import sys
sys.argv = ["referee", *sys.argv[1:]]
if sys.argv[1:] != ["--bare"]:
    from referee.cli import main
    try:
        main()
        status = 0
    except SystemExit as end:
        status = end.code
else:
    status = 0
print(repr({"status": status, "modules": sorted(sys.modules)}))
"""
# a tick with nothing to do needs none of these
HEAVY = ("jinja2", "PIL", "imapclient", "click", "email", "smtplib", "ssl", "babel")
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
    found = ast.literal_eval(last)
    return found["status"], found["modules"], "\n".join(printed)


def site_at_rest(tmp_path):
    """A site with a Bus game waiting for its players and a Bus Boss game open for sign-up,
    every mail answered and sent, and a deadline far off."""
    site = make_site(tmp_path)
    site.new_campaign("bus", "bus1", PLAYERS, seed=1, settings={"deadlines": {"hours": 48}})
    site.new_campaign("busboss", "boss1", [], seats=4, gm="Gil <gil@example.org>")
    run_tick(site)
    run_tick(site)  # finds the site quiet, and notes it so (store.rest)
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
    # answered in English: no catalogue read, no Babel (issue 37)
    assert not [name for name in modules if name.split(".")[0] in ("babel", "gettext")]
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
    assert "mail <m1@x>" in text_of(summary)


# what a tick at rest may import beyond a bare interpreter: the referee's own modules, the
# lock's fcntl, and __future__ (their annotations)
AT_REST = {"referee", "fcntl", "__future__"}


def test_a_tick_at_rest_imports_no_yaml_logging_json_or_typing_only_the_lock_and_its_note(
    tmp_path,
):
    site = site_at_rest(tmp_path)
    noted = site.state_dir / "last-tick.json"  # the last tick that looked: an hour ago
    an_hour_ago = (datetime.now(UTC) - timedelta(hours=1)).isoformat(timespec="seconds")
    noted.write_text(noted.read_text().replace('"at": "', f'"at": "{an_hour_ago}", "was": "'))
    assert status_health(site)["seconds_since_last_tick"] >= 3600
    _, bare, _ = referee(site.root, "--bare")
    for _ in range(2):  # (the first has the note made again for this interpreter)
        status, modules, printed = referee(site.root, "tick")
        assert status == 0
        assert printed == "fetched 0, applied 0, ignored 0, queued 0, sent 0, still queued 0"
    added = {name.split(".")[0] for name in set(modules) - set(bare)}
    assert added <= AT_REST, sorted(added - AT_REST)
    # and the tick is told as a tick that went well, a moment ago
    health = status_health(site)
    assert health["ok"] and health["last_tick"]["outcome"] == "ok"
    assert health["seconds_since_last_tick"] < 60 and health["seconds_since_last_ok_tick"] < 60


def test_a_tick_at_rest_looks_at_as_many_files_for_many_campaigns_as_for_two(tmp_path, monkeypatch):
    """Cron's tick of most minutes does not grow with the number of campaigns: it reads
    the note of the site at rest, not each campaign's files."""
    site = site_at_rest(tmp_path)
    config = str(site.config.path)

    def looked_at() -> int:
        calls = []
        for name in ("stat", "scandir", "listdir", "open"):
            real = getattr(os, name)
            monkeypatch.setattr(
                os, name, lambda *a, real=real, **k: calls.append(a) or real(*a, **k)
            )
        try:
            assert rest_tick(config) == 0
        finally:
            monkeypatch.undo()
        return len(calls)

    two = looked_at()
    for n in range(20):
        site.new_campaign("busboss", f"open{n}", [], seats=3)
    run_tick(site)
    run_tick(site)
    assert looked_at() == two


def test_what_a_tick_at_rest_does_not_watch_is_looked_at_after_a_command_that_writes(tmp_path):
    """A command from the shell changes a campaign's files, which the note does not watch:
    it forgets the note, and the next tick looks at the campaigns again."""
    site = site_at_rest(tmp_path)
    assert at_rest(site.state_dir, datetime.now(UTC).timestamp(), inbox=True) is not None
    shown = CliRunner().invoke(main, ["--config", str(site.config.path), "gm", "bus1", "pause"])
    assert shown.exit_code == 0, shown.output
    assert at_rest(site.state_dir, datetime.now(UTC).timestamp(), inbox=True) is None
    boxes = Mailboxes(site)
    boxes.new()
    for _ in range(2):  # the first looks at the paused campaign, the second finds it quiet
        status, _, printed = referee(site.root, "tick")
        assert status == 0 and printed.startswith("fetched 0")
    assert at_rest(site.state_dir, datetime.now(UTC).timestamp(), inbox=True) is not None
