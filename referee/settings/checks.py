"""Checks that more than one described file asks of its values (``schema.setting(check=)``)."""

from __future__ import annotations

from collections.abc import Callable
from email.headerregistry import Address


def mail_address(example: str) -> Callable[[str], str]:
    """A check: a mail address (kept in lower case), told with ``example`` when it is not."""

    def check(address: str) -> str:
        try:
            parsed = Address(addr_spec=address)
            valid = bool(parsed.username and parsed.domain)
        except (ValueError, IndexError):
            valid = False
        if not valid:
            raise ValueError(f"{address!r} is not a mail address like {example}")
        return address.lower()

    return check
