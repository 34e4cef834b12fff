"""The Bus Boss text map read in German (issue 37): its header, key, tables and closing
lines are worded in the reader's language and laid out for the worded text (at most 78
columns, columns under their headings); only the game's notation (route names, town keys
and abbreviations, cards, player letters), names and rule numbers stay as they are. And a
company is named in events by its colour in the reader's language ("Ann (rot)"), while the
log keeps the English it always kept."""

from __future__ import annotations

import re
from functools import cache

import pytest
from busboss_map_views import bot_states
from sites import ADDRESSES, text_of
from test_commands_maildir import game
from test_gm_behaviours import gm_mail, mail_from

from referee import maps
from referee.busboss import game as busboss_game
from referee.busboss.engine import RULES
from referee.busboss.scene import view_map
from referee.busboss.state import BusBossState
from referee.busboss.text_map import text_map
from referee.words import language

# today's English words of the map, none of which a German map may show outside names
ENGLISH = (
    "Players",
    "Companies",
    "Colour",
    "Cash",
    "Routes",
    "routes",
    "route",
    "Spaces",
    "This round",
    "round",
    "awaited",
    "order in",
    "dropped",
    "rule",
    "missed",
    "extra build",
    "Runs on offer",
    "runs",
    "Run",
    "offered",
    "since",
    "new",
    "From",
    "Towns",
    "towns",
    "Junctions",
    "junctions",
    "Awaiting",
    "Result",
    "Order of play",
    "building",
    "operating",
    "the bank",
    "The bank",
    "free",
    "Upper case",
    "lower case",
    "Doubled",
    "doubled",
    "Lengths",
    "Numbers",
    "cards",
    "with",
    "without",
    "from",
    "of",
    "game is over",
    "red",
    "blue",
    "green",
    "yellow",
    "purple",
    "grey",
)


def said(state: BusBossState, company: str | None = None) -> dict:
    """The view a mail's map is drawn from: the decisions' prompts and the result's reason
    as the game says them (``words.mails.as_said``); ``company``: Ann's company's name."""
    view = RULES.view(state)
    prompts = {d.seat: d.prompt for d in RULES.awaiting(state)}
    view["awaiting"] = [{**a, "prompt": prompts[a["seat"]]} for a in view["awaiting"]]
    final = RULES.result(state)
    if final is not None:
        view["result"] = {**view["result"], "reason": final.reason}
    if company:
        view["players"][0]["company"] = company
    return view


@cache
def positions() -> dict[str, dict]:
    """A building round, an operating round with a run offered again, a dropped player's
    routes with the bank (rule 40) and a company with a name (rule 6), missed rounds and an
    extra build (rules 37-38), and the game over with its result."""
    four = list(bot_states(4, seed=0))
    absent = list(bot_states(6, seed=1, absent=5, away_from=4))
    return {
        "building": said(next(s for s in four if s.round == 2 and s.pending)),
        "operating": said(
            next(s for s in four if s.pending and any(o.since < s.round for o in s.offers))
        ),
        "missed": said(next(s for s in absent if s.extra_build and s.missed[5] == 1 and s.pending)),
        "dropped": said(
            next(s for s in absent if not s.active[5] and s.routes_of(-1) and s.pending),
            company="Vale Motors",
        ),
        "over": said(four[-1]),
    }


def german(view: dict) -> str:
    """The map as a mail draws it for a reader of German: the shared path, the reader's
    wording."""
    with language.reading("de", "busboss"):
        return maps.text_map(view, language.word)


def names_left_out(text: str, view: dict) -> str:
    """The map without its names (the map's, the places', the players' and companies'),
    which stay as they are in any language."""
    m = view_map(view)
    names = {view["map"], *(p["name"] for p in view["players"])}
    names |= {p["company"] for p in view["players"] if p.get("company")}
    names |= {p.name for p in m.places.values()} | {p.destination for p in m.places.values()}
    names |= {d for r in view["runs"] for d in r["destinations"]}
    for name in sorted(filter(None, names), key=len, reverse=True):
        text = text.replace(name, " ")
    return text


def english_in(text: str) -> list[str]:
    return [w for w in ENGLISH if re.search(rf"(?<![\w-]){re.escape(w)}(?![\w-])", text)]


@pytest.mark.parametrize("name", ["building", "operating", "missed", "dropped", "over"])
def test_a_german_map_holds_no_english_outside_names_and_notation(name):
    view = positions()[name]
    text = german(view)
    assert english_in(names_left_out(text, view)) == []
    # and what the English map says is said in German
    for word in ("Spielreihenfolge" if name != "over" else "Ergebnis", "Strecken", "Städte"):
        assert word in text, word


@pytest.mark.parametrize("name", ["building", "operating", "missed", "dropped", "over"])
def test_the_english_words_are_found_in_the_english_map(name):
    """The check of the German map is no check of nothing: the same positions in English
    show the words it looks for."""
    view = positions()[name]
    found = english_in(names_left_out(maps.text_map(view, str), view))
    assert {"Colour", "Cash", "Routes", "Spaces", "Towns"} <= set(found)


@pytest.mark.parametrize("name", ["building", "operating", "missed", "dropped", "over"])
def test_every_line_of_a_german_map_fits_78_columns(name):
    lines = german(positions()[name]).splitlines()
    assert max(map(len, lines)) <= 78
    assert all(line == line.rstrip() for line in lines)


