"""Checks that more than one described file asks of its values (``schema.setting(check=)``)."""

from __future__ import annotations

import re
from collections.abc import Callable

# an address as a person writes it into a file: local part, @, domain, nothing that belongs
# around an address (a name, brackets, a comma); mail/read.py parses what comes by mail
ADDRESS = re.compile(r"[^@\s<>()\[\],;:\"]+@[^@\s<>()\[\],;:\".]+(\.[^@\s<>()\[\],;:\".]+)*")


def mail_address(example: str) -> Callable[[str], str]:
    """A check: a mail address (kept in lower case), told with ``example`` when it is not."""

    def check(address: str) -> str:
        if not ADDRESS.fullmatch(address):
            raise ValueError(f"{address!r} is not a mail address like {example}")
        return address.lower()

    return check
