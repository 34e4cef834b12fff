"""The campaign log's record format: the one place that says what a line of log.jsonl holds.

The log is the source of truth: a campaign is rebuilt from (campaign.yaml, log.jsonl). Each
line is one JSON object, one ``Record``:

    n, at, hash     its number (1, 2, ...), when it was written (UTC), and its link in the
                    hash chain (see ``campaign.record_hash``)
    v               the format version; absent in records written before version 2 (they
                    read the same: version 2 only added the field)
    kind            who gave it (``Kind``): a mail, the referee itself, the game master
                    from the command line
    orders          [seat, text, how]: the orders applied, in order (``How`` says how)
    queues          {seat: [entry, ...]}: players' kept orders as they stand after it
    refused         orders refused when their decision came, and the kept orders dropped
                    with them
    actions         the referee's commands it carried, as they ran (``Command`` and its
                    kinds below), or as they were refused (``RefusedCommand``)
    missed          deadlines that passed, and what the campaign's policy did
    a mail's record also has: message_id, from, seat (None: the game master), subject,
                    ignored (lines passed over) and bad_lines ([line, reason]: lines not
                    understood, so none of the mail's orders were used); a player's mail
                    also date (its Date header, UTC, when it had one) and body (a digest
                    of its text, when it had lines to read), by which an old mail sent
                    anew is known (both absent in older records, and in refused mails)

``Record.from_json(Record.to_json(r)) == r``, and ``to_json(from_json(d)) == d`` for every
record a log holds, of either version, so the hash of a record read back still checks.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, ClassVar, Protocol

from .contract import GameDescriptor, OwnDrop, Say, Words
from .files import whole

FORMAT_VERSION = 2


class RecordError(ValueError):
    """A log line that is not a record of this format; the message says what is wrong."""


class Kind(StrEnum):
    """Who gave a record."""

    MAIL = "mail"  # a mail from a player or the game master
    REFEREE = "referee"  # the referee: kept orders, forced moves, bots, deadlines
    GM = "gm"  # the game master from the command line (`referee gm`)


class How(StrEnum):
    """How an applied order came to be given."""

    MAIL = "mail"  # in the mail of the record
    QUEUE = "queue"  # kept from an earlier mail, used when its decision came
    FORCED = "forced"  # the only legal choice, taken by the referee
    BOT = "bot"  # the bot, for a dropped player or a missed deadline
    MISSED = "missed"  # the game's own rule for a missed decision


@dataclass(frozen=True)
class AppliedOrder:
    seat: int
    text: str
    how: How

    def to_json(self) -> list:
        return [self.seat, self.text, str(self.how)]

    @classmethod
    def from_json(cls, data: Any) -> AppliedOrder:
        seat, text, how = data
        return cls(int(seat), str(text), How(how))


@dataclass(frozen=True)
class RefusedOrder:
    """A kept order its decision refused, with the rest of that queue dropped. The log
    keeps its reason in English (``str()`` of the game's ``Say``), as it always has."""

    seat: int
    text: str
    reason: str | Say
    dropped: tuple[str, ...] = ()

    def to_json(self) -> dict:
        return {
            "seat": self.seat,
            "text": self.text,
            "reason": str(self.reason),
            "dropped": list(self.dropped),
        }

    @classmethod
    def from_json(cls, data: Any) -> RefusedOrder:
        return cls(
            int(data["seat"]),
            str(data["text"]),
            str(data["reason"]),
            tuple(data.get("dropped", ())),
        )


MISSED_POLICIES = {
    "bot": "the bot decided for them",
    "rules": "adjudicated by the game's missed-order rules",
    "wait": "the game waits for the game master",
}
"""What each policy did for a missed deadline, as the log and the deadline book keep it in
English ("the bot decided for them: build house 10"): what it chose follows after ": "."""


def missed_done(done: str) -> tuple[str | None, str]:
    """A missed deadline's ``done`` as kept: the policy that acted ("bot", "rules", "wait";
    None for words of no policy) and what it chose ("" for nothing), for the reports to
    word in their reader's language and person."""
    said, _, chosen = done.partition(": ")
    policy = next((key for key, words in MISSED_POLICIES.items() if words == said), None)
    return (policy, chosen) if policy else (None, done)


@dataclass(frozen=True)
class MissedDeadline:
    seat: int
    due: str  # when it was due, UTC
    done: str  # what the campaign's policy did, for the reports (``missed_done``)

    def to_json(self) -> dict:
        return {"seat": self.seat, "due": self.due, "done": self.done}

    @classmethod
    def from_json(cls, data: Any) -> MissedDeadline:
        return cls(int(data["seat"]), str(data["due"]), str(data["done"]))


@dataclass(frozen=True)
class BadLine:
    """A line that is no order as written, and why (kept in English in the log, as
    ``RefusedOrder``'s reason)."""

    line: str
    reason: str | Say

    def to_json(self) -> list:
        return [self.line, str(self.reason)]

    @classmethod
    def from_json(cls, data: Any) -> BadLine:
        line, reason = data
        return cls(str(line), str(reason))


# who hears of a record, and in which words ---------------------------------------------------


GAME_MASTER = None
"""A letter's ``to`` for the campaign's game master."""


@dataclass(frozen=True)
class Letter:
    """One mail to send, as plain values: its ``kind`` names the words that write it
    (``service.answers``), ``to`` the seat it goes to (``GAME_MASTER``: the campaign's game
    master), or ``address`` someone outside the seats (an observer, a replaced player); ``key``
    makes it one of its kind (its Message-ID); ``record`` and ``index`` are the record and
    the action it tells of. A report or an answer to a player also says which of the
    player's mails it answers (``reads``), from which record on it tells what happened
    (``since``), whether the picture of the map goes along, whether a short notice asks
    for the player's decision again, and whether a reminder tells a due time moved on (its
    clock stood still)."""

    kind: str
    to: int | None = GAME_MASTER
    key: tuple = ()
    record: int = 0
    index: int = 0
    address: str = ""
    reads: tuple[int, ...] = ()
    since: int = 0
    pictured: bool = False
    asks: bool = False
    moved: bool = False


# the referee's commands, as the log keeps them ------------------------------------------------


class Replaying(Protocol):
    """What a command changes at a table as it runs and as replay runs it again."""

    descriptor: GameDescriptor
    state: Any
    queues: dict[int, list[str]]

    def hand_over(self, handover: Handover) -> None:
        """The seat's next holder plays on under their own name."""


@dataclass(frozen=True)
class Handover:
    """A seat passing to its next holder: a newcomer who replaces a player, or the bot
    that plays a dropped player's seat. What the seat did before stays its earlier
    holder's."""

    seat: int
    before: str  # the name it was held under until then
    after: str  # the next holder's name
    bot: bool = False


def bot_name(name: str) -> str:
    """How the bot that plays a dropped player's seat is named in the game."""
    return f"{name}'s bot"


@dataclass(frozen=True)
class Command:
    """A referee command that ran: the line it came from and what its sender was told.
    Each kind adds what replay, the reports and the history need of it."""

    verb: ClassVar[str] = ""
    # how it is told (``service.answers``), declared here with the command:
    tells_everyone: ClassVar[bool] = False  # every player gets a report of it at once
    brief: ClassVar[bool] = False  # when it is all that happened: a short mail, no map
    asks_again: ClassVar[bool] = False  # the awaited players are asked for their decision anew
    wants: ClassVar[str] = ""  # what its sender's answer shows besides: help, history, choices
    refused: ClassVar[bool] = False  # it ran (a ``RefusedCommand`` did not)
    ends_mail: ClassVar[bool] = False  # nothing after it in its mail is done (leave)
    rolls_back: ClassVar[bool] = False  # it undoes orders (see ``undoing``)
    # it decides or undoes orders on the game as its mail found it: beside a rollback in one
    # mail it would be decided on the game before it and replayed on the game after it
    decides: ClassVar[bool] = False
    line: str
    said: str

    def letters(self, record: Record, index: int) -> list[Letter]:
        """The mails of their own it calls for, beside its sender's answer (the record's
        ``index``-th action)."""
        return []

    def answer(self, status: str) -> str:
        """What its sender is told of it: ``said``, or for a command answered from the game
        as told (``status``), that."""
        return self.said

    def undoing(self) -> tuple[tuple[int, int], ...]:
        """The orders it undid: (record number, index in its orders)."""
        return ()

    def told(self) -> list[Say]:
        """What it puts on the record of the game, as the history tells it (worded in each
        reader's language)."""
        return []

    def effects(self) -> list[Words]:
        """What it did to the game itself, as the game's events."""
        return []

    def handover(self) -> Handover | None:
        """The seat it hands to a next holder, if it does."""
        return None

    def gave_away(self) -> str:
        """The address of the player whose seat it gave to someone else, if it did."""
        return ""

    def replay(self, table: Replaying) -> list[Words]:
        """What it does to the game at the table, as it runs and again at each replay:
        the game's events. Most commands leave the game as it is; one that hands a seat
        over has the next holder play under their name from here on."""
        handover = self.handover()
        if handover is not None:
            table.hand_over(handover)
        return []

    def to_json(self) -> dict:
        data: dict[str, Any] = {}
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            if f.metadata.get("added") and value == f.default:
                continue  # a field added later is written only when it says something
            if f.name not in ("line", "said"):
                data[f.metadata.get("json", f.name)] = _plain(value)
        return {**data, "said": self.said, "action": self.verb, "line": self.line}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Command:
        values = {
            f.name: _typed(f.type, data[f.metadata.get("json", f.name)])
            for f in dataclasses.fields(cls)
            # older records go without a field added later (it keeps its default)
            if f.metadata.get("json", f.name) in data or not f.metadata.get("added")
        }
        return cls(**values)


def _words(value: Any, what: str) -> str | None:
    """A field of text written only when it says something: absent, or text."""
    if value is not None and (not isinstance(value, str) or not value):
        raise ValueError(f"{what} {value!r} where text belongs")
    return value


def _plain(value: Any) -> Any:
    if isinstance(value, Say):  # a game's words: the log keeps them in English, as it always has
        return str(value)
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    return value


def _typed(annotation: Any, value: Any) -> Any:
    """A JSON value as the field's type: lists become tuples (records are immutable)."""
    if isinstance(value, list):
        return tuple(_typed(None, v) for v in value)
    return value


@dataclass(frozen=True)
class Help(Command):
    verb = "help"
    wants = "help"


@dataclass(frozen=True)
class History(Command):
    verb = "history"
    wants = "history"
    turn: int | None = None


@dataclass(frozen=True)
class Message(Command):
    """Press: a message from a player (or the game master, seat None) to other players."""

    verb = "message"
    sender: int | None = field(default=None, metadata={"json": "from"})
    sender_name: str | None = field(default=None, metadata={"json": "from_name"})
    to: tuple[int, ...] = ()
    to_names: tuple[str, ...] = ()
    everyone: bool = False
    text: str = ""
    # to the game master (the seats in ``to`` are then none)
    to_gm: bool = field(default=False, metadata={"added": True})

    def letters(self, record: Record, index: int) -> list[Letter]:
        to: list[int | None] = [GAME_MASTER] if self.to_gm else []
        return [
            Letter(
                "press", seat, (record.n, index, "gm" if seat is None else seat), record.n, index
            )
            for seat in [*to, *self.to]
        ]

    def told(self) -> list[Say]:
        # names as they were when it was sent; a private message keeps its words private
        if self.everyone:
            if self.sender_name:
                return [
                    Say("{who} to everyone: {text}", {"who": self.sender_name, "text": self.text})
                ]
            return [Say("The game master to everyone: {text}", {"text": self.text})]
        if not self.to_names:
            return [Say("{who} wrote to the game master (private).", {"who": self.sender_name})]
        to = ", ".join(self.to_names)
        if self.sender_name:
            return [Say("{who} wrote to {to} (private).", {"who": self.sender_name, "to": to})]
        return [Say("The game master wrote to {to} (private).", {"to": to})]


@dataclass(frozen=True)
class StatusAsked(Command):
    """A player asked for the games they play: answered as the mail is told, after every
    line of the tick (``said`` keeps what it was when the mail was read)."""

    verb = "status"
    wants = "status"

    def answer(self, status: str) -> str:
        return status or self.said


@dataclass(frozen=True)
class ChoicesAsked(Command):
    """A player asked for every choice of their decision, ungrouped."""

    verb = "choices"
    wants = "choices"


@dataclass(frozen=True)
class Absence(Command):
    verb = "absence"


@dataclass(frozen=True)
class TimeZone(Command):
    verb = "timezone"


@dataclass(frozen=True)
class LanguageSet(Command):
    """A player, or the game master, chose the language their mail is written in
    (``language de``)."""

    verb = "language"


@dataclass(frozen=True)
class MailSet(Command):
    """A player chose how much mail they get (``mail digest|each|brief``)."""

    verb = "mail"


@dataclass(frozen=True)
class Leave(Command):
    verb = "leave"
    ends_mail = True


@dataclass(frozen=True)
class Pause(Command):
    verb = "pause"
    tells_everyone = brief = True
    at: str = ""

    def told(self) -> list[Say]:
        return [Say("The game master pauses the campaign.")]


@dataclass(frozen=True)
class Resume(Command):
    verb = "resume"
    tells_everyone = brief = asks_again = True
    at: str = ""

    def told(self) -> list[Say]:
        return [Say("The game master resumes the campaign.")]


@dataclass(frozen=True)
class Extend(Command):
    verb = "extend"
    tells_everyone = brief = True
    hours: float = 0.0

    def told(self) -> list[Say]:
        hours = f"{self.hours:g}"
        return [Say("The game master extends the deadlines by {hours} hours.", {"hours": hours})]


@dataclass(frozen=True)
class DeadlinesSet(Command):
    """The game master changed the campaign's deadline settings (kept in campaign.yaml)."""

    verb = "deadlines"
    tells_everyone = brief = True
    settings: str = ""  # as written: "hours=24 policy=bot"

    def told(self) -> list[Say]:
        return [Say("The game master sets the deadlines: {settings}.", {"settings": self.settings})]


@dataclass(frozen=True)
class ObserversSet(Command):
    """The game master opened the campaign to observers or closed it (kept in
    campaign.yaml); a closing drops those watching, who are told."""

    verb = "observers"
    tells_everyone = brief = True
    allowed: bool = True
    dropped: tuple[str, ...] = ()  # the observers' addresses

    def letters(self, record: Record, index: int) -> list[Letter]:
        return [
            Letter("observing_ended", key=(record.n, number), record=record.n, address=address)
            for number, address in enumerate(self.dropped)
        ]

    def told(self) -> list[Say]:
        if self.allowed:
            return [Say("The game master opens the game to observers.")]
        return [Say("The game master closes the game to observers.")]


@dataclass(frozen=True)
class Replace(Command):
    verb = "replace"
    tells_everyone = brief = True
    seat: int = 0
    old: str = ""
    new: str = ""
    old_address: str = field(default="", metadata={"added": True})  # to tell them

    def letters(self, record: Record, index: int) -> list[Letter]:
        """The newcomer's welcome, and the player replaced told at the address they played
        from."""
        welcome = Letter("welcome", self.seat, (str(record.n),), record.n, index)
        if not self.old_address:
            return [welcome]
        told = Letter("replaced", None, (record.n, self.seat), record.n, index, self.old_address)
        return [welcome, told]

    def told(self) -> list[Say]:
        return [Say("{new} takes {old}'s seat.", {"new": self.new, "old": self.old})]

    def handover(self) -> Handover:
        return Handover(self.seat, self.old, self.new)

    def gave_away(self) -> str:
        return self.old_address


@dataclass(frozen=True)
class Drop(Command):
    """A player dropped: by the game's own rule (``events`` is what it did; replay applies
    it again), or the bot plays the seat from then on."""

    verb = "drop"
    tells_everyone = brief = decides = True
    seat: int = 0
    name: str = ""
    events: tuple[Words, ...] | None = None

    def letters(self, record: Record, index: int) -> list[Letter]:
        """The player dropped is told, in words of their own, what becomes of their seat."""
        return [Letter("dropped", self.seat, (record.n, self.seat), record.n, index)]

    def told(self) -> list[Say]:
        return [Say("The game master drops {name}.", {"name": self.name})]

    def effects(self) -> list[Words]:
        return list(self.events or ())

    def handover(self) -> Handover | None:
        """The bot takes the seat, unless the game's own rule took it out of play."""
        if self.events is not None:
            return None
        return Handover(self.seat, self.name, bot_name(self.name), bot=True)

    def replay(self, table: Replaying) -> list[Words]:
        """A drop by the game's own rule changes the state; otherwise the bot plays the seat
        from now on, which is the campaign's business, not the game's: the game goes on
        naming the seat as its player (each of the bot's moves is logged as the bot's,
        ``How.BOT``), as it always has."""
        own = table.descriptor.offers(OwnDrop)
        if own is None:
            return []
        table.state, events = own.drop(table.state, self.seat)
        return list(events)

    def to_json(self) -> dict:
        data = super().to_json()
        if self.events is None:  # a drop the bot takes over has no events of its own
            del data["events"]
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Command:
        return super().from_json({"events": None, **data})


@dataclass(frozen=True)
class Rollback(Command):
    """Earlier orders undone: (record number, index in its orders). They stay in the log."""

    verb = "rollback"
    tells_everyone = asks_again = rolls_back = decides = True
    undone: tuple[tuple[int, int], ...] = ()

    def undoing(self) -> tuple[tuple[int, int], ...]:
        return self.undone

    def told(self) -> list[Say]:
        count = len(self.undone)
        if count == 1:
            return [Say("The game master undoes the last {count} order.", {"count": count})]
        return [Say("The game master undoes the last {count} orders.", {"count": count})]

    def replay(self, table: Replaying) -> list[Words]:
        """The kept orders go with the undone ones: they were written against a game that
        no longer is."""
        table.queues = {}
        return []


@dataclass(frozen=True)
class Adjudicate(Command):
    verb = "adjudicate"
    tells_everyone = decides = True

    def told(self) -> list[Say]:
        return [Say("The game master decides now for the players awaited.")]


@dataclass(frozen=True)
class Start(Command):
    verb = "start"


COMMANDS: dict[str, type[Command]] = {
    cls.verb: cls
    for cls in (
        Help,
        History,
        Message,
        StatusAsked,
        ChoicesAsked,
        Absence,
        TimeZone,
        LanguageSet,
        MailSet,
        Leave,
        Pause,
        Resume,
        Extend,
        DeadlinesSet,
        ObserversSet,
        Replace,
        Drop,
        Rollback,
        Adjudicate,
        Start,
    )
}


@dataclass(frozen=True)
class RefusedCommand:
    """A command that could not be done, with the reason its sender was given. It changed
    nothing, so replay passes over it."""

    verb: str
    line: str
    reason: str
    refused: ClassVar[bool] = True
    wants: ClassVar[str] = ""  # a refused command shows nothing besides its reason
    decides: ClassVar[bool] = False  # it decided nothing

    def answer(self, status: str) -> str:
        """What its sender is told: why it was refused."""
        return self.reason

    def gave_away(self) -> str:
        return ""  # it did nothing

    def told(self) -> list[str]:
        return []

    def to_json(self) -> dict:
        return {"action": self.verb, "line": self.line, "refused": self.reason}


Action = Command | RefusedCommand


def action_from_json(data: Mapping[str, Any]) -> Action:
    verb = str(data.get("action", ""))
    if "refused" in data:
        return RefusedCommand(verb, str(data.get("line", "")), str(data["refused"]))
    try:
        kind = COMMANDS[verb]
    except KeyError:
        raise RecordError(f"a command {verb!r} that this referee does not know") from None
    try:
        return kind.from_json(data)
    except (KeyError, TypeError, ValueError) as err:
        raise RecordError(f"a {verb} command without its {err}") from None


# the record ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Record:
    kind: Kind
    orders: tuple[AppliedOrder, ...] = ()
    queues: Mapping[int, tuple[str, ...]] = field(default_factory=dict)
    refused: tuple[RefusedOrder, ...] = ()
    actions: tuple[Action, ...] = ()
    missed: tuple[MissedDeadline, ...] = ()
    # a mail's
    message_id: str | None = None
    sender: str | None = None  # the address it came from
    seat: int | None = None  # the player it was for; None: the game master
    subject: str | None = None
    ignored: tuple[str, ...] = ()
    bad_lines: tuple[BadLine, ...] = ()
    date: str | None = None  # a player's mail: its Date header (ISO, UTC)
    body: str | None = None  # a player's mail with lines to read: a digest of its text
    # given when it is written
    n: int = 0
    at: str = ""
    hash: str = ""
    version: int = FORMAT_VERSION

    @property
    def commands(self) -> list[Command]:
        """The commands that ran (refused ones left out)."""
        return [a for a in self.actions if isinstance(a, Command)]

    def letters(self) -> list[Letter]:
        """The mails of their own its commands call for (a missed deadline is told to the
        game master by the timekeeper, at most once a tick and in a daily summary)."""
        return [
            letter
            for index, action in enumerate(self.actions)
            if isinstance(action, Command)
            for letter in action.letters(self, index)
        ]

    def asks_for(self, what: str) -> bool:
        """Whether a command of it asks for ``what`` in its sender's answer (help ...)."""
        return any(c.wants == what for c in self.commands)

    def changes_anything(self) -> bool:
        """Worth a line in the log: it applied, kept, refused or said something, it marks a
        mail as read, or a deadline passed (whoever is told of it learns it from the log)."""
        return bool(
            self.orders
            or self.queues
            or self.refused
            or self.message_id
            or self.actions
            or self.missed
        )

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {}
        if self.n:
            data["n"], data["at"] = self.n, self.at
        if self.version >= 2:
            data["v"] = self.version
        data["kind"] = str(self.kind)
        if self.kind == Kind.MAIL:
            data.update(
                {
                    "message_id": self.message_id,
                    "from": self.sender,
                    "seat": self.seat,
                    "subject": self.subject,
                }
            )
        elif self.kind == Kind.GM:
            data["seat"] = None
        if self.actions:
            data["actions"] = [a.to_json() for a in self.actions]
        if self.ignored:
            data["ignored"] = list(self.ignored)
        if self.bad_lines:
            data["bad_lines"] = [b.to_json() for b in self.bad_lines]
        if self.date:
            data["date"] = self.date
        if self.body:
            data["body"] = self.body
        if self.missed:
            data["missed"] = [m.to_json() for m in self.missed]
        data["orders"] = [o.to_json() for o in self.orders]
        if self.queues:
            data["queues"] = {str(seat): list(q) for seat, q in self.queues.items()}
        if self.refused:
            data["refused"] = [r.to_json() for r in self.refused]
        if self.hash:
            data["hash"] = self.hash
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Record:
        """A record from its JSON object, or RecordError saying what is wrong with it."""
        number = data.get("n") if isinstance(data, Mapping) else None
        try:
            return cls(
                kind=Kind(data["kind"]),
                orders=tuple(AppliedOrder.from_json(o) for o in data.get("orders", ())),
                queues={int(seat): tuple(q) for seat, q in data.get("queues", {}).items()},
                refused=tuple(RefusedOrder.from_json(r) for r in data.get("refused", ())),
                actions=tuple(action_from_json(a) for a in data.get("actions", ())),
                missed=tuple(MissedDeadline.from_json(m) for m in data.get("missed", ())),
                message_id=data.get("message_id"),
                sender=data.get("from"),
                seat=None if data.get("seat") is None else whole(data["seat"], 0, "seat"),
                subject=data.get("subject"),
                ignored=tuple(data.get("ignored", ())),
                bad_lines=tuple(BadLine.from_json(b) for b in data.get("bad_lines", ())),
                date=_words(data.get("date"), "date"),
                body=_words(data.get("body"), "body"),
                n=whole(data["n"], 1, "n") if "n" in data else 0,
                at=str(data.get("at", "")),
                hash=str(data.get("hash", "")),
                version=whole(data.get("v", 1), 1, "v"),
            )
        except RecordError as err:
            raise RecordError(f"record {number} holds {err}") from None
        except (KeyError, TypeError, ValueError, AttributeError) as err:
            raise RecordError(f"record {number} is not a log record ({err!r})") from None


# who held each seat ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Holder:
    """One who held a seat: from record ``since`` on (0: from the start) until the next."""

    name: str
    since: int = 0
    bot: bool = False


class Holders:
    """Who held each seat over the game, from the log: a replacement makes the newcomer the
    seat's holder from its record on, a drop the bot (``Handover``). Old records are never
    changed: each move stays with the one who made it. ``names`` are the seats' holders
    now (the players as campaign.yaml keeps them), for the seats never handed over."""

    def __init__(self, names: list[str], records: list[Record]):
        handovers = [(r.n, h) for r in records for c in r.commands if (h := c.handover())]
        self.seats: list[list[Holder]] = [[] for _ in names]
        for n, handover in handovers:
            held = self.seats[handover.seat]
            if not held:  # its first holder, as the first handover names them
                held.append(Holder(handover.before))
            if held[-1].name != handover.after:  # (a seat dropped again keeps its bot)
                held.append(Holder(handover.after, n, handover.bot))
        for seat, name in enumerate(names):
            if not self.seats[seat]:
                self.seats[seat].append(Holder(name))

    def first(self) -> list[str]:
        """The names the game began with."""
        return [held[0].name for held in self.seats]

    def at(self, seat: int, n: int) -> Holder:
        """Who held ``seat`` at record ``n`` (a record that hands it over: the next holder)."""
        return [h for h in self.seats[seat] if h.since <= n][-1]

    def named(self, seat: int) -> str:
        """The players who held ``seat``, in turn: 'Bob', or 'Bob then Eve' (a bot that
        played a dropped player's seat played it for them)."""
        return " then ".join(h.name for h in self.seats[seat] if not h.bot)
