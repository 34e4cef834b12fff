"""Mail in each reader's language (issue 37): a player's own choice (by mail, or when joining),
else their campaign's, else the site's, else English; every mail says its language
(Content-Language), and a German reader's dates have German day and month names."""

from __future__ import annotations

import re
from html import unescape

import pytest
from sites import Mailboxes, make_site, person_mail, reload, run_tick, text_of

from referee import mailbot
from referee.demo import run_demo
from referee.service.archive import write_archive
from referee.service.site import Site
from referee.settings.site import load_config
from referee.words import language

ANN, BOB, CID = "Ann <ann@example.org>", "Bob <bob@example.org>", "Cid <cid@example.org>"
# words no German sentence of the referee's holds: found in a German reader's mail, they are
# English left untranslated
ENGLISH = (" the ", " your ", " you ", " is ", " are ", " has ", " were ", " for ", " with ")
# and the words of a map, a table or an event, which are not sentences
TERSE_ENGLISH = (" and ", " of ", " round ", " left", " free ", " lots ", " Awaiting", " Players ")
GERMAN_MONTHS = "Jan|Feb|März|Apr|Mai|Juni|Juli|Aug|Sept|Okt|Nov|Dez"
GERMAN_DAY = re.compile(rf"\b(Mo|Di|Mi|Do|Fr|Sa|So)\. \d{{1,2}}\. ({GERMAN_MONTHS})\.? 20\d\d\b")
ENGLISH_MONTHS = "Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec"
ENGLISH_DAY = re.compile(rf"\b(Mon|Tue|Wed|Thu|Fri|Sat|Sun) \d\d ({ENGLISH_MONTHS}) 20\d\d\b")
# names in the game's own maps, English whatever the reader's language
NAMES = ("Yorkshire and the North East",)


def prose(text: str) -> str:
    """A mail's words, all but the game's notation: the offered and written order lines
    (indented by four, or marked + or - in an answer), and the names of its maps."""
    kept = [
        line
        for line in text.splitlines()
        if not line.startswith(("    ", "  - ", "  + build", "  + line", "  + round"))
    ]
    words = " ".join(" ".join(kept).split())
    for name in NAMES:
        words = words.replace(name, "")
    return f" {words} "


def english_in(text: str) -> list[str]:
    words = prose(text)
    return [word for word in ENGLISH + TERSE_ENGLISH if word in words]


def signed_up(tmp_path):
    """A Bus game for three, with deadlines: Bob asks for German as he joins, first (his is
    the first decision, with the map); Ann and Cid join as they are (English), and the game
    starts."""
    site = make_site(tmp_path)
    site.new_campaign("bus", "bus1", [], seed=1, seats=3, settings={"deadlines": {"hours": 48}})
    boxes = Mailboxes(site)
    boxes.deliver(
        person_mail(BOB, site.identity.address, "hallo", "beitreten bus1 als Bob sprache de")
    )
    run_tick(site)
    boxes.deliver(person_mail(ANN, site.identity.address, "hi", "join bus1 as Ann"))
    boxes.deliver(person_mail(CID, site.identity.address, "hi", "join bus1 as Cid"))
    run_tick(site)
    return site, boxes


