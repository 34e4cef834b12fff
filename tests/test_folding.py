"""What keyboards and phones type, folded before orders and commands are read (issue 34,
item 2): full-width text from a Japanese input method, any script's digits, Turkish capitals,
soft hyphens and zero-width characters, any dash or the minus sign; and format=flowed text
(RFC 3676) decoded as it comes in."""

from __future__ import annotations

import unicodedata

from hypothesis import given, settings
from hypothesis import strategies as st

from referee.bus.engine import RULES
from referee.mail.read import fold, read_mail, unflowed
from referee.service.commands import split, verb
from referee.service.play import read_orders, reads_as_order

REFEREE = "referee@example.org"


def test_what_keyboards_type_folds_to_the_order():
    assert fold("ｂｕｉｌｄ　ｈｏｕｓｅ　１５") == "build house 15"  # a Japanese input method
    assert fold("build house ١٥") == "build house 15"  # Arabic-Indic digits
    assert fold("line ۱۵-۲۱") == "line 15-21"  # Persian digits
    assert fold("build house १५") == "build house 15"  # Devanagari
    assert fold("BUİLD HOUSE 15") == "build house 15"  # a Turkish keyboard's capitals
    assert fold("bu\u00adild house 15") == "build house 15"  # a soft hyphen
    assert fold("build\u200b house\u2060 15\ufeff") == "build house 15"  # zero-width
    for dash in "\u2010\u2011\u2012\u2013\u2014\u2015\u2212\ufe63\uff0d\u301c":
        assert fold(f"line 1{dash}2") == "line 1-2", hex(ord(dash))
    assert fold("passengers 11：2 26：1") == "passengers 11:2 26:1"  # full-width colons
    assert fold("STRASSE") == fold("Straße") == "strasse"  # case folded, not only lowered


def test_folded_orders_are_read_and_the_lines_told_as_written():
    lines = ["ｂｕｉｌｄ　ｈｏｕｓｅ　１５", "LİNE ١٥–٢١", "ｖｒｏｏｍ １５ ｔｏ ２１"]
    lines.append("Ｂｉｕｌｄ pub 21")
    reading = read_orders(RULES, lines)
    assert reading.entries == ["build house 15", "line 15-21", "vroom 15 to 21"]
    # a near miss is told with its suggestion, the line as the player wrote it
    assert reading.errors == [("Ｂｉｕｌｄ pub 21", "not an order: did you mean 'build pub 21'?")]


def test_a_command_word_is_folded_and_its_text_kept_as_written():
    assert verb("ＳＴＡＴＵＳ") == ("status", "")
    assert verb("Hİstory　turn 3") == ("history", "turn 3")
    lines = ["ＭＥＳＳＡＧＥ all Ｈｅｌｌｏ — see you", "ｐａｓｓ"]
    commands, orders = split(lines, False, lambda line: reads_as_order(RULES, line))
    assert [(c.word, c.rest) for c in commands] == [("message", "all Ｈｅｌｌｏ — see you")]
    assert orders == ["ｐａｓｓ"]  # folded when the game reads it


# -- format=flowed -------------------------------------------------------------------------


def flowed_mail(body: str, delsp: bool) -> bytes:
    kind = "text/plain; charset=utf-8; format=flowed" + ("; delsp=yes" if delsp else "")
    return (
        f"From: Bob <bob@example.org>\nTo: {REFEREE}\nSubject: Re: [bus1] Round 3\n"
        f"Message-ID: <flowed@example.org>\nMIME-Version: 1.0\nContent-Type: {kind}\n"
        "Content-Transfer-Encoding: 8bit\n\n"
    ).encode() + body.encode()


def test_format_flowed_is_decoded():
    body = "message all I will build near the station and then \nlay my line.\nline 15-21\n"
    assert read_mail(flowed_mail(body, False), REFEREE).text == (
        "message all I will build near the station and then lay my line.\nline 15-21"
    )
    # delsp=yes: the space before the soft break is no part of the text (a word cut in two)
    body = "line 15-2 \n1\n From here on\n"
    assert read_mail(flowed_mail(body, True), REFEREE).text == "line 15-21\nFrom here on"


def test_flowed_quotes_keep_their_depth_and_end_with_it():
    text = "build house 15\n> YOUR DECISION: First \n> buildings\n>> older \n> again\n-- \nBob"
    assert unflowed(text) == (
        "build house 15\n> YOUR DECISION: First buildings\n>> older \n> again\n-- \nBob"
    )


def test_a_mail_not_flowed_keeps_its_trailing_spaces_as_line_ends():
    raw = flowed_mail("build house 15 \nline 15-21\n", False).replace(b"; format=flowed", b"")
    assert read_mail(raw, REFEREE).text == "build house 15\nline 15-21"


# -- any keyboard, any order ---------------------------------------------------------------

ORDERS = ["build house 15", "line 15-21", "action vroom", "pass", "passengers 11:2 26:1"]
DASHES = ["\u2212"]
DIGITS: dict[int, list[str]] = {d: [] for d in range(10)}
for char in map(chr, range(0x20000)):  # the planes where scripts keep their digits
    kind = unicodedata.category(char)
    if kind == "Pd":
        DASHES.append(char)
    elif kind == "Nd":
        DIGITS[unicodedata.decimal(char)].append(char)
INVISIBLE = ["\u00ad", "\u200b", "\u200c", "\u200d", "\u2060", "\ufeff", "\u200e", "\u200f"]


@st.composite
def typed(draw, order: str) -> str:
    """``order`` as some keyboard typed it: each character full width or not, upper case
    (a Turkish i as İ), digits of any script, any dash, invisible characters between."""
    out = []
    for char in order:
        if char.isdigit():
            char = draw(st.sampled_from(DIGITS[int(char)]))
        elif char == "-":
            char = draw(st.sampled_from(DASHES))
        elif char.isalpha() and draw(st.booleans()):
            char = "İ" if char == "i" and draw(st.booleans()) else char.upper()
        if draw(st.booleans()) and 0x21 <= ord(char) <= 0x7E:
            char = chr(ord(char) + 0xFEE0)  # full width
        elif char == " " and draw(st.booleans()):
            char = draw(st.sampled_from(["\u3000", "\u00a0", "\u2009"]))
        out.append(char + "".join(draw(st.lists(st.sampled_from(INVISIBLE), max_size=2))))
    return "".join(out)


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(ORDERS).flatmap(lambda o: st.tuples(st.just(o), typed(o))))
def test_any_keyboard_folds_to_the_order_and_the_game_reads_it(case):
    order, written = case
    assert fold(written) == order
    assert read_orders(RULES, [written]).entries == read_orders(RULES, [order]).entries


@settings(max_examples=300, deadline=None)
@given(st.text())
def test_folded_text_holds_only_ascii_digits_one_dash_and_nothing_invisible(text):
    folded = fold(text)
    assert fold(folded) == folded  # folding again changes nothing
    for char in folded:
        kind = unicodedata.category(char)
        assert kind != "Cf" and (kind != "Pd" or char == "-") and (kind != "Nd" or char.isascii())
