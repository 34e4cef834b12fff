"""What the intake and the site's commands decide to tell a person, as plain values: who,
what kind of answer, its words as templates and their parameters, and the mail it answers.
They decide; the answers stage (``answers.tell_sender``) renders and queues, within the
answer limits."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..mail.read import Incoming
from ..settings.site import Audience
from ..words import language
from ..words.render import Said


@dataclass(frozen=True)
class Notice:
    """One short mail outside a player's game report."""

    to: str  # its recipient ("": a mail with no address to answer)
    kind: str  # what it answers, in a few words (for the log, and for tests)
    subject: Said
    text: tuple[Said, ...]  # its paragraphs
    key: str  # what its Message-ID is made from: queued again, it is sent once
    answers: str | None = None  # the Message-ID of the mail it answers
    reply_to: str | None = None
    # whose answer limits it counts under; None: not limited (the game bounds how many)
    audience: Audience | None = Audience.STRANGER
    # the language it is worded in: the one being read when it was decided (the sender's)
    language: str = field(default_factory=language.current)

    @classmethod
    def answering(
        cls,
        mail: Incoming,
        kind: str,
        subject: Said,
        *text: Said,
        to: str | None = None,
        reply_to: str | None = None,
        audience: Audience = Audience.STRANGER,
    ) -> Notice:
        """The answer to ``mail``, to its sender unless ``to`` names another address (a
        player's own, which the mail came from beside)."""
        return cls(
            to=to or mail.sender_address,
            kind=kind,
            subject=subject,
            text=text,
            # another sender's mail under the same Message-ID is another mail
            key=f"{mail.sender_address} {mail.message_id}",
            answers=mail.message_id,
            reply_to=reply_to,
            audience=audience,
        )