def test_ann_reads_english_and_bob_german_in_every_mail_press_between_them_included(tmp_path):
    site, boxes = signed_up(tmp_path)
    campaign = site.campaign("bus1")
    bob, ann, cid = campaign.players
    assert (ann.language, bob.language) == (None, "de")
    told = {"ann": boxes.new("ann@example.org"), "bob": boxes.new("bob@example.org")}
    # Bob builds, then writes in German words of his own; Ann builds and writes to Bob
    for who, sender, player, lines in (
        ("bob", BOB, bob, "build house 15"),
        ("ann", ANN, ann, "build house 16\nmessage Bob good luck"),
        ("bob", BOB, bob, "nachricht alle danke, dir auch\nverlauf\nhilfe\nzeitzone Europe/Berlin"),
    ):
        boxes.deliver(person_mail(sender, site.identity.plus("bus1", player.token), who, lines))
        run_tick(site)
        told["ann"] += boxes.new("ann@example.org")
        told["bob"] += boxes.new("bob@example.org")
    subjects = {who: [str(m["Subject"]) for m in mails] for who, mails in told.items()}
    # every mail of each in their own language, the joining answer and the press too
    assert {m["Content-Language"] for m in told["ann"]} == {"en"}
    assert {m["Content-Language"] for m in told["bob"]} == {"de"}
    assert "[bus1] Du bist bus1 beigetreten" in subjects["bob"]
    assert "[bus1] Nachricht von Ann" in subjects["bob"]
    assert "[bus1] Message from Bob" in subjects["ann"]
    assert any(s.startswith("[bus1] Willkommen bei Bus, Bob") for s in subjects["bob"])
    assert any(s.startswith("[bus1] Welcome to Bus, Ann") for s in subjects["ann"])
    for mail in told["bob"]:
        assert english_in(text_of(mail)) == [], (mail["Subject"], prose(text_of(mail)))
        assert not ENGLISH_DAY.search(text_of(mail))
    for mail in told["ann"]:
        assert english_in(text_of(mail)) or "Message from" in str(mail["Subject"])
    # the HTML part says its language too, and is German for Bob
    html = {who: [m.get_body(("html",)) for m in mails] for who, mails in told.items()}
    bob_html = [part.get_content() for part in html["bob"] if part is not None]
    assert bob_html and all('<html lang="de">' in page for page in bob_html)
    assert any("Spielstand:" in page or "Deine Entscheidung" in page for page in bob_html)
    assert all('<html lang="en">' in p.get_content() for p in html["ann"] if p is not None)
    bob_texts = "\n".join(text_of(m) for m in told["bob"])
    ann_texts = "\n".join(text_of(m) for m in told["ann"])
    assert "Ann schreibt dir in der Partie bus1:\n\ngood luck" in bob_texts
    assert "Bob writes to you in campaign bus1:\n\ndanke, dir auch" in ann_texts
    # the history and the help Bob asked for, his commands' German words in it
    assert "der bisherige Verlauf" in bob_texts and "Ann hat Bob geschrieben (privat)." in bob_texts
    assert "verlauf | verlauf zug 3" in bob_texts and "sprache de" in bob_texts
    # dates: German day and month names for Bob (in his zone from his `zeitzone` on), English
    # for Ann
    assert GERMAN_DAY.search(bob_texts), bob_texts
    assert ENGLISH_DAY.search(ann_texts)


def test_a_mail_outside_any_game_is_answered_in_the_language_its_sender_reads_there(tmp_path):
    """`status` to the referee's own address names no game: Bob, who reads German in the one
    game he plays, is answered in German, Ann in English, and a stranger in the site's."""
    site, boxes = signed_up(tmp_path)
    boxes.new("ann@example.org"), boxes.new("bob@example.org")
    for sender in (ANN, BOB, "Eve <eve@example.org>"):
        boxes.deliver(person_mail(sender, site.identity.address, "status", "status"))
    run_tick(site)
    [to_ann], [to_bob] = boxes.new("ann@example.org"), boxes.new("bob@example.org")
    [to_eve] = boxes.new("eve@example.org")
    assert (to_ann["Subject"], to_ann["Content-Language"]) == ("Your games", "en")
    assert (to_bob["Subject"], to_bob["Content-Language"]) == ("Deine Spiele", "de")
    assert "bus1 (Bus): laufend." in text_of(to_bob) and english_in(text_of(to_bob)) == []
    assert to_eve["Content-Language"] == "en"
    assert "This address plays in no game on this referee." in text_of(to_eve)


