"""Players' mail that reads at a glance on a phone (issue "Players' mail that reads at a
glance on a phone", items 1, 4 and 6), over the demo games of Bus and Bus Boss played by
their robots through the real tick, with deadlines:

1. every prompt leads with its decision and due time (within the first 15 lines of the
   plain text, first in the HTML part); a mail with no decision says so in its first line;
   the subject names the campaign, the round and what is asked;
4. each player's first decision comes with the map as a picture and its due time; a
   welcome without one says when it will come;
6. a game master's pause, extension and replacement are told in one short mail to each
   player concerned, without a map.
"""

from __future__ import annotations

import mailbox
import re
from datetime import timedelta
from email.message import EmailMessage

import pytest
from sites import ADDRESSES, person_mail, text_of
from test_commands_maildir import T0, game

from referee import mailbot
from referee.demo import PLAYERS, run_demo
from referee.service.tick import tick

pytestmark = pytest.mark.slow  # both demo games by mail: left out of --fast

DEADLINES = {"deadlines": {"hours": 48}}
ASKED = re.compile(
    r"^\[demo\] (Welcome to [\w ]+, \w+ - )?(Setup|Round \d+): your turn - \S.*, "
    r"due \w{3} \d\d:\d\d UTC$"
)
NOTHING = ("Nothing to decide now: ", "Nothing to decide yet: ", "THE GAME IS OVER: ")


def sent_in_order(outbox) -> list[EmailMessage]:
    """The mails of a Maildir in the order they were delivered."""
    box = mailbox.Maildir(outbox, create=False)

    def order(key: str) -> tuple[int, int]:
        seconds, unique = key.split(".")[:2]
        return int(seconds), int(unique.rpartition("Q")[2])

    return [mailbot.parse(box.get_bytes(k)) for k in sorted(box.keys(), key=order)]


@pytest.fixture(scope="module")
def demos(tmp_path_factory) -> dict[str, list[EmailMessage]]:
    played = {}
    for game_name in ("bus", "busboss"):
        root = tmp_path_factory.mktemp(game_name)
        result = run_demo(root, game=game_name, settings=DEADLINES)
        assert result.finished
        played[game_name] = sent_in_order(root / "mail" / "outbox")
    return played


def pictures(msg: EmailMessage) -> list:
    return [part for part in msg.walk() if part.get_content_type() == "image/png"]


def html_of(msg: EmailMessage) -> str | None:
    part = msg.get_body(("html",))
    return part.get_content() if part is not None else None


@pytest.mark.parametrize("game_name", ["bus", "busboss"])
def test_every_prompt_leads_with_its_decision_and_says_what_it_asks(demos, game_name):
    prompts = 0
    for msg in demos[game_name]:
        lines = text_of(msg).splitlines()
        subject = str(msg["Subject"])
        if not any(line.startswith("YOUR DECISION: ") for line in lines):
            continue
        prompts += 1
        first = next(i for i, line in enumerate(lines) if line.startswith("YOUR DECISION: "))
        assert first < 15, (subject, lines[:20])
        assert any(line.startswith("Due by ") for line in lines[first : first + 4]), subject
        assert mailbot.choices_in(text_of(msg)), subject  # what to reply with, below it
        if "Your mail:" not in subject:  # the answer to a mail that asks again
            assert ASKED.match(subject), subject
        html = html_of(msg)
        if html is not None:
            body = html.partition("<body")[2].partition(">")[2]
            shown = re.sub(r"<[^>]*>", "", body).lstrip()  # the first words on the screen
            assert shown.startswith("Your decision: "), (subject, body[:400])
    assert prompts > 4 * 5


@pytest.mark.parametrize("game_name", ["bus", "busboss"])
def test_a_mail_with_no_decision_says_so_in_its_first_line(demos, game_name):
    told = 0
    for msg in demos[game_name]:
        text = text_of(msg)
        subject = str(msg["Subject"])
        if "YOUR DECISION: " in text:
            continue
        first = text.splitlines()[0]
        if "Your mail:" in subject:
            assert first == "Nothing is awaited from you now.", subject
        else:
            assert first.startswith(NOTHING), (subject, first)
            assert "your turn" not in subject
            if first.startswith("THE GAME IS OVER"):  # and who won, in the subject
                assert re.match(r"\[demo\] The game is over: \w+( and \w+)* won$", subject)
            told += 1
    assert told >= 4  # the final reports at least


