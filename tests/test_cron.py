"""cron/: the wrapper cron and systemd run, on a real site."""

import http.server
import os
import re
import shlex
import shutil
import subprocess
import sys
import threading
import time
import tomllib
from pathlib import Path

import pytest
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
        env={**os.environ, "REFEREE": "no-such-referee-command", "REFEREE_WAIT_SECONDS": "0"},
    )
    assert done.returncode == 127
    assert "cannot run 'no-such-referee-command'" in done.stderr and "REFEREE=" in done.stderr


def test_the_wrapper_refuses_a_folder_without_a_site(tmp_path):
    done = wrapper(tmp_path)
    assert done.returncode == 64 and "give the site folder" in done.stderr


def test_the_systemd_units_run_the_wrapper_in_the_site():
    service = (CRON / "referee-tick.service").read_text()
    assert "ExecStart=/srv/referee/venv/bin/referee-tick /srv/referee\n" in service
    assert "Type=oneshot" in service  # the wrapper makes a running tick's 75 a 0
    timer = (CRON / "referee-tick.timer").read_text()
    # Persistent= catches up only on a calendar time (OnCalendar=), never after OnBootSec=
    # or OnUnitActiveSec=, which the timer had: a tick missed while the machine was off
    # never ran
    assert "OnCalendar=*-*-* *:00/2:00\n" in timer and "Persistent=true\n" in timer
    assert "OnUnitActiveSec" not in timer and "OnBootSec" not in timer


def test_the_systemd_unit_is_hardened_and_writes_in_the_site_alone():
    settings = dict(
        line.split("=", 1)
        for line in (CRON / "referee-tick.service").read_text().splitlines()
        if "=" in line and not line.startswith("#")
    )
    assert settings["NoNewPrivileges"] == "yes" and settings["PrivateTmp"] == "yes"
    assert settings["ProtectSystem"] == "strict" and settings["ReadWritePaths"] == "/srv/referee"
    # the drawing cache is in the site, as the rest of the file system is read-only
    assert settings["Environment"] == "REFEREE_CACHE_DIR=/srv/referee/state/cache"


def test_pip_installs_the_wrapper_beside_the_referee_command():
    config = tomllib.loads((CRON.parent / "pyproject.toml").read_text())
    assert config["tool"]["setuptools"]["script-files"] == ["cron/referee-tick"]
    assert os.access(CRON / "referee-tick", os.X_OK)


def a_venv(root):
    """A virtualenv's bin/ as pip leaves it: the referee command (here, this checkout's,
    which also notes that it ran) and the wrapper beside it."""
    bin_dir = root / "venv" / "bin"
    bin_dir.mkdir(parents=True)
    (bin_dir / "referee").write_text(
        f'#!/bin/sh\necho "$0" >> {root}/venv/used\n'
        f'PYTHONPATH={os.getcwd()} exec {sys.executable} -m referee "$@"\n'
    )
    shutil.copy(CRON / "referee-tick", bin_dir / "referee-tick")
    for script in bin_dir.iterdir():
        script.chmod(0o755)
    return root / "venv"


def rendered(name, venv, site):
    """A file of cron/ as a game master edits it for their paths."""
    text = (CRON / name).read_text()
    return text.replace("/srv/referee/venv", str(venv)).replace("/srv/referee", str(site))


def bare(command, env=()):
    """``command`` run as cron or systemd would, with nothing of this environment (env -i)
    but the variables their files set."""
    return subprocess.run(
        ["env", "-i", *env, *command], capture_output=True, text=True, timeout=120
    )


