"""A game master's comments and order in campaign.yaml survive the referee's rewrites of it
(a command's new settings, a player joining, a replacement): the file is theirs to read and
annotate, and the referee changes only the values it must."""

from __future__ import annotations

from datetime import UTC, datetime

import yaml
from click.testing import CliRunner
from sites import PLAYERS, Mailboxes, make_site, person_mail

from referee.cli import main
from referee.service.tick import tick

T0 = datetime(2026, 11, 23, 9, 0, tzinfo=UTC)


def annotated(path, notes: dict[str, str]) -> str:
    """campaign.yaml with a comment line above each key named in ``notes`` and one at the
    end of the line of each, as a game master writes them; the text written."""
    lines = []
    for line in path.read_text().splitlines():
        key = line.split(":")[0]
        if key in notes:
            lines.append(f"# {notes[key]}")
            line = f"{line}  # {key} noted"
        lines.append(line)
    text = "\n".join(lines) + "\n"
    path.write_text(text)
    return text


def gm_cli(site, campaign_id, *command):
    done = CliRunner().invoke(
        main, ["--config", str(site.config.path), "gm", campaign_id, *command]
    )
    assert done.exit_code == 0, done.output
    return done


def test_a_deadline_command_and_a_join_keep_the_game_masters_comments_and_order(tmp_path):
    site = make_site(tmp_path)
    site.new_campaign(
        "busboss", "boss1", [], seed=4, seats=3, gm="Gil <gil@example.org>",
        settings={"deadlines": {"hours": 48}},
    )  # fmt: skip
    path = site.campaign("boss1").root / "campaign.yaml"
    notes = {"options": "the club's usual map", "seats": "three of us this winter"}
    annotated(path, notes)
    # the game master moves `deadlines` to the top, with a note of their own above it
    text = path.read_text().replace("deadlines:\n  hours: 48\n", "")
    text = text.replace("id: boss1", "# agreed at the club\ndeadlines:\n  hours: 48\nid: boss1")
    path.write_text(text)

    gm_cli(site, "boss1", "deadlines", "hours=24")
    boxes = Mailboxes(site)
    boxes.deliver(person_mail("Ann <ann@example.org>", site.identity.address, "join", "join boss1"))
    assert not tick(site, T0).errors

    written = path.read_text()
    for key, note in notes.items():
        assert f"# {note}\n{key}:" in written
        assert f"  # {key} noted" in written
    assert written.startswith("# Campaign boss1: a game of Bus Boss")
    assert "# agreed at the club\ndeadlines:\n  hours: 24" in written
    data = yaml.safe_load(written)
    assert list(data)[:3] == ["deadlines", "id", "game"]
    assert [p["name"] for p in data["players"]] == ["Ann"]
    assert site.campaign("boss1").config.deadlines.hours == 24


def test_a_replacement_keeps_a_comment_beside_a_player(tmp_path):
    site = make_site(tmp_path)
    site.new_campaign("bus", "bus1", PLAYERS, seed=1)
    path = site.campaign("bus1").root / "campaign.yaml"
    text = path.read_text().replace("- name: Bob", "# Bob plays from abroad\n- name: Bob")
    path.write_text(text.replace("- name: Cid", "- name: Cid  # the club's treasurer"))

    gm_cli(site, "bus1", "replace", "Bob", "with", "Bea <bea@example.org>")

    written = path.read_text()
    assert "# Bob plays from abroad\n- name: Bea\n" in written
    assert "- name: Cid  # the club's treasurer\n" in written
    names = [p["name"] for p in yaml.safe_load(written)["players"]]
    assert names == ["Ann", "Bea", "Cid"]


def test_a_value_that_yaml_1_1_reads_otherwise_is_written_so_the_reader_keeps_it(tmp_path):
    """A name such as "Yes" or "No" is a string in YAML 1.2 and a boolean in YAML 1.1 (which
    the reader speaks): it is quoted, so the file reads back as written."""
    site = make_site(tmp_path)
    site.new_campaign("bus", "bus1", ["Yes <yes@example.org>", *PLAYERS[1:]], seed=1)
    path = site.campaign("bus1").root / "campaign.yaml"
    path.write_text(path.read_text().replace("players:", "# who plays\nplayers:"))
    gm_cli(site, "bus1", "replace", "Bob", "with", "No <no@example.org>")
    written = path.read_text()
    assert "# who plays\nplayers:" in written
    names = [p["name"] for p in yaml.safe_load(written)["players"]]
    assert names == ["Yes", "No", "Cid"]