def test_who_comes_to_a_german_game_is_answered_in_its_language_a_stranger_in_the_sites(
    tmp_path,
):
    """A joiner who names no language, and one who asks to observe, read the campaign's
    language, as its mail to them will be; a stranger writing to the game learns nothing of
    it, not even its language."""
    site = make_site(tmp_path)
    site.new_campaign("bus", "bus1", [], seed=1, seats=3, settings={"language": "de"})
    boxes = Mailboxes(site)
    boxes.deliver(person_mail(ANN, site.identity.address, "hi", "join bus1 as Ann"))
    eve = "Eve <eve@example.org>"
    boxes.deliver(person_mail(eve, site.identity.plus("bus1", "nosuchtoken"), "hi", "status"))
    run_tick(site)
    [joined] = boxes.new("ann@example.org")
    [stranger] = boxes.new("eve@example.org")
    assert (joined["Subject"], joined["Content-Language"]) == (
        "[bus1] Du bist bus1 beigetreten",
        "de",
    )
    assert stranger["Content-Language"] == "en" and "bus1" not in str(stranger["Subject"])
    site.new_campaign("bus", "bus2", [ANN, BOB, CID], seed=1, settings={"language": "de"})
    boxes.new()
    boxes.deliver(person_mail(eve, site.identity.address, "watch", "observe bus2"))
    run_tick(site)
    [asked] = boxes.new("eve@example.org")
    assert asked["Content-Language"] == "de", asked["Subject"]


@pytest.mark.parametrize(
    ("done", "own", "other"),
    [
        (
            "the bot decided for them: build house 10",
            "your deadline passed: the bot decided for you: build house 10",
            "Ann missed a deadline: the bot decided for them: build house 10",
        ),
        (
            "the game waits for the game master",
            "your deadline passed: the game waits for the game master",
            "Ann missed a deadline: the game waits for the game master",
        ),
        # words no policy writes (a log's hand-written line) are shown as they are
        (
            "the game master moved for them",
            None,
            "Ann missed a deadline: the game master moved for them",
        ),
    ],
)
def test_what_a_policy_did_for_a_missed_deadline_is_worded_for_its_reader(done, own, other):
    """The log keeps it in English for others ("decided for them"); the one who missed it
    reads "for you", in their own language."""
    from referee.words.render import say

    if own:
        assert say("note_missed", done=done) == own
    assert say("note_late", name="Ann", done=done) == other
    with language.reading("de"):
        if done.startswith("the bot"):
            assert say("note_missed", done=done) == (
                "deine Frist ist abgelaufen: der Bot hat für dich entschieden: build house 10"
            )


def test_a_time_is_shown_as_its_readers_language_writes_it():
    from datetime import UTC, datetime

    from referee.settings.deadlines import show

    due = show(datetime(2026, 11, 27, 17, 0, tzinfo=UTC), "Europe/Berlin", UTC)
    assert (str(due), str(due.short)) == ("Fri 27 Nov 2026 18:00 CET", "Fri 18:00 CET")
    assert due.worded("de") == "Fr. 27. Nov. 2026 18:00 MEZ"
    assert due.short.worded("de") == "Fr. 18:00 MEZ"
    # a zone German has no name of its own for keeps the one it has
    ny = show(datetime(2026, 3, 2, 17, 0, tzinfo=UTC), "America/New_York", UTC)
    assert ny.worded("de") == "Mo. 2. März 2026 12:00 EST"
    with language.reading("de"):
        assert language.word(due) == "Fr. 27. Nov. 2026 18:00 MEZ"
    assert language.word(due) == "Fri 27 Nov 2026 18:00 CET"


