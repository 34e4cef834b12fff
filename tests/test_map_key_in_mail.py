"""The PNG map is drawn for a phone, the board alone (issue 36): what a side panel held and
what the map does not say for itself goes in the mail, where it reflows. The HTML part, which
a reader of HTML sees instead of the plain one, says under the picture whose lines are which
(colour and pattern), and for Bus the clock and the action board; for Bus Boss every town's
abbreviation, as the map writes it, with its key, name and cards, as the plain part's text
map does."""

from __future__ import annotations

import re
from email import policy
from email.parser import BytesParser
from html import unescape

from played import play, played_site
from sites import PLAYERS, make_site, text_of

from referee.bus.scene import ACTIONS
from referee.busboss import png_map as busboss_png
from referee.busboss.scene import abbreviations, town_entries, view_map


def mails_of(tmp_path, game: str, until_round: int):
    site = make_site(tmp_path / "site")
    site.new_campaign(game, "g", PLAYERS, 3)
    table = play(site, site.campaign("g").table(), until_round, 3)
    sent = [
        BytesParser(policy=policy.default).parsebytes(path.read_bytes())
        for path in sorted((site.data_root / "g" / "mail" / "out").glob("*.eml"))
    ]
    with_map = [msg for msg in sent if any(p.get_content_maintype() == "image" for p in msg.walk())]
    assert with_map, "reports carry the map"
    return table, with_map


def parts(msg) -> tuple[str, str]:
    """The plain part, and the HTML part's words (tags out, entities read, spaces single)."""
    html = msg.get_body(("html",)).get_content()
    words = " ".join(unescape(re.sub(r"<[^>]+>", " ", html)).split())
    return text_of(msg), words


def test_every_town_key_the_bus_boss_map_writes_is_explained_in_both_parts(tmp_path):
    table, mails = mails_of(tmp_path, "busboss", 3)
    m = view_map(table.view())
    drawn = busboss_png._layout(m).labels  # the keys the map writes, by place
    short = abbreviations(m)
    assert drawn and set(drawn) <= set(short)
    for msg in mails:
        text, html = parts(msg)
        flat = " ".join(text.split())
        for key in drawn:
            # "AUC auckland (Bishop Auckland) 6D": abbreviation, key, name, cards
            [entry] = [e for e in town_entries(m) if e.startswith(f"{short[key]} {key}")]
            cards = m.destination_cards.get(m.places[key].destination or "", ())
            assert all(card in entry for card in cards) and key in entry
            assert entry in flat and entry in html, (msg["Subject"], entry)
        for player in table.view()["players"]:
            assert f"{player['name']}: {player['colour']}, " in html  # colour, then pattern


def test_a_bus_mail_s_html_says_whose_line_is_which_and_shows_the_clock_and_actions(tmp_path):
    table, mails = mails_of(tmp_path, "bus", 2)
    for msg in mails:
        _, html = parts(msg)
        for seat, name in enumerate(p.name for p in table.campaign.players):
            colour = ("red", "blue", "green", "orange", "purple")[seat]
            assert f"{name}: {colour}, " in html, msg["Subject"]
        assert "Clock: " in html and "stones left" in html and "in supply" in html
        assert "Line markers left: " in html
        for _, action in ACTIONS:
            assert f"{action}: " in html, action


def test_the_bank_is_in_the_key_only_when_it_holds_routes():
    from busboss_map_views import stored

    from referee import maps

    assert stored("middle")["bank_routes"] and not stored("start")["bank_routes"]
    assert "# the bank (rule 40): grey, broken into dashes" in str(
        maps.map_key(stored("middle"))[0]
    )
    assert "the bank" not in str(maps.map_key(stored("start"))[0])


def test_the_key_under_either_map_is_worded_in_german_for_a_german_reader_colours_too(tmp_path):
    """Issue 37: the key under the picture, its colours and strokes included ("rot,
    durchgezogen"), is in the reader's language for both games; an English reader's is as
    it was."""
    from busboss_map_views import stored

    from referee import maps
    from referee.words.language import reading, word

    view = stored("middle")
    with reading("de", "busboss"):
        german = [word(line) for line in maps.map_key(view)]
    assert german[0].startswith("Strecken: ") and "grau, unterbrochen" in german[0]
    assert not re.search(r"\b(the|are|grey|red|blue|green|solid|dashed)\b", " ".join(german))
    english = [str(line) for line in maps.map_key(view)]
    assert "# the bank (rule 40): grey, broken into dashes" in english[0]
    table = played_site(tmp_path, "keyed", seed=3, until_round=2).campaign("keyed").table()
    with reading("de", "bus"):
        bus = " ".join(word(line) for line in maps.map_key(table.view()))
    assert "rot, durchgezogen" in bus and "blau, gepunktet" in bus
    assert not re.search(r"\b(red|blue|green|solid|dotted|dashed)\b", bus)
