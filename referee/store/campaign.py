"""A campaign on disk: `games/<id>/` with its settings, its order log and its files.

    campaign.yaml   settings: game, options, seed, status, players with their tokens
    log.jsonl       the append-only log: one record per mail that changed the game, and one
                    per batch of orders the referee applied itself (forced moves, queued
                    orders); its format is ``records``. The log is the source of truth: the
                    game is rebuilt from it.
    mailed.json     how far answers have been queued (so a crashed tick resends nothing twice)
    mail/in/        every mail received for this campaign, raw
    mail/out/       every mail the referee queued for its players, raw
    turns/          per round, once it is over: the report and the maps

Writes are atomic and the log is appended with fsync (see ``store``).
"""

from __future__ import annotations

import dataclasses
import hashlib
import io
import json
import secrets
from dataclasses import dataclass, field
from datetime import UTC, datetime
from email.utils import parseaddr
from enum import StrEnum
from functools import cached_property
from pathlib import Path
from typing import Any

from .. import registry
from ..contract import (
    SIGNUP,
    Decision,
    GameDescriptor,
    HeldOrders,
    IllegalOrder,
    NotationError,
    PinnedOptions,
    RoundEndView,
    Rules,
    SignUp,
    View,
    Words,
)
from ..files import (
    PRIVATE_FOLDER,
    CorruptRecord,
    append_record,
    atomic_write,
    crashpoint,
    private_folder,
    read_records,
)
from ..records import Handover, Holders, Record, RecordError
from ..schema import SettingsError, load_file, read
from ..settings.campaign import CampaignFile, CampaignSettings, PlayerEntry
from ..settings.checks import ROLES, WHOM, campaign_id, name_taken, player_name
from .book import Book
from .marks import Watermarks
from .names import LOG, SETTINGS_FILE, TURN_HASHES, TURNS


@dataclass(frozen=True)
class TurnHash:
    """A turn file as it was written: its SHA-256, and the log's last record then (its
    number and chain hash), which the file shows the game up to."""

    sha256: str
    record: int
    log_hash: str


SETTINGS = frozenset(f.name for f in dataclasses.fields(CampaignSettings))
TOKEN_ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789"  # no 0/o, 1/l/i: read aloud, typed by hand


class Status(StrEnum):
    """Where a campaign stands."""

    OPEN = "open"  # open for sign-up: players join by mail until it is full
    RUNNING = "running"  # orders are taken and deadlines run
    PAUSED = "paused"  # the game master stopped it: no orders, deadlines stand still
    FINISHED = "finished"  # the game has ended


class CampaignError(Exception):
    """Something about a campaign a game master must fix; the message says what."""


def check_id(text: str) -> str:
    try:
        return campaign_id(text or "")
    except ValueError as err:
        raise CampaignError(str(err)) from None


def new_token() -> str:
    return "".join(secrets.choice(TOKEN_ALPHABET) for _ in range(8))


def now() -> str:
    return datetime.now(UTC).replace(microsecond=0).isoformat().replace("+00:00", "Z")


GENESIS = "0" * 16


def record_hash(previous_hash: str, record: dict) -> str:
    """A log record's link in the chain: its content with the hash of the record before it.
    A record changed by hand breaks the chain there (``referee verify`` names it)."""
    content = json.dumps(
        {k: v for k, v in record.items() if k != "hash"},
        sort_keys=True,
        ensure_ascii=False,
        separators=(",", ":"),
    )
    return hashlib.sha256(f"{previous_hash}\n{content}".encode()).hexdigest()[:16]


def seed_hash(campaign_id: str, seed: int) -> str:
    """Published to the players at the start; the seed itself is revealed at the end."""
    return hashlib.sha256(f"referee:{campaign_id}:{seed}".encode()).hexdigest()


