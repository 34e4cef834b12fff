"""`referee retry`: a mail kept in the quarantine because a fault stopped it (here one that
an upgrade mends; a campaign that cannot be read holds its mail instead, issue 22 item 3)
is applied once the fault is mended, exactly once, whatever happened before: a retry while
it still fails, a retry killed at any step, a retry run again, the mail delivered again."""

import json
import os
import shutil
import subprocess
import sys

import pytest
from click.testing import CliRunner
from sites import PLAYERS, Mailboxes, logged, make_site, reply_to, run_tick, text_of
from test_referee_crash import CRASH_POINTS, outcome

from referee.cli import main
from referee.service.session import Sessions
from referee.service.site import Site
from referee.service.tick import tick
from referee.settings.site import load_config

pytestmark = pytest.mark.slow  # crash kills at every step: left out of --fast

FAULT = "a fault the next release mends"


def fault(*args, **kwargs):
    raise RuntimeError(FAULT)


def referee(site_dir, command, crash_at=None):
    env = {**os.environ, "PYTHONPATH": os.getcwd()}
    env.pop("REFEREE_CRASH_AT", None)
    if crash_at:
        env["REFEREE_CRASH_AT"] = crash_at
    return subprocess.run(
        [sys.executable, "-m", "referee", "--config", str(site_dir / "referee.yaml"), command],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
    )


def cli(site_dir, *args):
    return CliRunner().invoke(main, ["--config", str(site_dir / "referee.yaml"), *args])


def welcomed(root):
    """A site with a Bus campaign whose players have had their welcomes, by address."""
    site = make_site(root)
    site.new_campaign("bus", "bus1", PLAYERS, seed=1, gm="Gil <gil@example.org>")
    run_tick(site)
    boxes = Mailboxes(site)
    return site, boxes, {str(m["To"]).split("<")[-1].rstrip(">"): m for m in boxes.new()}


@pytest.fixture(scope="module")
def prepared(tmp_path_factory):
    """A site whose referee failed on Ann's orders (a fault in applying them): her mail is
    in the quarantine (and she was told it could not be handled); the fault is mended
    since."""
    root = tmp_path_factory.mktemp("quarantined")
    site, boxes, welcomes = welcomed(root)
    ann = reply_to(welcomes["ann@example.org"], "ann@example.org", "build house 15\nbuild pub 16")
    boxes.deliver(ann)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(Sessions, "apply", fault)
        report = tick(site)
    assert any(FAULT in e for e in report.errors)
    [kept] = (site.state_dir / "quarantine").glob("*.eml")
    assert str(ann["Message-ID"]) in kept.read_text()
    [told] = boxes.new("ann@example.org")
    assert "could not be read" in str(told["Subject"])
    return root


def copy(prepared, tmp_path):
    shutil.copytree(prepared, tmp_path / "site")
    return tmp_path / "site"


def ann_records(site_dir):
    site = Site(load_config(site_dir / "referee.yaml"))
    return [r for r in logged(site.campaign("bus1")) if r.get("from") == "ann@example.org"]


def test_retry_applies_the_mended_campaigns_mail_once_and_answers_it(prepared, tmp_path):
    site_dir = copy(prepared, tmp_path)
    site = Site(load_config(site_dir / "referee.yaml"))
    boxes = Mailboxes(site)
    boxes.new()
    done = cli(site_dir, "retry")
    assert done.exit_code == 0, done.output
    [record] = ann_records(site_dir)
    assert f"{record['message_id']}: applied" in done.output and "0 still failing" in done.output
    assert [o[1] for o in record["orders"]] == ["build house 15", "build pub 16"]
    # she hears that her orders were read, now; the mail moved out of the quarantine
    assert any("build pub 16" in text_of(m) for m in boxes.new("ann@example.org"))
    assert list((site.state_dir / "quarantine").glob("*.eml")) == []
    assert len(list((site.state_dir / "quarantine" / "retried").glob("*.eml"))) == 1
    # run again, or the same mail delivered again: nothing is applied twice
    again = cli(site_dir, "retry")
    assert again.exit_code == 0 and "quarantine: 0 mail(s)" in again.output
    [raw] = (site.state_dir / "quarantine" / "retried").glob("*.eml")
    boxes.deliver(raw.read_bytes())
    run_tick(site)
    assert len(ann_records(site_dir)) == 1
    assert site.received_outcomes()["ann@example.org", record["message_id"]] == "applied"


