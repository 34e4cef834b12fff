"""`referee status` on a site of many campaigns reads what each tick kept of them (their
summaries, with what they wait for: ``state/waits.json``), not every campaign's settings,
snapshot and log; a campaign changed since (a command from the shell) is read afresh."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner
from sites import PLAYERS, Mailboxes, make_site, person_mail, run_tick

from referee.cli import main
from referee.store import snapshots
from referee.store.campaign import Campaign


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
    site.state_dir.joinpath("waits.json").unlink()
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
    site.state_dir.joinpath("waits.json").write_text(damage)
    assert by_id(status(site, "--json")) == kept
