"""`referee status` on a site of many campaigns reads what each tick kept of them (their
summaries, with what they wait for: ``state/waits.marshal``), not every campaign's settings,
snapshot and log; a campaign changed since (a command from the shell) is read afresh."""

from __future__ import annotations

import json
import re

import pytest
from click.testing import CliRunner
from played import played_site
from sites import PLAYERS, Mailboxes, make_site, person_mail, run_tick
from test_idle_tick import referee

from referee.cli import main
from referee.statusing import quick_status
from referee.store import snapshots
from referee.store.campaign import Campaign
from referee.store.names import WAITS


def status(site, *args: str) -> dict:
    shown = CliRunner().invoke(main, ["--config", str(site.config.path), "status", *args])
    assert shown.exit_code == 0, (shown.output, shown.exception)
    return json.loads(shown.stdout)


def by_id(shown: dict) -> dict:
    return {row["id"]: row for row in shown["campaigns"]}


def reading_forbidden(monkeypatch):
    def no(*args, **kwargs):
        raise AssertionError("a campaign was read")

    monkeypatch.setattr(Campaign, "load", no)
    monkeypatch.setattr(snapshots, "load", no)


def test_status_shows_what_the_ticks_kept_without_reading_a_campaign(tmp_path, monkeypatch):
    site = make_site(tmp_path)
    site.new_campaign("bus", "bus1", PLAYERS, seed=1)
    site.new_campaign("busboss", "boss1", [], seats=4)
    run_tick(site)
    read = by_id(status(site, "--json"))  # read from the campaigns' files, before any note
    ann = site.campaign("bus1").players[0]
    Mailboxes(site).deliver(
        person_mail(ann.formatted(), site.identity.plus("bus1", ann.token), "o", "build house 15")
    )
    run_tick(site)

    with monkeypatch.context() as patched:
        reading_forbidden(patched)
        kept = by_id(status(site, "--json"))
        one = status(site, "--json", "bus1")
    assert kept["boss1"] == read["boss1"]
    assert kept["boss1"]["state"] == "open" and kept["boss1"]["seats"] == 4
    assert kept["bus1"]["state"] == "running"
    assert kept["bus1"]["awaiting"] != read["bus1"]["awaiting"]  # Ann built: another's turn
    assert one == kept["bus1"]
    # what the summary says is what reading the campaign says
    site.state_dir.joinpath(WAITS).unlink()
    assert by_id(status(site, "--json")) == kept


def test_a_campaign_changed_from_the_shell_is_read_afresh(tmp_path, monkeypatch):
    site = make_site(tmp_path)
    site.new_campaign("bus", "bus1", PLAYERS, seed=1)
    run_tick(site)
    run_tick(site)
    shown = CliRunner().invoke(main, ["--config", str(site.config.path), "gm", "bus1", "pause"])
    assert shown.exit_code == 0, shown.output
    assert by_id(status(site, "--json"))["bus1"]["state"] == "paused"
    run_tick(site)
    with monkeypatch.context() as patched:
        reading_forbidden(patched)
        assert by_id(status(site, "--json"))["bus1"]["state"] == "paused"


@pytest.mark.parametrize("damage", ["[", '{"bus1": {"files": [], "wake": null}}'])
def test_a_damaged_or_older_index_has_status_read_the_campaigns(tmp_path, damage):
    site = make_site(tmp_path)
    site.new_campaign("bus", "bus1", PLAYERS, seed=1)
    run_tick(site)
    kept = by_id(status(site, "--json"))
    site.state_dir.joinpath(WAITS).write_text(damage)
    assert by_id(status(site, "--json")) == kept


def without_clock(told: str) -> str:
    """`status --json` but for the seconds since the last ticks (the clock runs on)."""
    return re.sub(r'"seconds_since_last(_ok)?_tick": \d+', "", told)


def test_the_quick_status_json_is_the_consoles_for_campaigns_in_every_state(
    tmp_path, capsys, monkeypatch
):
    """`referee status --json` as a monitoring system runs it (``cli.main`` in a process of
    its own: ``statusing``) prints what the command line's status prints, byte for byte, of
    campaigns open, running, paused and over, told from the ticks' summaries alone; and
    leaves a campaign changed since the last tick to the command line, which reads it."""
    site = played_site(tmp_path, "over")
    site.new_campaign("busboss", "open", [], seats=4)
    site.new_campaign("bus", "running", PLAYERS, seed=1)
    site.new_campaign("bus", "paused", PLAYERS, seed=2)
    config = str(site.config.path)
    assert CliRunner().invoke(main, ["--config", config, "gm", "paused", "pause"]).exit_code == 0
    site.state_dir.joinpath("rest").unlink(missing_ok=True)
    run_tick(site)
    consoles = CliRunner().invoke(main, ["--config", config, "status", "--json"])
    assert consoles.exit_code == 0, consoles.output
    states = {row["id"]: row["state"] for row in json.loads(consoles.stdout)["campaigns"]}
    assert states == {"open": "open", "over": "finished", "paused": "paused", "running": "running"}
    capsys.readouterr()

    with monkeypatch.context() as patched:
        reading_forbidden(patched)
        assert quick_status(["--config", config, "status", "--json"]) == 0
    assert without_clock(capsys.readouterr().out) == without_clock(consoles.stdout)

    # a command from the shell changes a campaign: the command line reads it
    assert CliRunner().invoke(main, ["--config", config, "gm", "running", "pause"]).exit_code == 0
    assert quick_status(["--config", config, "status", "--json"]) is None
    assert capsys.readouterr().out == ""
    states = {row["id"]: row["state"] for row in status(site, "--json")["campaigns"]}
    assert states["running"] == "paused"


def test_status_json_of_a_site_as_the_ticks_left_it_imports_no_click_yaml_or_campaign(tmp_path):
    """The process a monitoring system starts: ``cli.main`` tells the site's status without
    the command line's click, the settings' YAML, the campaigns' code or the outbox."""
    site = make_site(tmp_path)
    site.new_campaign("bus", "bus1", PLAYERS, seed=1)
    site.new_campaign("busboss", "boss1", [], seats=4)
    run_tick(site)
    exit_status, modules, printed = referee(site.root, "status", "--json")
    assert exit_status == 0
    assert [row["id"] for row in json.loads(printed)["campaigns"]] == ["boss1", "bus1"]
    heavy = ("click", "yaml", "referee.store.campaign", "referee.contract", "referee.mail.outbox")
    assert not [name for name in modules if name.startswith(heavy)]