def test_a_player_chooses_their_language_by_mail_by_its_german_word_too(tmp_path):
    site, boxes = signed_up(tmp_path)
    bob, ann, _ = site.campaign("bus1").players
    boxes.new()
    boxes.deliver(person_mail(ANN, site.identity.plus("bus1", ann.token), "de", "sprache deutsch"))
    boxes.deliver(person_mail(BOB, site.identity.plus("bus1", bob.token), "en", "language en"))
    run_tick(site)
    [to_ann] = boxes.new("ann@example.org")
    [to_bob] = boxes.new("bob@example.org")
    assert to_ann[
        "Content-Language"
    ] == "de" and "Deine Post kommt ab jetzt auf Deutsch." in text_of(to_ann)
    assert to_bob["Content-Language"] == "en"
    assert "Your mail is written in English from now on." in text_of(to_bob)
    players = site.campaign("bus1").players
    assert [p.language for p in players] == ["en", "de", None]
    # kept in campaign.yaml: the next tick's reading knows it
    assert "language: de" in (site.campaign("bus1").root / "campaign.yaml").read_text()


def test_an_unknown_language_is_refused_naming_the_languages_offered(tmp_path):
    site, boxes = signed_up(tmp_path)
    ann = site.campaign("bus1").players[1]
    boxes.new()
    boxes.deliver(person_mail(ANN, site.identity.plus("bus1", ann.token), "x", "language klingon"))
    run_tick(site)
    [answer] = boxes.new("ann@example.org")
    said = " ".join(text_of(answer).split())
    assert "- language klingon" in said
    assert (
        "'klingon' is not a language the referee writes; write one of: en (English), de (Deutsch)"
        in said
    )
    assert site.campaign("bus1").players[1].language is None
    # at sign-up too: nothing joined, and why
    boxes.deliver(
        person_mail(
            "Cy <cy@example.org>", site.identity.address, "hi", "join bus1 as Cy language xx"
        )
    )
    run_tick(site)
    [refused] = boxes.new("cy@example.org")
    assert "'xx' is not a language the referee writes" in " ".join(text_of(refused).split())


def test_the_players_own_choice_wins_over_the_campaigns_and_the_campaigns_over_the_sites(tmp_path):
    assert language.reader_language(None) == "en"
    assert language.reader_language(None, None, "de") == "de"
    assert language.reader_language(None, "en", "de") == "en"
    assert language.reader_language("de", "en", "en") == "de"
    site = make_site(tmp_path)
    path = site.config.path
    path.write_text(path.read_text().replace("# language: de ", "language: de   "))
    site = reload(site)
    assert site.identity.language == "de"
    site.new_campaign("bus", "bus1", [ANN, BOB, CID], seed=1, settings={"language": "en"})
    site.new_campaign("bus", "bus2", [ANN, BOB, CID], seed=1)
    boxes = Mailboxes(site)
    run_tick(site)
    welcomes = {(str(m["Subject"]).split("]")[0], m["Content-Language"]) for m in boxes.new()}
    assert welcomes == {("[bus1", "en"), ("[bus2", "de")}
    # a stranger to the site is answered in the site's language
    boxes.deliver(person_mail("Zed <zed@example.org>", site.identity.address, "?", "hello"))
    run_tick(site)
    [answer] = boxes.new("zed@example.org")
    assert answer["Content-Language"] == "de" and "Diese Mail nennt kein Spiel." in text_of(answer)


def test_the_languages_offered_are_the_ones_the_settings_take():
    from typing import get_args

    from referee.settings.checks import Language

    assert list(language.LANGUAGES) == list(get_args(Language))
    assert language.known("Deutsch") == "de" and language.known("EN") == "en"
    assert language.known("fr") is None


