"""cron/: the wrapper cron and systemd run, on a real site."""

import os
import subprocess
import sys
from pathlib import Path

from sites import PLAYERS, make_site

CRON = Path(__file__).parent.parent / "cron"


def wrapper(site_dir, **env):
    referee = Path(site_dir) / "referee-cmd"
    referee.write_text(
        f'#!/bin/sh\nPYTHONPATH={os.getcwd()} exec {sys.executable} -m referee "$@"\n'
    )
    referee.chmod(0o755)
    return subprocess.run(
        [str(CRON / "referee-tick"), str(site_dir)],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "REFEREE": str(referee), **env},
    )


def test_the_wrapper_runs_a_tick_and_logs_it(tmp_path):
    site = make_site(tmp_path)
    site.new_campaign("bus", "bus1", PLAYERS, seed=1)
    (tmp_path / "referee.env").write_text("REFEREE_SMTP_PASSWORD=unused\n")
    done = wrapper(tmp_path)
    assert done.returncode == 0 and done.stdout == "" and done.stderr == ""
    log = (tmp_path / "state" / "tick.log").read_text()
    assert "tick start" in log and "queued 0, sent 3, still queued 0" in log
    assert log.rstrip().endswith("tick end, status 0")


def test_the_wrapper_prints_a_tick_that_could_not_run_so_cron_mails_it(tmp_path):
    make_site(tmp_path)
    config = tmp_path / "referee.yaml"
    config.write_text(config.read_text().replace("type: maildir\n  path: mail/inbox", "type: pop3"))
    done = wrapper(tmp_path)
    assert done.returncode == 1
    assert "the tick could not run" in done.stderr and "inbox.type: 'pop3'" in done.stderr
    assert "tick end, status 1" in (tmp_path / "state" / "tick.log").read_text()


def test_the_wrapper_prints_a_failed_campaign_and_exits_3(tmp_path):
    site = make_site(tmp_path)
    site.new_campaign("bus", "bus1", PLAYERS, seed=1)
    site.new_campaign("bus", "bus2", PLAYERS, seed=2)
    settings = site.data_root / "bus2" / "campaign.yaml"
    settings.write_text(
        settings.read_text() + "deadlines: {timezone: Mars/Olympus, grace_minutes: soon}\n"
    )
    done = wrapper(tmp_path)
    assert done.returncode == 3, done.stderr
    assert "some mails or campaigns failed" in done.stderr
    assert (
        "campaign bus2" in done.stderr and "Mars/Olympus" in done.stderr and "soon" in done.stderr
    )
    assert "bus1" not in done.stderr  # the good campaign is not a failure


def test_the_wrapper_says_when_it_cannot_find_the_referee_command(tmp_path):
    make_site(tmp_path)
    done = subprocess.run(
        [str(CRON / "referee-tick"), str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "REFEREE": "no-such-referee-command"},
    )
    assert done.returncode == 127
    assert "cannot run 'no-such-referee-command'" in done.stderr and "REFEREE=" in done.stderr


def test_the_wrapper_refuses_a_folder_without_a_site(tmp_path):
    done = wrapper(tmp_path)
    assert done.returncode == 64 and "give the site folder" in done.stderr


def test_the_systemd_units_run_the_tick_in_the_site():
    service = (CRON / "referee-tick.service").read_text()
    assert "ExecStart=/usr/local/bin/referee --config /srv/referee/referee.yaml tick" in service
    assert "SuccessExitStatus=75" in service and "Type=oneshot" in service
    timer = (CRON / "referee-tick.timer").read_text()
    assert "OnUnitActiveSec=2min" in timer and "Persistent=true" in timer
