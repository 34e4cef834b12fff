"""Every kind of mail on a phone's screen (issue 36, "Done when"): whole games of Bus and of
Bus Boss by mail, with everything that makes a mail of its own (a missed deadline, a pause,
an extension, a replacement, a drop, press, an observer let in and shut out, a damaged
snapshot), and a sample of each kind's mails shown in headless Chromium as a phone of 320
and of 390 CSS px shows them: nothing is wider than the screen (no sideways scrolling), a
decision starts on the first screen (844 px) and the map within the first two.

A mail with an HTML part is shown by it, its inline map in place; a plain mail as a phone's
mail program shows one: its format=flowed paragraphs joined and wrapped to the screen."""

from __future__ import annotations

import base64
import html
import json
import re
from collections import defaultdict

import pytest
from browser import browser_or_skip
from sites import confirmation_reply, person_mail, text_of
from test_whole_games_told import played

from referee.words.mails import started_notice

pytestmark = pytest.mark.slow  # two whole games, and a browser

# each game, and Bus Boss in German too (its words are the longest: the map's tables, the
# help), played whole by mail
GAMES = ("bus", "busboss", "busboss:de")
WIDTHS = (320, 390)
SCREEN = 844  # the CSS height of a phone's screen (an iPhone 14's)
OLA = "Ola <ola@example.org>"  # who comes to observe

# The page's width against the screen's, and where the decision and the map start.
MEASURE = """(() => {
  const top = node => node ? node.getBoundingClientRect().top + scrollY : null;
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  let decision = null;
  while (walker.nextNode()) {
    if (/your decision:|deine entscheidung:/i.test(walker.currentNode.textContent)) {
      const range = document.createRange();
      range.selectNodeContents(walker.currentNode);
      decision = range.getBoundingClientRect().top + scrollY;
      break;
    }
  }
  const de = document.documentElement;
  return {screen: innerWidth, page: Math.max(de.scrollWidth, document.body.scrollWidth),
          decision: decision, map: top(document.images[0]),
          images: Array.from(document.images).map(i => i.complete && i.naturalWidth > 0)};
})()"""

KINDS = {
    # a player's mails, by the word of their Message-ID
    "welcome",
    "digest",
    "confirm",
    "told",
    "reminder",
    "dropped",
    "press",
    "replaced",
    "unobserved",
    "observed",
    # the game master's
    "gm-welcome",
    "gm",
}
GM_NOTICES = {"started", "missed", "over", "snapshot"}  # the game master's notices ("gm")


def kind_of(msg) -> tuple[str, str]:
    """The kind of a referee's mail, and for the game master's notices which: the word after
    its campaign's id and incarnation in its Message-ID (a notice outside the game, as to
    one who asks to observe it, its first word)."""
    parts = str(msg["Message-ID"]).strip("<>").partition("@")[0].split(".")
    if parts[0] != "g1":
        return parts[0], ""
    kind = "reminder" if parts[2] == "moved" else parts[2]
    return kind, parts[3] if kind == "gm" else ""


def page_of(msg) -> str:
    """The mail as a phone shows it: its HTML, the inline map in place; or its plain text,
    its flowed paragraphs joined and wrapped to the screen, as a phone's mail programs show
    plain text (pre-wrap, a word longer than the screen broken)."""
    part = msg.get_body(("html",))
    if part is not None:
        page = part.get_content()
        for image in msg.walk():
            if image.get_content_type() == "image/png":
                data = base64.b64encode(image.get_content()).decode()
                cid = image["Content-ID"].strip("<>")
                page = page.replace(f"cid:{cid}", f"data:image/png;base64,{data}")
        return page
    return (
        '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" '
        'content="width=device-width, initial-scale=1"><title>mail</title></head>'
        '<body style="margin: 8px;"><div style="white-space: pre-wrap; '
        f'overflow-wrap: break-word; font-family: sans-serif;">{html.escape(text_of(msg))}'
        "</div></body></html>"
    )


def more() -> dict:
    """What the whole game adds to the played script: press, an observer, a damaged
    snapshot."""

    def press(t):
        seat = t.site.campaign("g1").players[0]
        to = t.site.identity.plus("g1", seat.token)
        t.boxes.deliver(person_mail(seat.address, to, "news", "message all Good luck, all!"))

    def ask(t):
        t.boxes.deliver(person_mail(OLA, t.site.identity.address, "observe", "observe g1"))

    def confirm(t):
        asked = [m for _, m in t.seen if "ola@example.org" in str(m["To"])]
        t.boxes.deliver(confirmation_reply(asked, OLA))

    def damage(t):
        (t.site.campaign("g1").root / "snapshot.json").write_text("{damaged")

    return {
        3: lambda t: t.gm("observers on"),
        4: ask,
        5: confirm,
        6: press,
        8: damage,
        27: lambda t: t.gm("observers off"),
    }


@pytest.fixture(scope="module")
def mails(tmp_path_factory) -> dict[str, list]:
    """Each game's mails, by kind."""
    found = {}
    for game in GAMES:
        name, _, language = game.partition(":")
        t = played(tmp_path_factory.mktemp(name), name, more(), language or "en")
        by_kind = defaultdict(list)
        assert {str(msg["Content-Language"]) for _, msg in t.seen} == {language or "en"}
        for _, msg in t.seen:
            by_kind[kind_of(msg)].append(msg)
        # a game opened for sign-up tells its game master when it starts; this one started
        # at once: its notice, as it would have been
        table = t.site.campaign("g1").table()
        by_kind["gm", "started"].append(started_notice(t.site.identity, table))
        found[game] = by_kind
    return found


