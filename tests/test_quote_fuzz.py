"""Reading what a person wrote, fuzzed (issue 22, item 1): any text, any HTML and any bytes
are read without an error, and every line that is not read is accounted for in what the
mail's answer says was set aside: nothing is dropped silently."""

from __future__ import annotations

from importlib import resources

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.mail.read import INVISIBLE, html_to_text, markers, read_mail, read_text

# Hypothesis over any mail text: left out of --fast
pytestmark = pytest.mark.slow

REFEREE = "referee@example.org"
MARKS = yaml.safe_load(resources.files("referee.mail").joinpath("quoting.yaml").read_text("utf-8"))

# lines that look like the quote marks of mail programs, beside orders and anything at all
PIECES = [
    *(f"{w}: Referee <{REFEREE}>" for w in MARKS["header_from"][:12]),
    *(f"{w}: Monday, 3 June 2024 09:00" for w in MARKS["header_sent"][:12]),
    *(f"{w}: [bus1] Round 3" for w in MARKS["header_other"][:12]),
    *(f"On Mon, 3 Jun 2024, Referee <{REFEREE}> {w}:" for w in MARKS["wrote"][:12]),
    *(f"-------- {w} --------" for w in MARKS["separators"][:8]),
    *(f"{w} iPhone" for w in MARKS["mobile_footers"][:6]),
    f"2024年6月3日(月) 9:00 Referee <{REFEREE}>:",
    "> YOUR DECISION: First buildings",
    ">",
    "> > build house 11",
    "-- ",
    "--",
    "________________________________",
    "build house 15",
    "line 15-21",
    "message all hello there ",
    "YOUR DECISION: First buildings",
    "",
    " ",
    "\u00a0",
    "\u200f",
]
LINE = st.one_of(st.sampled_from(PIECES), st.text(max_size=40))
TEXT = st.lists(LINE, max_size=30).map("\n".join)


def meaningful(line: str) -> str:
    return line.translate(INVISIBLE).strip().lstrip("> ").strip()


def check_accounted(text: str) -> None:
    kept, aside = read_text(text)
    assert all(a.count >= 1 and a.kind in ("quoted", "quote", "signature", "footer") for a in aside)
    dropped = [s for s in map(meaningful, text.split("\n")) if s and s not in kept]
    assert sum(a.count for a in aside) >= len(dropped), (dropped, aside)


@settings(max_examples=300, deadline=None)
@given(TEXT)
def test_any_text_is_read_and_what_is_not_read_is_set_aside_and_counted(text):
    check_accounted(text)


@settings(max_examples=200, deadline=None)
@given(st.text())
def test_any_unicode_at_all(text):
    check_accounted(text)


HTML_PIECES = [
    "<div>",
    "</div>",
    "<blockquote>",
    "</blockquote>",
    '<div class="gmail_quote">',
    '<div name="quote">',
    '<div id="divRplyFwdMsg">',
    '<div id="appendonsend"></div>',
    "<br>",
    "<br/>",
    "<p>",
    "</p>",
    "<pre>",
    "</pre>",
    "<script>",
    "</span>",
    "<b>Von:</b>&nbsp;x",
    "build house 15",
    "&lt;",
    "<!--",
    "<",
    "\n",
]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.one_of(st.sampled_from(HTML_PIECES), st.text(max_size=20)), max_size=40))
def test_any_html_is_read(pieces):
    html = "".join(pieces)
    check_accounted(html_to_text(html))


@settings(max_examples=200, deadline=None)
@given(
    TEXT,
    st.sampled_from(["utf-8", "iso-8859-1", "koi8-r", "shift_jis", "x-unknown", "utf-16"]),
    st.sampled_from(["8bit", "base64", "quoted-printable", "x-bogus"]),
    st.sampled_from(["plain", "html"]),
)
def test_any_mail_body_is_read_in_any_charset_and_encoding(text, charset, cte, subtype):
    body = text.encode("utf-8", "surrogatepass")
    raw = (
        f"From: Bob <bob@example.org>\nTo: {REFEREE}\nSubject: x\nMessage-ID: <f@x>\n"
        f"MIME-Version: 1.0\nContent-Type: text/{subtype}; charset={charset}\n"
        f"Content-Transfer-Encoding: {cte}\n\n"
    ).encode() + body
    incoming = read_mail(raw, REFEREE)
    assert incoming.unreadable is None and incoming.automatic is None
    if subtype == "plain" and charset == "utf-8" and cte == "8bit":
        # what was read is what read_text keeps of the body, and the rest is set aside
        assert (incoming.text, incoming.set_aside) == read_text(
            text.replace("\r\n", "\n").replace("\r", "\n")
        )


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=2000))
def test_any_bytes_are_read(raw):
    incoming = read_mail(raw, REFEREE)
    assert isinstance(incoming.text, str)
    assert all(a.count >= 1 for a in incoming.set_aside)


def test_the_quote_marks_are_read_from_their_data_file():
    marks = markers()
    assert marks.attribution(f"Referee <{REFEREE}> 于2024年6月3日周一 09:00写道：")
    assert marks.label("差出人： Referee") == "from" and marks.label("Gesendet: Mo") == "sent"
    assert ("id", "divrplyfwdmsg") in marks.html_cut