def write_settings(path: Path, data: dict[str, Any], header: str) -> None:
    """Write campaign.yaml holding ``data``, the one way every change of it is written.

    The file is the game master's to read and annotate: over an existing file only the values
    that changed are written, keeping its comments and the order of its keys (ruamel.yaml's
    round trip, imported here: a tick that only reads loads none of it); a new file starts
    with ``header``. Values are written as YAML 1.1 reads them (the reader's dialect, where
    a name such as No is a boolean unless quoted)."""
    from ruamel.yaml import YAML, YAMLError
    from ruamel.yaml.resolver import VersionedResolver

    class Yaml11(VersionedResolver):  # YAML 1.1 values, without a %YAML directive
        def __init__(self, version: Any = None, loader: Any = None, loadumper: Any = None):
            super().__init__((1, 1), loader, loadumper)

    round_trip = YAML()
    round_trip.Resolver = Yaml11
    round_trip.width = 100
    try:
        kept = round_trip.load(path.read_text(encoding="utf-8"))
    except (FileNotFoundError, UnicodeDecodeError, YAMLError):
        kept = None  # nothing to keep (a file the reader takes and this one cannot: none)
    text = io.StringIO()
    if isinstance(kept, dict):
        round_trip.dump(merged(kept, data), text)
    else:
        text.write(header)
        round_trip.dump(data, text)
    atomic_write(path, text.getvalue())


def merged(kept: Any, new: Any) -> Any:
    """``new`` written into ``kept`` (a file's round-trip data) in place, so that what stays
    keeps its comments and place: keys gone from ``new`` go, new keys go at the end."""
    if isinstance(kept, dict) and isinstance(new, dict):
        for key in [k for k in kept if k not in new]:
            del kept[key]
        for key, value in new.items():
            kept[key] = merged(kept[key], value) if key in kept else value
        return kept
    if isinstance(kept, list) and isinstance(new, list):
        del kept[len(new) :]
        for i, value in enumerate(new):
            if i < len(kept):
                kept[i] = merged(kept[i], value)
            else:
                kept.append(value)
        return kept
    return kept if type(kept) is type(new) and kept == new else new


@dataclass
class Player:
    name: str
    address: str
    token: str
    timezone: str | None = None  # shows times in this zone (the `timezone` command)
    absence: list = field(default_factory=list)  # [[first day, last day]] (`absence`)
    signup: dict = field(default_factory=dict)  # what they chose when joining (the game's)
    mail: str = "each"  # how much mail they get (the `mail` command: MAIL_CHOICES)
    digest_at: str | None = None  # when their daily digest goes, in their zone ('18:00')
    language: str | None = None  # what they read (the `language` command), if they chose

    def formatted(self) -> str:
        return f"{self.name} <{self.address}>"

    def to_data(self) -> dict[str, Any]:
        data: dict[str, Any] = {"name": self.name, "address": self.address, "token": self.token}
        if self.timezone:
            data["timezone"] = self.timezone
        if self.absence:
            data["absence"] = self.absence
        if self.mail != "each":
            data["mail"] = self.mail
        if self.digest_at:
            data["digest_at"] = self.digest_at
        if self.language:
            data["language"] = self.language
        if self.signup:
            data["signup"] = self.signup
        return data

    @classmethod
    def of(cls, entry: PlayerEntry) -> Player:
        """A player as campaign.yaml keeps them (``PlayerEntry``)."""
        return cls(
            entry.name,
            entry.address,
            entry.token,
            entry.timezone,
            [list(span) for span in entry.absence],
            dict(entry.signup),
            entry.mail,
            entry.digest_at,
            entry.language,
        )


def _read_signups(file: CampaignFile, path: Path) -> None:
    """What the players chose when joining, as the game describes it (``SignUp``): a game
    master's edit of campaign.yaml is held to what a join line may say."""
    try:
        signup = registry.get(file.game).offers(SignUp)
    except ValueError:
        return  # no such game: the campaign's check names it
    problems = []
    for seat, player in enumerate(file.players):
        if player.signup and signup is not None:
            try:
                signup.read(player.signup, str(path), at=f"players[{seat}].signup")
            except SettingsError as err:
                problems += err.problems
    if problems:
        raise SettingsError(path, problems)


def parse_player(text: str) -> tuple[str, str]:
    """'Ann Smith <ann@example.org>' into (name, address), or CampaignError."""
    name, address = parseaddr(text)
    if not address or "@" not in address or " " in address:
        raise CampaignError(f"{text!r} is not a player: write 'Name <address@example.org>'")
    return check_name((name or address.partition("@")[0]).strip()), address.lower()


def check_name(name: str) -> str:
    """A player's name fit for the headers of their mail (``settings.checks.player_name``),
    or CampaignError saying why not."""
    try:
        return player_name(name)
    except ValueError as err:
        raise CampaignError(f"the name {err}") from None


