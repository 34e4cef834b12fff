"""The Bus text map in its reader's language (issue 37): a German reader reads every word of
it in German (the header, the key, the tables' headings and cells, who is awaited and the
result), only the game's notation (crossings, zones, letters, action keys) and people's names
as they are; its tables line up under the longer German headings, within 78 columns; and
the English map stays as it was (tests/test_maps_text.py holds it to its goldens)."""

from __future__ import annotations

import random
import re

import pytest
from map_views import NAMES, stored
from sites import person_mail, run_tick, text_of
from test_languages import BOB, signed_up

from referee import maps
from referee.bus import rules
from referee.bus.board import BOARD
from referee.bus.engine import RULES
from referee.bus.text_map import WIDTH, text_map
from referee.contract import IllegalOrder, Say
from referee.words import language

# English words of the map (as it was before it was worded): none is left in a German map
# fmt: off
ENGLISH = (
    "edition", "round", "setting", "choosing", "resolving", "ended", "over", "Clock", "next",
    "stones", "left", "Passengers", "supply", "Open", "zone", "free", "lots", "No", "building",
    "Lines", "letters", "alternate", "shared", "street", "Numbers", "crossings", "stations",
    "streets", "without", "line", "Players", "Score", "Points", "Stones", "Buses", "action",
    "markers", "Heads", "start", "circle", "Crossing", "Buildings", "type", "seated", "Seated",
    "Waiting", "station", "house", "office", "pub", "Actions", "expansion", "Passengers",
    "Starting", "player", "Awaiting", "Game", "Choose", "choose", "placed",
)
# fmt: on
# the game's notation: the action keys a player writes, shown beside each action's name
NOTATION = re.compile(r"\((line|buses|passengers|buildings|clock|vroom|start)\)")


def said(view: dict, state=None) -> dict:
    """``view`` as a mail's map gets it (``words.mails.as_said``): the prompts awaited and
    the result's reason as the game says them (``Say``), from ``state`` or, for a stored
    view, made again from the game's wordings."""
    if state is not None:
        prompts = {d.seat: d.prompt for d in RULES.awaiting(state)}
        result = RULES.result(state)
    else:
        choose, players = rules.CHOOSE[0][1], view["players"]
        prompts = {
            a["seat"]: Say(
                choose.text,
                {"round": view["round"], "placed": 0, "left": players[a["seat"]]["markers"]},
            )
            for a in view["awaiting"]
        }
        result = None
    awaiting = [{**a, "prompt": prompts[a["seat"]]} for a in view["awaiting"]]
    reason = result.reason if result else rules.Ending.LOTS.value
    ended = view["result"] and {**view["result"], "reason": reason}
    return {**view, "awaiting": awaiting, "result": ended}


def german(view: dict) -> str:
    with language.reading("de", "bus"):
        return text_map(view, BOARD, language.word)


def english_words(text: str) -> list[str]:
    for name in NAMES:
        text = text.replace(name, "")
    words = set(re.findall(r"[A-Za-z]+", NOTATION.sub("", text)))
    return sorted(words & set(ENGLISH))


def bot_states(players: int, seed: int):
    """Every state of a game the default bot plays for all seats, one after each order."""
    state = RULES.new_game({}, NAMES[:players], seed)
    bot, rng = RULES.bot("default"), random.Random(seed)
    yield state
    while due := RULES.awaiting(state):
        state, _ = RULES.apply(state, due[0].seat, bot(state, due[0].seat, rng))
        yield state


@pytest.mark.parametrize("name", ["start", "middle", "end"])
def test_a_german_map_holds_no_english_word_and_fits_78_columns(name):
    view = said(stored(name))
    text = german(view)
    assert english_words(text) == [], text
    assert max(len(line) for line in text.splitlines()) <= WIDTH == 78
    english = text_map(view, BOARD)  # the English, for the game master's files
    assert {"Players", "Crossing", "Actions", "Clock"} <= set(english_words(english))


