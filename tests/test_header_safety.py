"""Nothing a stranger writes reaches a header (issue 22, item 2): a name is decoded once
where it comes in, checked, kept as plain Unicode and encoded by the email package on the
way out; every mail the referee composes parses back to exactly the headers it meant."""

from __future__ import annotations

import base64
import quopri
from email import policy
from email.parser import BytesParser

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sites import Mailboxes, make_site, person_mail, run_tick, text_of

from referee.mail.compose import compose
from referee.mail.headers import header_text, message_id_or_none, plain_address
from referee.mail.read import read_mail
from referee.service.commands.base import checked_name
from referee.settings.checks import NAME_MOST
from referee.store.campaign import CampaignError

# Hypothesis over every header, and ticks: left out of --fast
pytestmark = pytest.mark.slow

REFEREE = "referee@example.org"
EVE = "=?utf-8?q?Eve=0D=0AReply-To=3A_eve=40evil=2Eexample?="


def open_game(tmp_path):
    site = make_site(tmp_path)
    site.new_campaign("bus", "open1", [], seats=3, gm="Gil <gil@example.org>")
    boxes = Mailboxes(site)
    for who in ("ann", "bob"):
        boxes.deliver(person_mail(f"{who}@example.org", REFEREE, "join", f"join open1 as {who}"))
    run_tick(site)
    boxes.new()
    return site, boxes


def every_header(boxes) -> list[tuple[str, str]]:
    return [(k, str(v)) for m in boxes.sent() for k, v in m.items()]


def test_a_name_that_decodes_to_a_line_break_is_refused_and_never_reaches_a_header(tmp_path):
    site, boxes = open_game(tmp_path)
    boxes.deliver(person_mail("eve@example.org", REFEREE, "join", f"join open1 as {EVE}"))
    run_tick(site)
    campaign = site.campaign("open1")
    seat = campaign.seat_of_address("eve@example.org")
    token = "none" if seat is None else campaign.players[seat].token
    boxes.deliver(
        person_mail("eve@example.org", site.identity.plus("open1", token), "hi", "message all hi")
    )
    run_tick(site)
    headers = every_header(boxes)
    assert not [(k, v) for k, v in headers if "evil" in v], headers
    assert all(list(m.keys()).count("Reply-To") <= 1 for m in boxes.sent())
    assert seat is None  # no seat taken, and Eve is told why
    told = [" ".join(text_of(m).split()) for m in boxes.new("eve@example.org")]
    assert any("a name may not hold a line break" in text for text in told), told


def test_a_name_that_turns_the_direction_of_the_text_is_refused(tmp_path):
    """A right-to-left override in a name (from the From header: a command line loses it
    as it is read) turned the rest of each report line that named the player around
    ("Eve\u202eboB" reads as "EveBob"), and could pass one player for another; an isolate
    or an embedding does the same. campaign.yaml is held to it too."""
    site, boxes = open_game(tmp_path)
    for control in ("\u202e", "\u2067", "\u202b"):
        sender = f"Eve{control}boB <eve@example.org>"
        boxes.deliver(person_mail(sender, REFEREE, "join", "join open1"))
    run_tick(site)
    assert site.campaign("open1").seat_of_address("eve@example.org") is None
    told = [" ".join(text_of(m).split()) for m in boxes.new("eve@example.org")]
    assert len(told) == 3 and all("a direction override" in text for text in told), told
    with pytest.raises(CampaignError, match="a direction override"):
        checked_name("Eve\u202eboB")
    path = site.data_root / "open1" / "campaign.yaml"
    path.write_text(path.read_text().replace("name: ann", 'name: "ann\\u202e"'))
    with pytest.raises(CampaignError, match=r"players\[0\]\.name: .* a direction override"):
        site.campaign("open1")


def test_a_name_in_encoded_words_is_decoded_once_and_relayed_as_written(tmp_path):
    site, boxes = open_game(tmp_path)
    name = "=?utf-8?q?J=C3=BCrgen_=3D=3Futf-8=3Fq=3FX=3F=3D?="  # decodes to an encoded word
    boxes.deliver(person_mail("jo@example.org", REFEREE, "join", f"join open1 as {name}"))
    boxes.deliver(
        person_mail("jo@example.org", REFEREE, "join", "join open1 as =?utf-8?q?J=C3=BCrgen?=")
    )
    run_tick(site)
    campaign = site.campaign("open1")
    assert [p.name for p in campaign.players] == ["ann", "bob", "Jürgen"]
    first, welcome = boxes.new("jo@example.org")[:2]
    assert "encoded word" in " ".join(text_of(first).split())  # the first join, refused
    jo = campaign.players[2]
    boxes.deliver(
        person_mail("jo@example.org", site.identity.plus("open1", jo.token), "hi", "message all hi")
    )
    run_tick(site)
    relayed = [m for m in boxes.new("ann@example.org") if "Message from" in str(m["Subject"])]
    assert [str(m["Subject"]) for m in relayed] == ["[open1] Message from Jürgen"]


