"""campaign.yaml, described once (``schema``): the game, its seed and players, and what the
game master may set beside them. The tick, `referee check` and every command that changes a
setting read it through ``CampaignFile`` and ``CampaignSettings``, so what check passes the
tick accepts, and a command never writes a file the next tick would refuse."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from .. import registry
from ..contract import Say
from ..schema import at_least, setting, within
from .checks import (
    WHOM,
    Language,
    campaign_id,
    first_taken,
    mail_address,
    player_name,
    player_token,
)
from .deadlines import Deadlines, parse_day, parse_time, time_zone


def known_game(name: str) -> str:
    """A game of the registry (a campaign of a game this referee does not have cannot be
    read: the file is to name one of those it has)."""
    if name not in registry.names():
        raise ValueError(f"{name!r} is not one of: {', '.join(registry.names())}")
    return name


def _zone_name(name: str | None) -> str | None:
    """A player's time zone, kept by its name."""
    if name is not None:
        time_zone(name)
    return name


def _time_of_day(text: str | None) -> str | None:
    """A time of day kept as written ('18:00')."""
    if text is not None:
        parse_time(text)
    return text


def _absences(spans: tuple[tuple[str, ...], ...]) -> tuple[tuple[str, ...], ...]:
    for span in spans:
        if len(span) != 2:
            raise ValueError(f"an absence is [first day, last day], not {list(span)}")
        for day in span:
            parse_day(day)  # DeadlineError is a ValueError
    return spans


MailChoice = Literal["each", "digest", "brief"]
MAIL_CHOICES: dict[MailChoice, Say] = {
    "each": Say("a mail for each thing that happens (the default)"),
    "digest": Say("each decision at once, and one mail a day with everything else since"),
    "brief": Say("decisions and results only"),
}
"""How much mail a player gets (the ``mail`` command), and what each means."""


@dataclass(frozen=True)
class PlayerEntry:
    """A player (or the game master) as campaign.yaml keeps them."""

    name: str = setting(check=player_name)
    address: str = setting(check=mail_address("ann@example.org"))
    token: str = setting(check=player_token)
    timezone: str | None = setting(None, check=_zone_name)  # the `timezone` command
    absence: tuple[tuple[str, ...], ...] = setting((), check=_absences)  # `absence`
    signup: dict[str, Any] = setting(factory=dict)  # what they chose when joining
    mail: MailChoice = "each"  # the `mail` command: MAIL_CHOICES
    digest_at: str | None = setting(None, check=_time_of_day)  # `mail digest 07:30`
    language: Language | None = None  # the `language` command, or `join ... language de`


@dataclass(frozen=True)
class CampaignSettings:
    """What a game master may set in campaign.yaml beside the game itself."""

    # when decisions are due, the reminder, and what happens when one is missed
    deadlines: Deadlines = Deadlines()
    # an answer with nothing to decide in it waits this long for the player's next mail
    gather_minutes: float = setting(0.0, check=within(0, 24 * 60, "a number of minutes"))
    # the bot for dropped seats and missed deadlines: a name, or {name, rollouts}; the game
    # says which it has (checked with the campaign's game, by `referee check` too)
    bot: Any = "default"
    observers: tuple[str, ...] = ()  # the addresses that get each round's report
    no_observers: bool = False  # the game master closed the game to observers
    lateness_notice: bool = False  # everyone is told when someone misses a deadline
    seed_hash: str | None = None  # the seed's fingerprint, published at the start
    language: Language | None = None  # the players' mail's, unless one chose their own


@dataclass(frozen=True, kw_only=True)
class CampaignFile(CampaignSettings):
    """The whole of campaign.yaml."""

    id: str = setting(check=campaign_id)
    game: str = setting(check=known_game)
    options: dict[str, Any] = setting(factory=dict)
    seed: int
    status: Literal["open", "running", "paused", "finished"] = "running"
    created: str = ""
    gm: PlayerEntry | None = None
    seats: int | None = setting(None, check=at_least(1, "a whole number"))
    players: tuple[PlayerEntry, ...] = ()
    robots: tuple[int, ...] = ()  # seats the bot plays (dropped players)

    def __post_init__(self) -> None:
        """No player is named so that they could be taken for another, the game master or
        the referee (``checks.name_taken``): each would read and send press as the other."""
        gm = (self.gm.name, self.gm.address) if self.gm else None
        found = first_taken([(p.name, p.address) for p in self.players], gm)
        if found is not None:
            seat, (whom, other) = found
            raise ValueError(
                f"players[{seat}].name {self.players[seat].name!r} could be taken for "
                f"{other!r} ({WHOM[whom]}): give each player a name of their own"
            )