@pytest.fixture(scope="module")
def browser():
    with browser_or_skip(width=WIDTHS[0], height=SCREEN) as chromium:
        yield chromium


def sample(msgs: list) -> list:
    """Of a kind's mails, the first, the largest and the last (the largest: the longest
    list of choices, the longest answer)."""
    largest = max(msgs, key=lambda m: len(m.as_bytes()))
    return list({id(m): m for m in (msgs[0], largest, msgs[-1])}.values())


@pytest.mark.parametrize("game", GAMES)
def test_every_kind_of_mail_fits_a_phones_screen_decision_first(mails, browser, game, tmp_path):
    kinds = mails[game]
    assert {k for k, _ in kinds} >= KINDS, sorted(kinds)
    assert {which for k, which in kinds if k == "gm"} >= GM_NOTICES, sorted(kinds)
    wrong = []
    for width in WIDTHS:
        browser.width = width
        for (kind, which), msgs in sorted(kinds.items()):
            for n, msg in enumerate(sample(msgs)):
                path = tmp_path / f"{kind}-{which}-{n}-{width}.html"
                path.write_text(page_of(msg), encoding="utf-8")
                page = browser.load(path.as_uri(), MEASURE, phone=True)
                facts = page.facts
                name = f"{width} px: {kind} {which} {msg['Subject']}"
                if page.errors or not all(facts["images"]):
                    wrong.append((name, page.errors, facts["images"]))
                if facts["screen"] != width or facts["page"] > width:
                    wrong.append((name, "sideways", facts["screen"], facts["page"]))
                asks = "YOUR DECISION:" in text_of(msg) or "DEINE ENTSCHEIDUNG:" in text_of(msg)
                if asks and not (0 <= facts["decision"] < SCREEN):
                    wrong.append((name, "decision at", facts["decision"]))
                if msg.get_body(("html",)) is not None and not facts["map"] < 2 * SCREEN:
                    wrong.append((name, "map at", facts["map"]))
    assert not wrong, json.dumps(wrong, indent=1, default=str)


def test_a_reports_html_has_the_short_choices_each_a_block_of_its_own_before_the_map(mails):
    """Each line to copy a block of its own: the short form of the choices, as the plain
    text offers it, before the map; every choice, one a block, after the standings."""
    [digest, *_] = [
        m
        for m in mails["busboss"]["digest", ""]
        if "YOUR DECISION:" in text_of(m) and m.get_body(("html",)) is not None
    ]
    page = digest.get_body(("html",)).get_content()
    before, image, after = page.partition("<img")
    short = [html.unescape(line) for line in re.findall(r"<div>([^<]*)</div>", before)]
    text = text_of(digest)
    assert image and len(short) > 3
    assert all(f"    {line}\n" in text for line in short if not line.startswith("#"))
    assert "Every choice, one a line, is listed at the end of this mail." in before
    standings, _, last = after.partition("All your choices, one a line:")
    every = [html.unescape(line) for line in re.findall(r"<div>([^<]*)</div>", last)]
    assert "Standings" in standings and "<div>" not in standings
    assert len(every) > len(short)  # the short form groups them


# Each line of a block (the standings, an answer, the history) wrapped on the screen: where
# its first and its last line box start, beside where the block's lines start and the
# indent it hangs by.
HANGING = """(() => Array.from(document.querySelectorAll('div[style*="text-indent"]'))
  .map(div => {
    const range = document.createRange();
    range.selectNodeContents(div);
    const rects = Array.from(range.getClientRects());
    const left = div.getBoundingClientRect().left;
    return {text: div.textContent, lines: new Set(rects.map(r => r.top)).size,
            first: rects[0].left - left, last: rects[rects.length - 1].left - left,
            hang: parseFloat(getComputedStyle(div).paddingLeft)};
  }))()"""


def test_a_wrapped_standing_goes_on_under_its_players_name_not_at_the_screens_edge(
    mails, browser, tmp_path
):
    """Bus's standings are longer than a phone's line: each player's goes on two columns in
    from their name (a hanging indent), so that the names stand out in a column."""
    digest = next(m for m in mails["bus"]["digest", ""] if m.get_body(("html",)) is not None)
    browser.width = WIDTHS[0]
    path = tmp_path / "standings.html"
    path.write_text(page_of(digest), encoding="utf-8")
    lines = browser.load(path.as_uri(), f"({{lines: {HANGING}}})", phone=True).facts["lines"]
    standings = [line for line in lines if re.match(r"\s+\S+\s+\d+\s+\(", line["text"])]
    wrapped = [line for line in standings if line["lines"] > 1]
    assert wrapped, standings
    for line in wrapped:
        # the first line box starts at the block's edge (its own spaces then indent the
        # name); the next ones under the name, two columns in
        assert line["first"] < 1 and line["last"] == pytest.approx(line["hang"], abs=1), line
        assert line["hang"] > 3 * 7  # four columns of a monospace font
