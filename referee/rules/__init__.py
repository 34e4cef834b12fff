"""The games the referee knows, by name. Each is a pure rules engine (see ``base.py``)."""
from __future__ import annotations

from importlib import import_module

_MODULES = {"bus": "referee.rules.bus", "busboss": "referee.rules.busboss"}


def names() -> list[str]:
    return list(_MODULES)


def get(name: str):
    """The RULES object of a game, or ValueError naming the games there are."""
    try:
        module = _MODULES[name]
    except KeyError:
        raise ValueError(f"unknown game {name!r}; the games are: {', '.join(_MODULES)}") from None
    return import_module(module).RULES