def test_the_crontab_line_and_the_unit_run_the_venvs_referee_in_a_bare_environment(tmp_path):
    site_dir, venv = tmp_path / "site", a_venv(tmp_path)
    site = make_site(site_dir)
    site.new_campaign("bus", "bus1", PLAYERS, seed=1)
    crontab = rendered("crontab.example", venv, site_dir).splitlines()
    settings = [line for line in crontab if re.match(r"^[A-Z_]+=", line)]
    [job] = [line for line in crontab if line and line[0] in "*0123456789"]
    command = job.split(None, 5)[5]
    assert command == f"{venv}/bin/referee-tick {site_dir}"
    done = bare(["/bin/sh", "-c", command], settings)
    assert (done.returncode, done.stdout, done.stderr) == (0, "", "")
    log = (site_dir / "state" / "tick.log").read_text()
    assert "queued 0, sent 3, still queued 0" in log and log.rstrip().endswith("status 0")

    service = rendered("referee-tick.service", venv, site_dir).splitlines()
    [start] = [line.partition("=")[2] for line in service if line.startswith("ExecStart=")]
    environment = [line.partition("=")[2] for line in service if line.startswith("Environment=")]
    done = bare(shlex.split(start), environment)
    assert (done.returncode, done.stderr) == (0, "")
    log = (site_dir / "state" / "tick.log").read_text()
    assert log.count("tick end, status 0") == 2
    # both ran the virtualenv's referee, found beside the wrapper
    used = (venv / "used").read_text().splitlines()
    assert used == [f"{venv}/bin/referee"] * 2


def fake_referee(root, status):
    """A referee command that only says it ticked, and exits with ``status``."""
    path = root / f"fake-referee-{status}"
    path.write_text(f'#!/bin/sh\necho "fake tick $*"\nexit {status}\n')
    path.chmod(0o755)
    return str(path)


def test_tick_log_rotates_past_its_size_keeping_a_few(tmp_path):
    make_site(tmp_path)
    log = tmp_path / "state" / "tick.log"
    env = {"REFEREE": fake_referee(tmp_path, 0), "REFEREE_LOG_KB": "1", "REFEREE_LOG_KEEP": "2"}
    for n in (1, 2, 3):
        with log.open("a") as f:
            f.write(f"old-{n}\n" * 300)  # over 1 KB
        done = subprocess.run(
            [str(CRON / "referee-tick"), str(tmp_path)],
            capture_output=True,
            text=True,
            timeout=60,
            env={**os.environ, **env},
        )
        assert done.returncode == 0, done.stderr
        # the new tick starts a new log; the full one moved on
        assert "old-" not in log.read_text() and "fake tick" in log.read_text()
        assert f"old-{n}" in (tmp_path / "state" / "tick.log.1").read_text()
    assert "old-2" in (tmp_path / "state" / "tick.log.2").read_text()
    assert not (tmp_path / "state" / "tick.log.3").exists()  # REFEREE_LOG_KEEP=2
    assert sorted(p.name for p in log.parent.glob("tick.log*")) == [
        "tick.log",
        "tick.log.1",
        "tick.log.2",
    ]


class Pings(http.server.BaseHTTPRequestHandler):
    heard: list[str] = []

    def do_GET(self):
        Pings.heard.append(self.path)
        self.send_response(200)
        self.end_headers()

    def log_message(self, *args):
        pass


def test_a_tick_that_went_well_pings_a_url_and_touches_a_file(tmp_path):
    make_site(tmp_path)
    server = http.server.HTTPServer(("127.0.0.1", 0), Pings)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    Pings.heard = []
    beacon = tmp_path / "alive"
    (tmp_path / "referee.env").write_text(
        f"REFEREE_PING_URL=http://127.0.0.1:{server.server_port}/ping/site1\n"
        f"REFEREE_TOUCH_FILE={beacon}\n"
    )
    try:
        for status in (0, 3, 1, 75):
            done = subprocess.run(
                [str(CRON / "referee-tick"), str(tmp_path)],
                capture_output=True,
                text=True,
                timeout=60,
                env={**os.environ, "REFEREE": fake_referee(tmp_path, status)},
            )
            assert done.returncode == (0 if status == 75 else status)
            if status == 0:
                assert Pings.heard == ["/ping/site1"] and beacon.exists()
                beacon.unlink()
    finally:
        server.shutdown()
        server.server_close()
    # only the tick that went well told the switch: the others (and one that found
    # another tick running) did not
    assert Pings.heard == ["/ping/site1"] and not beacon.exists()


