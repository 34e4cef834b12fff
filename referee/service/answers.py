"""The one stage that queues every mail the referee sends, and why: a game master looks
here to learn why any mail went out. Each is composed by ``words`` and queued by
``post.queue``, under a Message-ID derived from what it answers.

- ``answer``: what a campaign calls for, as ``telling.tell`` decides it from its log, its
  deadline notices and the clock (reminders, missed deadlines, relayed messages, observers'
  reports, welcomes of replacement players, reports and answers, the end of the game),
  written by ``Letters``; and the files of turns/;
- ``welcome_game_master``, ``welcome_players``: a campaign made, a game begun;
- ``tell_sender``: a short answer the intake or a site command decided on (``notices``),
  within the answer limits;
- ``tell_failures``, ``tell_stopped``: the site's game masters told what failed;
- ``tell_undelivered``: a campaign's game master and the site's told which mails the
  outbox gave up on, and why.

What was answered is kept as watermarks (mailed.json); they are derived data: after a crash
the answers are derived again, and the outbox recognises a mail it queued before by its
Message-ID, so none goes out twice.
"""

from __future__ import annotations

import hashlib
import json
import logging
import time
from collections.abc import Callable
from datetime import UTC, datetime
from email.message import EmailMessage
from functools import cached_property
from typing import Any

from .. import maps
from ..files import StateDamaged, atomic_write, read_state
from ..mail.compose import compose
from ..mail.headers import plain_address
from ..records import Letter, Record
from ..schema import SettingsError, load_file
from ..settings.checks import TOKEN_PATTERN
from ..settings.deadlines import Shown, show
from ..settings.site import Audience
from ..store import snapshots
from ..store.campaign import Campaign, Table
from ..store.marks import Watermarks
from ..store.names import FAILURES_TOLD, LOG, SETTINGS_FILE, SNAPSHOT
from ..store.site import SiteFiles
from ..words import language
from ..words.history import NoSuchTurn, history_text, over, turn_files
from ..words.mails import (
    confirmation,
    digest,
    dropped_notice,
    game_master,
    game_over_notice,
    gm_notice,
    gm_welcome,
    message_id,
    missed_notice,
    notice,
    observer_report,
    observing_ended,
    press,
    read_of,
    reminder,
    replaced_notice,
    started_notice,
    told,
    turn_report,
    welcome,
)
from ..words.render import fitted, render, say, spoken
from . import timekeeping
from .commands import help_lines
from .failures import EVERY, SHOWN, Told, causes, failures_since, told_of
from .notices import Notice
from .post import Post
from .telling import own_mail, tell, told_briefly
from .timekeeping import Notices

log = logging.getLogger(__name__)


def answer(
    post: Post,
    table: Table,
    now: datetime | None = None,
    notices: Notices | None = None,
    status: Callable[[str], str] | None = None,
) -> tuple[int, Watermarks]:
    """Queue every mail the campaign calls for (``telling.tell`` decides them; ``Letters``
    words them); returns how many mails were queued, and the watermarks moved on (which the
    session commits).
    ``status`` writes the games of an address, for a `status` answered now, after every
    line of the tick."""
    campaign, now = table.campaign, now or datetime.now(UTC)
    clocks = timekeeping.clocks(table, campaign.marks.mailed, now)  # after every line of the tick
    told = tell(table, campaign.marks, now, notices, clocks.daily)
    words = Letters(post, table, status, clocks.dues)
    queued = 0
    for letter in told.letters:
        for mail in words.write(letter):
            post.queue(campaign, mail)
            queued += 1
    return queued, told.marks  # saved when the session commits


