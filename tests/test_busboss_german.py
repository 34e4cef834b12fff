"""A whole Bus Boss game by mail, read in German (issue 37): what happened as each round
resolved (the report's events) and the comments of the choices are German too; only the
game's notation (orders, keys, colours), places and people's names stay as they are."""

from __future__ import annotations

import pytest
from sites import ADDRESSES, logged, text_of
from test_commands_maildir import game
from test_gm_behaviours import gm_mail, mail_from
from test_languages import ENGLISH

from referee import mailbot
from referee.contract import Say
from referee.demo import run_demo
from referee.words import language

# more words of English a German event or comment would show: those of the game's events
EVENT_ENGLISH = (*ENGLISH, " to ", " and ", " of ", " on ", " buys ", " pays ", " spaces")


def events_and_comments(text: str) -> tuple[list[str], list[str]]:
    """A mail's event lines (a line from "- ", with its wrapped lines under it) and the
    comments of its choices (indented lines from "#", and the "#" after an offered order)."""
    events: list[str] = []
    comments: list[str] = []
    event = False
    for line in text.splitlines():
        event = line.startswith("- ") or (event and line.startswith("  "))
        if event:
            events.append(line)
        elif line.startswith("    ") and "#" in line:
            comments.append(line[line.index("#") :])
    return events, comments


def english_words(line: str) -> list[str]:
    return [word for word in EVENT_ENGLISH if word in f" {line} "]


@pytest.mark.slow  # a whole game played by mail
def test_a_german_players_events_and_choices_comments_are_german(tmp_path):
    settings = {"language": "de", "deadlines": {"hours": 48}}
    assert run_demo(tmp_path / "demo", game="busboss", settings=settings).finished
    outbox = tmp_path / "demo" / "mail" / "outbox"
    texts = [text_of(mailbot.parse(p.read_bytes())) for p in sorted(outbox.glob("*/*"))]
    events, comments = [], []
    for text in texts:
        more_events, more_comments = events_and_comments(text)
        events += more_events
        comments += more_comments
    # the check is of a whole game's words: its purchases, races and payments, the runs
    # to enter and the routes to buy
    for german in ("kauft", "Fahrt", "Platzierungen:", "Runde", "zahlt", "Ankunft mit Wurf"):
        assert any(german in line for line in events), german
    for german in ("# Fahrten, an denen du", "# Nach Kosten", "Felder", "# Strecken, die du"):
        assert any(german in line for line in comments), german
    english = sorted({line for line in events + comments if english_words(line)})
    assert english == []


@pytest.mark.slow  # a whole game played by mail
def test_an_english_players_events_and_comments_stay_as_they_were(tmp_path):
    """The same words for a reader of English: the game's events in its English."""
    assert run_demo(tmp_path / "demo", game="busboss").finished
    outbox = tmp_path / "demo" / "mail" / "outbox"
    texts = [text_of(mailbot.parse(p.read_bytes())) for p in sorted(outbox.glob("*/*"))]
    lines = [line for text in texts for part in events_and_comments(text) for line in part]
    for english in (" buys ", "  Places: 1st", " spaces", "# Runs you can enter, at most "):
        assert any(english in line for line in lines), english


def test_a_drop_by_rule_40_is_told_in_german_and_kept_in_english_in_the_log(tmp_path):
    """The game master drops Bob: Ann, who reads German, is told what the game did in
    German, Bob named by his colour in German; the log keeps those events as it always has,
    in English, and the campaign read again from its log tells them the same."""
    site, boxes = game(tmp_path, "busboss")
    mail_from(site, boxes, 0, "sprache de")
    boxes.new()
    gm_mail(site, boxes, "drop Bob")
    [drop] = [
        a
        for r in logged(site.campaign("g1"))
        for a in r.get("actions", ())
        if a["action"] == "drop"
    ]
    assert drop["events"] == [
        "Bob (blue) is dropped from the game (rule 40); the bank takes 0 routes."
    ]
    text = "\n".join(text_of(m) for m in boxes.new(ADDRESSES[0]))
    # the colour by which the company is named is worded too (rule 6)
    assert (
        "Bob (blau) scheidet aus dem Spiel aus (Regel 40); die Bank übernimmt 0 Strecken." in text
    )
    assert "dropped from the game" not in text and "Bob (blue)" not in text
    again = site.campaign("g1").table()
    [said] = [e for step in again.steps for e in step.events if "(rule 40)" in str(e)]
    assert isinstance(said, Say) and str(said) == drop["events"][0]
    with language.reading("de", "busboss"):
        assert language.word(said).startswith("Bob (blau) scheidet aus")