@dataclass
class Campaign:
    root: Path
    id: str
    game: str
    options: dict
    seed: int
    status: Status
    players: list[Player]
    created: str
    gm: Player | None = None  # the game master: commands by mail with their token
    seats: int | None = None  # an open campaign starts when this many have joined
    robots: list[int] = field(default_factory=list)  # seats the bot plays (dropped players)
    settings: dict = field(default_factory=dict)  # the game master's settings, as written
    # the settings read (``CampaignSettings``): made again whenever the campaign is saved
    config: CampaignSettings = field(default=None, repr=False)  # type: ignore[assignment]
    # its deadline book and watermarks, read when first asked for: a campaign object lives
    # for one tick (or one command), which reads each of its files once
    _book: Book | None = field(default=None, init=False, repr=False, compare=False)
    _marks: Watermarks | None = field(default=None, init=False, repr=False, compare=False)
    # what changed since the last commit: "settings" (campaign.yaml), "book" (deadlines.json)
    _unsaved: set[str] = field(default_factory=set, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if self.config is None:
            self.config = self.read_settings()

    @property
    def book(self) -> Book:
        """The deadline book (deadlines.json), read once."""
        if self._book is None:
            self._book = Book.load(self.root)
        return self._book

    @property
    def marks(self) -> Watermarks:
        """How far its answers were queued (mailed.json), read once."""
        if self._marks is None:
            self._marks = Watermarks.load(self.root)
        return self._marks

    @marks.setter
    def marks(self, marks: Watermarks) -> None:
        """New watermarks (a campaign's start, a tick's answers), saved."""
        self._marks = marks
        marks.save(self.root)

    def read_settings(self) -> CampaignSettings:
        """The settings as written, read as ``CampaignSettings`` describes them, or
        CampaignError with every problem."""
        try:
            return read(CampaignSettings, self.settings, self.root / SETTINGS_FILE)
        except SettingsError as err:
            raise CampaignError(str(err)) from None

    # files ---------------------------------------------------------------------------------
    @property
    def log_path(self) -> Path:
        return self.root / LOG

    @property
    def descriptor(self) -> GameDescriptor:
        return registry.get(self.game)

    @property
    def rules(self) -> Rules:
        return self.descriptor.rules

    def write_turns(self, files: dict[str, str | bytes], record: int, log_hash: str) -> None:
        """Write turn files into turns/, and beside them (turns/hashes.json) each one's
        SHA-256 with the log record it was written at and that record's chain hash: what
        ``verify`` holds a file to under any later release, whose words and maps may differ,
        and what binds it to the log."""
        folder = self.dir(TURNS)
        hashes = self.turn_hashes()
        for name, content in files.items():
            data = content.encode("utf-8") if isinstance(content, str) else content
            # derived from the log, so written again if a crash loses them
            atomic_write(folder / name, data, durable=False)
            hashes[name] = TurnHash(hashlib.sha256(data).hexdigest(), record, log_hash)
        kept = {name: dataclasses.asdict(entry) for name, entry in sorted(hashes.items())}
        atomic_write(folder / TURN_HASHES, json.dumps(kept, indent=0) + "\n", durable=False)

    def turn_hashes(self) -> dict[str, TurnHash]:
        """Each turn file's hash as it was written, by name (none for the files of the
        releases before they were kept, and none when the file cannot be read)."""
        try:
            data = json.loads((self.root / TURNS / TURN_HASHES).read_bytes())
            return {str(name): TurnHash(**entry) for name, entry in data.items()}
        except (FileNotFoundError, ValueError, TypeError, AttributeError):
            return {}

    def dir(self, *parts: str) -> Path:
        return private_folder(self.root.joinpath(*parts))

    # creating and loading ------------------------------------------------------------------
    @classmethod
    def create(
        cls,
        data_root: Path,
        campaign_id: str,
        game: str,
        players: list[str],
        seed: int | None = None,
        options: dict | None = None,
        seats: int | None = None,
        gm: str | None = None,
        settings: dict | None = None,
        roles: tuple[str, ...] = ROLES,
    ) -> Campaign:
        """A new campaign: running at once, or open for sign-up when ``seats`` is given; no
        player named like another, the game master or one of ``roles`` (``add_player``)."""
        check_id(campaign_id)
        try:
            rules = registry.get(game).rules
        except ValueError as err:
            raise CampaignError(str(err)) from None
        parsed = [parse_player(p) for p in players]
        if seats is not None and not rules.min_players <= seats <= rules.max_players:
            raise CampaignError(
                f"{rules.title} is for {rules.min_players} to "
                f"{rules.max_players} players, not {seats}"
            )
        seed = secrets.randbelow(2**31) if seed is None else seed
        campaign = cls(
            Path(data_root) / campaign_id,
            campaign_id,
            game,
            dict(options or {}),
            seed,
            Status.OPEN if seats else Status.RUNNING,
            [],
            now(),
            Player(*parse_player(gm), new_token()) if gm else None,
            seats,
            settings=dict(settings or {}),
        )
        for name, address in parsed:
            campaign.add_player(name, address, roles)
        # options a later release may give other defaults (a map's version) are kept as now
        pinned = campaign.descriptor.offers(PinnedOptions)
        if pinned:
            campaign.options = {**pinned.pin(campaign.options), **campaign.options}
        campaign.check_game()
        if campaign.root.exists():
            raise CampaignError(f"campaign {campaign_id} exists already in {data_root}")
        campaign.settings["seed_hash"] = seed_hash(campaign_id, seed)
        private_folder(campaign.root.parent)
        campaign.root.mkdir(mode=PRIVATE_FOLDER)
        campaign.save()
        return campaign

    def game_options(self) -> dict:
        """The options the game is created with: the campaign's, those a campaign made before
        some were kept takes by default (``PinnedOptions.unpinned``), and what the players
        chose when joining (``SIGNUP``, for a game that asks)."""
        pinned = self.descriptor.offers(PinnedOptions)
        options = {**(pinned.unpinned if pinned else {}), **self.options}
        if self.descriptor.offers(SignUp):
            options[SIGNUP] = [dict(p.signup) for p in self.players]
        return options

    def add_player(self, name: str, address: str, roles: tuple[str, ...] = ROLES) -> Player:
        check_name(name)
        if any(p.address == address.lower() for p in self.players):
            raise CampaignError(f"{address} plays in {self.id} already")
        gm = (self.gm.name, self.gm.address) if self.gm else None
        taken = name_taken(name, address, [(p.name, p.address) for p in self.players], gm, roles)
        if taken is not None:
            raise CampaignError(
                f"the name {name} could be taken for {taken[1]!r} ({WHOM[taken[0]]}) in "
                f"{self.id}: choose another"
            )
        if self.seats is not None and len(self.players) >= self.seats:
            raise CampaignError(f"{self.id} is full")
        player = Player(name, address.lower(), new_token())
        self.players.append(player)
        return player

    def check_game(self) -> None:
        """The options (and, once it runs, the players) make a game of its kind."""
        rules = self.rules
        names = [p.name for p in self.players]
        options = self.game_options()
        if self.status == Status.OPEN:
            names = [f"Seat {i + 1}" for i in range(rules.min_players)]
            options.pop(SIGNUP, None)
        try:
            rules.new_game(options, names, self.seed)
        except ValueError as err:
            raise CampaignError(str(err)) from None

    @classmethod
    def load(cls, root: Path) -> Campaign:
        """The campaign in ``root``, read as ``CampaignFile`` describes campaign.yaml, or
        CampaignError naming the file and every problem in it."""
        path = Path(root) / SETTINGS_FILE
        try:
            data = load_file(path)
            file = read(CampaignFile, data, path)
            _read_signups(file, path)
        except FileNotFoundError:
            raise CampaignError(f"no campaign in {root} (campaign.yaml is missing)") from None
        except SettingsError as err:
            raise CampaignError(str(err)) from None
        return cls(
            Path(root),
            file.id,
            file.game,
            dict(file.options),
            file.seed,
            Status(file.status),
            [Player.of(p) for p in file.players],
            file.created,
            Player.of(file.gm) if file.gm else None,
            file.seats,
            list(file.robots),
            {k: v for k, v in data.items() if k in SETTINGS},
            CampaignSettings(**{name: getattr(file, name) for name in SETTINGS}),
        )

    def changed(self, what: str = "settings") -> None:
        """The settings (or, ``what="book"``, the deadline book) changed: written at the next
        ``commit``, once however many commands changed them. Settings are read again now as
        the campaign reads them, so a command's change takes effect at once, and one its
        reader would refuse raises CampaignError here, before anything is written."""
        if what == "settings":
            self.config = self.read_settings()
        self._unsaved.add(what)

    def commit(self) -> None:
        """Write what changed since the last commit: the settings, then the deadline book.
        ``append`` commits before a record goes into the log, so the log never holds a
        record whose commands' changes are not on disk; a crash before the record leaves
        the mail unrecorded, to be read again (its changes made again, to the same end)."""
        if "settings" in self._unsaved:
            self.save()
        if "book" in self._unsaved:
            self.book.save(self.root)
        self._unsaved.clear()

    def save(self) -> None:
        """Write campaign.yaml now (a new campaign, or a ``commit``); settings that its
        reader would refuse are not written (CampaignError), so nothing leaves a file the
        next tick cannot read."""
        self.config = self.read_settings()
        data: dict[str, Any] = {
            "id": self.id,
            "game": self.game,
            "options": self.options,
            "seed": self.seed,
            "status": str(self.status),
            "created": self.created,
        }
        if self.seats is not None:
            data["seats"] = self.seats
        if self.gm:
            data["gm"] = self.gm.to_data()
        data["players"] = [p.to_data() for p in self.players]
        if self.robots:
            data["robots"] = self.robots
        data.update(self.settings)
        header = (
            f"# Campaign {self.id}: a game of {self.rules.title} refereed by email.\n"
            "# The order log (log.jsonl) is the source of truth; this file holds the\n"
            "# settings. Tokens are the players' passwords: keep this file private.\n"
            "# Deadlines (optional), e.g.:  deadlines: {hours: 48, policy: bot,\n"
            "#   timezone: Europe/London, remind_share: 0.75, grace_minutes: 60}\n"
            "# The bot for dropped seats and missed deadlines (optional, else the default\n"
            "#   bot), e.g.:  bot: strong  or  bot: {name: strong, rollouts: 100}\n"
            "# The players' language (optional, else the site's): language: de (or en);\n"
            "#   a player's own choice (the `language` command) comes first\n"
        )
        write_settings(self.root / SETTINGS_FILE, data, header)

    @property
    def incarnation(self) -> str:
        """This campaign as against another made before under the same id (its folder moved
        away, a new one made): from its seed and the moment it was made. The Message-IDs of
        its mail carry it, so the new campaign's mail is not taken for the old one's."""
        made = f"{self.id}:{self.seed}:{self.created}"
        return hashlib.sha256(made.encode()).hexdigest()[:8]

    # players -------------------------------------------------------------------------------
    def names(self) -> list[str]:
        """The players' names by seat: those who hold the seats now."""
        return [p.name for p in self.players]

    def is_gm_token(self, token: str | None) -> bool:
        return bool(token and self.gm and secrets.compare_digest(self.gm.token, token.lower()))

    def seat_of_name(self, name: str) -> int | None:
        for seat, p in enumerate(self.players):
            if p.name.lower() == name.strip().lower():
                return seat
        return None

    def seat_of_token(self, token: str | None) -> int | None:
        if not token:
            return None
        for seat, p in enumerate(self.players):
            if secrets.compare_digest(p.token, token.lower()):
                return seat
        return None

    def seat_of_address(self, address: str) -> int | None:
        for seat, p in enumerate(self.players):
            if p.address == address.lower():
                return seat
        return None

    # the log -------------------------------------------------------------------------------
    def records(self) -> list[Record]:
        if not self.log_path.exists():
            return []
        try:
            lines, _torn = read_records(self.log_path)  # a torn last line is not trusted
            return [Record.from_json(line) for line in lines]
        except CorruptRecord as err:  # says itself where, and to repair the line
            raise CampaignError(str(err)) from None
        except RecordError as err:
            raise CampaignError(
                f"{self.log_path}: {err}; the log was changed by hand, or "
                f"written by a newer referee"
            ) from None

    def append(self, record: Record, n: int, previous_hash: str) -> Record:
        """Append ``record`` as the log's record number ``n`` (the table knows the count),
        chained to the record before it by ``hash`` (see ``record_hash``), after what its
        commands changed (``commit``)."""
        self.commit()
        numbered = dataclasses.replace(record, n=n, at=now())
        data = numbered.to_json()
        data["hash"] = record_hash(previous_hash, data)
        append_record(self.log_path, data)
        crashpoint("recorded")
        return dataclasses.replace(numbered, hash=data["hash"])

    def table(self) -> Table:
        return Table.replay(self)


@dataclass(eq=False)
class Step:
    """What one log record did: its orders' events, the round it happened in, and the game
    after it (its view is built only when something shows it). A table loaded from a
    snapshot holds some steps without their state (``state`` None): their view is never
    asked for (``Table.view_after_round`` completes the table first)."""

    record: Record
    round: int
    events: list[Words]  # worded in each reader's language when told
    state: Any
    table: Table = field(repr=False)

    @cached_property
    def view(self) -> View:
        if self.state is None:
            raise LookupError(f"step {self.record.n} holds no state: complete its table first")
        return self.table.view_of(self.state)


def undone_orders(records: list[Record]) -> set[tuple[int, int]]:
    """(record, order index) of every order a rollback undid: they stay in the log, and a
    replay passes over them."""
    return {(n, i) for r in records for c in r.commands for n, i in c.undoing()}


class Table:
    """A campaign's game rebuilt from its log: the state, the players' queued orders, the
    mails already applied (by sender and Message-ID, and each player's by the digest of
    its text and its Date, so that one sent anew is known), and what each record did.

    A table may start from a snapshot (``snapshots``): then the steps of its first
    ``skipped`` records are not held (their rounds are ``skipped_rounds``), and asking for
    them (``steps``, or the steps of such a round) rebuilds them once by a full replay."""

    def __init__(self, campaign: Campaign, state: Any = None, names: list[str] | None = None):
        """A table at the start of the game, its seats held by ``names`` (by default the
        players now: a log that hands no seat over), or at ``state`` (a snapshot's)."""
        self.campaign = campaign
        self.descriptor = campaign.descriptor
        self.rules = self.descriptor.rules
        if state is None:
            try:
                state = self.rules.new_game(
                    campaign.game_options(),
                    names or campaign.names(),
                    campaign.seed,
                )
            except ValueError as err:  # e.g. the map it began on is no longer to be had
                raise CampaignError(
                    f"campaign {campaign.id} cannot be replayed with this referee: {err}"
                ) from None
        self._state = state
        self._awaiting: list[Decision] | None = None
        self._view: View | None = None
        self.queues: dict[int, list[str]] = {}
        self.seen: set[tuple[str, str]] = set()  # (sender, Message-ID) of the mails applied
        self.bodies: dict[str, str] = {}  # "seat digest" of a player's mail: when applied
        self.dates: dict[int, str] = {}  # a player's latest Date of a mail applied (ISO, UTC)
        self.held: list[Step] = []
        self.undone: set[tuple[int, int]] = set()
        self.skipped = 0
        self.skipped_rounds: set[int] = set()
        self.last_hash = GENESIS
        self.snapshot_n: int | None = None  # the records its snapshot covered, if any
        self.set_aside: str | None = None  # why its damaged snapshot was set aside, if it was
        self._holders: tuple[int, Holders] | None = None  # (records, who held the seats)

    # what follows from the state is worked out once for each state, when first asked for:
    # who is awaited and the view (reports, prompts, deadlines and answers all ask)
    @property
    def state(self) -> Any:
        return self._state

    @state.setter
    def state(self, state: Any) -> None:
        self._state, self._awaiting, self._view = state, None, None

    @property
    def awaiting(self) -> list[Decision]:
        """Who must act now (``Rules.awaiting``)."""
        if self._awaiting is None:
            self._awaiting = self.rules.awaiting(self._state)
        return self._awaiting

    def view(self, seat: int | None = None) -> View:
        """The game now, as plain data (``Rules.view``): as everyone sees it, or as ``seat``
        does where the game holds something of the seat's that the others may not see
        (``HeldOrders``; each of the seat's mails asks once)."""
        if seat is not None and self.descriptor.offers(HeldOrders):
            return self.rules.view(self._state, seat)
        if self._view is None:
            self._view = self.rules.view(self._state)
        return self._view

    def view_of(self, state: Any) -> View:
        """The view of a state the game passed through (the one it is in made once)."""
        return self.view() if state is self._state else self.rules.view(state)

    @classmethod
    def replay(cls, campaign: Campaign) -> Table:
        records = campaign.records()
        return cls.starting(campaign, records).follow_all(records)

    @classmethod
    def starting(cls, campaign: Campaign, records: list[Record]) -> Table:
        """A table at the start of the game its ``records`` (the whole log) play: its seats
        held by those who held them then."""
        return cls(campaign, names=Holders(campaign.names(), records).first())

    @property
    def holders(self) -> Holders:
        """Who held each seat over the game (``Holders``), from the log's records: the
        one place that says who made a move of the past."""
        if self._holders is None or self._holders[0] != self.count:
            records = self.campaign.records() if self.skipped else [s.record for s in self.held]
            self._holders = (self.count, Holders(self.campaign.names(), records))
        return self._holders[1]

    def hand_over(self, handover: Handover) -> None:
        """The seat's next holder plays on under their own name; what was done before keeps
        the name it was done under."""
        self.state = self.rules.rename(self.state, handover.seat, handover.after)

    def follow_all(self, records: list[Record]) -> Table:
        """Follow ``records`` (the whole log, or the part after a snapshot)."""
        # a rollback marks earlier orders as undone: they stay in the log, and are passed over
        self.undone |= undone_orders(records)
        for record in records:
            self.follow(record)
        return self

    @property
    def steps(self) -> list[Step]:
        """What every record of the log did."""
        self.complete()
        return self.held

    @property
    def orders_replayed(self) -> int:
        """The orders of the log that its replay applied: the log keeps those a rollback
        undid too, and a replay passes over them (``undone``)."""
        return sum(len(s.record.orders) for s in self.steps) - len(self.undone)

    @property
    def count(self) -> int:
        """The number of records in the log."""
        return self.skipped + len(self.held)

    def steps_after(self, n: int) -> list[Step]:
        """What the records after record ``n`` did."""
        if n < self.skipped:
            self.complete()
        return [s for s in self.held if s.record.n > n]

    def steps_of_round(self, round_: int) -> list[Step]:
        if round_ in self.skipped_rounds:
            self.complete()
        return [s for s in self.held if s.round == round_]

    def complete(self) -> None:
        """Hold the steps of every record: a table loaded from a snapshot replays its log."""
        if self.skipped:
            full = Table.replay(self.campaign)
            self.held, self.undone = full.held, full.undone
            self.skipped, self.skipped_rounds = 0, set()

    def follow(self, record: Record) -> Step:
        """Apply one log record read from the log: its commands first (as they ran), then
        its orders."""
        round_ = self.round
        events: list[Words] = []
        for command in record.commands:
            events += [*command.replay(self), *command.told()]
        for index, order in enumerate(record.orders):
            if (record.n, index) in self.undone:
                continue
            try:
                for entry in self.rules.parse(order.text):
                    self.state, ev = self.rules.apply(self.state, order.seat, entry.alternatives[0])
                    events += ev
            except (IllegalOrder, NotationError) as err:
                raise CampaignError(
                    f"{self.campaign.log_path}: record {record.n} holds the order "
                    f"{order.text!r} for seat {order.seat}, which the game refuses ({err}); "
                    f"the log was changed by hand or damaged"
                ) from None
        for seat, queue in record.queues.items():
            self.queues[seat] = list(queue)
        return self.follow_applied(record, round_, events)

    def follow_applied(self, record: Record, round_: int, events: list[Words]) -> Step:
        """Note a record whose orders the table has applied already (in round ``round_``)."""
        if record.message_id:
            self.seen.add((record.sender or "", record.message_id))
            if record.seat is not None and record.body:
                self.bodies[f"{record.seat} {record.body}"] = record.at
            if record.seat is not None and record.date:
                self.dates[record.seat] = max(self.dates.get(record.seat, ""), record.date)
        step = Step(record, round_, events, self.state, self)
        self.held.append(step)
        self.last_hash = record.hash or GENESIS
        return step

    def view_after_round(self, round_: int) -> View:
        """The game as it was when round ``round_`` ended (or now, if it has not). The
        engine runs on into the next round by itself, so a game that shows its last round's
        action board is shown as that round ended (``RoundEndView``)."""
        steps = self.steps_of_round(round_)
        if steps and steps[-1].state is None:
            self.complete()
            steps = self.steps_of_round(round_)
        if steps:
            ended = self.descriptor.offers(RoundEndView)
            return ended.view(steps[-1].view, round_) if ended else steps[-1].view
        return self.view()

    def awaiting_after_round(self, round_: int) -> list[Decision]:
        """The decisions the game awaited as round ``round_`` ended (or awaits now, if it
        has not), their prompts as the game says them (its view keeps their English)."""
        steps = self.steps_of_round(round_)
        if steps and steps[-1].state is None:
            self.complete()
            steps = self.steps_of_round(round_)
        return self.rules.awaiting(steps[-1].state) if steps else self.awaiting

    @property
    def round(self) -> int:
        return self.rules.round(self.state)

    @property
    def over(self) -> bool:
        return self.rules.result(self.state) is not None