def test_the_wrapper_reads_referee_env_as_written_and_runs_nothing_in_it(tmp_path):
    """The wrapper sourced referee.env as shell: 'open sesame' ran the command 'sesame' (a
    mail to cron's owner every tick) and left the token unset. Now the referee reads the
    secrets itself, and the wrapper takes its own settings from the file as written."""
    make_site(tmp_path)
    beacon = tmp_path / "alive $HOME"
    (tmp_path / "referee.env").write_text(
        f"REFEREE_TEST_GM_TOKEN=open sesame\nREFEREE_TOUCH_FILE={beacon}\nREFEREE_LOG_KB=1\n"
    )
    shown = tmp_path / "show-env"
    shown.write_text('#!/bin/sh\necho "token=${REFEREE_TEST_GM_TOKEN-unset}"\n')
    shown.chmod(0o755)
    done = subprocess.run(
        [str(CRON / "referee-tick"), str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=60,
        env={k: v for k, v in os.environ.items() if not k.startswith("REFEREE")}
        | {"REFEREE": str(shown)},
    )
    assert (done.returncode, done.stderr) == (0, "")
    assert beacon.exists()  # the path as written, $HOME and all
    assert "token=unset" in (tmp_path / "state" / "tick.log").read_text()  # not exported


@pytest.mark.slow
def test_a_failure_that_lasts_is_printed_when_it_starts_once_a_day_and_when_it_ends(tmp_path):
    """A broken campaign made every tick exit 3 and print the same error three times: cron
    mailed its owner every two minutes. The exit status still says it at every tick."""
    site = make_site(tmp_path)
    site.new_campaign("bus", "bus1", PLAYERS, seed=1)
    settings = site.data_root / "bus1" / "campaign.yaml"
    sound = settings.read_text()
    settings.write_text(sound + "deadlines: {timezone: Mars/Olympus}\n")
    first = wrapper(tmp_path)
    assert first.returncode == 3 and first.stdout == ""
    assert first.stderr.count("'Mars/Olympus' is not a time zone") == 1  # once, not three times
    again = wrapper(tmp_path)
    assert (again.returncode, again.stdout, again.stderr) == (3, "", "")
    assert "not printed again before a day" in (tmp_path / "state" / "tick.log").read_text()
    a_day_ago = time.time() - 24 * 3600 - 60
    os.utime(tmp_path / "state" / "tick.told", (a_day_ago, a_day_ago))
    next_day = wrapper(tmp_path)
    assert next_day.returncode == 3 and next_day.stderr == first.stderr
    # another failure beside it is new: printed at once
    settings.write_text(sound + "deadlines: {timezone: Venus/Maxwell}\n")
    other = wrapper(tmp_path)
    assert other.returncode == 3 and "Venus/Maxwell" in other.stderr
    settings.write_text(sound)
    over = wrapper(tmp_path)
    assert over.returncode == 0 and over.stderr == (
        f"referee-tick: the failures printed before are over in {tmp_path}: this tick went well\n"
    )
    assert wrapper(tmp_path).stderr == ""  # and said once


def test_the_wrapper_waits_for_a_referee_command_that_an_upgrade_is_replacing(tmp_path):
    """pip removes the old command before it writes the new one: every tick meanwhile
    exited 127 with a mail to cron's owner."""
    make_site(tmp_path)
    command = tmp_path / "bin" / "referee"
    command.parent.mkdir()

    def installed_later():
        time.sleep(2)
        command.write_text('#!/bin/sh\necho "fake tick $*"\n')
        command.chmod(0o755)

    threading.Thread(target=installed_later).start()
    done = subprocess.run(
        [str(CRON / "referee-tick"), str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "REFEREE": str(command), "REFEREE_WAIT_SECONDS": "30"},
    )
    assert (done.returncode, done.stderr) == (0, "")
    assert (
        "fake tick --config referee.yaml -v tick" in (tmp_path / "state" / "tick.log").read_text()
    )
