"""Files a person edits, read safely: YAML as plain data (what the settings and the games'
data files are read with)."""

from __future__ import annotations

from typing import Any

import yaml

SAFE_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml's, when installed


def load_yaml(text: str) -> Any:
    """YAML read safely (plain data only), by libyaml where PyYAML has it: seven times as
    quick as PyYAML's own reader, which each tick's process would pay for every board and
    map it loads."""
    return yaml.load(text, Loader=SAFE_LOADER)
