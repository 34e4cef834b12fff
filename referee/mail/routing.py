"""Routing a mail: the campaign it is for, the token it carries, and its command lines."""

from __future__ import annotations

import re
from dataclasses import dataclass

from .read import Incoming, fold

META = re.compile(r"^(token|game)\s*:?\s+(\S+)$", re.IGNORECASE)


@dataclass
class Route:
    campaign_id: str | None
    token: str | None
    lines: list[str]  # stripped, with "" where the writer left a blank line between two
    cut: int = 0  # lines past MAX_LINES, not read


MAX_LINES = 100  # a mail's command lines read (blank ones not counted); the rest is unread


def route(mail: Incoming) -> Route:
    """DESIGN "Routing": the plus-address, else a [game] subject tag, else a `game` line;
    the token from the plus-address, else a `token` line."""
    campaign_id = token = None
    if mail.plus_tag:
        campaign_id, _, token = mail.plus_tag.partition(".")
    campaign_id = campaign_id or mail.subject_tag
    lines: list[str] = []
    read = cut = 0
    for line in (s.strip() for s in mail.text.splitlines()):
        meta = META.match(fold(line))
        if meta and meta.group(1).lower() == "game":
            campaign_id = campaign_id or meta.group(2).lower()
        elif meta:
            token = token or meta.group(2).lower()
        elif not line:
            if lines and lines[-1]:  # a blank line ends a message wrapped over lines
                lines.append("")
        elif read == MAX_LINES:
            cut += 1
        else:
            lines.append(line)
            read += 1
    if token and not token.isascii():  # tokens are ASCII: such a one is only a wrong token
        token = token.encode("ascii", "backslashreplace").decode()
    return Route(campaign_id or None, token or None, lines, cut)


@dataclass(frozen=True)
class Identity:
    """The referee's address, from which players' plus-addresses are made."""

    address: str
    name: str = "Referee"
    language: str = "en"  # the site's (referee.yaml), for a reader with none of their own

    def plus(self, campaign_id: str, token: str | None = None) -> str:
        local, _, domain = self.address.partition("@")
        tag = f"{campaign_id}.{token}" if token else campaign_id
        return f"{local}+{tag}@{domain}"
