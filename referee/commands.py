"""The referee's own commands, beside the games' orders: for players (help, history, press,
absence, time zone, leaving a game before it starts) and for the game master (pause, resume,
extend, replace, drop, rollback, adjudicate, start, a message to all). The same functions
serve mail and the command line.

A command's effect on the campaign's settings (campaign.yaml) is written first, then the log
record that carries the command: a crash between the two leaves the settings changed and the
mail unapplied, and the mail read again finds the change made (it then says so).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from . import timekeeping
from .campaign import Campaign, CampaignError, Player, Table, new_token, parse_player
from .deadlines import MAX_ABSENCE, DeadlineError, parse_day
from .play import Outcome, adjudicate, decide_by_bot
from .records import (Absence, Action, Adjudicate, Command, Drop, Extend, Help, History, Kind,
                      Leave, Message, Pause, Record, RefusedCommand, Replace, Resume, Rollback,
                      Start, TimeZone)

PLAYER_VERBS = ("help", "history", "message", "absence", "timezone", "leave")
GM_VERBS = ("help", "history", "message", "pause", "resume", "extend", "replace", "drop",
            "rollback", "adjudicate", "start")


class CommandError(Exception):
    """A command that cannot be done; the message says why, for the sender."""


@dataclass
class Command:
    verb: str
    rest: str
    line: str


@dataclass
class Done:
    """What a batch of commands did: actions for the log record (also what the sender is
    told), and orders some of them applied (adjudication)."""

    actions: list[Action] = field(default_factory=list)
    outcome: Outcome | None = None
    rebuild: bool = False           # the table must be replayed (a rollback)


def split(lines: list[str], gm: bool) -> tuple[list[Command], list[str]]:
    """The lines that are referee commands, and the rest (the game's orders)."""
    verbs = GM_VERBS if gm else PLAYER_VERBS
    commands, orders = [], []
    for line in lines:
        verb, _, rest = line.strip().partition(" ")
        if verb.lower() in verbs:
            commands.append(Command(verb.lower(), rest.strip(), line))
        else:
            orders.append(line)
    return commands, orders


class Commands:
    """Runs commands for one sender (a seat, or the game master when seat is None)."""

    def __init__(self, site, campaign: Campaign, table: Table | None, seat: int | None,
                 now: datetime):
        self.site, self.table, self.seat, self.now = site, table, seat, now
        self.campaign = campaign
        self.done = Done(outcome=Outcome(round=table.round) if table else None)

    def _table(self) -> Table:
        if self.table is None:
            raise CommandError(f"{self.campaign.id} has not started yet")
        return self.table

    def run(self, commands: list[Command]) -> Done:
        # a drop changes the game before the orders of the record apply (as Table.follow
        # replays it): it runs first
        for command in sorted(commands, key=lambda c: c.verb != "drop"):
            try:
                done = getattr(self, f"do_{command.verb}")(command.rest, command.line)
            except (CommandError, CampaignError, DeadlineError) as err:
                self.done.actions.append(RefusedCommand(command.verb, command.line, str(err)))
                continue
            self.done.actions.append(done)
        return self.done

    # for everyone ----------------------------------------------------------------------------
    def do_help(self, rest: str, line: str) -> Command:
        return Help(line, "The orders of the game and the referee's commands are below.")

    def do_history(self, rest: str, line: str) -> Command:
        words = rest.lower().split()
        turn = None
        if words[:1] == ["turn"] and len(words) == 2 and words[1].isdigit():
            turn = int(words[1])
        elif words:
            raise CommandError("write 'history' for the whole game or 'history turn 3'")
        return History(line, "The history you asked for is below.", turn)

    def do_message(self, rest: str, line: str) -> Command:
        # the addressee is "all" or a player's whole name (which may have spaces in it)
        addressees = ["all"] + sorted((p.name for p in self.campaign.players), key=len,
                                      reverse=True)
        to = next((n for n in addressees if rest.lower().startswith(n.lower() + " ")), None)
        text = rest[len(to):].strip() if to else ""
        if not text:
            raise CommandError("write 'message all <text>' or 'message <player> <text>'; the "
                               "players are " + ", ".join(p.name for p in self.campaign.players))
        if to == "all":
            seats = [s for s in range(len(self.campaign.players)) if s != self.seat]
        else:
            seats = [self.campaign.seat_of_name(to)]
        names = [self.campaign.players[s].name for s in seats]
        sender = None if self.seat is None else self.campaign.players[self.seat].name
        return Message(line, f"Your message goes to {', '.join(names) or 'nobody'}.",
                       self.seat, sender, tuple(seats), tuple(names), to == "all", text)

    # players ---------------------------------------------------------------------------------
    def _player(self):
        if self.seat is None:
            raise CommandError("only a player can say this")
        return self.campaign.players[self.seat]

    def do_absence(self, rest: str, line: str) -> Command:
        player = self._player()
        words = rest.split()
        if len(words) != 2:
            raise CommandError("write 'absence 2026-12-24 2026-12-31' (first and last day)")
        first, last = parse_day(words[0]), parse_day(words[1])
        if last < first:
            raise CommandError("the last day of an absence comes after the first")
        if last + timedelta(days=1) - first > MAX_ABSENCE:
            raise CommandError(f"an absence is at most {MAX_ABSENCE.days} days")
        if last + timedelta(days=1) < self.now:
            raise CommandError("that absence is over already")
        player.absence = [a for a in player.absence
                          if parse_day(a[1]) + timedelta(days=1) >= self.now] + [words]
        self.campaign.save()
        return Absence(line, f"Noted: you are away from {words[0]} to {words[1]}; your "
                             f"deadlines move on by the days of it.")

    def do_timezone(self, rest: str, line: str) -> Command:
        player = self._player()
        try:
            ZoneInfo(rest.strip())
        except (ZoneInfoNotFoundError, ValueError):
            raise CommandError(f"{rest.strip()!r} is not a time zone; write one like "
                               "Europe/Berlin or America/New_York") from None
        player.timezone = rest.strip()
        self.campaign.save()
        return TimeZone(line, f"Times are shown to you in {player.timezone} from now on.")

    def do_leave(self, rest: str, line: str) -> Command:
        player = self._player()
        if self.campaign.status != "open":
            raise CommandError("the game has started: ask the game master to replace you")
        self.campaign.players.remove(player)
        self.campaign.save()
        return Leave(line, f"You have left {self.campaign.id}.")

    # the game master -------------------------------------------------------------------------
    def _gm(self) -> None:
        if self.seat is not None:
            raise CommandError("only the game master can say this")

    def do_pause(self, rest: str, line: str) -> Command:
        self._gm()
        if self.campaign.status != "running":
            raise CommandError(f"the campaign is {self.campaign.status}, not running")
        self.campaign.status = "paused"
        self.campaign.save()
        timekeeping.pause(self.campaign, self.now)
        return Pause(line, "The campaign is paused: no orders are taken and the deadlines "
                           "stand still.", self.now.isoformat())

    def do_resume(self, rest: str, line: str) -> Command:
        self._gm()
        if self.campaign.status != "paused":
            raise CommandError(f"the campaign is {self.campaign.status}, not paused")
        self.campaign.status = "running"
        self.campaign.save()
        timekeeping.resume(self.campaign, self.now)
        return Resume(line, "The campaign runs again.", self.now.isoformat())

    def do_extend(self, rest: str, line: str) -> Command:
        self._gm()
        hours = rest.split()[0] if rest.split() else "24"
        try:
            value = float(hours)
        except ValueError:
            raise CommandError("write 'extend 24' (hours)") from None
        if not 0 < value <= 24 * 14:
            raise CommandError("an extension is between 1 hour and 14 days")
        timekeeping.extend(self.campaign, value)
        return Extend(line, f"Every deadline now running moves on by {value:g} hours (at "
                            f"most 14 days in all).", value)

    def do_replace(self, rest: str, line: str) -> Command:
        self._gm()
        name, sep, new = rest.partition(" with ")
        seat = self.campaign.seat_of_name(name)
        if not sep or seat is None:
            raise CommandError("write 'replace <player> with New Name <address>'")
        new_name, address = parse_player(new)
        old = self.campaign.players[seat]
        if any(p.address == address for i, p in enumerate(self.campaign.players) if i != seat):
            raise CommandError(f"{address} plays in {self.campaign.id} already")
        self.campaign.players[seat] = Player(new_name, address, new_token())
        self.campaign.save()
        return Replace(line, f"{new_name} takes {old.name}'s seat; {old.name}'s token no "
                             f"longer works, and {new_name} has been sent a welcome with a new "
                             f"one.", seat, old.name, new_name)

    def do_drop(self, rest: str, line: str) -> Command:
        self._gm()
        seat = self.campaign.seat_of_name(rest)
        if seat is None:
            raise CommandError(f"no player {rest!r} in {self.campaign.id}")
        name = self.campaign.players[seat].name
        table = self._table()
        said = f"{name} is dropped: {table.descriptor.drop_note}."
        if table.descriptor.drop is not None:
            events = table.act(Drop(line, said, seat, name))
            return Drop(line, said, seat, name, tuple(events))
        if seat not in self.campaign.robots:
            self.campaign.robots.append(seat)
            self.campaign.save()
        return Drop(line, said, seat, name)

    def do_rollback(self, rest: str, line: str) -> Command:
        self._gm()
        if not rest.strip().isdigit() or int(rest) < 1:
            raise CommandError("write 'rollback 3' to undo the last three orders")
        count = int(rest)
        table = self._table()
        applied = [(step.record.n, i, o.text) for step in table.steps
                   for i, o in enumerate(step.record.orders)
                   if (step.record.n, i) not in table.undone]
        if count > len(applied):
            raise CommandError(f"only {len(applied)} orders can be undone")
        undone = applied[-count:]
        self.done.rebuild = True
        return Rollback(line, f"Undone: {', '.join(text for _, _, text in undone)}. The log "
                              f"keeps them, marked as undone.",
                        tuple((n, i) for n, i, _ in undone))

    def do_adjudicate(self, rest: str, line: str) -> Command:
        self._gm()
        table = self._table()
        outcome = self.done.outcome
        decided = []
        for due in table.rules.awaiting(table.state):
            if not adjudicate(table, due.seat, outcome):
                decide_by_bot(table, due.seat, outcome)
            decided.append(self.campaign.players[due.seat].name)
        if not decided:
            raise CommandError("nobody owes a decision now")
        return Adjudicate(line, "Decided now for " + ", ".join(decided) + ".")

    def do_start(self, rest: str, line: str) -> Command:
        self._gm()
        if self.campaign.status != "open":
            raise CommandError(f"the campaign is {self.campaign.status}: it started already")
        rules = self.campaign.rules
        if len(self.campaign.players) < rules.min_players:
            raise CommandError(f"{rules.title} needs {rules.min_players} players; "
                               f"{len(self.campaign.players)} have joined")
        self.site.start_campaign(self.campaign)
        return Start(line, "The game starts now; every player gets a welcome.")


def run_as_gm(site, campaign_id: str, line: str, now: datetime) -> list[Action]:
    """A game master's command from the command line: logged, answered and sent as if it
    had come by mail (without a Message-ID)."""
    campaign = site.campaign(campaign_id)
    commands, rest = split([line], gm=True)
    if rest:
        raise CommandError(f"{line!r} is not a game master's command; they are: "
                           + ", ".join(GM_VERBS))
    table = campaign.table() if campaign.status != "open" else None
    done = Commands(site, campaign, table, None, now).run(commands)
    if table is not None:
        site.commit(table, done.outcome, Record(Kind.GM, actions=tuple(done.actions)))
        if done.rebuild:
            table = site.campaign(campaign_id).table()
        site.answer(table)
    return done.actions