@pytest.mark.slow  # whole games played by mail
@pytest.mark.parametrize("game", ["bus", "busboss"])
def test_a_whole_game_by_mail_gives_german_players_german_sentences_and_dates(tmp_path, game):
    """Every mail of a whole game, to players who read German: no English word outside the
    game's notation and the names of people and places, its events, standings and text map
    included; each due time with German day and month names."""
    settings = {"language": "de", "deadlines": {"hours": 48}}
    result = run_demo(tmp_path / "demo", game=game, settings=settings)
    assert result.finished
    outbox = tmp_path / "demo" / "mail" / "outbox"
    mails = [mailbot.parse(p.read_bytes()) for p in sorted(outbox.glob("*/*"))]
    assert len(mails) > 40 and {m["Content-Language"] for m in mails} == {"de"}
    texts = [text_of(m) for m in mails]
    english = [(str(m["Subject"]), english_in(t)) for m, t in zip(mails, texts) if english_in(t)]
    assert english == []
    assert sum(bool(GERMAN_DAY.search(t)) for t in texts) > 10
    assert not any(ENGLISH_DAY.search(t) for t in texts)
    assert all("Fällig bis" in t for t in texts if t.startswith("DEINE ENTSCHEIDUNG"))
    # the campaign's static archive, in the campaign's language: its pages' words, and the
    # reports and maps they hold
    site = Site(load_config(tmp_path / "demo" / "referee.yaml"))
    written = write_archive(site.campaign("demo").table(), tmp_path / "archive")
    pages = [p for p in written if p.suffix in (".html", ".txt")]
    assert len(pages) > 5
    for page in pages:
        words = unescape(re.sub(r"<style.*?</style>|<[^>]+>", "\n", page.read_text(), flags=re.S))
        assert english_in(words) == [], (page.name, english_in(words))
        assert 'lang="de"' in page.read_text() or page.suffix == ".txt"


def test_referee_new_sets_the_campaigns_language_with_a_comment_that_says_so(tmp_path):
    from click.testing import CliRunner

    from referee.cli import main

    site = make_site(tmp_path)
    players = [arg for p in (ANN, BOB, CID) for arg in ("--player", p)]
    base = ["--config", str(site.config.path), "new", "bus"]
    gm = ["--gm", "Gil <gil@example.org>"]
    result = CliRunner().invoke(main, [*base, "g1", *players, *gm, "--language", "de"])
    assert result.exit_code == 0, result.output
    written = (site.campaign("g1").root / "campaign.yaml").read_text()
    assert "\nlanguage: de\n" in written and "# The players' language" in written
    sent = Mailboxes(site).new()
    assert len(sent) == 4 and {m["Content-Language"] for m in sent} == {"de"}
    assert any("Du leitest die Partie g1" in text_of(m) for m in sent)  # the game master's
    refused = CliRunner().invoke(main, [*base, "g2", *players, "--language", "fr"])
    assert refused.exit_code == 2 and "'fr' is not one of 'en', 'de'" in refused.output


def test_a_german_sites_game_masters_read_its_failure_summary_in_german(tmp_path):
    from datetime import UTC, datetime

    from sites import with_game_master

    from referee.service.failures import note_failure
    from referee.service.tick import tick

    site = make_site(tmp_path)
    path = site.config.path
    path.write_text(path.read_text().replace("# language: de ", "language: de   "))
    site = with_game_master(reload(site), "gm@example.org", "GM_TOKEN")
    boxes = Mailboxes(site)
    note_failure(site, "mail <m1@x>", "unreadable", datetime.now(UTC))
    tick(site, datetime.now(UTC))
    [summary] = boxes.new("gm@example.org")
    assert summary["Content-Language"] == "de"
    assert str(summary["Subject"]) == "referee: 1 Fehler seit dem Start"
    text = text_of(summary)
    assert "ist seit der letzten Zusammenfassung 1-mal etwas fehlgeschlagen" in text
    assert "mail <m1@x>" in text and english_in(text) == [], text


def told_events(text: str) -> list[str]:
    """The game's events a mail tells: a line from "- " (a digest, a history) or "  - " (a
    report), with the lines it wraps onto, indented under its words."""
    events: list[str] = []
    under = None  # the indent of the wrapped lines of the event before
    for line in text.splitlines():
        if line.startswith(("- ", "  - ")):
            events.append(line.strip()[2:])
            under = " " * (line.index("- ") + 2)
        elif under and line.startswith(under) and line.strip():
            events[-1] += " " + line.strip()
        else:
            under = None
    return events


def map_key_paragraphs(msg) -> list[str]:
    """The sentences under the picture in a mail's HTML part (the key of the map)."""
    html = msg.get_body(("html",)).get_content()
    return [unescape(p) for p in re.findall(r'<p style="font-size:\.9em">(.*?)</p>', html, re.S)]