def test_a_name_from_the_from_header_is_checked_as_one_written_in_the_mail(tmp_path):
    site, boxes = open_game(tmp_path)
    twice = "=?utf-8?b?" + base64.b64encode(EVE.encode()).decode() + "?="
    boxes.deliver(person_mail(f"{twice} <eve@example.org>", REFEREE, "join", "join open1"))
    run_tick(site)
    assert len(site.campaign("open1").players) == 2
    (answer,) = boxes.new("eve@example.org")
    assert "encoded word" in " ".join(text_of(answer).split())


# --- the fuzz ------------------------------------------------------------------------------

BREAKS = ["\r\n", "\n", "\r", "\x0b", "\x0c", "\x1c", "\x85", "\u2028", "\u2029", "\x00", "\t"]
CHARSETS = ["utf-8", "iso-8859-1", "utf-16", "windows-1252", "x-unknown"]


def encoded_word(text: str, charset: str, b: bool) -> str:
    """``text`` as one RFC 2047 encoded word in ``charset`` (B or Q), however odd."""
    data = text.encode("utf-8" if charset == "x-unknown" else charset, "replace")
    if b:
        return f"=?{charset}?b?{base64.b64encode(data).decode()}?="
    q = quopri.encodestring(data, header=True).decode().replace("=\n", "")
    return f"=?{charset}?q?{q.replace('?', '=3F')}?="


pieces = st.one_of(
    st.text(max_size=12),
    st.sampled_from(BREAKS),
    st.sampled_from(['"', "\\", "<", ">", ",", ";", ":", "@", "(", ")", "=?", "?=", " ", "  "]),
    st.sampled_from(["Reply-To: eve@evil.example", "Bcc: x@evil.example", "Auto-Submitted: no"]),
    st.text(alphabet="abcdefghij", min_size=70, max_size=200),  # a word to fold
)


@st.composite
def person_texts(draw) -> str:
    """Text as a hostile sender writes it: pieces, some of them in encoded words (one or
    two deep) in every charset and both encodings."""
    parts = []
    for piece in draw(st.lists(pieces, min_size=1, max_size=6)):
        for _ in range(draw(st.integers(0, 2))):
            piece = encoded_word(piece, draw(st.sampled_from(CHARSETS)), draw(st.booleans()))
        parts.append(piece)
    return draw(st.sampled_from(["", " "])).join(parts)


def parsed(msg):
    return BytesParser(policy=policy.default).parsebytes(msg.as_bytes())


HEADERS = ["From", "To", "Cc", "Reply-To", "Subject", "Date", "Message-ID"]
FUZZ = settings(max_examples=200, deadline=None)


@FUZZ
@given(
    name=person_texts(),
    subject=person_texts(),
    sender=st.one_of(person_texts(), st.just("dan@example.net")),
    mid=st.one_of(
        person_texts(),
        st.just("<a.b@example.net>"),
        st.from_regex(r"<[!-~]{1,20}@[!-~]{1,20}>", fullmatch=True),
    ),
)
def test_every_mail_parses_back_to_exactly_the_headers_the_referee_meant(
    name, subject, sender, mid
):
    """A name, a subject, a sender's address (the Cc of an answer to another address) and a
    Message-ID (In-Reply-To, References), as hostile as they come: the name is taken as
    the referee takes one (decoded once, checked) or refused; what is written parses back
    to itself, and no header is added, lost or doubled."""
    try:
        taken = checked_name(name)
    except CampaignError as err:
        assert str(err)  # refused, with the reason
        taken = None
    if taken is not None:
        assert len(taken) <= NAME_MOST and header_text(taken) == taken  # written as it is
    shown = taken or "Ann"
    msg = compose(
        from_address=REFEREE,
        from_name="Referee",
        to=[(shown, "ann@example.org")],
        cc=[sender],
        reply_to="referee+bus1.abcdefgh@example.org",
        subject=f"[bus1] Message from {shown}: {subject}",
        text="hello\n",
        message_id="<bus1.press.1@example.org>",
        in_reply_to=mid,
    )
    back = parsed(msg)
    cc = plain_address(sender)
    threaded = message_id_or_none(mid) is not None
    meant = HEADERS[:2] + ["Cc"] * cc + HEADERS[3:]
    meant += ["In-Reply-To", "References"] * threaded + ["Auto-Submitted", "X-Referee"]
    assert [k for k in back if k not in ("Content-Type", "Content-Transfer-Encoding")][
        : len(meant) + 1
    ] == [*meant, "MIME-Version"]
    (to,) = back["To"].addresses
    assert (to.display_name, to.addr_spec) == (shown, "ann@example.org")
    assert str(back["Subject"]) == header_text(f"[bus1] Message from {shown}: {subject}")
    assert str(back["Reply-To"]) == "referee+bus1.abcdefgh@example.org"
    assert str(back["Auto-Submitted"]) == "auto-replied"
    if cc:
        assert [a.addr_spec for a in back["Cc"].addresses] == [sender]
    if threaded:
        assert str(back["In-Reply-To"]) == mid == str(back["References"])
    assert back.get_content() == "hello\n"


