"""The games the referee knows, by name: the one place that lists them.

Each name leads to a package that exposes ``GAME``, its ``GameDescriptor`` (see
``contract.py``). Adding a game is adding its package, its templates folder and one line here
(or, for a game kept outside this project, one call of ``register``).
"""

from __future__ import annotations

from importlib import import_module

from .contract import GameDescriptor

_PACKAGES = {"bus": "referee.bus", "busboss": "referee.busboss"}


def names() -> list[str]:
    return list(_PACKAGES)


def register(name: str, package: str) -> None:
    """Make the game in ``package`` (a module with ``GAME``) known as ``name``."""
    _PACKAGES[name] = package


def package(name: str) -> str:
    """The package of a game (its own files, e.g. a templates/ folder, live in it), or
    ValueError naming the games there are."""
    try:
        return _PACKAGES[name]
    except KeyError:
        raise ValueError(f"unknown game {name!r}; the games are: {', '.join(_PACKAGES)}") from None


def get(name: str) -> GameDescriptor:
    """The descriptor of a game, or ValueError naming the games there are."""
    game: GameDescriptor = import_module(package(name)).GAME
    return game
