"""The referee's email policy (``referee.mail.email_policy``) is ``policy.default`` with each
header class made once: the mails it writes and what it reads of a mail are the same as
the email package's own policy gives, byte for byte."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from email import policy
from email.message import EmailMessage
from email.parser import BytesParser
from unittest import mock

from hypothesis import given
from hypothesis import strategies as st
from test_header_safety import FUZZ, person_texts

from referee.mail import compose as compose_module
from referee.mail.compose import Attachment, compose
from referee.mail.email_policy import POLICY
from referee.mail.read import READING


def a_mail(name: str, subject: str, text: str) -> EmailMessage:
    return compose(
        from_address="referee@example.org",
        from_name="Referee",
        to=[(name, "ann@example.org"), "bob@example.org"],
        reply_to=("Referee", "referee+bus1.abcdefgh@example.org"),
        subject=subject,
        text=text,
        in_reply_to="<a.b@example.net>",
        references=["<c.d@example.net>"],
        html=f"<p>{text}</p>",
        inline_images={"map@referee": b"\x89PNG not really"},
        attachments=[Attachment("map.png", b"\x89PNG")],
        message_id="<bus1.1@example.org>",
        date=datetime(2026, 11, 26, 9, 0, tzinfo=UTC),
    )


def same_boundaries(raw: bytes) -> bytes:
    """The mail with its MIME boundaries (random, see ``compose._set_boundaries``) all
    written alike."""
    return re.sub(rb"=_[0-9a-f]{24}", b"=_boundary", raw)


@FUZZ
@given(name=person_texts(), subject=person_texts(), text=st.text(max_size=300))
def test_a_mail_written_with_it_is_the_mail_the_default_policy_writes(name, subject, text):
    ours = a_mail(name, subject, text).as_bytes()
    with mock.patch.object(compose_module, "POLICY", policy.default):
        theirs = a_mail(name, subject, text).as_bytes()
    assert same_boundaries(ours) == same_boundaries(theirs)


@FUZZ
@given(name=person_texts(), subject=person_texts(), text=st.text(max_size=300))
def test_a_mail_read_with_it_has_the_headers_the_default_policy_reads(name, subject, text):
    raw = a_mail("Ann", "x", text).as_bytes()
    raw = raw.replace(b"Subject: x", b"Subject: " + subject.encode(), 1)
    raw = raw.replace(b"Ann <ann@", name.encode(errors="surrogateescape") + b" <ann@", 1)
    for ours in (POLICY, READING):
        read, default = (BytesParser(policy=p).parsebytes(raw) for p in (ours, policy.default))
        for header in ("From", "To", "Subject", "Content-Type", "Message-ID", "References"):
            assert seen(read, header) == seen(default, header)
        assert [p.get_content_type() for p in read.walk()] == [
            p.get_content_type() for p in default.walk()
        ]


def seen(msg, header: str) -> list[str] | str:
    """The values of a header as read, or the kind of error reading it raised."""
    try:
        return [str(value) for value in msg.get_all(header, [])]
    except Exception as err:  # the email package refuses some headers when read
        return type(err).__name__


def test_each_kind_of_header_has_one_class_made_once():
    first = a_mail("Ann", "one", "hello\n")
    second = BytesParser(policy=POLICY).parsebytes(first.as_bytes())
    for header in ("From", "To", "Subject", "Date", "Message-ID", "Content-Type"):
        assert type(first[header]) is type(second[header])
        assert isinstance(
            first[header], type(policy.default.header_factory(header, "x")).__mro__[1]
        )
