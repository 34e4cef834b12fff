"""Rule 6: what a player may choose when joining a Bus Boss game, described once (``schema``)
for the join line and for campaign.yaml, which keeps it under each player's ``signup``."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from ..schema import setting
from .orders import COLOURS

COMPANY_NAME_LENGTH = 22  # the text map's table has room for so many


def company_name(written: Any) -> str:
    """A company's name, as a player gives it when joining."""
    name = " ".join(str(written).split()).strip("\"'").strip()
    if not name:
        raise ValueError('write the name after "company", e.g. company "Vale Motors"')
    if len(name) > COMPANY_NAME_LENGTH:
        raise ValueError(
            f"a company's name has at most {COMPANY_NAME_LENGTH} characters; "
            f"{name!r} has {len(name)}"
        )
    if not name.isprintable() or any(c in name for c in "()|#"):
        raise ValueError(f"write the company's name without ( ) | or #, not {name!r}")
    return name


def colour_preferences(written: Any) -> list[str]:
    """Colours in order of preference: as a player writes them when joining ("red, blue"),
    or as campaign.yaml keeps them (a list)."""
    text = " ".join(map(str, written)) if isinstance(written, list) else str(written)
    words = [w for w in re.split(r"[\s,;/]+", text.lower()) if w and w not in ("and", "then")]
    choices = ", ".join(COLOURS)
    if not words:
        raise ValueError(
            f"list the colours you prefer after 'colours', e.g. colours red,blue "
            f"(the colours are {choices})"
        )
    for i, word in enumerate(words):
        if word not in COLOURS:
            raise ValueError(f"{word!r} is not a colour of Bus Boss; the colours are {choices}")
        if word in words[:i]:
            raise ValueError(f"{word} is named twice among your colours")
    return words


@dataclass(frozen=True)
class BusBossSignup:
    """A player's choices; a choice not made is None."""

    company: Any = setting(None, check=company_name)  # (Any: its check says what is wrong)
    colours: Any = setting(None, check=colour_preferences)
