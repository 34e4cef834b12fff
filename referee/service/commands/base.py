"""What every referee command is made of: the classes a command derives from, who may give
it, and the contexts it runs in (a campaign, or a mail that names none).

A command is one class: its name and aliases, who may give it, its usage and help line, the
log record it leaves (``records``; the record says what replay does with it), whether every
player is told of it at once, and what it does (``run``, which parses its own words). What it
says comes from templates/messages.txt. The registry of them all, in the order the help
lists them, is ``commands/__init__.py``.

A command's effect on the campaign's settings (campaign.yaml) is written first, then the log
record that carries the command: a crash between the two leaves the settings changed and the
mail unapplied, and the mail read again finds the change made (it then says so).
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from datetime import datetime
from enum import Enum
from typing import ClassVar, Protocol

from ... import records
from ...contract import Say
from ...files import StateDamaged
from ...mail.routing import Identity
from ...settings.checks import NAME_MOST, look_alike, name_problem, name_taken
from ...settings.deadlines import DeadlineError
from ...settings.site import Config
from ...store.campaign import Campaign, CampaignError, Player, Table
from ...words import language
from ...words.render import Said, say
from ..play import Outcome
from ..post import Post


class Site(Protocol):
    """What the commands ask of the site they run on (``service.site.Site``)."""

    config: Config

    @property
    def post(self) -> Post: ...

    @property
    def identity(self) -> Identity: ...

    def campaign_ids(self) -> list[str]: ...

    def campaign(self, campaign_id: str) -> Campaign: ...

    def has_campaign(self, campaign_id: str) -> bool: ...

    def campaigns_of(self, address: str) -> list[tuple[str, Campaign | None]]: ...

    def signup_ids(self) -> list[str]: ...

    def new_campaign(
        self,
        game: str,
        campaign_id: str,
        players: list[str],
        seed=None,
        options=None,
        seats: int | None = None,
        gm: str | None = None,
        settings: dict | None = None,
    ) -> Campaign: ...

    def start_campaign(
        self, campaign: Campaign, now: datetime | None = None, filled: bool = False
    ) -> Table: ...


class CommandError(Exception):
    """A command that cannot be done; the message says why, for the sender."""


def checked_name(name: str) -> str:
    """A name a person gave, decoded once (in a join or a replace by
    ``mail.headers.decoded_once``; in their From header by the mail's reader), checked
    (``settings.checks.name_problem``), its spaces made single; CampaignError says why it
    cannot be one."""
    problem = name_problem(name)
    if problem:
        raise CampaignError(say(f"name_{problem}", most=NAME_MOST))
    return " ".join(name.split())


def seated(campaign: Campaign, address: str) -> None:
    """An observer given a seat (join, replace) observes no more: each round's report came
    to them twice, as an observer and as a player."""
    observers = campaign.config.observers
    if address in observers:
        campaign.settings["observers"] = [a for a in observers if a != address]


ADDRESSEES = ("all", "gm")  # what 'message' is addressed to beside the players' names


def newcomer_name(
    name: str, site: Site, campaign: Campaign, address: str, seat: int | None = None
) -> str:
    """The name a player at ``address`` joins ``campaign`` under, or takes ``seat`` under in
    a replace: ``checked_name``; not one of ADDRESSEES, as a player so named could never be
    written to alone; and not one that could be taken for another player's, the game
    master's, a role's or the site's own (``settings.checks.name_taken``), in any script: a
    joiner called Аnn (a Cyrillic А) beside Ann would read and send press as her. (Not
    ``settings.checks.player_name``, which holds a name in a file to what a header takes.)"""
    name = checked_name(name)
    addressee = look_alike(name, ADDRESSEES)
    if addressee is not None:
        raise CampaignError(say("name_addressee", name=name, addressee=addressee))
    players = [(p.name, p.address) for s, p in enumerate(campaign.players) if s != seat]
    gm = (campaign.gm.name, campaign.gm.address) if campaign.gm else None
    taken = name_taken(name, address, players, gm, site.config.roles)
    if taken is not None:
        whom, other = taken
        raise CampaignError(
            say("name_alike", name=name, whom=whom, other=other, campaign_id=campaign.id)
        )
    return name


class Who(Enum):
    """Who may give a command inside a campaign."""

    PLAYERS = "players"
    GAME_MASTER = "game master"
    EVERYONE = "everyone"


class CampaignCommand:
    """A command inside a campaign, given by a player or its game master."""

    name: ClassVar[str]
    aliases: ClassVar[tuple[str, ...]] = ()
    # as the help shows it, e.g. "extend 24", and what it does, in a line: each worded in
    # the reader's language (``help_lines``), where its words are the reader's too (aliases)
    usage: ClassVar[Say]
    summary: ClassVar[Say]
    who: ClassVar[Who] = Who.EVERYONE
    record: ClassVar[type[records.Command]]  # what the log keeps of it
    runs_first: ClassVar[bool] = False  # before the other commands and orders of its mail
    runs_last: ClassVar[bool] = False  # after the other commands of its mail
    wraps: ClassVar[bool] = False  # its text goes on over the lines after it (``split``)

    def allows(self, gm: bool) -> bool:
        return self.who == Who.EVERYONE or (self.who == Who.GAME_MASTER) == gm

    def run(self, ctx: Commands, rest: str, line: str) -> records.Command:
        """Do it (``rest``: the words after its name) and return its log record, or raise
        CommandError saying why it cannot be done."""
        raise NotImplementedError


class SiteCommand:
    """A command in a mail that names no campaign (list, join, open ...): it answers the
    sender itself."""

    name: ClassVar[str]
    aliases: ClassVar[tuple[str, ...]] = ()
    usage: ClassVar[Say]
    summary: ClassVar[Say]

    def run(self, ctx: Outside, rest: str, line: str) -> None:
        raise NotImplementedError


@dataclass
class Line:
    """A line of a mail that is a referee command."""

    command: CampaignCommand
    word: str  # as written: its name or an alias
    rest: str
    line: str


@dataclass
class Done:
    """What a batch of commands did: actions for the log record (also what the sender is
    told), and orders some of them applied (adjudication)."""

    actions: list[records.Action] = field(default_factory=list)
    outcome: Outcome | None = None
    rebuild: bool = False  # the table must be replayed (a rollback)


class Commands:
    """Runs commands for one sender (a seat, or the game master when seat is None)."""

    def __init__(
        self, site: Site, campaign: Campaign, table: Table | None, seat: int | None, now: datetime
    ):
        self.site, self.table, self.seat, self.now = site, table, seat, now
        self.campaign = campaign
        self.done = Done(outcome=Outcome(round=table.round) if table else None)

    def run(self, lines: list[Line]) -> Done:
        left = rolled_back = False
        for line in sorted(lines, key=lambda c: c.command.runs_last - c.command.runs_first):
            try:
                if left:  # the seat is no longer theirs to command
                    raise CommandError(say("after_leaving"))
                if rolled_back and line.command.record.decides:
                    raise CommandError(say("after_rollback"))
                if not line.command.allows(gm=self.seat is None):
                    raise CommandError(say("players_only" if self.seat is None else "gm_only"))
                with self.reading():  # the sender's language, as an earlier line left it
                    done = line.command.run(self, line.rest, line.line)
            except (CommandError, CampaignError, DeadlineError, StateDamaged) as err:
                self.done.actions.append(records.RefusedCommand(line.word, line.line, str(err)))
                continue
            self.done.actions.append(done)
            left = left or done.ends_mail
            rolled_back = rolled_back or done.rolls_back
        return self.done

    def reading(self) -> AbstractContextManager[None]:
        """Words said inside are in the sender's language."""
        seat, campaign = self.seat, self.campaign
        if seat is None:
            sender = campaign.gm
        else:  # (a seat left earlier in the mail, a `leave`, reads the campaign's language)
            sender = campaign.players[seat] if seat < len(campaign.players) else None
        return language.reading_in(campaign, sender, self.site.identity.language)

    def started(self) -> Table:
        if self.table is None:
            raise CommandError(say("not_started", campaign_id=self.campaign.id))
        return self.table

    def not_over(self) -> None:
        """Refuses a change to a game that is over: nothing in it plays on."""
        if self.table is not None and self.table.over:
            raise CommandError(say("game_over_refused", campaign_id=self.campaign.id))

    def player(self) -> Player:
        if self.seat is None:
            raise CommandError(say("players_only"))
        return self.campaign.players[self.seat]

    def person(self) -> Player:
        """Who gave the command: their seat's player, or the game master."""
        if self.seat is not None:
            return self.campaign.players[self.seat]
        if self.campaign.gm is None:  # (a campaign's commands without a seat are its gm's)
            raise CommandError(say("players_only"))
        return self.campaign.gm

    def game_master(self) -> None:
        if self.seat is not None:
            raise CommandError(say("gm_only"))


class Answer(Protocol):
    """Answers the sender of a mail: what ``kind`` of answer, its subject and paragraphs
    (``notices.Notice``); True when it was queued (not held back by the answer limits)."""

    def __call__(
        self, kind: str, subject: Said, *text: Said, reply_to: str | None = None
    ) -> bool: ...


@dataclass
class Outside:
    """A mail that names no campaign: who sent it, with which token, how to answer, and the
    help for someone who plays no game yet."""

    site: Site
    sender_name: str
    sender_address: str
    token: str | None
    answer: Answer
    help_outside: Callable[[], Said]
    now: datetime