def test_retry_while_the_cause_stands_keeps_the_mail_and_tells_no_one_twice(
    prepared, tmp_path, monkeypatch
):
    site_dir = copy(prepared, tmp_path)
    site = Site(load_config(site_dir / "referee.yaml"))
    monkeypatch.setattr(Sessions, "apply", fault)
    boxes = Mailboxes(site)
    boxes.new()
    done = cli(site_dir, "retry")
    assert done.exit_code == 3 and "still failing" in done.output
    assert FAULT in done.output  # the cause, on stderr (mixed in by CliRunner)
    assert boxes.new("ann@example.org") == []  # told once, when it first failed
    assert len(list((site.state_dir / "quarantine").glob("*.eml"))) == 1
    health = json.loads(cli(site_dir, "status", "--json").stdout)["health"]
    assert health["mails_quarantined"] == 1
    monkeypatch.undo()
    assert ann_records(site_dir) == []
    assert cli(site_dir, "retry").exit_code == 0
    assert len(ann_records(site_dir)) == 1


@pytest.fixture(scope="module")
def uninterrupted(prepared, tmp_path_factory):
    site_dir = tmp_path_factory.mktemp("retried") / "site"
    shutil.copytree(prepared, site_dir)
    assert referee(site_dir, "retry").returncode == 0
    assert referee(site_dir, "tick").returncode == 0
    return outcome(site_dir)


@pytest.mark.parametrize("crash_at", CRASH_POINTS)
def test_a_retry_killed_at_each_step_is_made_good_by_the_next(
    prepared, uninterrupted, tmp_path, crash_at
):
    site_dir = copy(prepared, tmp_path)
    crashed = referee(site_dir, "retry", crash_at)
    assert crashed.returncode == 137, crashed.stdout + crashed.stderr
    done = referee(site_dir, "retry")
    assert done.returncode == 0, done.stdout + done.stderr
    assert referee(site_dir, "tick").returncode == 0
    records, ids, bodies, _ = outcome(site_dir)
    assert records == uninterrupted[0]  # Ann's orders applied once, none lost
    assert len(ann_records(site_dir)) == 1
    assert max(ids.values()) == 1 and set(ids) == set(uninterrupted[1])
    assert bodies == uninterrupted[2]
    quarantine = site_dir / "state" / "quarantine"
    assert list(quarantine.glob("*.eml")) == [] and len(list(quarantine.glob("*/*.eml"))) == 1


def test_a_quarantined_mail_whose_campaign_cannot_be_read_now_is_held_and_applied_after(
    prepared, tmp_path
):
    """Retried while its campaign cannot be read (issue 22, item 3): held, its sender not
    told again, and applied by the first tick after the repair."""
    site_dir = copy(prepared, tmp_path)
    site = Site(load_config(site_dir / "referee.yaml"))
    settings = site.data_root / "bus1" / "campaign.yaml"
    good = settings.read_text()
    settings.write_text(good + "deadlines: {timezone: Mars/Olympus}\n")
    boxes = Mailboxes(site)
    boxes.new()
    cli(site_dir, "retry")
    assert len(list((site.state_dir / "held" / "bus1").glob("*.eml"))) == 1
    assert boxes.new("ann@example.org") == []
    settings.write_text(good)
    assert not tick(site).errors
    assert len(ann_records(site_dir)) == 1
    assert any("build pub 16" in text_of(m) for m in boxes.new("ann@example.org"))


def test_two_senders_mails_under_one_message_id_are_kept_and_taken_again_each(tmp_path):
    """Another sender's mail under a Message-ID used before is another mail: both are kept
    in the quarantine when a fault stops them, and a retry applies both, once each."""
    site, boxes, welcomes = welcomed(tmp_path)
    ann = reply_to(welcomes["ann@example.org"], "ann@example.org", "build house 15")
    bob = reply_to(welcomes["bob@example.org"], "bob@example.org", "message all hello")
    del bob["Message-ID"]
    bob["Message-ID"] = ann["Message-ID"]
    boxes.deliver(ann)
    boxes.deliver(bob)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(Sessions, "apply", fault)
        tick(site)
    assert len(list((site.state_dir / "quarantine").glob("*.eml"))) == 2

    done = cli(tmp_path, "retry")
    assert done.exit_code == 0, done.output
    outcomes = site.received_outcomes()
    mid = str(ann["Message-ID"])
    assert outcomes["ann@example.org", mid] == outcomes["bob@example.org", mid] == "applied"
    applied = [r.get("from") for r in logged(site.campaign("bus1")) if r.get("message_id") == mid]
    assert sorted(applied) == ["ann@example.org", "bob@example.org"]
