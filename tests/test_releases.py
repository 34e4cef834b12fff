"""Campaigns made by earlier releases of the referee (tests/fixtures/releases/<commit>/, made
by tests/fixtures/releases/make.py with each release's own code: a game of each kind played
to its end and one left in its middle) verify, replay and play on under this one.

An upgrade made every one of them fail `referee verify` (the old turn files were held byte
for byte to today's words and maps) and their first tick logged their snapshot as damaged.
"""

import logging
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner
from sites import make_site

from referee.cli import main
from referee.service.verify import verify
from referee.store.campaign import Status
from referee.store.snapshots import DAMAGED

RELEASES = Path(__file__).parent / "fixtures" / "releases"
CAMPAIGNS = sorted(p for p in RELEASES.glob("*/*") if (p / "campaign.yaml").exists())
MOST_DECISIONS = 400  # game master's adjudications to play a game in its middle to its end


def test_the_fixtures_hold_both_games_finished_and_in_their_middle_from_two_releases():
    kinds = {(p.parent.name, p.name) for p in CAMPAIGNS}
    releases = {release for release, _ in kinds}
    assert len(releases) >= 2
    for release in releases:
        assert {name for r, name in kinds if r == release} >= {
            "bus-finished",
            "bus-middle",
            "busboss-finished",
            "busboss-middle",
        }


def on_a_site(tmp_path: Path, fixture: Path):
    """A site of today's referee with the old campaign in it, as the release left it."""
    site = make_site(tmp_path)
    root = site.data_root / "demo"
    shutil.copytree(fixture, root)
    return site, root


def referee(site, *args: str):
    done = CliRunner().invoke(main, ["--config", str(site.config.path), *args])
    assert done.exit_code == 0, done.output
    return done.output


def verified(root: Path) -> list[str]:
    result = verify(root)
    assert result.ok, result.summary()
    return result.passed


@pytest.mark.slow
@pytest.mark.parametrize("fixture", CAMPAIGNS, ids=lambda p: f"{p.parent.name}-{p.name}")
def test_a_campaign_of_an_earlier_release_verifies_replays_and_plays_on(tmp_path, fixture, caplog):
    site, root = on_a_site(tmp_path, fixture)
    passed = verified(root)
    assert any(p.startswith("the log replays: ") for p in passed)
    assert referee(site, "replay", "demo").startswith("demo: ")
    with caplog.at_level(logging.INFO, logger="referee"):
        referee(site, "tick")
    assert "damaged" not in caplog.text and not (root / DAMAGED).exists()
    finished = site.campaign("demo").status == Status.FINISHED
    for _ in range(MOST_DECISIONS):
        if site.campaign("demo").status == Status.FINISHED:
            break
        referee(site, "gm", "demo", "adjudicate")
        referee(site, "tick")
    assert site.campaign("demo").status == Status.FINISHED
    passed = verified(root)
    if not finished:  # the rounds played under this release are held to their hashes
        assert any(p.endswith("files in turns/ are as the referee wrote them") for p in passed)