@FUZZ
@given(display=person_texts())
def test_a_from_header_gives_a_name_taken_as_it_is_or_refused(display):
    """The sender's name as the referee reads it from a From header (decoded once by the
    email package), taken as a player's name: refused with a reason, or written back into a
    header exactly."""
    raw = (
        f"From: {header_text(display)} <dan@example.net>\r\nTo: {REFEREE}\r\n"
        "Message-ID: <x@example.net>\r\n\r\njoin open1\r\n"
    ).encode("utf-8", "surrogateescape")
    mail = read_mail(raw, REFEREE)
    try:
        taken = checked_name(mail.sender_name or "dan")
    except CampaignError:
        return
    msg = compose(
        from_address=REFEREE,
        from_name="Referee",
        to=[(taken, "dan@example.net")],
        subject=f"Welcome, {taken}",
        text="hello\n",
    )
    back = parsed(msg)
    assert back["To"].addresses[0].display_name == taken
    assert str(back["Subject"]).lstrip() == f"Welcome, {taken}"
    assert len(back.get_all("To")) == 1 and back.get("Reply-To") is None


def test_a_recipient_the_referee_cannot_write_to_is_left_out_or_refused():
    def mail(to):
        return compose(from_address=REFEREE, from_name="R", to=to, subject="s", text="x\n")

    back = parsed(mail(["gm@example.org", "=?utf-8?q?a=0D=0ABcc=3A_x?=@example.org"]))
    assert [a.addr_spec for a in back["To"].addresses] == ["gm@example.org"]
    assert back.get("Bcc") is None
    with pytest.raises(ValueError, match="not an address the referee writes to"):
        mail(["=?utf-8?q?a=0D=0ABcc=3A_x?=@example.org"])


def test_an_address_its_owner_writes_with_a_dot_at_the_end_of_its_local_part_is_written_so():
    """Some mobile carriers gave out addresses such as taro.@docomo.ne.jp, which RFC 5322's
    dot-atom does not allow and which their owners write, and are written to, as they are:
    the referee writes them so too (they broke every answer to such a player), and leaves
    out a domain with an empty label, which no mail can reach."""

    def mail(to):
        return compose(from_address=REFEREE, from_name="R", to=to, subject="s", text="x\n")

    for address in ("taro.@docomo.ne.jp", ".hana@ezweb.ne.jp", "a.b.@example.org"):
        back = parsed(mail([("Taro", address)]))
        assert [(a.display_name, a.addr_spec) for a in back["To"].addresses] == [("Taro", address)]
    for address in ("ann@.example.org", "ann@example.org.", "ann@example..org"):
        assert not plain_address(address)
    back = parsed(mail(["gm@example.org", "ann@example..org", "bob@.example.org"]))
    assert [a.addr_spec for a in back["To"].addresses] == ["gm@example.org"]


@FUZZ
@given(
    address=st.from_regex(
        r"[A-Za-z0-9!#$%&'*+/=?^_`{|}~.-]{1,12}@[A-Za-z0-9-]{1,8}(\.[A-Za-z0-9-]{1,8}){0,2}",
        fullmatch=True,
    ),
    name=person_texts(),
)
def test_every_address_the_referee_writes_to_comes_back_as_it_was_written(address, name):
    """An address ``plain_address`` takes (built from its parts, not parsed) is written into
    a header so that a mail program reads that address back, alone, under any name the
    referee takes (``checked_name``)."""
    if not plain_address(address):
        return
    try:
        shown = checked_name(name)
    except CampaignError:
        shown = "Ann"
    back = parsed(
        compose(from_address=REFEREE, from_name="R", to=[(shown, address)], subject="s", text="x\n")
    )
    assert [a.addr_spec for a in back["To"].addresses] == [address]
    assert back.get("Cc") is None and back.get("Bcc") is None