class Letters:
    """The words of a campaign's letters (``records.Letter``): one method a kind, each
    giving the mails it makes (none: held back by the answer limits)."""

    def __init__(
        self,
        post: Post,
        table: Table,
        status: Callable[[str], str] | None,
        due_at: dict[int, Shown],
    ):
        self.post, self.identity, self.table = post, post.identity, table
        self.campaign = table.campaign
        self.status = status
        self.due_at = due_at  # when each awaited decision is due, as its player reads it

    def write(self, letter: Letter) -> list[EmailMessage]:
        """The letter's mails, in the language of the one it goes to."""
        campaign = self.campaign
        if letter.address:  # someone outside the seats: an observer, a replaced player
            reader = None
        elif letter.to is None:
            reader = campaign.gm
        else:
            reader = campaign.players[letter.to]
        with language.reading_in(campaign, reader, self.identity.language):
            return getattr(self, letter.kind)(letter)

    @cached_property
    def png(self) -> bytes | None:
        """The picture of the map (none for a game drawn in text only), drawn once for all
        the letters that show it, and only if one does."""
        return maps.png_map(self.table.view())

    def record(self, n: int) -> Record:
        return self.table.steps_after(n - 1)[0].record

    def action(self, letter: Letter) -> Any:
        """The command the letter tells of (of the kind its record said)."""
        return self.record(letter.record).actions[letter.index]

    def answered(self, letter: Letter) -> list[Record]:
        """The mails the letter answers."""
        return [self.record(n) for n in letter.reads]

    def reads(self, records: list[Record]) -> list[dict]:
        """What was done with each of these mails (a `status` in one answered now)."""
        return [read_of(self.table, r, self._status_of(r)) for r in records]

    def _status_of(self, record: Record) -> str:
        if self.status is None or not record.asks_for("status"):
            return ""
        player = game_master(self.campaign) if record.seat is None else self.player(record.seat)
        return self.status(player.address)

    def player(self, seat: int):
        return self.campaign.players[seat]

    # letters to a player

    def digest(self, letter: Letter) -> list[EmailMessage]:
        seat = int(letter.to or 0)
        records = self.answered(letter)
        mail = digest(
            self.identity,
            self.table,
            seat,
            letter.since,
            self.png if letter.pictured else None,
            self.due_at.get(seat),
            reads=self.reads(records),
            history=history_for(self.table, records),
        )
        return [mail]

    def confirmation(self, letter: Letter) -> list[EmailMessage]:
        records = self.answered(letter)
        gm = letter.to is None
        if not gm and not confirmed_within_limits(self.post, records):
            return []
        mail = confirmation(
            self.identity,
            self.table,
            records,
            self.reads(records),
            None if gm else self.due_at.get(int(letter.to or 0)),
            history_for(self.table, records),
            help_lines(gm=gm),
        )
        return [mail]

    def told(self, letter: Letter) -> list[EmailMessage]:
        seat = int(letter.to or 0)
        news = self.table.steps_after(letter.since)
        steps = [s for s in news if s.record.n in letter.reads]
        brief = told_briefly([s for s in news if not own_mail(s, seat)])
        due = self.due_at.get(seat)
        return [told(self.identity, self.table, seat, steps, brief, due, letter.asks)]

    def reminder(self, letter: Letter) -> list[EmailMessage]:
        """A reminder of a decision owed, or (``moved``) its new due time after its clock
        stood still."""
        seat, stage = letter.key
        due = self.due_at.get(seat)
        if due is None:
            return []  # its decision was taken meanwhile
        return [reminder(self.identity, self.table, seat, stage, due, moved=letter.moved)]

    def welcome(self, letter: Letter) -> list[EmailMessage]:
        """A player who takes over a seat: their welcome, with the game under way and the
        map, asked for their decision if one is owed."""
        seat = int(letter.to or 0)
        due = self.due_at.get(seat)
        return [welcome(self.identity, self.table, seat, key=letter.key[0], png=self.png, due=due)]

    def dropped(self, letter: Letter) -> list[EmailMessage]:
        return [dropped_notice(self.identity, self.table, self.action(letter), letter.record)]

    def press(self, letter: Letter) -> list[EmailMessage]:
        record, message = self.record(letter.record), self.action(letter)
        return [press(self.identity, self.table, record, message, letter.index, letter.to)]

    # letters to someone outside the seats

    def replaced(self, letter: Letter) -> list[EmailMessage]:
        record, replace = self.record(letter.record), self.action(letter)
        return [replaced_notice(self.identity, self.campaign, replace, record)]

    def observing_ended(self, letter: Letter) -> list[EmailMessage]:
        record = self.record(letter.record)
        number = letter.key[1]
        return [observing_ended(self.identity, self.campaign, letter.address, record, number)]

    def observed(self, letter: Letter) -> list[EmailMessage]:
        round_ = letter.index
        report = turn_report(self.table, round_, self.table.view_after_round(round_))
        return [observer_report(self.identity, self.campaign, letter.address, round_, report)]

    # letters to the game master

    def missed(self, letter: Letter) -> list[EmailMessage]:
        """The deadlines missed that the game master is told of now (the timekeeper's news:
        whose, when due, what the policy did and chose), in one mail."""
        if self.campaign.gm is None:
            return []
        key = "missed." + hashlib.sha256(repr(letter.key).encode()).hexdigest()[:16]
        return [missed_notice(self.identity, self.campaign, letter.key, key)]

    def game_over(self, letter: Letter) -> list[EmailMessage]:
        return [game_over_notice(self.identity, self.table)]

    def set_aside(self, letter: Letter) -> list[EmailMessage]:
        return set_aside_notices(self.post, self.table, self.table.set_aside or "")


