"""Issue 35, point 2: the files that hold the players' tokens, the seed still secret and the
site's passwords are their owner's alone (files 0600, folders 0700) whatever the umask, and
`referee check` names one that others can read. Every file was written 0644: campaign.yaml,
whose own header says to keep it private, could be read by every user of the machine."""

import os
import stat
from pathlib import Path

import pytest
from click.testing import CliRunner
from sites import PLAYERS

from referee.cli import main


def referee(config: Path, *args: str):
    return CliRunner().invoke(main, ["--config", str(config), *args])


def a_played_site(tmp_path: Path) -> Path:
    """A site as `referee init` makes it, with a campaign, its welcomes sent, a game
    master's command in its log and a tick run."""
    site = tmp_path / "site"
    assert CliRunner().invoke(main, ["init", str(site)]).exit_code == 0
    config = site / "referee.yaml"
    players = [part for player in PLAYERS for part in ("--player", player)]
    made = referee(config, "new", "bus", "bus1", "--gm", "Gil <gil@example.org>", *players)
    assert made.exit_code == 0, made.output
    assert referee(config, "gm", "bus1", "pause").exit_code == 0
    assert referee(config, "tick").exit_code == 0
    return site


@pytest.mark.parametrize("umask", [0o022, 0o000])
def test_every_file_of_a_site_is_its_owners_alone_whatever_the_umask(tmp_path, umask):
    before = os.umask(umask)
    try:
        site = a_played_site(tmp_path)
    finally:
        os.umask(before)
    open_to_others = {
        str(path.relative_to(site)): f"{path.stat().st_mode & 0o777:o}"
        for path in site.rglob("*")
        if path.stat().st_mode & 0o077
    }
    assert open_to_others == {}
    for secret in ("referee.env", "games/bus1/campaign.yaml", "games/bus1/log.jsonl"):
        assert (site / secret).stat().st_mode & 0o777 == 0o600, secret
    for folder in ("state", "games", "games/bus1", "mail/queue", "mail/outbox"):
        assert (site / folder).stat().st_mode & 0o777 == 0o700, folder
    assert "seed:" in (site / "games/bus1/campaign.yaml").read_text()  # what is kept private


def test_check_names_each_secret_file_or_folder_others_can_read(tmp_path):
    site = a_played_site(tmp_path)
    config = site / "referee.yaml"
    assert "files with passwords, tokens and secret seeds: ok" in referee(config, "check").output
    # as an older referee left them, or a game master's cp
    (site / "games/bus1/campaign.yaml").chmod(0o644)
    (site / "referee.env").chmod(0o640)
    (site / "state").chmod(0o755)
    done = referee(config, "check")
    assert done.exit_code == 1
    for path, mode, private in (
        ("games/bus1/campaign.yaml", "644", "600"),
        ("referee.env", "640", "600"),
        ("state", "755", "700"),
    ):
        assert (
            f"{site / path} can be read by other users of this machine (mode {mode}); make it "
            f"its owner's alone: chmod {private} {site / path}"
        ) in done.output
    assert stat.S_IMODE((site / "games/bus1/campaign.yaml").stat().st_mode) == 0o644  # untouched
