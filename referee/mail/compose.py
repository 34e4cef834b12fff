"""Composing a mail from the referee: plain text first, an optional HTML alternative with
inline images, attachments, and the headers that keep robots (and the referee) from answering.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from email import policy
from email.headerregistry import Address
from email.message import EmailMessage
from email.utils import format_datetime, make_msgid

from .read import REFEREE_HEADER

Recipient = str | tuple[str, str]  # "addr", "Name <addr>" or (name, addr)


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
    by which the referee recognises its own mail coming back."""
    msg = EmailMessage(policy=policy.default)
    msg["From"] = Address(from_name, addr_spec=from_address)
    msg["To"] = [_address(r) for r in to]
    if cc:
        msg["Cc"] = [_address(r) for r in cc]
    if reply_to:
        msg["Reply-To"] = _address(reply_to)
    msg["Subject"] = subject
    msg["Date"] = format_datetime(date or datetime.now(UTC))
    msg["Message-ID"] = message_id or make_msgid(domain=from_address.rpartition("@")[2] or None)
    if in_reply_to:
        msg["In-Reply-To"] = in_reply_to
    refs = list(dict.fromkeys([*references, *([in_reply_to] if in_reply_to else [])]))
    if refs:
        msg["References"] = " ".join(refs)
    msg["Auto-Submitted"] = "auto-replied"
    msg[REFEREE_HEADER] = marker
    msg.set_content(text, cte=_text_cte(text))
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
    return msg


def _address(recipient: Recipient) -> Address | str:
    if isinstance(recipient, tuple):
        name, address = recipient
        return Address(name, addr_spec=address)
    return recipient


def _text_cte(text: str) -> str | None:
    # 8-bit bodies are not safe on every relay; ASCII keeps the package's own choice
    return None if text.isascii() else "quoted-printable"
