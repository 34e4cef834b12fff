"""The referee's own commands, beside the games' orders, in one registry.

Each command is one small function registered with its verb, who may give it and where, and
its help (the usage and a line saying what it does), so ``help`` is generated from the
registry. Inside a campaign: for players (help, history, press, absence, time zone, leaving a
game before it starts) and for the game master (pause, resume, extend, replace, drop,
rollback, adjudicate, start, a message to all); the same functions serve mail and the command
line (``run_as_gm``). Outside any campaign, in a mail that names no game: list, join, open,
help. What a command says to its sender comes from templates/messages.txt.

A command's effect on the campaign's settings (campaign.yaml) is written first, then the log
record that carries the command: a crash between the two leaves the settings changed and the
mail unapplied, and the mail read again finds the change made (it then says so).
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from enum import Enum
from typing import Protocol
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from .. import registry
from ..files import StateDamaged
from ..mail.read import as_order, as_written
from ..mail.routing import Identity
from ..records import (
    Absence,
    Action,
    Adjudicate,
    ChoicesAsked,
    Command,
    DeadlinesSet,
    Drop,
    Extend,
    Help,
    History,
    Leave,
    Message,
    ObserversSet,
    Pause,
    RefusedCommand,
    Replace,
    Resume,
    Rollback,
    Start,
    StatusAsked,
    TimeZone,
)
from ..settings.deadlines import MAX_ABSENCE, DeadlineError, Deadlines, parse_day
from ..settings.site import Config
from ..store import snapshots
from ..store.campaign import Campaign, CampaignError, Player, Status, Table, new_token, parse_player
from ..words.render import help_text, render, say
from . import timekeeping
from .play import Outcome, adjudicate, decide_by_bot
from .timekeeping import dues


class Site(Protocol):
    """What the commands ask of the site they run on (``service.site.Site``)."""

    identity: Identity
    config: Config

    def campaign_ids(self) -> list[str]: ...

    def campaign(self, campaign_id: str) -> Campaign: ...

    def has_campaign(self, campaign_id: str) -> bool: ...

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

    def start_campaign(self, campaign: Campaign) -> Table: ...


class CommandError(Exception):
    """A command that cannot be done; the message says why, for the sender."""


class Who(Enum):
    """Who may give a command inside a campaign."""

    PLAYERS = "players"
    GAME_MASTER = "game master"
    EVERYONE = "everyone"


@dataclass(frozen=True)
class Verb:
    """A registered command: its word, its help and the function that does it."""

    name: str
    usage: str  # as the help shows it, e.g. "extend 24"
    summary: str  # what it does, in a line
    run: Callable
    who: Who = Who.EVERYONE

    def allows(self, gm: bool) -> bool:
        return self.who == Who.EVERYONE or (self.who == Who.GAME_MASTER) == gm


CAMPAIGN_VERBS: dict[str, Verb] = {}
"""Commands inside a campaign, in the order the help lists them."""
SITE_VERBS: dict[str, Verb] = {}
"""Commands in a mail for no campaign, in the order the help lists them."""


def command(
    name: str,
    usage: str,
    summary: str,
    who: Who = Who.EVERYONE,
    verbs: dict[str, Verb] = CAMPAIGN_VERBS,
) -> Callable[[Callable], Callable]:
    def register(run: Callable) -> Callable:
        verbs[name] = Verb(name, usage, summary, run, who)
        return run

    return register


def unique(verbs: dict[str, Verb]) -> list[Verb]:
    """The commands of a registry, each once (a second word for one, like ``games`` for
    ``status``, is left out)."""
    return list({v.name: v for v in verbs.values()}.values())


def help_lines(gm: bool) -> list[tuple[str, str]]:
    """(usage, summary) of every campaign command the sender may give, for the help."""
    return [(v.usage, v.summary) for v in unique(CAMPAIGN_VERBS) if v.allows(gm)]


# running commands inside a campaign ----------------------------------------------------------


@dataclass
class Line:
    """A line of a mail that is a referee command."""

    verb: str
    rest: str
    line: str


@dataclass
class Done:
    """What a batch of commands did: actions for the log record (also what the sender is
    told), and orders some of them applied (adjudication)."""

    actions: list[Action] = field(default_factory=list)
    outcome: Outcome | None = None
    rebuild: bool = False  # the table must be replayed (a rollback)


def split(lines: list[str], gm: bool) -> tuple[list[Line], list[str]]:
    """The lines that are referee commands the sender may give, and the rest (the game's
    orders)."""
    commands, orders = [], []
    for written in lines:
        line = as_written(written)
        verb, _, rest = line.partition(" ")
        known = CAMPAIGN_VERBS.get(verb.lower())
        if known is not None and known.allows(gm):
            commands.append(Line(verb.lower(), rest.strip(), line))
        else:
            orders.append(as_order(line))
    return commands, orders


class Commands:
    """Runs commands for one sender (a seat, or the game master when seat is None)."""

    def __init__(
        self, site: Site, campaign: Campaign, table: Table | None, seat: int | None, now: datetime
    ):
        self.site, self.table, self.seat, self.now = site, table, seat, now
        self.campaign = campaign
        self.done = Done(outcome=Outcome(round=table.round) if table else None)

    def run(self, lines: list[Line]) -> Done:
        # a drop changes the game before the orders of the record apply (as Table.follow
        # replays it): it runs first
        for line in sorted(lines, key=lambda c: c.verb != "drop"):
            try:
                done = CAMPAIGN_VERBS[line.verb].run(self, line.rest, line.line)
            except (CommandError, CampaignError, DeadlineError, StateDamaged) as err:
                self.done.actions.append(RefusedCommand(line.verb, line.line, str(err)))
                continue
            self.done.actions.append(done)
        return self.done

    def started(self) -> Table:
        if self.table is None:
            raise CommandError(say("not_started", campaign_id=self.campaign.id))
        return self.table

    def player(self) -> Player:
        if self.seat is None:
            raise CommandError(say("players_only"))
        return self.campaign.players[self.seat]

    def game_master(self) -> None:
        if self.seat is not None:
            raise CommandError(say("gm_only"))


# for everyone ---------------------------------------------------------------------------------


@command("help", "help", "this text")
def do_help(ctx: Commands, rest: str, line: str) -> Command:
    return Help(line, say("help"))


@command("history", "history | history turn 3", "the game so far, or one turn of it")
def do_history(ctx: Commands, rest: str, line: str) -> Command:
    words = rest.lower().split()
    turn = None
    if words[:1] == ["turn"] and len(words) == 2 and words[1].isdigit():
        turn = int(words[1])
    elif words:
        raise CommandError(say("history_usage"))
    return History(line, say("history"), turn)


@command(
    "message",
    "message all|<player>|gm <text>",
    "a message to all, to one player or to the game master",
)
def do_message(ctx: Commands, rest: str, line: str) -> Command:
    players = ctx.campaign.players
    # the addressee is "all" or a player's whole name (which may have spaces in it)
    addressees = ["all", "gm"] + sorted((p.name for p in players), key=len, reverse=True)
    to = next((n for n in addressees if rest.lower().startswith(n.lower() + " ")), None)
    text = rest[len(to) :].strip() if to else ""
    if to is None or not text:
        raise CommandError(say("message_usage", players=[p.name for p in players]))
    sender = None if ctx.seat is None else players[ctx.seat].name
    if to == "gm":
        if ctx.campaign.gm is None or ctx.seat is None:
            raise CommandError(say("no_gm_to_write_to", campaign_id=ctx.campaign.id))
        return Message(
            line, say("message_sent_gm"), ctx.seat, sender, (), (), False, text, to_gm=True
        )
    if to == "all":
        seats = [s for s in range(len(players)) if s != ctx.seat]
    else:
        seats = [s for s in range(len(players)) if players[s].name.lower() == to.lower()]
    names = [players[s].name for s in seats]
    return Message(
        line,
        say("message_sent", names=names),
        ctx.seat,
        sender,
        tuple(seats),
        tuple(names),
        to == "all",
        text,
    )


@command("status", "status | games", "every game you play: its state and what it awaits")
def do_status(ctx: Commands, rest: str, line: str) -> Command:
    address = (ctx.player() if ctx.seat is not None else game_master_of(ctx.campaign)).address
    return StatusAsked(line, status_text(ctx.site, address))


CAMPAIGN_VERBS["games"] = CAMPAIGN_VERBS["status"]


@command("choices", "choices", "every choice of your decision, one a line", Who.PLAYERS)
def do_choices(ctx: Commands, rest: str, line: str) -> Command:
    ctx.player()
    return ChoicesAsked(line, say("choices_below"))


def game_master_of(campaign: Campaign) -> Player:
    if campaign.gm is None:
        raise CommandError(say("gm_only"))
    return campaign.gm


def status_text(site: Site, address: str) -> str:
    """Every campaign ``address`` plays in (or runs): its state, its round, what it awaits
    from them and by when."""
    games = []
    for campaign_id in site.campaign_ids():
        campaign = site.campaign(campaign_id)
        seat = campaign.seat_of_address(address)
        runs = campaign.gm is not None and campaign.gm.address == address.lower()
        if seat is None and not runs:
            continue
        game: dict = {"id": campaign.id, "title": campaign.rules.title}
        game.update(status=str(campaign.status), round=None, awaited=None, due=None)
        game["gm"] = runs and seat is None
        if campaign.status != Status.OPEN:
            table = snapshots.load(campaign)  # its snapshot, not its whole log
            game["round"] = table.round
            if seat is not None:
                prompt = next((d.prompt for d in table.awaiting if d.seat == seat), None)
                game.update(awaited=prompt, due=dues(table).get(seat))
        games.append(game)
    return say("status", games=games)


# players ----------------------------------------------------------------------------------------


@command(
    "absence",
    "absence 2026-12-24 2026-12-31",
    "away: your deadlines move on by those days",
    Who.PLAYERS,
)
def do_absence(ctx: Commands, rest: str, line: str) -> Command:
    player = ctx.player()
    words = rest.split()
    if len(words) != 2:
        raise CommandError(say("absence_usage"))
    first, last = parse_day(words[0]), parse_day(words[1])
    if last < first:
        raise CommandError(say("absence_backwards"))
    if last + timedelta(days=1) - first > MAX_ABSENCE:
        raise CommandError(say("absence_too_long", days=MAX_ABSENCE.days))
    if last + timedelta(days=1) < ctx.now:
        raise CommandError(say("absence_over"))
    player.absence = [
        a for a in player.absence if parse_day(a[1]) + timedelta(days=1) >= ctx.now
    ] + [words]
    ctx.campaign.save()
    return Absence(line, say("absence_noted", first=words[0], last=words[1]))


@command(
    "timezone", "timezone Europe/Berlin", "times shown to you in your own time zone", Who.PLAYERS
)
def do_timezone(ctx: Commands, rest: str, line: str) -> Command:
    player = ctx.player()
    zone = rest.strip()
    try:
        ZoneInfo(zone)
    except (ZoneInfoNotFoundError, ValueError):
        raise CommandError(say("no_such_zone", zone=zone)) from None
    player.timezone = zone
    ctx.campaign.save()
    return TimeZone(line, say("timezone_set", zone=zone))


@command("leave", "leave", "leave a game that has not started yet", Who.PLAYERS)
def do_leave(ctx: Commands, rest: str, line: str) -> Command:
    player = ctx.player()
    if ctx.campaign.status != Status.OPEN:
        raise CommandError(say("leave_too_late"))
    ctx.campaign.players.remove(player)
    ctx.campaign.save()
    return Leave(line, say("left", campaign_id=ctx.campaign.id))


# the game master --------------------------------------------------------------------------------


def switch_status(ctx: Commands, wanted: Status, new: Status) -> None:
    """The game master moves the campaign from ``wanted`` to ``new`` (pause, resume)."""
    ctx.game_master()
    if ctx.campaign.status != wanted:
        raise CommandError(say("not_in_status", status=ctx.campaign.status, wanted=wanted))
    ctx.campaign.status = new
    ctx.campaign.save()


@command("pause", "pause", "stop the game and its deadlines", Who.GAME_MASTER)
def do_pause(ctx: Commands, rest: str, line: str) -> Command:
    switch_status(ctx, Status.RUNNING, Status.PAUSED)
    timekeeping.pause(ctx.campaign, ctx.now)
    return Pause(line, say("paused"), ctx.now.isoformat())


@command("resume", "resume", "go on again after a pause", Who.GAME_MASTER)
def do_resume(ctx: Commands, rest: str, line: str) -> Command:
    switch_status(ctx, Status.PAUSED, Status.RUNNING)
    timekeeping.resume(ctx.campaign, ctx.now)
    return Resume(line, say("resumed"), ctx.now.isoformat())


@command("extend", "extend 24", "every running deadline moves on 24 hours", Who.GAME_MASTER)
def do_extend(ctx: Commands, rest: str, line: str) -> Command:
    ctx.game_master()
    hours = rest.split()[0] if rest.split() else "24"
    try:
        value = float(hours)
    except ValueError:
        raise CommandError(say("extend_usage")) from None
    if not 0 < value <= 24 * 14:
        raise CommandError(say("extend_range"))
    timekeeping.extend(ctx.campaign, value, ctx.table, ctx.now)
    return Extend(line, say("extended", hours=f"{value:g}"), value)


@command(
    "deadlines",
    "deadlines hours=48 policy=bot",
    "change the deadline settings (hours, times, policy, ...)",
    Who.GAME_MASTER,
)
def do_deadlines(ctx: Commands, rest: str, line: str) -> Command:
    ctx.game_master()
    try:
        words = dict(w.split("=", 1) for w in rest.split())
    except ValueError:
        raise CommandError(say("deadlines_usage")) from None
    changed = deadline_settings(words)
    if not changed or words:
        raise CommandError(say("deadlines_usage"))
    settings = {**(ctx.campaign.settings.get("deadlines") or {}), **changed}
    Deadlines.from_settings(settings)  # the whole, as the campaign will read it
    ctx.campaign.settings["deadlines"] = settings
    ctx.campaign.save()
    return DeadlinesSet(line, say("deadlines_set", settings=rest.strip()), rest.strip())


@command(
    "observers",
    "observers off",
    "keep observers out (those watching are dropped and told), or 'observers on'",
    Who.GAME_MASTER,
)
def do_observers(ctx: Commands, rest: str, line: str) -> Command:
    ctx.game_master()
    word = rest.strip().lower()
    if word not in ("on", "off"):
        raise CommandError(say("observers_usage"))
    settings = ctx.campaign.settings
    allowed = word == "on"
    dropped = () if allowed else tuple(settings.get("observers") or ())
    settings["no_observers"] = not allowed
    if dropped:
        settings["observers"] = []
    ctx.campaign.save()
    return ObserversSet(line, say("observers_set", allowed=allowed), allowed, dropped)


@command(
    "replace",
    "replace Bob with Ann Lee <ann@example.org>",
    "a new player takes the seat",
    Who.GAME_MASTER,
)
def do_replace(ctx: Commands, rest: str, line: str) -> Command:
    ctx.game_master()
    name, sep, new = rest.partition(" with ")
    seat = ctx.campaign.seat_of_name(name)
    if not sep or seat is None:
        raise CommandError(say("replace_usage"))
    new_name, address = parse_player(new)
    old = ctx.campaign.players[seat]
    if any(p.address == address for i, p in enumerate(ctx.campaign.players) if i != seat):
        raise CommandError(say("plays_already", address=address, campaign_id=ctx.campaign.id))
    # the newcomer takes over the seat as it is, with what its first player chose when
    # joining (a company, colours): the game replays from them
    ctx.campaign.players[seat] = Player(new_name, address, new_token(), signup=dict(old.signup))
    ctx.campaign.save()
    # the game holds the seats' names: replayed, it names the newcomer in every later mail,
    # map and the result (and its snapshot, keyed on the names, is not saved with the old one)
    ctx.done.rebuild = ctx.table is not None
    return Replace(
        line, say("replaced", old=old.name, new=new_name), seat, old.name, new_name, old.address
    )


@command("drop", "drop Bob", "the game's rule for it, or a bot plays on", Who.GAME_MASTER)
def do_drop(ctx: Commands, rest: str, line: str) -> Command:
    ctx.game_master()
    seat = ctx.campaign.seat_of_name(rest)
    if seat is None:
        raise CommandError(say("no_such_player", name=rest, campaign_id=ctx.campaign.id))
    name = ctx.campaign.players[seat].name
    table = ctx.started()
    said = say("dropped", name=name, note=table.descriptor.drop_note)
    if table.descriptor.drop is not None:
        events = table.act(Drop(line, said, seat, name))
        return Drop(line, said, seat, name, tuple(events))
    if seat not in ctx.campaign.robots:
        ctx.campaign.robots.append(seat)
        ctx.campaign.save()
    return Drop(line, said, seat, name)


@command("rollback", "rollback 3", "undo the last 3 orders (the log keeps them)", Who.GAME_MASTER)
def do_rollback(ctx: Commands, rest: str, line: str) -> Command:
    ctx.game_master()
    if not rest.strip().isdigit() or int(rest) < 1:
        raise CommandError(say("rollback_usage"))
    count = int(rest)
    table = ctx.started()
    if ctx.campaign.status == Status.FINISHED:
        raise CommandError(say("rollback_finished"))
    applied = [
        (step.record.n, i, o.text)
        for step in table.steps
        for i, o in enumerate(step.record.orders)
        if (step.record.n, i) not in table.undone
    ]
    if count > len(applied):
        raise CommandError(say("rollback_too_many", count=len(applied)))
    undone = applied[-count:]
    ctx.done.rebuild = True
    return Rollback(
        line,
        say("rolled_back", texts=[text for _, _, text in undone]),
        tuple((n, i) for n, i, _ in undone),
    )


@command("adjudicate", "adjudicate", "decide now for everyone awaited", Who.GAME_MASTER)
def do_adjudicate(ctx: Commands, rest: str, line: str) -> Command:
    ctx.game_master()
    table = ctx.started()
    outcome = ctx.done.outcome
    assert outcome is not None  # a started campaign's commands have one
    decided = []
    for due in table.awaiting:
        if not adjudicate(table, due.seat, outcome):
            decide_by_bot(table, due.seat, outcome)
        decided.append(ctx.campaign.players[due.seat].name)
    if not decided:
        raise CommandError(say("nobody_awaited"))
    return Adjudicate(line, say("adjudicated", names=decided))


@command("start", "start", "start an open game before it is full", Who.GAME_MASTER)
def do_start(ctx: Commands, rest: str, line: str) -> Command:
    ctx.game_master()
    if ctx.campaign.status != Status.OPEN:
        raise CommandError(say("started_already", status=ctx.campaign.status))
    rules = ctx.campaign.rules
    if len(ctx.campaign.players) < rules.min_players:
        raise CommandError(
            say(
                "too_few",
                title=rules.title,
                needed=rules.min_players,
                joined=len(ctx.campaign.players),
            )
        )
    ctx.site.start_campaign(ctx.campaign)
    return Start(line, say("started"))


# outside any campaign -------------------------------------------------------------------------


class Answer(Protocol):
    """Sends the sender of a mail a short answer (a notice)."""

    def __call__(
        self, subject: str, text: str, to: str | None = None, reply_to: str | None = None
    ) -> None: ...


@dataclass
class Outside:
    """A mail that names no campaign: who sent it, with which token, and how to answer."""

    site: Site
    sender_name: str
    sender_address: str
    token: str | None
    answer: Answer


def run_outside(ctx: Outside, lines: list[str]) -> None:
    """The first site command of the mail (open before join before list before help, so a
    mail that quotes the help text does the one thing asked for), or the notice that the
    mail named no game."""
    words = [line.lower().split() for line in lines]
    for word, verb in SITE_VERBS.items():
        line = next((line for line, w in zip(lines, words) if w[:1] == [word]), None)
        if line is not None:
            verb.run(ctx, line.strip()[len(word) :].strip(), line)
            return
    if status_text(ctx.site, ctx.sender_address) != say("status", games=[]):
        # a registered player's fresh mail: the games they play, and how to reach each
        do_site_status(ctx, "", "status")
        return
    ctx.answer(say("subject_no_game"), say("no_game_named"))


def no_such_game(ctx: Outside, campaign_id: str) -> None:
    """The mail named a campaign this site does not have."""
    shown = campaign_id if re.fullmatch(r"[a-z0-9-]{1,32}", campaign_id) else ""
    ctx.answer(say("subject_no_such_game"), say("no_such_game", campaign_id=shown))


@command(
    "open",
    "open <game> <id> <seats> [KEY=VALUE]",
    "open a game for sign-up (game masters)",
    verbs=SITE_VERBS,
)
def do_open(ctx: Outside, rest: str, line: str) -> None:
    expected = ctx.site.config.game_master_token(ctx.sender_address)
    if not (expected and ctx.token and secrets.compare_digest(expected, ctx.token)):
        ctx.answer(say("subject_not_opened"), say("open_gm_only"))
        return
    words = rest.split()
    try:
        game, campaign_id, seats = words[0].lower(), words[1].lower(), int(words[2])
        options = dict(w.split("=", 1) for w in words[3:])
    except (IndexError, ValueError):
        ctx.answer(say("subject_not_opened"), say("open_usage"))
        return
    try:
        deadlines = deadline_settings(options)
    except DeadlineError as err:
        ctx.answer(say("subject_not_opened"), str(err))
        return
    try:
        campaign = ctx.site.new_campaign(
            game,
            campaign_id,
            [],
            options=options,
            seats=seats,
            gm=f"{ctx.sender_name or 'Game master'} <{ctx.sender_address}>",
            settings={"deadlines": deadlines} if deadlines else None,
        )
    except CampaignError as err:
        ctx.answer(say("subject_not_opened"), str(err))
        return
    assert campaign.gm is not None
    identity = ctx.site.identity
    ctx.answer(
        say("subject_opened", campaign_id=campaign.id),
        say(
            "opened",
            campaign_id=campaign.id,
            title=campaign.rules.title,
            seats=seats,
            referee=identity.address,
            gm_address=identity.plus(campaign.id, campaign.gm.token),
            deadlines=deadlines,
        ),
    )


@command(
    "join",
    "join <game> as <your name> [choices]",
    "take a seat in a game open for sign-up (its help names the choices it asks for)",
    verbs=SITE_VERBS,
)
def do_join(ctx: Outside, rest: str, line: str) -> None:
    words = join_words(rest)
    campaign_id = words[0].lower() if words else ""
    campaign = ctx.site.campaign(campaign_id) if ctx.site.has_campaign(campaign_id) else None
    if campaign is None or campaign.status != Status.OPEN:
        ctx.answer(
            say("subject_not_joined"),
            say("no_open_game", campaign_id=campaign_id) + "\n\n" + open_games(ctx.site),
        )
        return
    existing = campaign.seat_of_address(ctx.sender_address)
    try:
        name, signup = read_signup(campaign, words[1:], existing)
        player = (
            campaign.players[existing]
            if existing is not None
            else campaign.add_player(
                name or ctx.sender_name or ctx.sender_address.partition("@")[0],
                ctx.sender_address,
            )
        )
    except CampaignError as err:
        ctx.answer(say("subject_not_joined_game", campaign_id=campaign_id), str(err))
        return
    player.signup.update(signup)
    campaign.save()
    address = ctx.site.identity.plus(campaign.id, player.token)
    full = len(campaign.players) == campaign.seats
    ctx.answer(
        say("subject_joined", campaign_id=campaign.id),
        say(
            "joined",
            name=player.name,
            campaign_id=campaign.id,
            title=campaign.rules.title,
            token=player.token,
            address=address,
            full=full,
            seats=campaign.seats,
            joined=len(campaign.players),
        )
        + signup_note(campaign, player, started=full),
        reply_to=address,
    )
    if full:
        ctx.site.start_campaign(campaign)


def join_words(text: str) -> list[str]:
    """The words of a join line; a name in double quotes (straight or curly) is one word."""
    text = re.sub("[\u201c\u201d\u201e]", '"', text)
    return [quoted or word for quoted, word in re.findall(r'"([^"]*)"|(\S+)', text)]


def read_signup(campaign: Campaign, words: list[str], seat: int | None) -> tuple[str, dict]:
    """A join line after the game's id: 'as <name>', then the choices the game asks for
    (``GameDescriptor.signup``), each its keyword and its value, e.g. company "Vale Motors"
    colours red,blue. Returns the name (or "") and the choices read; CampaignError says what
    is wrong with one."""
    choices = campaign.descriptor.signup
    keyword = {w: c for c in choices for w in (c.word, *c.aliases)}
    name: list[str] = []
    given: dict[str, list[str]] = {}
    current = None
    for i, word in enumerate(words):
        if i == 0 and word.lower() == "as":
            continue
        if word.lower() in keyword:
            current = keyword[word.lower()]
            given[current.word] = []
        elif current is not None:
            given[current.word].append(word)
        elif words[:1] and words[0].lower() == "as":
            name.append(word)
    read: dict = {}
    for choice in choices:
        if choice.word not in given:
            continue
        try:
            value = choice.read(" ".join(given[choice.word]))
        except ValueError as err:
            raise CampaignError(f"{choice.word}: {err}") from None
        others = [p for s, p in enumerate(campaign.players) if s != seat]
        if choice.distinct and any(
            str(p.signup.get(choice.word, "")).lower() == str(value).lower() for p in others
        ):
            raise CampaignError(f"{choice.word} {value} is taken in {campaign.id}: choose another")
        read[choice.word] = value
    return " ".join(name), read


def signup_note(campaign: Campaign, player: Player, started: bool) -> str:
    """What the player chose when joining, and, until the game starts, what more they may
    choose, for a game that asks."""
    choices = campaign.descriptor.signup
    if not choices:
        return ""
    chosen = [
        (c.word, ", ".join(v) if isinstance(v, list) else str(v))
        for c in choices
        if (v := player.signup.get(c.word)) is not None
    ]
    return " " + say(
        "signup_chosen",
        chosen=chosen,
        offered=[]
        if started
        else [(c.word, c.example, c.summary) for c in choices if c.word not in player.signup],
        campaign_id=campaign.id,
    )


@command("list", "list", "the games open for sign-up", verbs=SITE_VERBS)
def do_list(ctx: Outside, rest: str, line: str) -> None:
    ctx.answer(say("subject_open_games"), open_games(ctx.site))


@command(
    "status",
    "status | games",
    "every game you play, from the address you play with",
    verbs=SITE_VERBS,
)
def do_site_status(ctx: Outside, rest: str, line: str) -> None:
    ctx.answer(say("subject_status"), status_text(ctx.site, ctx.sender_address))


SITE_VERBS["games"] = SITE_VERBS["status"]


@command(
    "observe",
    "observe <game> | unobserve <game>",
    "get each round's report of a game you do not play",
    verbs=SITE_VERBS,
)
def do_observe(ctx: Outside, rest: str, line: str) -> None:
    campaign_id = rest.split()[0].lower() if rest.split() else ""
    if not campaign_id:
        ctx.answer(say("subject_help"), say("observe_usage"))
        return
    if not ctx.site.has_campaign(campaign_id):
        no_such_game(ctx, campaign_id)
        return
    campaign = ctx.site.campaign(campaign_id)
    if campaign.config.no_observers:
        ctx.answer(
            say("subject_observing", campaign_id=campaign.id),
            say("no_observers", campaign_id=campaign.id),
        )
        return
    observers = list(campaign.config.observers)
    if ctx.sender_address not in observers:
        observers.append(ctx.sender_address)
    campaign.settings["observers"] = observers
    campaign.save()
    ctx.answer(
        say("subject_observing", campaign_id=campaign.id), say("observing", campaign_id=campaign.id)
    )


@command("unobserve", "unobserve <game>", "stop observing a game", verbs=SITE_VERBS)
def do_unobserve(ctx: Outside, rest: str, line: str) -> None:
    campaign_id = rest.split()[0].lower() if rest.split() else ""
    if not ctx.site.has_campaign(campaign_id):
        no_such_game(ctx, campaign_id)
        return
    campaign = ctx.site.campaign(campaign_id)
    observers = list(campaign.config.observers)
    campaign.settings["observers"] = [a for a in observers if a != ctx.sender_address]
    campaign.save()
    ctx.answer(
        say("subject_observing", campaign_id=campaign.id),
        say("not_observing", campaign_id=campaign.id),
    )


@command("help", "help", "how to play by mail", verbs=SITE_VERBS)
def do_site_help(ctx: Outside, rest: str, line: str) -> None:
    ctx.answer(say("subject_help"), help_outside())


DEADLINE_KEYS: dict[str, Callable[[str], object]] = {
    "hours": float,
    "policy": str,
    "timezone": str,
    "times": lambda v: v.split(","),
    "remind_hours": float,
    "grace_minutes": float,
    "min_hours": float,
    "weekdays_only": lambda v: v.lower() in ("1", "yes", "true"),
}


def deadline_settings(options: dict[str, str]) -> dict:
    """The deadline settings among an `open` line's KEY=VALUE words (taken out of
    ``options``, which keeps the game's own), checked as the campaign will read them."""
    found = {}
    for key in [k for k in options if k.lower() in DEADLINE_KEYS]:
        value = options.pop(key)
        try:
            found[key.lower()] = DEADLINE_KEYS[key.lower()](value)
        except ValueError:
            raise DeadlineError(say("bad_deadline_value", key=key, value=value)) from None
    Deadlines.from_settings(found)
    return found


def open_games(site: Site) -> str:
    games = []
    for campaign_id in site.campaign_ids():
        campaign = site.campaign(campaign_id)
        if campaign.status == Status.OPEN and campaign.seats is not None:
            games.append(
                {
                    "id": campaign.id,
                    "title": campaign.rules.title,
                    "free": campaign.seats - len(campaign.players),
                    "seats": campaign.seats,
                    "signup": " ".join(f"{c.word} {c.example}" for c in campaign.descriptor.signup),
                }
            )
    return say("open_games", games=games)


def help_outside() -> str:
    """The help for someone who plays no game yet: every game's and every command's."""
    return render(
        "help-outside.txt",
        titles=[registry.get(g).title for g in registry.names()],
        games=[help_text(g) for g in registry.names()],
        site_commands=[(v.usage, v.summary) for v in unique(SITE_VERBS)],
        commands=help_lines(gm=False),
    ).rstrip()