@pytest.mark.slow  # a whole game played by mail
def test_a_german_player_reads_buss_events_and_the_key_under_its_map_in_german(tmp_path):
    """What happened in a Bus game (a street laid, a building, the clock, a passenger carried,
    a new round, the end) and the sentences under the PNG map (whose line is which, the
    clock, the actions, the symbols) are German for a German player: no English word of a
    sentence in them, only names, crossings and the game's notation."""
    result = run_demo(tmp_path / "demo", game="bus", settings={"language": "de"})
    assert result.finished
    outbox = tmp_path / "demo" / "mail" / "outbox"
    mails = [mailbot.parse(p.read_bytes()) for p in sorted(outbox.glob("*/*"))]
    events = [e for m in mails for e in told_events(text_of(m))]
    keys = [k for m in mails if m.get_body(("html",)) for k in map_key_paragraphs(m)]
    assert len(events) > 100 and len(keys) > 40
    english = sorted({e for e in events + keys if any(w in f" {e} " for w in ENGLISH)})
    assert english == []
    # the events and the key say it in German (B11: a passenger carried scores a point)
    assert any(" fährt einen Passagier von " in e for e in events)
    assert any(e.startswith("Das Spiel endet: ") for e in events)
    assert any(k.startswith("Uhr: ") and "Glassteinen übrig" in k for k in keys)
    assert any(k.startswith("Aktionen dieser Runde: Streckenbau: ") for k in keys)


def test_a_german_sites_answer_to_a_mail_it_cannot_read_is_german(tmp_path):
    """An unreadable mail is answered before anything says who wrote it: in the site's
    language."""
    site = make_site(tmp_path)
    path = site.config.path
    path.write_text(path.read_text().replace("# language: de ", "language: de   "))
    site = reload(site)
    boxes = Mailboxes(site)
    header = "; ".join(f"a{i}=b" for i in range(10000))
    boxes.deliver(
        (
            "From: Eve <eve@example.org>\nTo: referee@example.org\nSubject: hi\n"
            f"Message-ID: <bad@example.org>\nContent-Type: multipart/mixed; {header}\n\nhello\n"
        ).encode()
    )
    run_tick(site)
    [told] = boxes.new("eve@example.org")
    assert told["Content-Language"] == "de" and english_in(text_of(told)) == [], text_of(told)


def test_a_replace_before_the_start_tells_each_in_their_language_not_the_game_masters(tmp_path):
    """The game master reads English in a German game open for sign-up: the newcomer they
    seat and the player they replace are told in the game's German, the game master is
    answered in English."""
    site = make_site(tmp_path)
    gil = "Gil <gil@example.org>"
    site.new_campaign("bus", "bus1", [], seed=1, seats=3, settings={"language": "de"}, gm=gil)
    boxes = Mailboxes(site)
    boxes.deliver(person_mail(ANN, site.identity.address, "hi", "join bus1 as Ann"))
    run_tick(site)
    boxes.new()
    to_gm = site.identity.plus("bus1", site.campaign("bus1").gm.token)
    boxes.deliver(person_mail(gil, to_gm, "gm", "language en"))
    run_tick(site)
    [chosen] = boxes.new("gil@example.org")  # answered in the language chosen
    assert "Your mail is written in English from now on." in text_of(chosen)
    assert chosen["Content-Language"] == "en"
    boxes.deliver(person_mail(gil, to_gm, "gm", "replace Ann with Fay <fay@example.org>"))
    run_tick(site)
    [fay], [ann], [answer] = (boxes.new(f"{n}@example.org") for n in ("fay", "ann", "gil"))
    assert (fay["Content-Language"], ann["Content-Language"]) == ("de", "de")
    assert "Fay" in text_of(fay) and english_in(text_of(ann)) == [], text_of(ann)
    assert answer["Content-Language"] == "en"
