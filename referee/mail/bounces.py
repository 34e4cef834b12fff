"""A late bounce: a report that comes back to the inbox after the server took a mail, saying
that it could not be delivered (RFC 3464 delivery status reports, and the common formats of
the servers that write their own, as flufl.bounce reads them): the addresses that failed for
good, and the Message-IDs the report quotes, by which the referee knows its own mail. A
report quotes the headers of the mail it returns; one that quotes no mail the referee sent
(a forgery, or a bounce of someone else's mail) is only a machine's mail."""

from __future__ import annotations

import re
from dataclasses import dataclass
from email.parser import BytesParser

from flufl.bounce import all_failures

from .email_policy import POLICY

# a Message-ID header line, wherever the report quotes the mail: in a message/rfc822 or
# text/rfc822-headers part, or in its own text (the non-standard reports)
QUOTED_ID = re.compile(r"^message-id:[ \t]*(<[^<>\s]+>)", re.IGNORECASE | re.MULTILINE)


@dataclass(frozen=True)
class Bounce:
    failed: tuple[str, ...]  # the addresses that failed for good, lowercased
    quoted: tuple[str, ...]  # the Message-IDs the report quotes, but its own
    said: str  # what the report says of it (its subject)


def bounce_of(raw: bytes) -> Bounce | None:
    """The mail ``raw`` read as a report that mail could not be delivered for good, or None
    when it is not one (a delay, an auto-reply, anything else)."""
    msg = BytesParser(policy=POLICY).parsebytes(raw)
    try:
        _, permanent = all_failures(msg)
    except Exception:  # a report malformed beyond the detectors: not read as one
        return None
    failed = sorted({a.decode("utf-8", "replace").strip().lower() for a in permanent} - {""})
    if not failed:
        return None
    own = str(msg.get("Message-ID") or "").strip()
    quoted = []
    for part in msg.walk():
        text = _text(part)
        quoted += [m for m in QUOTED_ID.findall(text) if m != own and m not in quoted]
    said = " ".join(str(msg.get("Subject") or "a delivery report").split())[:200]
    return Bounce(tuple(failed), tuple(quoted), said)


def _text(part) -> str:
    """What a part of the report says: a quoted mail's headers, or a text."""
    if part.get_content_type() in ("message/rfc822", "message/global"):
        return "".join(f"{k}: {v}\n" for k, v in part.get_payload(0).items())
    if part.get_content_maintype() == "text":
        payload = part.get_payload(decode=True)
        if isinstance(payload, bytes):
            return payload.decode("utf-8", "replace")
    return ""