def set_aside_notices(post: Post, table: Table, why: str) -> list[EmailMessage]:
    """The game master (or, for a campaign without one, the site's game masters) told that
    the campaign's damaged snapshot was set aside and its log replayed: once, as the table
    that found it is answered once."""
    campaign = table.campaign
    subject = say("subject_snapshot_set_aside", campaign_id=campaign.id)
    text = say("snapshot_set_aside", campaign_id=campaign.id, aside=snapshots.DAMAGED, why=why)
    key = "snapshot." + hashlib.sha256(f"{table.count}\n{why}".encode()).hexdigest()[:12]
    if campaign.gm is not None:
        return [gm_notice(post.identity, campaign, subject, text, key)]
    return [
        notice(post.identity, address, subject, text, None, key=f"{key}.{address}")
        for address in post.config.game_master_addresses
    ]


def welcome_game_master(post: Post, campaign: Campaign) -> None:
    """A new campaign's game master gets their address, token and commands."""
    with language.reading_in(campaign, campaign.gm, post.identity.language):
        post.queue(campaign, gm_welcome(post.identity, campaign, help_lines(gm=True)))


def welcome_players(
    post: Post, table: Table, now: datetime | None = None, tell_gm: bool = False
) -> None:
    """A game that begins welcomes every player with their token, the seed's fingerprint
    and, for whoever acts first, their first decision with the map and its due time (as if
    asked ``now``: the next tick enters it in the book); the others are told when theirs
    will come; the game master, with ``tell_gm``, that it began. The watermarks start from
    there."""
    campaign = table.campaign
    seats = range(len(campaign.players))
    first = {d.seat for d in table.awaiting}
    png = maps.png_map(table.view()) if first else None
    due = timekeeping.due_if_asked(table, now or datetime.now(UTC))
    zone = campaign.config.deadlines.zone
    for seat in seats:
        own, waits = due.get(seat), min(due.values(), default=None)
        timezone = campaign.players[seat].timezone
        with language.reading_in(campaign, campaign.players[seat], post.identity.language):
            mail = welcome(
                post.identity,
                table,
                seat,
                png=png if seat in first else None,
                due=show(own, timezone, zone) if own else None,
                waits_due=show(waits, timezone, zone) if waits and not own else None,
            )
        post.queue(campaign, mail)
    if tell_gm and campaign.gm is not None:
        with language.reading_in(campaign, campaign.gm, post.identity.language):
            post.queue(campaign, started_notice(post.identity, table))
    campaign.marks = Watermarks(
        digests={str(s): table.count for s in seats},
        digest_rounds={str(s): table.round for s in seats},
        # the welcomes prompt the first decisions, with the map
        stages={str(d.seat): d.stage for d in table.awaiting},
        pictured={str(s): table.round for s in first},
    )


