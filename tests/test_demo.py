"""`referee demo`, README's main command: a whole game of Bus by mail on local Maildirs."""

import json
import re

import pytest
from click.testing import CliRunner

from referee import mailbot
from referee.cli import main
from referee.demo import PLAYERS

pytestmark = pytest.mark.slow  # whole games played by mail


def test_the_demo_plays_a_game_to_its_end_and_leaves_readable_reports(tmp_path):
    site = tmp_path / "demo"
    result = CliRunner().invoke(main, ["demo", "--dir", str(site)])
    assert result.exit_code == 0, result.output
    assert "The game ended after" in result.output and "Final scores:" in result.output
    campaign = site / "games" / "demo"
    records = [json.loads(line) for line in (campaign / "log.jsonl").read_text().splitlines()]
    # the robots answer like players who think ahead: an order for the decision asked for,
    # and the orders of their next few, which the referee keeps and uses in turn
    how = [o[2] for r in records for o in r["orders"]]
    assert how.count("mail") > 40 and how.count("queue") > 40
    assert sum(1 for r in records if r["kind"] == "mail") < how.count("mail") + how.count("queue")
    turns = sorted((campaign / "turns").glob("round-*.txt"))
    reports = [p for p in turns if not p.name.endswith(".map.txt")]
    assert len(reports) >= 5
    last = reports[-1].read_text()
    assert "THE GAME IS OVER" in last and "Standings" in last
    assert all(p.with_suffix("").with_suffix(".png").exists() for p in reports)
    assert all(len(line) <= 100 for line in last.splitlines())
    # the players' mailbox holds what they read, the last of it the final report
    outbox = list((site / "mail" / "outbox" / "new").iterdir()) + list(
        (site / "mail" / "outbox" / "cur").iterdir()
    )
    finals = [p for p in outbox if b"The game is over" in p.read_bytes()]
    assert len(finals) == 4
    # the map as a picture once a round (inline, by its Content-ID), the text map in each
    pictured = [mailbot.parse(p.read_bytes()) for p in outbox if b"image/png" in p.read_bytes()]
    rounds = len(reports)  # the setup's and each round's, the last one with the result
    assert 4 * (rounds - 1) <= len(pictured) <= 4 * (rounds + 1)
    for mail in pictured:
        [png] = [part for part in mail.walk() if part.get_content_type() == "image/png"]
        html = mail.get_body(("html",)).get_content()
        assert f'src="cid:{png["Content-ID"].strip("<>")}"' in html
    # a second demo in the same folder is a new campaign beside the first
    again = CliRunner().invoke(main, ["demo", "--dir", str(site), "--seed", "2"])
    assert again.exit_code == 0 and (site / "games" / "demo-2" / "log.jsonl").exists()
    # ... and the counts it reports are its own game's alone (issue 25): each player's mails
    # are those its campaign sent them, not the two games' together
    printed = dict(re.findall(r"^  (\w+) +(\d+) mails", again.output, re.MULTILINE))
    own = {name: 0 for name, _ in PLAYERS}
    for path in (site / "games" / "demo-2" / "mail" / "out").glob("*.eml"):
        to = str(mailbot.parse(path.read_bytes())["To"]).lower()
        own.update({name: own[name] + 1 for name, address in PLAYERS if address in to})
    assert {name: int(n) for name, n in printed.items()} == own and min(own.values()) > 5
    assert "1 earlier demo(s)" in again.output


@pytest.mark.parametrize("game", ["bus", "busboss"])
def test_the_demo_plays_each_game_with_robots_that_read_german(tmp_path, game):
    """`referee demo --language de`: the robots read the decision in German (DEINE
    ENTSCHEIDUNG), and answer it, to the end of the game (issue 37)."""
    site = tmp_path / "demo"
    result = CliRunner().invoke(
        main, ["demo", "--dir", str(site), "--game", game, "--language", "de"]
    )
    assert result.exit_code == 0, result.output
    assert "The game ended after" in result.output
    mails = [
        mailbot.parse(p.read_bytes())
        for folder in ("new", "cur")
        for p in (site / "mail" / "outbox" / folder).iterdir()
    ]
    assert mails and {m["Content-Language"] for m in mails} == {"de"}
    subjects = [str(m["Subject"]) for m in mails]
    assert sum("du bist dran" in s for s in subjects) > 8
    assert sum("Das Spiel ist aus" in s for s in subjects) == 4
    assert all(
        "DEINE ENTSCHEIDUNG" in mailbot.body(m)
        for m in mails
        if "du bist dran" in str(m["Subject"])
    )
