"""The contract between the shared referee and each game.

A game is one package (``referee.<name>``) exposing ``GAME``, a
``GameDescriptor``: its pure rules engine (a ``Rules``), its renderers, and the few facts the
shared code asks about it. The shared code names no game; ``referee.registry`` lists them.

A rules engine is pure: state in, state out, no I/O, deterministic from the seed kept in the
state. Players are seats 0..n-1 in the order given when the game was created; names are only
for reports. The referee above the engine knows nothing of a game's rules: it asks who owes
which decision, parses what players write, applies orders one by one and shows the state.

Orders are small immutable values with a ``kind``; the accepted-order log stores them as text
(``format``), so a game replays from (options, players, seed, log).
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path
from types import MappingProxyType
from typing import Any, NamedTuple, Protocol, TypedDict, TypeVar

from . import schema


class Say(NamedTuple):
    """Words a game gives the referee for a person to read, not yet in any language: a
    message identifier, which is its English wording with ``{name}`` fields (gettext's
    msgid, found by Babel's extractor under the keyword ``Say``), and the fields' values.
    The referee words it in the reader's language from the game's catalogue
    (``words.language``); ``str()`` gives the English, for logs and the game master's
    files. A value a field takes that is itself a ``Say`` is worded in the same language."""

    text: str
    params: Mapping[str, Any] = MappingProxyType({})

    def __str__(self) -> str:
        if not self.params:
            return self.text
        return self.text.format(**{k: str(v) for k, v in self.params.items()})


Words = str | Say
"""Text for a person: finished (a player's own words, an order) or to be worded (``Say``)."""

Wording = Callable[[Words], str]
"""Words in one reader's language (the referee's ``words.language.word``); ``str`` gives the
English, for the game master's files."""


def in_a_row(items: Iterable[Words], separator: str) -> Words:
    """Words in a row, each in the reader's language, ``separator`` ("; " or ", ") between;
    "" for none."""
    row: Words = ""
    for item in items:
        row = Say(JOINED[separator].text, {"a": row, "b": item}) if row else item
    return row


JOINED = {", ": Say("{a}, {b}"), "; ": Say("{a}; {b}")}


class IllegalOrder(Exception):
    """An order the rules refuse. ``reason`` is for the player (``str()`` gives it in
    English); ``alternatives`` (orders) are the legal choices where listing them helps."""

    def __init__(self, reason: Say, alternatives: Sequence[Any] = ()):
        super().__init__(reason)
        self.reason = reason
        self.alternatives = list(alternatives)


class NotationError(ValueError):
    """Text that is not an order of the game: ``reason`` says why, for the player who wrote
    it; ``line`` is the offending text."""

    def __init__(self, reason: Say, line: str = ""):
        super().__init__(f"{reason}: {line!r}" if line else reason)
        self.reason = reason
        self.line = line


class NotAnOrder(NotationError):
    """A line that does not even start like an order of the game (a greeting, a remark).
    The referee reports it and uses the mail's other orders; a line that starts like an order
    but is malformed raises plain NotationError, and then nothing of the mail is used."""


@dataclass(frozen=True)
class Entry:
    """One parsed line: alternatives separated by `|`, the first legal one is used."""

    alternatives: tuple[Any, ...]
    text: str = field(default="", compare=False)


class Decision(NamedTuple):
    """A decision owed by one seat: its kind (matches the kind of the orders that answer it),
    its title (what it asks in a few words, to stand inside a sentence: a subject's 'your
    turn: <title>', 'waiting for Ann (<title>)'), a sentence saying what it is about
    ('<Title>: <details>'), and its stage: a number that changes whenever the seat faces a
    new decision, so the referee prompts once per decision (Bus: every order moves the game
    on; Bus Boss: one decision per round). A named tuple, not a frozen dataclass: one is
    made for every decision of a game, and a frozen dataclass's __init__ cost a tenth of a
    Bus decision."""

    seat: int
    kind: str
    title: Say
    prompt: Say
    stage: int = 0


class Outcome(Enum):
    """How a finished game went for one seat."""

    WON = "won"
    SHARED = "shared first place"
    LOST = "lost"


@dataclass(frozen=True)
class Result:
    """The end of a game: why it ended, the final score per seat, and the ranking as a list
    of lists of seats (ties share a place).

    ending  a member of the game's own Enum of the ways a game of it ends, whose value is
            its wording (a ``Say``); a wording may name players by fields filled from
            ``named``
    named   the names the wording mentions, by its fields
    """

    ending: Enum
    scores: tuple[int, ...]
    ranking: tuple[tuple[int, ...], ...]
    named: Mapping[str, str] = field(default_factory=dict)

    @property
    def reason(self) -> Say:
        """Why the game ended, for the players."""
        wording: Say = self.ending.value
        return Say(wording.text, {**wording.params, **self.named}) if self.named else wording

    def outcome(self, seat: int) -> Outcome:
        first = self.ranking[0]
        if seat not in first:
            return Outcome.LOST
        return Outcome.WON if len(first) == 1 else Outcome.SHARED


Bot = Callable[[Any, int, random.Random], Any]
"""A bot: (state, seat, rng) -> a legal order for the decision the seat owes."""


SIGNUP = "signup"
"""The option under which ``new_game`` finds what the players chose when joining
(``GameDescriptor.signup``): a list by seat of dicts, {word: value}. It is no setting of the
campaign: the referee passes it from its players."""


@dataclass(frozen=True)
class HeldOrder:
    """A seat's answer to a decision that the game holds until the decision resolves for
    everyone (simultaneous rounds): a new order of the same ``kind`` replaces it. ``notes``
    are for that player alone: how the held order will be used."""

    kind: str
    notes: tuple[Say, ...] = ()
    text: str = ""  # the held order written back in the game's notation (what it holds)


@dataclass(frozen=True)
class SignupChoice:
    """Something a player may choose when joining a game, written after their name:
    ``join <game> as <name> <word> <value> ...``. What a value may be is the field of that
    name in the game's description of its sign-up (``SignUp.described``).

    word      the keyword, e.g. "company"
    example   a value as the help shows it, e.g. '"Vale Motors"'
    summary   what the choice is, in a few words
    distinct  whether two players of one game may not choose the same value
    aliases   other spellings of the keyword ("colors" for "colours")
    """

    word: str
    example: str
    summary: Say
    distinct: bool = False
    aliases: tuple[str, ...] = ()


def check_setup(rules: Rules, options: Mapping[str, Any], players: Sequence[str]) -> Any:
    """The options as the game describes them (``Rules.options``), every problem named at
    once (``schema.SettingsError``, a ValueError), after the number of players it is for."""
    if not rules.min_players <= len(players) <= rules.max_players:
        raise ValueError(
            f"{rules.title} is for {rules.min_players} to {rules.max_players} "
            f"players, not {len(players)}"
        )
    given = {key: value for key, value in options.items() if key != SIGNUP}
    return schema.read(rules.options, given, f"the {rules.title} game's settings", at="options")


def option_defaults(rules: Rules) -> dict[str, Any]:
    """Each option of the game with the value it has when a campaign does not set it."""
    return {f.name: f.default for f in dataclasses.fields(rules.options)}


def progress_view(decisions: Sequence[Decision], result: Result | None) -> Progress:
    """The part of every game's view that says who is awaited and how the game ended. Its
    words are English (``str()``), as every view's were: a view is plain data, kept in
    snapshots and turn files; the reader's language comes from the decisions and the
    result themselves (``Rules.awaiting``, ``Rules.result``)."""
    return {
        "awaiting": [{"seat": d.seat, "kind": d.kind, "prompt": str(d.prompt)} for d in decisions],
        "result": None
        if result is None
        else {
            "reason": str(result.reason),
            "scores": list(result.scores),
            "ranking": [list(place) for place in result.ranking],
        },
    }


class AwaitedView(TypedDict):
    seat: int
    kind: str
    prompt: Words  # English in a view the game made; the game's Say in one made for a reader


class ResultView(TypedDict):
    reason: Words  # as the prompt
    scores: list[int]
    ranking: list[list[int]]


class Progress(TypedDict):
    awaiting: list[AwaitedView]
    result: ResultView | None


class View(TypedDict, total=False):
    """The keys every game's view has (``Rules.view``); each game adds its own in a
    TypedDict derived from this one, beside its engine.

    game: the game's name; round: the round in play (0 for the setup); phase: the game's
    word for where the round stands; players: one dict a seat, with at least ``seat`` and
    ``name`` and the figure the game's standings follow (``GameDescriptor.measure``);
    awaiting: who owes a decision; result: how the game ended, or None while it runs."""

    game: str
    round: int
    phase: str
    players: list[dict[str, Any]]
    awaiting: list[AwaitedView]
    result: ResultView | None


class Rules(Protocol):
    """A game's pure rules engine."""

    name: str
    title: str
    min_players: int
    max_players: int
    multiline_orders: bool  # one order spans several lines: a mail's lines parse together

    @property
    def options(self) -> type:
        """What a campaign may set in campaign.yaml's ``options``: a frozen dataclass
        described with ``schema`` (each field's type, default and check), which
        ``check_setup`` reads."""

    def new_game(self, options: Mapping[str, Any], players: Sequence[str], seed: int) -> Any:
        """A new game's state, or ValueError for options or players that make no game."""

    def awaiting(self, state: Any) -> list[Decision]:
        """Who must act now; empty once the game is over."""

    def legal_orders(self, state: Any, seat: int) -> list[Any]:
        """Every legal choice of the decision the seat owes."""

    def prompt_lines(self, state: Any, seat: int) -> Sequence[Words]:
        """The seat's choices as lines to copy into a reply ('#' starts a comment): an order
        as text, a line with words for the reader (a comment) as ``Say``."""

    def referee_only(self, order: Any) -> bool:
        """Orders only the referee may give (never taken from a mail)."""

    def parse(self, text: str) -> list[Entry]:
        """Text into entries; raises NotationError (with the line) on bad text."""

    def format(self, order: Any) -> str:
        """An order as text: parse(format(o)) == [Entry((o,))]."""

    def apply(self, state: Any, seat: int, order: Any) -> tuple[Any, Sequence[Words]]:
        """The state after the order and what happened (each event worded for its reader);
        raises IllegalOrder."""

    def rename(self, state: Any, seat: int, name: str) -> Any:
        """The state with ``seat`` played by ``name`` from now on (a newcomer who took the
        seat): what it did before keeps the name it was done under; nothing else changes."""

    def view(self, state: Any, seat: int | None = None) -> View:
        """Plain data for reports and maps, as ``seat`` may see the game; with no seat (an
        observer, the archive, the turn files) as everyone may. A game that hides nothing
        gives every seat the view with no seat."""

    def round(self, state: Any) -> int:
        """The round in play, as ``view(state)["round"]`` shows it, without building a view
        (a replay asks it once per log record)."""

    def bot(self, name: str = "default", budget: int | None = None) -> Bot:
        """ "default" plays sensibly, "random" uniformly; a game may offer more (Bus:
        "strong", a search). ``budget``: the rollouts per decision of a bot that searches
        (None: its own default); bots that do not search ignore it. ValueError for a bot
        the game does not have, or a budget it cannot use."""

    def to_data(self, state: Any) -> dict[str, Any]:
        """The state as JSON-able plain data (``from_data`` reads it back)."""

    def from_data(self, data: dict[str, Any]) -> Any:
        """The state from ``to_data``'s plain data."""

    def result(self, state: Any) -> Result | None:
        """None while the game runs."""


class Capability:
    """Something only some games do, which the shared code asks for by its class
    (``GameDescriptor.offers``): a game offers it by listing it in its descriptor, and a game
    that does not is played the common way each class names."""


@dataclass(frozen=True)
class RoundEndView(Capability):
    """For an engine that runs on into the next round by itself: (view, round) -> the view
    of that round as it ended. Without it, a round is shown as the game stood after it."""

    view: Callable[[View, int], View]


@dataclass(frozen=True)
class OwnDrop(Capability):
    """The game's own rule for a player who leaves: (state, seat) -> (state, events), how
    it is told (``note``), and (state, seat) -> whether the seat has left by it (``left``:
    their orders are no longer taken). Without it, the bot plays the seat."""

    drop: Callable[[Any, int], tuple[Any, Sequence[Words]]]
    note: Say
    left: Callable[[Any, int], bool]


@dataclass(frozen=True)
class MissedOrderRule(Capability):
    """The game's own rule for a missed decision: (state, seat) -> an order, or None.
    Without it, the campaign's deadline policy decides alone."""

    adjudicate: Callable[[Any, int], Any]


@dataclass(frozen=True)
class HeldOrders(Capability):
    """For a game of simultaneous decisions: (state, seat) -> the seat's answer the game
    holds until the decision resolves for everyone (``HeldOrder``), or None; a new order
    from the player replaces it, and the player's confirmation shows its notes. What a seat
    holds is hidden from the others: the seat's own mails show the game's view with that
    seat (``Rules.view``). Without it, one view with no seat serves everyone."""

    held: Callable[[Any, int], HeldOrder | None]


@dataclass(frozen=True)
class ShortChoices(Capability):
    """A long list of a seat's choices (``Rules.prompt_lines``) made short the game's own
    way, for the mails (``choices`` lists them all). Without it, orders that differ in
    their last word are grouped."""

    shorten: Callable[[list[Words]], list[Words]]


@dataclass(frozen=True)
class SignUp(Capability):
    """What a player may choose when joining (``SignupChoice``), each a field of
    ``described`` (a frozen dataclass described with ``schema``: a choice not made is None),
    which reads both the join line's words and what campaign.yaml keeps of them. The
    choices reach ``new_game`` under the option ``SIGNUP``."""

    choices: tuple[SignupChoice, ...]
    described: type

    def __post_init__(self) -> None:
        fields = [f.name for f in dataclasses.fields(self.described)]
        assert fields == [c.word for c in self.choices], "one field a choice, in their order"

    def read(self, given: Mapping[str, Any], file: str, at: str = "") -> dict[str, Any]:
        """The choices made, read by the description ({word: value}); SettingsError names
        every problem."""
        chosen: Any = schema.read(self.described, given, file, at=at)
        return {c.word: v for c in self.choices if (v := getattr(chosen, c.word)) is not None}


@dataclass(frozen=True)
class PinnedOptions(Capability):
    """Options kept in a new campaign's settings at their present values (options ->
    options), so that a later release with other defaults (a map's new version, new
    rulings) plays the campaign as it began; ``unpinned``: their values for a campaign made
    before they were kept."""

    pin: Callable[[Mapping[str, Any]], dict[str, Any]]
    unpinned: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class PlayFigures(Capability):
    """(the state a game began with, each (seat, order, state after it) in order) -> per
    seat, figures of how it played that ``simulate`` reports per bot beside its win share
    (Bus: "wasted_markers")."""

    figures: Callable[[Any, Sequence[tuple[int, Any, Any]]], dict[int, dict[str, int]]]


@dataclass(frozen=True)
class MapFiles(Capability):
    """Maps a game master writes as files (Bus Boss's ``map`` option): ``check(path)`` ->
    a short summary of the map, ``preview(path)`` -> (the text map, the PNG map) as players
    will see it; each raises ValueError naming every problem of the file, with its line."""

    check: Callable[[Path], str]
    preview: Callable[[Path], tuple[str, bytes]]


C = TypeVar("C", bound=Capability)


@dataclass(frozen=True)
class GameDescriptor:
    """Everything the shared referee asks about one game.

    rules          the pure engine
    measure        the figure each player's standings, history and chart follow (a key of
                   the view's players: "score", "cash")
    text_map       view, wording -> the plain-text map (for the mail body, in its reader's
                   language, and turns/, in English): every word the map writes is worded
                   by ``wording`` before the map lays it out
    png_map        view -> PNG bytes, or None for a game drawn in text only
    map_key        view -> what the PNG map does not say for itself (whose lines are which,
                   the symbols, the keys it writes, what a side panel held), a sentence a
                   line, for the mail to show beside it
    player_colour  a player of the view -> "#rrggbb", their colour on maps and the chart
    capabilities   what only some games do (``Capability``), each at most once
    """

    rules: Rules
    measure: str
    text_map: Callable[[View, Wording], str]
    png_map: Callable[[View], bytes] | None = None
    map_key: Callable[[View], tuple[Words, ...]] = lambda view: ()
    player_colour: Callable[[dict[str, Any]], str] = lambda player: "#000000"
    capabilities: tuple[Capability, ...] = ()

    def offers(self, kind: type[C]) -> C | None:
        """The game's capability of that kind, or None when it has none."""
        return next((c for c in self.capabilities if isinstance(c, kind)), None)

    @property
    def name(self) -> str:
        return self.rules.name

    @property
    def title(self) -> str:
        return self.rules.title

    @property
    def templates(self) -> str:
        """The folder of the game's own templates (help, standings): ``<name>/help.txt`` is
        read from ``templates/`` in the game's package, else from the referee's
        ``templates/<name>/`` (``reports.template_source``)."""
        return self.name
