"""Composing a mail from the referee: plain text first, an optional HTML alternative with
inline images, attachments, and the headers that keep robots (and the referee) from answering.
"""

from __future__ import annotations

import functools
import itertools
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from email.header import Header
from email.headerregistry import Address, AddressHeader, BaseHeader
from email.message import EmailMessage
from email.policy import Policy
from email.utils import format_datetime, make_msgid

from .email_policy import POLICY
from .headers import header_text, message_id_or_none, plain_address
from .read import REFEREE_HEADER

Recipient = str | tuple[str, str]  # "addr" or (name, addr)


@dataclass(frozen=True)
class Attachment:
    filename: str
    data: bytes
    mimetype: str = "image/png"


def compose(
    *,
    from_address: str,
    from_name: str,
    to: Sequence[Recipient],
    subject: str,
    text: str,
    cc: Sequence[Recipient] = (),
    reply_to: Recipient | None = None,
    in_reply_to: str | None = None,
    references: Sequence[str] = (),
    html: str | None = None,
    inline_images: Mapping[str, bytes] | None = None,
    attachments: Sequence[Attachment] = (),
    marker: str = "referee",
    message_id: str | None = None,
    date: datetime | None = None,
) -> EmailMessage:
    """A mail from the referee. The plain text comes first (it is what players read and
    quote); ``html`` is an alternative to it, and ``inline_images`` maps a content id used in
    the HTML as ``cid:<id>`` to PNG bytes. Every mail carries ``Auto-Submitted: auto-replied``
    (RFC 3834, so other robots do not answer it) and the ``X-Referee`` header (``marker``),
    by which the referee recognises its own mail coming back.

    Every text of a header is written as ``mail.headers.header_text`` makes it, so that
    nothing in a name or a subject can end a header or add one; a recipient whose address is
    not a plain one (``plain_address``) is left out, and a mail with no other is ValueError;
    an In-Reply-To or a reference that is not a Message-ID is left out."""
    msg = EmailMessage(policy=POLICY)
    msg["From"] = _address((from_name, from_address))
    # a mail to several goes to those it can be written to; to none, it is ValueError
    writable = [r for r in to if plain_address(_parts(r)[1])]
    msg["To"] = [_address(r) for r in writable or to[:1]]
    copies = [_address(r) for r in cc if plain_address(_parts(r)[1])]
    if copies:
        msg["Cc"] = copies
    if reply_to:
        msg["Reply-To"] = _address(reply_to)
    msg["Subject"] = header_text(subject)
    msg["Date"] = format_datetime(date or datetime.now(UTC))
    msg["Message-ID"] = message_id or make_msgid(domain=from_address.rpartition("@")[2] or None)
    in_reply_to = message_id_or_none(in_reply_to)
    if in_reply_to:
        msg["In-Reply-To"] = in_reply_to
    refs = [r for r in dict.fromkeys([*references, in_reply_to]) if r and message_id_or_none(r)]
    if refs:
        msg["References"] = " ".join(refs)
    msg["Auto-Submitted"] = "auto-replied"
    msg[REFEREE_HEADER] = marker
    for name in PERSONS_TEXT:
        header = msg.get(name)
        if header is None:
            continue
        if not str(header).isascii() or any(len(w) > LONG_WORD for w in str(header).split()):
            header.fold = functools.partial(_fold_words, header)
        elif name == "Subject" and len(name) + 2 + len(str(header)) > LINE:
            header.fold = functools.partial(_fold_at_spaces, header)
    text = flowed(text)
    # delsp=no is the format's default: a soft break's space stays in the paragraph
    msg.set_content(text, cte=_text_cte(text), params={"format": "flowed"})
    if html is not None:
        msg.add_alternative(html, subtype="html", cte=_text_cte(html))
        *_, html_part = msg.iter_parts()  # the alternative just added is the last part
        assert isinstance(html_part, EmailMessage)
        for content_id, png in (inline_images or {}).items():
            # inline, not an attachment: some mail programs show an attached image a
            # second time below the message
            html_part.add_related(
                png,
                "image",
                "png",
                cid=f"<{content_id}>",
                disposition="inline",
                filename=f"{content_id.partition('@')[0]}.png",
            )
    for attachment in attachments:
        maintype, _, subtype = attachment.mimetype.partition("/")
        msg.add_attachment(attachment.data, maintype, subtype, filename=attachment.filename)
    _set_boundaries(msg, (text, html or ""))
    return msg