def tell_sender(post: Post, told: Notice, now: datetime) -> bool | None:
    """A short answer the intake or a site command decided on (an unknown game or sender, a
    mail that cannot be read, a site command, a game open for sign-up), rendered and queued
    within the answer limits of its audience: True when queued, False when the limits hold
    it back (the mail is recorded, not answered), None when there is no address to answer."""
    if not told.to:
        return None
    if told.audience is not None and not post.answer_book.allow(told.to, told.audience, now):
        return False
    with language.reading(told.language):
        text, subject = spoken(told.text), spoken(told.subject)
        mail = notice(post.identity, told.to, subject, text, told.answers, told.key, told.reply_to)
    post.queue(None, mail)
    return True


def confirmed_within_limits(post: Post, reads: list[Record]) -> bool:
    """A confirmation of mails whose orders moved the game on is always sent (the game's
    length bounds those); any other counts against the sender's limit, so that an
    auto-responder with the token is answered a few times, not for ever."""
    sender = reads[-1].sender
    return (
        any(r.orders for r in reads)
        or not sender
        or post.answer_book.allow(sender, Audience.PLAYER)
    )


def history_for(table: Table, records: list[Record]) -> str:
    """The history the last of these mails that asked for one asked for with `history` (the
    whole game, or one turn), as the game is now."""
    asked = [c for r in records for c in r.commands if c.wants == "history"]
    if not asked:
        return ""
    try:
        return history_text(table, getattr(asked[-1], "turn", None))
    except NoSuchTurn as err:
        return str(err)


def write_turns(table: Table) -> None:
    """The report, text map and PNG map of every round that ended since the turn files were
    last written (the watermark ``turns``, moved on here and saved with the answers), their
    hashes recorded with them: a round in play is written once, when it ends, not again at
    every order."""
    marks = table.campaign.marks
    rounds = sorted({s.round for s in table.steps_after(marks.turns)})
    for round_ in (r for r in rounds if over(table, r)):
        table.campaign.write_turns(turn_files(table, round_), table.count, table.last_hash)
    marks.turns = table.count


# the site's own mail to its game masters ------------------------------------------------------


def tell_failures(post: Post, site: SiteFiles, game_masters: list[str], now: datetime) -> bool:
    """Queue the summary of the failures not told yet to the site's game masters, when there
    are any and the last summary is a day old; True when one was queued."""
    if not game_masters:
        return False
    told_path = site.state_dir / FAILURES_TOLD
    try:
        told = read_state(told_path, told_of) or Told()
    except StateDamaged as err:  # told afresh: a summary may repeat, none is lost
        log.error("%s", err)
        told = Told()
    if told.at and now - datetime.fromisoformat(told.at) < EVERY:
        return False
    new, place = failures_since(site.state_dir, told)
    if not new:
        return False
    found = causes(new)
    text = render(
        "failures.txt", causes=found[:SHOWN], more=found[SHOWN:], total=len(new), site=site.root
    )
    msg = compose(
        from_address=post.identity.address,
        from_name=post.identity.name,
        to=game_masters,
        subject=say("subject_failures", count=len(new), since=told.at),
        text=fitted(text),
        message_id=message_id(post.identity, "failures", place.inode, place.head, place.offset),
        language=language.current(),
    )
    post.queue(None, msg)
    place.at, place.wall = now.isoformat(), time.time()
    atomic_write(told_path, json.dumps(place.to_data()))
    log.info("failure summary (%d) queued for the game masters", len(new))
    return True


