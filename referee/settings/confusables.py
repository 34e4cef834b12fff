"""Unicode's table of characters that pass for others (UTS #39), as the referee reads it.

``confusables.txt`` is the table as Unicode publishes it; ``confusables.json``, beside it,
is what the referee reads (``checks.skeletons``): each character to the prototype it is
taken for, and nothing else, read in a millisecond or two where parsing the published file
took twenty in each fresh process. After replacing
``confusables.txt`` with a newer one, write the table again:

    python3 -m referee.settings.confusables
"""

from __future__ import annotations

import json
import re
from pathlib import Path

PUBLISHED = Path(__file__).with_name("confusables.txt")
SHIPPED = Path(__file__).with_name("confusables.json")


def prototypes(published: str) -> dict[str, str]:
    """Each character the published table lists, to the prototype it is taken for."""
    pairs = re.findall(r"^([0-9A-F]+) ;\t([0-9A-F ]+?) ;", published, re.MULTILINE)
    return {chr(int(code, 16)): "".join(chr(int(c, 16)) for c in to.split()) for code, to in pairs}


def shipped_text(published: str) -> str:
    """The shipped table's text: JSON, one character a line, in the published order."""
    table = prototypes(published)
    lines = [f"{json.dumps(k)}: {json.dumps(v)}" for k, v in table.items()]
    return "{\n" + ",\n".join(lines) + "\n}\n"


if __name__ == "__main__":
    SHIPPED.write_text(shipped_text(PUBLISHED.read_text("utf-8-sig")), encoding="ascii")
    print(f"wrote {SHIPPED}")