def flowed(text: str) -> str:
    """A mail's plain text as format=flowed (RFC 3676, with the space of a soft break kept:
    delsp=no, the default), so that a mail program
    that knows it wraps each paragraph to its screen: ``text`` marks a soft line break as
    the space a line ends with (``words.render.fill`` writes paragraphs so), every other
    line is fixed (an offered order, the text map, a table). The indent that lines up a
    paragraph's next line under its first is taken off (joined, it would sit in the middle
    of the paragraph); a line that begins with a space, '>' or 'From ' is stuffed with a
    space, so that no reader takes it for a quote (the reader takes one space off)."""
    lines = []
    goes_on = False
    for line in text.split("\n"):
        if goes_on:
            line = line.lstrip(" ")
        if not line.strip():
            line = ""  # spaces alone are no paragraph to go on
        goes_on = line.endswith(" ")
        lines.append(" " + line if line.startswith((" ", ">", "From ")) else line)
    return "\n".join(lines)


def _set_boundaries(msg: EmailMessage, texts: tuple[str, ...]) -> None:
    """A boundary of its own for each multipart, found in none of ``texts``. The email
    package would search every part for the one it makes, a map's base64 too: half a
    millisecond a picture, for lines that cannot hold a boundary ('=_' is in no base64 and
    no quoted-printable)."""
    for part in msg.walk():
        if part.is_multipart():
            made = (f"=_{secrets.token_hex(12)}" for _ in itertools.count())
            part.set_boundary(next(b for b in made if not any(b in t for t in texts)))


PERSONS_TEXT = ("From", "To", "Cc", "Subject")  # the headers that carry a person's text
LONG_WORD = 60  # a word the email package would break into encoded words itself
LINE = 78  # the length a header's lines are folded to (RFC 5322's "should")


def _fold_words(header: BaseHeader, *, policy: Policy) -> str:
    """A header with text beyond ASCII or a word too long for a line, folded into encoded
    words by ``email.header``: the email package's own folding (``policy.default``, 3.11
    to 3.13 at least) drops the space between two encoded words where it breaks the line,
    so 'Zoë Zoë ...' came back as 'Zoë Zoë...Zoë', and doubles the one before a word it
    breaks into encoded words."""
    if isinstance(header, AddressHeader):
        # a name is one encoded word, however long: the email package's reader keeps the
        # space between two encoded words of a name, which RFC 2047 drops
        parts = [
            f"{_words(a.display_name, 0, policy.linesep, 998)} <{a.addr_spec}>"
            if not a.display_name.isascii()
            else str(a)
            for a in header.addresses
        ]
        value = f",{policy.linesep} ".join(parts)
    else:
        value = _words(str(header), len(header.name) + 2, policy.linesep, policy.max_line_length)
    return f"{header.name}: {value}{policy.linesep}"


def _fold_at_spaces(header: BaseHeader, *, policy: Policy) -> str:
    """A long plain subject folded at its spaces, its first words on the header's own line:
    the email package moves the whole of it to a line of its own, and its reader (3.11 to
    3.13 at least) then keeps the fold's space at the start of the subject."""
    most = policy.max_line_length or LINE
    lines, line = [], f"{header.name}:"
    for word in str(header).split(" "):
        if len(line) + 1 + len(word) > most and line.strip() != f"{header.name}:":
            lines.append(line)
            line = ""
        line += f" {word}"
    return policy.linesep.join([*lines, line]) + policy.linesep


def _words(text: str, start: int, linesep: str, most: int | None) -> str:
    return Header(text, "utf-8").encode(linesep=linesep, maxlinelen=(most or 78) - start)


def _parts(recipient: Recipient) -> tuple[str, str]:
    """(name, address) of a recipient: a pair, or an address alone."""
    return recipient if isinstance(recipient, tuple) else ("", recipient)


def _address(recipient: Recipient) -> Address:
    """The recipient as written into a header: built from its parts, which
    ``plain_address`` vouches for, not parsed from the whole (as ``addr_spec=`` does), which
    refuses a local part that ends with a dot (taro.@docomo.ne.jp) though mail reaches it."""
    name, address = _parts(recipient)
    if not plain_address(address):
        raise ValueError(f"{address!r} is not an address the referee writes to")
    local, _, domain = address.rpartition("@")
    return Address(header_text(name), local, domain)


LONGEST = 998  # the longest line RFC 5322 allows


def _text_cte(text: str) -> str:
    """8-bit bodies are not safe on every relay; ASCII goes as it is (a line stuffed for
    format=flowed is 79 columns: the email package would send the whole text
    quoted-printable, a tenth longer, for lines above 78), unless a line is too long for
    mail."""
    fits = text.isascii() and all(len(line) <= LONGEST for line in text.split("\n"))
    return "7bit" if fits else "quoted-printable"