def tell_stopped(
    post: Post, site: SiteFiles, game_masters: list[str], campaign_id: str, error: str
) -> None:
    """A campaign a tick had to skip: its game master (as its file names them, if it can
    still be read that far) and the site's game masters are told what is wrong, once for
    each version of its files: the mail's Message-ID comes from the error and the files'
    sizes and times, so the next ticks queue it again in vain, and a new edit that is still
    wrong is told again."""
    root = site.data_root / campaign_id
    gm = None
    try:
        entry = (load_file(root / SETTINGS_FILE) or {}).get("gm") or {}
        if isinstance(entry, dict) and plain_address(str(entry.get("address"))):
            token = str(entry.get("token") or "")
            # a token no mail can carry (it may be what is wrong) leaves out the Reply-To
            gm = (str(entry["address"]), token if TOKEN_PATTERN.match(token) else "")
    except (OSError, SettingsError, AttributeError):
        pass  # the site's game masters are told all the same
    marks = [error]
    for name in (SETTINGS_FILE, LOG, SNAPSHOT):
        try:
            stat = (root / name).stat()
            marks.append(f"{name} {stat.st_size} {stat.st_mtime_ns}")
        except FileNotFoundError:
            marks.append(f"{name} none")
    key = hashlib.sha256("\n".join(marks).encode()).hexdigest()[:16]
    to_game_masters(
        post,
        campaign_id,
        gm,
        game_masters,
        subject=say("subject_stopped", campaign_id=campaign_id),
        text=render("stopped.txt", campaign_id=campaign_id, error=error, site=site.root),
        what="stopped",
        key=key,
    )


def to_game_masters(
    post: Post,
    campaign_id: str,
    gm: tuple[str, str] | None,
    game_masters: list[str],
    subject: str,
    text: str,
    what: str,
    key: str,
    about: str = "",
) -> int:
    """A notice to the campaign's game master (``gm``: address and token), whose reply
    reaches their campaign (the token in Reply-To), and the same to the site's game masters,
    who hold no token of it; returns the mails queued."""
    others = [a for a in dict.fromkeys(game_masters) if gm is None or a.lower() != gm[0].lower()]
    mails: list[tuple[list[str], str | None, str]] = []  # to, Reply-To, what of the id
    if gm is not None:
        address, token = gm
        reply_to = post.identity.plus(campaign_id, token) if token else None
        mails.append(([address], reply_to, f"{what}-gm"))
    if others:
        mails.append((others, None, what))
    for to, reply_to, kind in mails:
        msg = compose(
            from_address=post.identity.address,
            from_name=post.identity.name,
            to=to,
            reply_to=reply_to,
            subject=subject,
            text=fitted(text),
            message_id=message_id(post.identity, campaign_id or "site", kind, key),
            language=language.current(),
        )
        post.queue(None, msg, about=about)
    return len(mails)


UNDELIVERED = "undelivered"  # what a notice of undelivered mail is about: never told of itself


def tell_undelivered(post: Post, site: SiteFiles, game_masters: list[str]) -> int:
    """The mails the outbox gave up on (refused for good, or still refused after its
    give_up_days) that no one was told of yet: one notice for each campaign's, to its game
    master and the site's game masters (the site's alone for mail outside any campaign),
    listing each mail, its recipients, and why. A notice that is itself not delivered is
    not told of, so no chain of notices can follow a dead address. Returns the notices
    queued."""
    outbox, queued = post.outbox, 0
    by_about: dict[str, list] = {}
    for mail in outbox.undelivered():
        by_about.setdefault(mail.about, []).append(mail)
    for about, mails in by_about.items():
        site_gms = [] if about == UNDELIVERED else list(game_masters)
        gm = None
        if about and about != UNDELIVERED:
            try:
                player = site.campaign(about).gm
                gm = (player.address, player.token) if player is not None else None
            except Exception as err:  # a campaign that cannot be read: the site's are told
                log.warning("the game master of %s is not told of undelivered mail: %s", about, err)
        key = hashlib.sha256(" ".join(m.file_name for m in mails).encode()).hexdigest()[:16]
        text = render(
            "undelivered.txt",
            mails=mails,
            campaign_id=about,
            folder=outbox.failed_dir,
            site=site.root,
        )
        told = to_game_masters(
            post,
            about,
            gm,
            site_gms,
            subject=say("subject_undelivered", count=len(mails), campaign_id=about),
            text=text,
            what=UNDELIVERED,
            key=key,
            about=UNDELIVERED,
        )
        queued += told
        if told:
            log.info("%d undelivered mail(s) of %s told", len(mails), about or "the site")
        else:
            log.warning(
                "%d undelivered mail(s) of %s: nobody to tell", len(mails), about or "the site"
            )
        for mail in mails:  # told once it is queued: a crash before this queues it again, in vain
            outbox.mark_told(mail.file_name)
    return queued
