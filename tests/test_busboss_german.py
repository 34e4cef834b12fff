"""A whole Bus Boss game by mail, read in German (issue 37): what happened as each round
resolved (the report's events) and the comments of the choices are German too; only the
game's notation (orders, keys, colours), places and people's names stay as they are."""

from __future__ import annotations

import pytest
from sites import text_of
from test_languages import ENGLISH

from referee import mailbot
from referee.demo import run_demo

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
