"""A player who lives in a mailbox: reads the referee's mail, answers the prompt it finds.

Used by `referee demo` and by the end-to-end tests. It replies the way people do: the choice
on top, the whole mail quoted below an "On ... wrote:" line, and a signature.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from email.message import EmailMessage
from email.parser import BytesParser
from email.utils import formatdate, make_msgid, parseaddr

from .mail.email_policy import POLICY
from .mail.read import plain_text

DECISION = re.compile(r"^YOUR DECISION: (.*)$", re.MULTILINE)
CHOICE = re.compile(r"^    (\S.*)$")
GROUP = re.compile(r"^([^:#]+): (\S+(?:, \S+)+)$")


def parse(raw: bytes) -> EmailMessage:
    return BytesParser(policy=POLICY).parsebytes(raw)


def body(msg: EmailMessage) -> str:
    """The mail's plain text as a person reads it (its flowed paragraphs joined)."""
    return plain_text(msg)


def choices_in(text: str) -> list[str]:
    """The order lines offered under the mail's decision (comments and the round line left
    out), or [] when it asks for none."""
    match = DECISION.search(text)
    if not match:
        return []
    found, started = [], False
    for line in text[match.end() :].splitlines():
        choice = CHOICE.match(line)
        if not choice:
            if started and line.strip():
                break
            continue
        started = True
        order = choice.group(1).split("#")[0].strip()
        group = GROUP.match(order)
        if group:  # "build house: 15, 16" is one order per item
            found += [f"{group.group(1)} {item}" for item in group.group(2).split(", ")]
        elif order and not order.lower().startswith("round "):
            found.append(order)
    return found


def reply(msg: EmailMessage, name: str, address: str, orders: list[str]) -> EmailMessage:
    """A reply to ``msg`` with ``orders`` on top and the whole mail quoted."""
    answer = EmailMessage(policy=POLICY)
    answer["From"] = f"{name} <{address}>"
    answer["To"] = msg["Reply-To"] or msg["From"]
    subject = str(msg["Subject"] or "")
    answer["Subject"] = subject if subject.lower().startswith("re:") else f"Re: {subject}"
    answer["Message-ID"] = make_msgid(domain=address.partition("@")[2] or None)
    answer["Date"] = formatdate(localtime=False)
    answer["In-Reply-To"] = str(msg["Message-ID"])
    quoted = "\n".join(f"> {line}" if line else ">" for line in body(msg).splitlines())
    sender = parseaddr(str(msg["From"]))[0] or "the referee"
    answer.set_content(
        "\n".join(orders)
        + f"\n\nOn {msg['Date']}, {sender} wrote:\n"
        + quoted
        + f"\n\n-- \n{name}\nsent by a robot player\n"
    )
    return answer


def answer_latest(
    mails: list[EmailMessage],
    name: str,
    address: str,
    choose: Callable[[list[str]], str | list[str] | None],
) -> EmailMessage | None:
    """Answer the newest mail that asks for a decision (older prompts are stale) with the
    order, or the orders, ``choose`` gives (none: no answer)."""
    for msg in reversed(mails):
        choices = choices_in(body(msg))
        if choices:
            orders = choose(choices)
            if isinstance(orders, str):
                orders = [orders]
            return reply(msg, name, address, orders) if orders else None
    return None
