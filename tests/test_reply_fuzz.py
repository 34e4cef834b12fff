"""The reading of a reply by what the referee sent, fuzzed (issue 34, item 1): a real prompt
the referee mailed, quoted by Hypothesis in every way mail programs quote (marked with ">",
">>" or not at all, indented, wrapped again at any width, even inside words, under an
attribution or a block of header labels in words of any script, stacked or not, below a
separator), with the player's lines above it (and below a marked quote): the offered lines
the player copied, orders as any keyboard typed them, and remarks. What is read is exactly
the player's lines, whatever the quote; and nothing of the quote is read."""

from __future__ import annotations

import textwrap

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from reply_shapes import BOB, ORDERS, bobs_prompt, offered

from referee.mail.read import INVISIBLE, Answered, answered_mail, read_text
from referee.mailbot import choices_in

pytestmark = pytest.mark.slow  # a game started to take its prompt; Hypothesis


@pytest.fixture(scope="module")
def prompt(tmp_path_factory):
    site, prompt = bobs_prompt(tmp_path_factory.mktemp("fuzz"))
    raw = site.post.sent_mail(prompt.message_id)
    assert raw is not None and choices_in(prompt.plain)
    return prompt, Against(answered_mail(raw))


class Against:
    """The referee's mail a reply is read against (shown short when Hypothesis tells)."""

    def __init__(self, answered: Answered):
        self.answered = answered

    def __repr__(self) -> str:
        return "Against(the prompt)"


# words of any script, as a label or an attribution's words may be: letters only
SCRIPTS = [
    (0x41, 0x5A), (0x61, 0x7A), (0xC0, 0x17F), (0x391, 0x3C9), (0x410, 0x44F), (0x531, 0x556),
    (0x5D0, 0x5EA), (0x627, 0x64A), (0x905, 0x939), (0x995, 0x9B9), (0xE01, 0xE2E),
    (0x10D0, 0x10F0), (0x3041, 0x3096), (0x4E00, 0x4FFF), (0xAC00, 0xAD00),
]  # fmt: skip
LETTER = st.sampled_from(SCRIPTS).flatmap(lambda r: st.integers(*r)).map(chr)
WORD = st.text(LETTER, min_size=1, max_size=10)
WORDS = st.lists(WORD, min_size=1, max_size=4).map(" ".join)
REMARK = st.lists(WORD, min_size=2, max_size=6).map(" ".join)  # a player's own words


@st.composite
def player_lines(draw, prompt) -> list[str]:
    """What a player writes: orders they copied, orders as they typed them, remarks."""
    typed = [line for lines, _ in ORDERS for line in lines]
    line = st.one_of(st.sampled_from(offered(prompt)), st.sampled_from(typed), REMARK)
    return draw(st.lists(line, min_size=1, max_size=4))


@st.composite
def quote(draw, prompt) -> tuple[str, bool]:
    """The referee's mail (all of it, or its first paragraphs) as a mail program puts it in
    a reply, and whether it is marked as quoted."""
    paragraphs = prompt.plain.split("\n\n")
    text = "\n\n".join(paragraphs[: draw(st.integers(2, len(paragraphs)))])
    if draw(st.booleans()):
        width = draw(st.integers(30, 78))
        long_words = draw(st.booleans())  # some programs cut a word longer than the line
        text = "\n".join(
            "\n".join(
                textwrap.wrap(line, width, break_long_words=long_words, break_on_hyphens=False)
            )
            if len(line) > width
            else line
            for line in text.split("\n")
        )
    mark = draw(st.sampled_from(["> ", ">", ">> ", "> > ", "", "   "]))
    if mark:
        text = "\n".join(f"{mark}{line}".rstrip() for line in text.split("\n"))
    return text, mark.startswith(">")


@st.composite
def above(draw, prompt) -> str:
    """What a mail program writes above the quote: nothing, an attribution, or a block of
    header labels (stacked or not) in words of any script, maybe under a separator."""
    kind = draw(st.sampled_from(["none", "attribution", "header", "stacked"]))
    labels = draw(st.lists(WORDS, min_size=4, max_size=4))
    values = [prompt.sender, "03.06.2024 09:00", BOB, prompt.subject]
    if kind == "attribution":
        lines = [f"{draw(WORDS)} 3.6.2024 09:00 {prompt.sender} {draw(WORDS)}:"]
    elif kind == "header":
        lines = [f"{label}: {value}" for label, value in zip(labels, values)]
    elif kind == "stacked":
        lines = [values[0], values[1], "", labels[2], values[2], "", labels[3], values[3]]
    else:
        lines = []
    if lines and draw(st.booleans()):
        lines.insert(0, draw(st.sampled_from(["_" * 32, f"-------- {draw(WORDS)} --------"])))
    return "\n".join(lines)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_the_players_lines_and_only_they_are_read_however_the_quote_is_made(prompt, data):
    prompt, against = prompt
    top = data.draw(player_lines(prompt))
    quoted, marked = data.draw(quote(prompt))
    bottom = data.draw(player_lines(prompt)) if marked and data.draw(st.booleans()) else []
    reply = "\n".join(top) + "\n\n" + data.draw(above(prompt)) + "\n\n" + quoted
    if bottom:
        reply += "\n\n" + "\n".join(bottom)
    kept, _ = read_text(reply, against.answered)
    written = [s.translate(INVISIBLE).strip() for s in top + bottom]  # as read_text reads them
    assert [s.strip() for s in kept.split("\n") if s.strip()] == written
