"""`referee status --json` carries the site's health for a monitoring system: the last tick
and what came of it, when the last good one ran, the campaigns it skipped, and the mail
waiting, failing, given up and quarantined."""

import json
import shutil
from datetime import UTC, datetime

from click.testing import CliRunner
from sites import PLAYERS, make_site

from referee.cli import main


def status(site):
    """The JSON on stdout (the exit status is 1 while a campaign cannot be read)."""
    result = CliRunner().invoke(main, ["--config", str(site.config.path), "status", "--json"])
    assert result.exit_code in (0, 1), result.output
    return json.loads(result.stdout)


def cli_tick(site):
    return CliRunner().invoke(main, ["--config", str(site.config.path), "tick"])


def test_status_json_tells_how_the_last_ticks_went(tmp_path):
    site = make_site(tmp_path)
    site.new_campaign("bus", "bus1", PLAYERS, seed=1)
    site.new_campaign("bus", "bus2", PLAYERS, seed=2)
    shown = status(site)
    assert [c["id"] for c in shown["campaigns"]] == ["bus1", "bus2"]
    health = shown["health"]
    assert health["ok"] is False and health["last_tick"] is None
    assert health["mails_waiting"] == 6  # the welcomes, not sent before the first tick

    before = datetime.now(UTC).replace(microsecond=0)
    assert cli_tick(site).exit_code == 0
    health = status(site)["health"]
    assert health["ok"] is True and health["campaigns_skipped"] == []
    last = health["last_tick"]
    assert last["outcome"] == "ok" and last["sent"] == 6 and last["errors"] == []
    assert datetime.fromisoformat(last["at"]) >= before and last["last_ok"] == last["at"]
    assert 0 <= health["seconds_since_last_tick"] < 60
    assert (health["mails_waiting"], health["mails_failing"]) == (0, 0)
    assert (health["mails_undelivered"], health["mails_quarantined"]) == (0, 0)
    good = last["at"]

    # a campaign that cannot be read is skipped: the tick ran, but not well
    settings = site.data_root / "bus2" / "campaign.yaml"
    settings.write_text(settings.read_text() + "deadlines: {timezone: Mars/Olympus}\n")
    assert cli_tick(site).exit_code == 3
    health = status(site)["health"]
    assert health["ok"] is False and health["campaigns_skipped"] == ["bus2"]
    assert health["last_tick"]["outcome"] == "some failed"
    assert "Mars/Olympus" in health["last_tick"]["errors"][0]
    assert health["last_tick"]["last_ok"] == good

    # a tick that could not run at all (the inbox is gone) says so
    shutil.rmtree(tmp_path / "mail" / "inbox")
    assert cli_tick(site).exit_code == 1
    health = status(site)["health"]
    assert health["last_tick"]["outcome"] == "could not run"
    assert "is not a Maildir" in health["last_tick"]["errors"][0]
    assert health["last_tick"]["last_ok"] == good and health["ok"] is False