def test_the_german_map_says_who_is_awaited_and_how_the_game_ended_in_german():
    middle = german(said(stored("middle")))
    assert middle.startswith("Bus (Ausgabe 2019): Runde 5, Aktionswahl\n")
    assert "\nErwartet: Cid (G): Wähle eine Aktion: Runde 5, 0 in dieser Runde gesetzt," in middle
    assert (
        "Uhr: Büro (dann Kneipe), noch 5 von 5 Glassteinen.  Passagiere im Vorrat: 0.\n" in middle
    )
    assert "O Dot (Start)  " in middle and "22 (Kreis)" in middle
    assert "\n  Linie 22-16-15-14-21-22\n" in middle
    assert "    10   A Büro*, C Büro  " in middle and "    11   Bahnhof  " in middle
    assert "\nStreckenbau (line)" in middle and "\nStartspieler (start)" in middle
    end = german(said(stored("end")))
    assert "\nSpielende: kein Gebäudeplatz ist mehr frei\n1. Ann (R): 4\n" in end
    assert "Kein Gebäudeplatz ist mehr frei." in end and "Erwartet" not in end


def columns_end(row: str) -> list[int]:
    """Where each run of non-blanks of a table's row ends."""
    return [m.end() for m in re.finditer(r"\S+", row)]


def table(text: str, heading: str) -> list[str]:
    """The lines of the map's block that starts with ``heading``."""
    block = next(
        b
        for b in text.split("\n\n")
        if any(line.startswith(heading) for line in b.splitlines()[:2])
    )
    return block.splitlines()


def test_the_german_tables_line_up_under_their_longer_headings():
    text = german(said(stored("middle")))
    players = table(text, "Spieler")
    heading = next(line for line in players if line.startswith("Spieler "))
    assert heading.split() == [
        "Spieler", "Stand", "Punkte", "Glassteine", "Busse", "Aktion", "Linie", "Enden"
    ]  # fmt: skip
    numbers = [columns_end(heading)[i] for i in range(1, 7)]
    rows = [line for line in players if line[:2] in ("R ", "U ", "G ", "O ", "P ")]
    assert len(rows) == 5
    for row in rows:  # each number ends where its heading does
        assert all(row[end - 1].isdigit() and row[end] == " " for end in numbers), row
    # "markers left" stands over the two columns of markers
    over = players[0]
    assert over.strip() == "übrige Steine"
    assert over.index("übrige") < numbers[5] and len(over) > numbers[4]
    crossings = table(text, "Kreuzung")
    heading = crossings[0]
    assert heading.split()[0] == "Kreuzung" and "Sitzend" in heading and "Wartend" in heading
    seated = heading.index("Sitzend") + len("Sitzend")
    waiting = heading.index("Wartend") + len("Wartend")
    lines = heading.index("Linien")
    for row in crossings[1:]:
        assert row[seated - 1].isdigit() and row[seated] == " ", row
        assert row[waiting - 1].isdigit() and row[waiting] == " ", row
        assert row[lines - 1] == " " and row[lines] in "RUGOP-", row
    actions = table(text, "Aktionen")
    first = actions[0].index("a b c d e f")
    assert actions[0].startswith("Aktionen ")
    assert all(row[first - 1] == " " and row[first] in "RUGOP." for row in actions[1:])
    assert all(len(row) <= WIDTH for row in actions)


@pytest.mark.parametrize("players", [3, 5])
def test_every_position_of_a_whole_game_is_german_and_fits(players):
    """From the empty board through setup to the end (with its prompts, as the game says
    them), the map drawn through the shared path a mail's map takes."""
    seen = 0
    for state in bot_states(players, seed=3):
        view = said(RULES.view(state), state)
        with language.reading("de", "bus"):
            text = maps.text_map(view, language.word)
        assert english_words(text) == [], text
        assert max(len(line) for line in text.splitlines()) <= WIDTH, text
        seen += 1
    assert seen > 100


def test_a_german_players_mail_holds_the_map_in_german(tmp_path):
    """Bob reads German (he said so as he joined): the map of his first decision is
    German; Ann's, in the same campaign, English."""
    site, boxes = signed_up(tmp_path)
    [bobs] = [m for m in map(map_in, map(text_of, boxes.new("bob@example.org"))) if m]
    assert bobs.startswith("Bus (Ausgabe 2019): Spielaufbau\n"), bobs
    assert "\nErwartet: Bob (R): Erste Gebäude: setze ein Gebäude in Zone A" in bobs
    assert english_words(bobs) == [], bobs
    assert max(len(line) for line in bobs.splitlines()) <= WIDTH
    # Bob places his first two buildings; Ann, who reads English, is asked next, with the map
    token = site.campaign("bus1").players[0].token
    boxes.deliver(
        person_mail(BOB, site.identity.plus("bus1", token), "Zug", "build house 15\nbuild pub 16")
    )
    run_tick(site)
    [anns] = [m for m in map(map_in, map(text_of, boxes.new("ann@example.org"))) if m]
    assert anns.startswith("Bus (2019 edition): setting up\n") and "\nAwaiting: Ann (U)" in anns
    assert "Players                  Score" in anns and "    15   A house*, A free" in anns