def test_the_parts_of_each_position_are_worded():
    building, operating = german(positions()["building"]), german(positions()["operating"])
    assert ": Runde 2 von 12, eine Baurunde\nSpielreihenfolge: " in building
    assert "Noch keine Fahrten: die ersten gibt es in Runde 7." in building
    assert "Erwartet: " in building and ": Runde 2, eine Baurunde: kauf eine Strecke" in building
    assert re.search(r": Runde \d+ von 12, eine Betriebsrunde\nSpielreihenfolge: ", operating)
    assert re.search(r"Fahrten im Angebot: \d+ Fahrten, [1-9]\d* davon erneut angeboten", operating)
    assert re.search(r"  \S+ +\S.* - .*, seit \d+\n", operating)
    assert re.search(r"  \S+ +\S.* - .*, neu\n", operating)
    dropped = german(positions()["dropped"])
    assert "# Die Bank (Regel 40): " in dropped and "ausgeschieden (Regel 40)" in dropped
    assert "R Vale Motors (Ann)" in dropped and "Unternehmen" in dropped
    missed = german(positions()["missed"])
    assert "1 Runde versäumt" in missed and "zusätzlicher Kauf" in missed
    over = german(positions()["over"])
    assert "Runde 12 von 12, das Spiel ist vorbei" in over
    assert re.search(r"\nErgebnis \(Runde 12 ist vorbei\):\n1\. \w+ \(\w\): \d+\n", over)
    assert "Erwartet" not in over


def spans(line: str) -> list[tuple[int, int]]:
    """Where the entries of a table's line stand: text parted by two spaces or more."""
    return [m.span() for m in re.finditer(r"\S+(?: \S+)*", line)]


@pytest.mark.parametrize("name", ["building", "missed", "dropped", "over"])
def test_the_companies_table_lines_up_under_its_german_headings(name):
    lines = german(positions()[name]).splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith(("Spieler ", "Unternehmen ")))
    heading = spans(lines[at])
    name_, colour, cash, routes, spaces = heading[:5]
    assert [lines[at][slice(*s)] for s in heading[1:5]] == ["Farbe", "Geld", "Strecken", "Felder"]
    rows = lines[at + 1 : lines.index("", at)]
    checked = 0
    for row in rows:
        if row.startswith(" "):
            assert len(row) == 78, row  # under the line, to its right edge
            continue  # a status worded too long for its line, on a line of its own
        entries = spans(row)
        assert entries[0][0] == name_[0] and entries[1][0] == colour[0], row
        assert [e[1] for e in entries[2:5]] == [cash[1], routes[1], spaces[1]], row
        if len(entries) > 5:
            assert entries[5][0] == heading[5][0], row
        checked += 1
    assert checked == len(positions()[name]["players"])


def test_the_runs_table_lines_up_under_its_german_headings():
    lines = german(positions()["operating"]).splitlines()
    at = lines.index("  Fahrt    Von - Nach, angeboten")
    runs = positions()["operating"]["runs"]
    for line, run in zip(lines[at + 1 :], runs, strict=False):
        assert line.startswith(f"  {run['name']:<9}{run['destinations'][0]}"), line


def test_the_english_map_of_the_same_positions_is_as_it_was():
    """``str`` words the map in today's English (the goldens of test_busboss_maps_text)."""
    view = positions()["dropped"]
    english = text_map(view, view_map(view))
    assert english == maps.text_map(view, str)
    assert "\nCompanies                Colour    Cash  Routes  Spaces  This round\n" in english
    assert "\n# The bank (rule 40): " in english


def test_a_german_players_mail_has_the_german_map(tmp_path):
    """Through a real campaign: Ann reads German, and the report she is sent when the game
    master drops Bob draws the map in German; Cid's, in English, as it was."""
    site, boxes = game(tmp_path, "busboss")
    mail_from(site, boxes, 0, "sprache de")
    boxes.new()
    gm_mail(site, boxes, "drop Bob")
    ann = "\n".join(text_of(m) for m in boxes.new(ADDRESSES[0]))
    assert "Runde 1 von 12, eine Baurunde" in ann and "Spielreihenfolge: " in ann
    assert "\nSpieler             Farbe     Geld  Strecken  Felder  Diese Runde\n" in ann
    assert (
        "\nU Bob               blau       100         0       0  ausgeschieden (Regel 40)\n" in ann
    )
    assert "\nErwartet: Cid (G), Ann (R): Runde 1, eine Baurunde: kauf eine Strecke\n" in ann
    # the standings name each colour in the reader's words too
    assert re.search(r"\n  Bob +100  \(blau, 0 Strecken, aus dem Spiel\)\n", ann), ann
    cid = "\n".join(text_of(m) for m in boxes.new(ADDRESSES[2]))
    assert re.search(r"\n  Bob +100  \(blue, 0 routes, out of the game\)\n", cid), cid
    assert "\nPlayers             Colour    Cash  Routes  Spaces  This round\n" in cid
    assert "\nAwaiting: Cid (G), Ann (R): Round 1, a building round: buy one route" in cid


def test_a_german_readers_events_name_the_colour_in_german_the_log_in_english():
    """Rule 6: a company is named by its player and colour, or its name, player and colour;
    the colour is a word of the reader's language, and str() (logs, the game master's
    files) keeps the English."""
    state = RULES.new_game({}, ["Ann", "Bob", "Cat"], 1)
    state, events = busboss_game.drop(state, 0)
    with language.reading("de", "busboss"):
        worded = [language.word(e) for e in events]
    assert worded[0].startswith("Ann (rot) scheidet aus dem Spiel aus (Regel 40)")
    assert str(events[0]).startswith("Ann (red) is dropped from the game (rule 40)")
    with language.reading("en", "busboss"):
        assert language.word(events[0]) == str(events[0])
    named = BusBossState.from_data({**state.to_data(), "companies": ["Vale Motors", None]})
    with language.reading("de", "busboss"):
        assert language.word(named.label(0)) == "Vale Motors (Ann, rot)"
        assert language.word(named.label(1)) == "Bob (blau)"
    assert str(named.label(0)) == "Vale Motors (Ann, red)"
