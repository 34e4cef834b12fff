"""``referee.env``, beside ``referee.yaml``: the site's passwords and tokens, one
``KEY=value`` a line, read by the referee itself and never by a shell.

A value is taken as written: ``REFEREE_GM_TOKEN=open sesame`` is the token ``open sesame``
and ``ab$cd%x`` is those six characters. Blank lines and ``#`` comments are passed over, a
leading ``export`` is allowed (a file written for a shell reads the same), and one pair of
matching quotes around a value is taken off. A variable set in the environment wins over the
file, so that a test or a one-off run can give another value.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

ENV_FILE = "referee.env"
ENV_LINE = re.compile(r"^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=(.*)$")


def env_file(config_path: Path) -> Path:
    return Path(config_path).parent / ENV_FILE


def read_env_file(path: Path) -> dict[str, str]:
    """The file's variables with a value (an empty one is not set); no file: none."""
    try:
        lines = path.read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError:
        return {}
    values = {}
    for line in lines:
        found = ENV_LINE.match(line)
        if found is None or line.lstrip().startswith("#"):
            continue
        value = found[2].strip()
        if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
            value = value[1:-1]
        if value:
            values[found[1]] = value
        else:
            values.pop(found[1], None)
    return values


def secret(config_path: Path, name: str) -> str | None:
    """The value of ``name``: the environment's, else referee.env's; None when neither sets
    it."""
    return os.environ.get(name) or read_env_file(env_file(config_path)).get(name)
