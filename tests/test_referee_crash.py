"""A tick killed at any step: the next tick ends where an uninterrupted run ends, with no
order lost, none applied twice, and no answer lost or sent twice."""

import os
import shutil
import subprocess
import sys
from collections import Counter

import pytest
from sites import PLAYERS, Mailboxes, logged, make_site, reply_to, run_tick

from referee import mailbot
from referee.service.site import Site
from referee.settings.site import load_config

pytestmark = pytest.mark.slow  # ticks killed in other processes

# every step of a tick, and every point where a group of writes is made durable
CRASH_POINTS = [
    "fetched",
    "stored",
    "recorded",
    "taken",
    "synced-files",
    "applied",
    "answered",
    "queued",
    "sent",
]


def tick_process(site_dir, crash_at=None):
    env = {**os.environ, "PYTHONPATH": os.getcwd()}
    env.pop("REFEREE_CRASH_AT", None)
    if crash_at:
        env["REFEREE_CRASH_AT"] = crash_at
    return subprocess.run(
        [sys.executable, "-m", "referee", "--config", str(site_dir / "referee.yaml"), "tick"],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
    )


@pytest.fixture(scope="module")
def prepared(tmp_path_factory):
    """A site whose inbox holds three players' mails: orders to apply now, orders to keep
    for later, and a duplicate delivery."""
    root = tmp_path_factory.mktemp("prepared")
    site = make_site(root)
    site.new_campaign("bus", "bus1", PLAYERS, seed=1)
    run_tick(site)
    boxes = Mailboxes(site)
    welcomes = {str(m["To"]).split("<")[-1].rstrip(">"): m for m in boxes.sent()}
    bob = reply_to(
        welcomes["bob@example.org"],
        "bob@example.org",
        # a setting with the orders: written before the record (see service/session.py)
        "timezone Europe/Berlin\nbuild office 21\nbuild office 22\nline 26-27",
    )
    boxes.deliver(bob)
    boxes.deliver(
        reply_to(welcomes["ann@example.org"], "ann@example.org", "build house 15\nbuild pub 16")
    )
    boxes.deliver(bob)
    boxes.deliver(
        reply_to(
            welcomes["cid@example.org"], "cid@example.org", "Hello!\nbuild pub 10\nbuild house 20"
        )
    )
    return root


def outcome(site_dir):
    """What a run leaves: the log without times, every mail the players received, and the
    players' settings."""
    site = Site(load_config(site_dir / "referee.yaml"))
    records = [
        {k: v for k, v in r.items() if k not in ("at", "hash")}
        for r in logged(site.campaign("bus1"))
    ]
    mails = Mailboxes(site).sent()
    ids = Counter(str(m["Message-ID"]) for m in mails)
    bodies = sorted((str(m["To"]), str(m["Subject"]), mailbot.body(m)) for m in mails)
    zones = [p.timezone for p in site.campaign("bus1").players]
    return records, ids, bodies, zones


@pytest.fixture(scope="module")
def uninterrupted(prepared, tmp_path_factory):
    site_dir = tmp_path_factory.mktemp("clean") / "site"
    shutil.copytree(prepared, site_dir)
    for _ in range(2):
        assert tick_process(site_dir).returncode == 0
    return outcome(site_dir)


@pytest.mark.parametrize("crash_at", CRASH_POINTS)
def test_a_tick_killed_at_each_step_is_made_good_by_the_next(
    prepared, uninterrupted, tmp_path, crash_at
):
    site_dir = tmp_path / "site"
    shutil.copytree(prepared, site_dir)
    crashed = tick_process(site_dir, crash_at)
    assert crashed.returncode == 137, crashed.stderr
    for _ in range(2):
        done = tick_process(site_dir)
        assert done.returncode == 0, done.stdout + done.stderr
    records, ids, bodies, zones = outcome(site_dir)
    clean_records, clean_ids, clean_bodies, clean_zones = uninterrupted
    assert records == clean_records  # no order lost, none applied twice
    applied = [o for r in records for o in r.get("orders", ())]
    assert [1, "build office 21", "queue"] in applied and len(applied) == 6
    assert max(ids.values()) == 1  # no mail sent twice
    assert set(ids) == set(clean_ids)  # and none lost
    assert bodies == clean_bodies
    assert zones == clean_zones and "Europe/Berlin" in zones  # no setting lost


def test_an_init_killed_before_it_ends_leaves_no_referee_yaml_and_runs_again(tmp_path):
    def init(crash_at=None):
        env = {**os.environ, "PYTHONPATH": os.getcwd()}
        env.pop("REFEREE_CRASH_AT", None)
        if crash_at:
            env["REFEREE_CRASH_AT"] = crash_at
        command = [sys.executable, "-m", "referee", "init", str(tmp_path / "site")]
        return subprocess.run(command, capture_output=True, text=True, timeout=120, env=env)

    assert init("init-folders").returncode == 137  # killed once its folders were being made
    assert not (tmp_path / "site" / "referee.yaml").exists()  # no half a site to refuse
    done = init()
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "site" / "referee.yaml").exists()
    assert (tmp_path / "site" / "mail" / "inbox" / "new").is_dir()
    assert sorted(p.name for p in (tmp_path / "site").iterdir() if p.name.startswith(".")) == []
