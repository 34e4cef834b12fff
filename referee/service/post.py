"""The one way out for the referee's mail: each mail is queued on disk once, under its
Message-ID, with a copy in its campaign's mail/out; the outbox sends the queue."""

from __future__ import annotations

import hashlib
from functools import cached_property
from pathlib import Path

from ..mail.bounces import bounce_of
from ..mail.outbox import OutMail
from ..mail.routing import Identity
from ..settings.site import Config
from ..store.campaign import Campaign
from ..store.names import ANSWERS, MAIL_OUT, OBSERVE_CODES
from .limits import AnswerBook, ObserveCodes


class Post:
    """Where a site's mail goes out, and how many answers each address had."""

    def __init__(self, config: Config, state_dir: Path):
        self.config = config
        self.state_dir = state_dir
        self.identity = Identity(config.referee_address, config.referee_name, config.language)
        self.outbox = config.make_outbox()

    @cached_property
    def answer_book(self) -> AnswerBook:
        """How many answers each address had: one book for the whole of a tick."""
        return AnswerBook(self.state_dir / ANSWERS, self.config.limits)

    @cached_property
    def observe_codes(self) -> ObserveCodes:
        """The codes mailed to would-be observers, to confirm from their address."""
        return ObserveCodes(self.state_dir / OBSERVE_CODES)

    def save(self) -> None:
        """Keep the answers counted since the last save (once a tick has queued them all,
        not at each answer)."""
        if "answer_book" in self.__dict__:  # counted only where a tick answered
            self.answer_book.save()

    def sent_by_us(self, message_id: str) -> bool:
        """Whether ``message_id`` is one of the referee's own mails (come back, e.g. through
        a list that strips the headers)."""
        return self.outbox.contains(queue_name(message_id))

    def bounced(self, raw: bytes, sender: str) -> list[str]:
        """The addresses a late bounce (``raw``, from ``sender``) says never got a mail the
        referee sent them, each given up as the outbox gives up a mail it could not send (the
        next ``tell_undelivered`` tells the game masters); nothing for a report that quotes
        no mail of the referee's to that address."""
        bounce = bounce_of(raw)
        if bounce is None:
            return []
        given_up = []
        for address in bounce.failed:
            reason = (
                f"{address}: the mail was taken, then reported undelivered for good "
                f"by {sender or 'a mail server'} ({bounce.said})"
            )
            if any(self.outbox.bounced(queue_name(m), address, reason) for m in bounce.quoted):
                given_up.append(address)
        return given_up

    def sent_mail(self, message_id: str) -> bytes | None:
        """The referee's own mail of ``message_id``, as it went out, while the outbox keeps
        it: what a reply to it is read against (``read_mail``)."""
        return self.outbox.kept(queue_name(message_id))

    def queue(self, campaign: Campaign | None, msg, about: str = "") -> None:
        """Queue a mail once: a mail with the same Message-ID queued before is not queued
        again (answers are named deterministically, so a crashed tick resends nothing).
        ``about`` (else the campaign's id) tells whom to tell if it is not delivered."""
        name = queue_name(str(msg["Message-ID"]))
        if self.outbox.contains(name):
            return
        mail = OutMail.of(msg)  # composed once: these bytes are queued, sent and archived
        self.outbox.queue(
            mail,
            name=name,
            about=about or (campaign.id if campaign else ""),
            copy=campaign.dir(*MAIL_OUT) / f"{name}.eml" if campaign is not None else None,
        )


def queue_name(message_id: str) -> str:
    """The outbox's name of a mail, from its Message-ID."""
    return hashlib.sha256(message_id.encode()).hexdigest()[:24]
