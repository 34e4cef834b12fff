"""One command, one class ("The middle, redesigned", item 5): the help by mail,
`referee gm --help` and README's list of commands are all made from the registry in
referee/service/commands, so none can drift from what the referee does."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from referee.cli import main
from referee.service.commands import CAMPAIGN, CAMPAIGN_VERBS, SITE, help_lines
from referee.service.commands.base import Who

README = Path(__file__).resolve().parents[1] / "README.md"


def readme_block() -> str:
    """README's list of commands, as the registry makes it."""

    def rows(pairs) -> str:
        width = max(len(usage) for usage, _ in pairs) + 2
        return "\n".join(f"    {usage:<{width}}{summary}".rstrip() for usage, summary in pairs)

    everyone = [(str(c.usage), str(c.summary)) for c in CAMPAIGN if c.who != Who.GAME_MASTER]
    game_master = [(str(c.usage), str(c.summary)) for c in CAMPAIGN if c.who == Who.GAME_MASTER]
    site = [(str(c.usage), str(c.summary)) for c in SITE]
    return (
        "<!-- commands: made from referee/service/commands (tests/test_commands_registry.py) -->\n"
        "In a campaign, for players and the game master (one a line, beside your orders):\n\n"
        f"{rows(everyone)}\n\n"
        "For the game master only (by mail with their token, or `referee gm <id> ...`):\n\n"
        f"{rows(game_master)}\n\n"
        "In a mail that names no game:\n\n"
        f"{rows(site)}\n"
        "<!-- /commands -->"
    )


def test_readme_lists_every_command_as_the_registry_has_it():
    block = readme_block()
    assert block in README.read_text(), f"put this in README.md:\n{block}"


def test_referee_gm_help_lists_every_game_master_command():
    shown = " ".join(CliRunner().invoke(main, ["gm", "--help"]).output.split())
    for usage, summary in help_lines(gm=True):
        assert usage in shown and " ".join(summary.split()) in shown
    assert "deadlines hours=48 policy=bot" in shown and "observers off" in shown


def test_each_word_names_one_command_and_each_command_its_record():
    assert CAMPAIGN_VERBS["games"] is CAMPAIGN_VERBS["status"]
    records = [c.record for c in CAMPAIGN]
    assert len(set(records)) == len(records) == len(CAMPAIGN)
    assert [c.name for c in CAMPAIGN if c.runs_first] == ["drop"]