@pytest.mark.parametrize("game_name", ["bus", "busboss"])
def test_each_players_first_decision_has_the_map_and_its_due_time(demos, game_name):
    for _, address in PLAYERS:
        mails = [m for m in demos[game_name] if address in str(m["To"])]
        first = next(m for m in mails if "YOUR DECISION: " in text_of(m))
        assert len(pictures(first)) == 1, first["Subject"]
        assert re.search(r"^Due by \w{3} \d+ \w{3} \d{4} \d\d:\d\d UTC\.$", text_of(first), re.M)
        assert ", due " in str(first["Subject"])
        html = html_of(first)
        assert html is not None and "Due by " in html
        [welcome] = [m for m in mails if "Welcome" in str(m["Subject"])]
        if welcome is not first:  # a welcome without a decision says when it will come
            line = " ".join(text_of(welcome).split("\n\n")[0].split())
            assert line.startswith("Nothing to decide yet: your first decision comes by mail")
            assert re.search(r"The game waits for \w+ \([^)]*\), due by \w{3} \d+ \w{3}", line)


# 6. a game master's actions, told briefly ---------------------------------------------------


def gm_says(site, boxes, line: str, hours: float) -> dict[str, list[EmailMessage]]:
    to = site.identity.plus("g1", site.campaign("g1").gm.token)
    boxes.deliver(person_mail("Gil <gil@example.org>", to, "commands", line))
    report = tick(site, T0 + timedelta(hours=hours))
    assert not report.errors, report.errors
    return {address: boxes.new(address) for address in ADDRESSES}


def assert_short(msg: EmailMessage) -> str:
    text = text_of(msg)
    assert not pictures(msg) and html_of(msg) is None, msg["Subject"]
    assert "Standings:" not in text and "Clock:" not in text  # no text map either
    assert len(text.splitlines()) <= 12, text
    return text


def test_pause_extend_and_replace_are_each_told_in_one_short_mail_without_a_map(tmp_path):
    site, boxes = game(tmp_path)  # Ann (seat 0) owes her first buildings, due in 24 hours
    told = gm_says(site, boxes, "pause", 1)
    for address in ADDRESSES:
        [msg] = told[address]
        text = assert_short(msg)
        assert text.startswith("The game master pauses the campaign.")
        assert "The game is paused: no orders are taken" in text
        assert "your turn" not in str(msg["Subject"]) and "paused" in str(msg["Subject"])
    told = gm_says(site, boxes, "resume", 3)
    [msg] = told[ADDRESSES[0]]
    assert "YOUR DECISION: First buildings" in text_of(msg)  # asked again, with its choices
    assert mailbot.choices_in(text_of(msg)) and not pictures(msg)
    told = gm_says(site, boxes, "extend 12", 4)
    for address in ADDRESSES:
        [msg] = told[address]
        text = assert_short(msg)
        assert text.startswith("The game master extends the deadlines by 12 hours.")
    ann = text_of(told[ADDRESSES[0]][0])
    # her new due time: 24 hours, the 2 hours of the pause and the 12 of the extension
    assert "Due by Tue 24 Nov 2026 23:00 UTC." in ann
    assert "due Tue 23:00 UTC" in str(told[ADDRESSES[0]][0]["Subject"])
    assert "Nothing to decide now: the game waits for Ann (first buildings)." in text_of(
        told[ADDRESSES[1]][0]
    )
    told = gm_says(site, boxes, "replace Bob with Bea <bea@example.org>", 5)
    assert [str(m["Subject"]) for m in told[ADDRESSES[1]]] == ["[g1] You have left the game"]
    for address in (ADDRESSES[0], ADDRESSES[2]):
        [msg] = told[address]
        text = assert_short(msg)
        assert text.startswith("Bea takes Bob's seat.")
        assert "Bea takes Bob's seat" in str(msg["Subject"])
    [welcome] = boxes.new("bea@example.org")
    assert "Welcome" in str(welcome["Subject"])