def map_in(text: str) -> str:
    """The text map of a mail: from its title line to the last line of who is awaited."""
    lines = text.splitlines()
    start = next((i for i, line in enumerate(lines) if line.startswith("Bus (")), None)
    if start is None:
        return ""
    end = max(i for i, line in enumerate(lines) if line.startswith(("Erwartet", "Awaiting")))
    while end + 1 < len(lines) and lines[end + 1].startswith("  "):
        end += 1
    return "\n".join(lines[start : end + 1])


def counted(seed: int = 0) -> dict[tuple[str, int], object]:
    """The first prompt of each kind with a count, and the first event of passengers
    brought, by kind and count, in a three-player game the bot plays."""
    found: dict[tuple[str, int], object] = {}
    state, bot, rng = RULES.new_game({}, NAMES[:3], seed), RULES.bot("default"), random.Random(0)
    while due := RULES.awaiting(state):
        if state.todo:  # counted as the decision came due
            found.setdefault((due[0].kind, state.todo), due[0].prompt)
        state, events = RULES.apply(state, due[0].seat, bot(state, due[0].seat, rng))
        for event in events:
            if isinstance(event, Say) and " brings " in event.text:
                found.setdefault(("brings", event.params["count"]), event)
    return found


# the English as old campaigns' turn reports have it (tests/test_records.py replays one)
ONE_OR_TWO = {
    ("brings", 1): ("Ann brings 1 passenger(s): 1 at 11.", "Ann bringt 1 Passagier: 1 an 11."),
    ("brings", 2): (
        "Cid brings 2 passenger(s): 1 at 11, 1 at 26.",
        "Cid bringt 2 Passagiere: 1 an 11, 1 an 26.",
    ),
    ("passengers", 1): (
        "Passengers: place 1 new passenger(s) at the stations.",
        "Neue Passagiere: setze 1 neuen Passagier an einen der Bahnhöfe.",
    ),
    ("passengers", 2): (
        "Passengers: place 2 new passenger(s) at the stations.",
        "Neue Passagiere: setze 2 neue Passagiere an die Bahnhöfe.",
    ),
    ("line", 1): (
        "Line expansion: lay 1 more street(s) at your heads (14 and 21).",
        "Streckenbau: baue noch 1 Strecke an deinen Linienenden (14 und 21).",
    ),
    ("line", 2): (
        "Line expansion: lay 2 more street(s) at your heads (9 and 10).",
        "Streckenbau: baue noch 2 Strecken an deinen Linienenden (9 und 10).",
    ),
    ("build", 1): (
        "Buildings: erect 1 more building(s) in zone A.",
        "Neue Gebäude: baue noch 1 Gebäude in Zone A.",
    ),
    ("build", 2): (
        "Buildings: erect 2 more building(s) in zone A.",
        "Neue Gebäude: baue noch 2 Gebäude in Zone A.",
    ),
}


def test_one_passenger_or_two_street_or_building_in_english_and_german():
    """An event and a prompt with a count say one thing in the singular and more in the
    plural in German ('1 Passagier', '2 Passagiere', not 'Passagier(e)'); the English reads
    as it always has."""
    found = counted()
    for key, (english, german_) in ONE_OR_TWO.items():
        assert str(found[key]) == english
        with language.reading("de", "bus"):
            assert language.word(found[key]) == german_


def test_one_passenger_to_place_is_refused_in_the_singular():
    """Two passengers where one is due: the refusal says one, in German without '(e)'."""
    state = next(
        s
        for s in bot_states(3, seed=0)
        if s.todo == 1 and s.phase == "resolve" and RULES.awaiting(s)[0].kind == "passengers"
    )
    seat = RULES.awaiting(state)[0].seat
    [[order]] = [e.alternatives for e in RULES.parse("passengers 11:2")]
    with pytest.raises(IllegalOrder) as refused:
        RULES.apply(state, seat, order)
    assert str(refused.value.reason) == (
        "Place exactly 1 passenger(s), split between stations 11 and 26."
    )
    with language.reading("de", "bus"):
        assert (
            language.word(refused.value.reason) == "Setze genau 1 Passagier, an Bahnhof 11 oder 26."
        )
