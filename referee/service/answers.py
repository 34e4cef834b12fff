"""The one stage that decides every mail the referee sends, and why: a game master looks
here to learn why any mail went out. Each is composed by ``words`` and queued by
``post.queue``, under a Message-ID derived from what it answers.

- ``answer``: what a campaign's log and this tick's deadline notices call for: reminders and
  missed deadlines (``tell_deadlines``), relayed messages, observers' reports, welcomes of
  replacement players, digests and confirmations; and the files of turns/;
- ``welcome_game_master``, ``welcome_players``: a campaign made, a game begun;
- ``tell_sender``: a short answer to a mail outside a player's game, within the answer limits;
- ``tell_failures``, ``tell_stopped``: the site's game masters told what failed;
- ``tell_undelivered``: a campaign's game master and the site's told which mails the
  outbox gave up on, and why.

Nothing here decides anything about the game. What was answered is kept as watermarks
(mailed.json); they are derived data: after a crash the answers are derived again, and the
outbox recognises a mail it queued before by its Message-ID, so none goes out twice.
"""

from __future__ import annotations

import hashlib
import json
import logging
import time
from datetime import UTC, datetime, timedelta

from .. import maps
from ..files import StateDamaged, atomic_write, read_state
from ..mail.compose import compose
from ..mail.headers import plain_address
from ..mail.read import Incoming
from ..records import (
    Command,
    DeadlinesSet,
    Drop,
    Extend,
    History,
    Kind,
    Message,
    ObserversSet,
    Pause,
    Record,
    Replace,
    Resume,
    Rollback,
)
from ..schema import SettingsError, load_file
from ..settings.checks import TOKEN_PATTERN
from ..settings.deadlines import show, stamp
from ..settings.site import Audience
from ..store import snapshots
from ..store.campaign import Campaign, Step, Table
from ..store.marks import Watermarks
from ..store.site import SiteFiles
from ..words.history import NoSuchTurn, history_text, over, turn_files
from ..words.mails import (
    confirmation,
    decision_of,
    digest,
    gm_notice,
    gm_welcome,
    message_id,
    notice,
    observer_report,
    observing_ended,
    press,
    read_of,
    reminder,
    replaced_notice,
    told,
    turn_report,
    welcome,
)
from ..words.render import render, say
from . import timekeeping
from .commands import TELLS_EVERYONE, help_lines
from .failures import EVERY, SHOWN, Told, causes, failures_since, told_of
from .post import Post
from .timekeeping import Notices

log = logging.getLogger(__name__)


def answer(
    post: Post, table: Table, now: datetime | None = None, notices: Notices | None = None
) -> tuple[int, Watermarks]:
    """Queue the mails the campaign calls for: the reminders and missed deadlines of this
    tick's ``notices`` (``timekeeping``), then what its log calls for: relayed messages,
    welcomes of replacement players, then one mail per player for what concerns them: a
    digest (with the answers to their mails read since) when they have a new decision, a new
    round or the result, else a confirmation of their mail. A mail that needs no answer of
    its own (its orders accepted, nothing else in it) and a report with no decision in it
    wait up to the campaign's ``gather_minutes`` for the player's next mail to go along with
    it. Then write the turn reports. Returns how many mails were queued, and the watermarks
    as saved."""
    campaign = table.campaign
    now = now or datetime.now(UTC)
    gather = timedelta(minutes=campaign.config.gather_minutes)
    marks = campaign.marks
    last = table.count
    due_at = timekeeping.dues(table)
    queued = tell_deadlines(post, table, notices) if notices else 0
    if table.set_aside:
        queued += tell_set_aside(post, table, table.set_aside)
    held: dict[int | None, list[Record]] = {}
    told_everyone = False  # a game master's action: everyone gets a report
    welcomed: set[int] = set()  # seats taken over: their newcomer gets a welcome
    png = None
    kept = [n for numbers in marks.held.values() for n in numbers]
    records = {
        s.record.n: s.record for s in table.steps_after(min([marks.confirmed + 1, *kept]) - 1)
    }
    for key, numbers in marks.held.items():
        held[int(key)] = [records[n] for n in numbers if n in records]
    for step in table.steps_after(marks.confirmed):
        record = step.record
        for index, action in enumerate(record.actions):
            if isinstance(action, Message):
                if action.to_gm and campaign.gm is not None:
                    post.queue(campaign, press(post.identity, table, record, action, index, None))
                    queued += 1
                for seat in action.to:
                    post.queue(campaign, press(post.identity, table, record, action, index, seat))
                    queued += 1
            elif isinstance(action, ObserversSet):
                for number, address in enumerate(action.dropped):
                    ended = observing_ended(post.identity, campaign, address, record, number)
                    post.queue(campaign, ended)
                    queued += 1
            elif isinstance(action, Replace):
                seat = action.seat
                asks = bool(decision_of(table, seat)[1])  # a first decision: with the map
                if asks:
                    png = png or maps.png_map(table.view())
                    marks.pictured[str(seat)] = table.round
                welcomed.add(seat)
                welcomed_mail = welcome(
                    post.identity,
                    table,
                    seat,
                    key=str(record.n),
                    png=png if asks else None,
                    due=due_at.get(seat),
                )
                post.queue(campaign, welcomed_mail)
                if action.old_address:
                    post.queue(campaign, replaced_notice(post.identity, campaign, action, record))
                queued += 1 + bool(action.old_address)
            if isinstance(action, TELLS_EVERYONE):
                told_everyone = True
            if isinstance(action, Rollback):
                marks.stages.clear()  # the awaited players are prompted again
        if record.missed and campaign.config.lateness_notice:
            told_everyone = True
        if record.kind == Kind.MAIL:
            held.setdefault(record.seat, []).append(record)
    marks.confirmed = last
    awaiting = {d.seat: d for d in table.awaiting}
    for seat in range(len(campaign.players)):
        key = str(seat)
        reads = held.pop(seat, [])
        since = marks.digests.get(key, 0)
        news = [
            s
            for s in table.steps_after(since)
            if not (s.record.kind == Kind.MAIL and s.record.seat == seat)
        ]
        due = awaiting.get(seat)
        final = table.over and marks.stages.get(key) != "over"  # everyone gets it once
        if not news and not reads and not final:
            marks.digests[key] = last
            continue
        new_decision = due is not None and marks.stages.get(key) != due.stage
        brief = told_briefly(news)
        if brief and not (reads or final or new_decision):
            # the game master's actions that did not move the game: a short mail, no map
            if seat not in welcomed:
                ask = any(isinstance(a, Resume) for a in brief)  # asked again after a pause
                steps = [s for s in news if s.events]
                post.queue(
                    campaign,
                    told(post.identity, table, seat, steps, brief, due_at.get(seat), ask),
                )
                queued += 1
            marks.digests[key] = last
            continue
        new_round = bool(news) and (told_everyone or marks.digest_rounds.get(key) != table.round)
        waiting = [s.record for s in news[:1]] + reads
        if (
            new_round
            and not (new_decision or final or told_everyone)
            and _may_wait(waiting, now, gather)
        ):
            new_round = False  # a report with nothing to decide waits for the next mail
        choice = campaign.players[seat].mail
        if choice == "brief" and not (new_decision or final or told_everyone):
            new_round = False  # the player asked for decisions and results only
            if all(_plain(r) for r in reads):
                held[seat] = reads  # accepted orders: told with the next decision
                continue
        if choice == "digest" and not final and _later(marks, key, now):
            held[seat] = reads  # one mail a day: everything since goes in the next one
            continue
        if new_decision or new_round or final:
            # the picture once a round (and with the result); the text map in every mail
            pictured = final or marks.pictured.get(key) != table.round
            if pictured:
                marks.pictured[key] = table.round
                png = png or maps.png_map(table.view())
            post.queue(
                campaign,
                digest(
                    post.identity,
                    table,
                    seat,
                    since,
                    png if pictured else None,
                    due_at.get(seat),
                    reads=[read_of(table, r) for r in reads],
                ),
            )
            marks.digests[key] = last
            marks.digest_rounds[key] = table.round
            marks.stages[key] = "over" if table.over else due.stage if due else None
            marks.mailed[key] = now.isoformat()
            queued += 1
        elif reads and (due is not None or not _may_wait(reads, now, gather)):
            if confirmed_within_limits(post, reads):
                post.queue(
                    campaign,
                    confirmation(
                        post.identity,
                        table,
                        reads,
                        due_at.get(seat),
                        history_for(table, reads[-1]),
                        help_lines(gm=False),
                    ),
                )
                marks.mailed[key] = now.isoformat()
                queued += 1
        elif reads:
            held[seat] = reads  # answered with the player's next mail
    for record in held.pop(None, []):  # the game master's mails: answered at once
        post.queue(
            campaign, confirmation(post.identity, table, [record], commands=help_lines(gm=True))
        )
        queued += 1
    marks.held = {str(seat): [r.n for r in reads] for seat, reads in held.items() if reads}
    queued += tell_observers(post, table, marks)
    renamed = any(
        isinstance(a, Replace) for s in table.steps_after(marks.turns) for a in s.record.actions
    )  # a seat's new name shows in every round's report, as the replay shows it
    write_turns(campaign.table() if renamed else table, 0 if renamed else marks.turns)
    marks.turns = last
    marks.save(campaign.root)
    return queued, marks


def welcome_game_master(post: Post, campaign: Campaign) -> None:
    """A new campaign's game master gets their address, token and commands."""
    post.queue(campaign, gm_welcome(post.identity, campaign, help_lines(gm=True)))


def welcome_players(post: Post, table: Table, now: datetime | None = None) -> None:
    """A game that begins welcomes every player with their token, the seed's fingerprint
    and, for whoever acts first, their first decision with the map and its due time (as if
    asked ``now``: the next tick enters it in the book); the others are told when theirs
    will come. The watermarks start from there."""
    campaign = table.campaign
    seats = range(len(campaign.players))
    first = {d.seat for d in table.awaiting}
    png = maps.png_map(table.view()) if first else None
    due = timekeeping.due_if_asked(table, now or datetime.now(UTC))
    zone = campaign.config.deadlines.zone
    for seat in seats:
        own, waits = due.get(seat), min(due.values(), default=None)
        timezone = campaign.players[seat].timezone
        post.queue(
            campaign,
            welcome(
                post.identity,
                table,
                seat,
                png=png if seat in first else None,
                due=show(own, timezone, zone) if own else None,
                waits_due=show(waits, timezone, zone) if waits and not own else None,
            ),
        )
    campaign.marks = Watermarks(
        digests={str(s): table.count for s in seats},
        digest_rounds={str(s): table.round for s in seats},
        # the welcomes prompt the first decisions, with the map
        stages={str(d.seat): d.stage for d in table.awaiting},
        pictured={str(s): table.round for s in first},
    )


def tell_sender(
    post: Post,
    mail: Incoming,
    subject: str,
    text: str,
    now: datetime,
    to: str | None = None,
    reply_to: str | None = None,
    audience: Audience = Audience.STRANGER,
) -> bool | None:
    """A short answer to a mail outside a player's game (an unknown game or sender, a mail
    that cannot be read, a site command), within the answer limits of its audience: True
    when queued, False when the limits hold it back (the mail is recorded, not answered),
    None when there is no address to answer."""
    to = to or mail.sender_address
    if not to:
        return None
    if not post.answer_book.allow(to, audience, now):
        return False
    key = f"{mail.sender_address} {mail.message_id}"  # another sender's mail is another
    post.queue(
        None, notice(post.identity, to, subject, text, mail.message_id, key=key, reply_to=reply_to)
    )
    return True


def tell_deadlines(post: Post, table: Table, notices: Notices) -> int:
    """A reminder to each player whose deadline nears, and a notice to the game master of
    each deadline missed and what the campaign's policy did; returns how many were queued."""
    campaign = table.campaign
    zone = campaign.config.deadlines.zone
    queued = 0
    for seat, due in notices.reminders:
        stage = campaign.book.seats[str(seat)].stage
        shown = show(due, campaign.players[seat].timezone, zone)
        post.queue(campaign, reminder(post.identity, table, seat, stage, shown))
        queued += 1
    for seat, due, done in notices.missed:
        if campaign.gm is None:
            continue
        name = campaign.players[seat].name
        stage = campaign.book.seats[str(seat)].stage
        text = say("missed", name=name, campaign_id=campaign.id, due=stamp(due), done=done)
        subject = say("subject_missed", name=name)
        post.queue(
            campaign, gm_notice(post.identity, campaign, subject, text, f"missed.{seat}.{stage}")
        )
        queued += 1
    return queued


def tell_set_aside(post: Post, table: Table, why: str) -> int:
    """The game master (or, for a campaign without one, the site's game masters) told that
    the campaign's damaged snapshot was set aside and its log replayed: once, as the table
    that found it is answered once; returns how many mails were queued."""
    campaign = table.campaign
    subject = say("subject_snapshot_set_aside", campaign_id=campaign.id)
    text = say("snapshot_set_aside", campaign_id=campaign.id, aside=snapshots.DAMAGED, why=why)
    key = "snapshot." + hashlib.sha256(f"{table.count}\n{why}".encode()).hexdigest()[:12]
    if campaign.gm is not None:
        post.queue(campaign, gm_notice(post.identity, campaign, subject, text, key))
        return 1
    for address in post.config.game_master_addresses:
        told = notice(post.identity, address, subject, text, None, key=f"{key}.{address}")
        post.queue(campaign, told)
    return len(post.config.game_master_addresses)


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


def tell_observers(post: Post, table: Table, marks: Watermarks) -> int:
    """The report of each round that ended since the last one, and the result, to the
    campaign's observers (what every player can read: no token, no private press)."""
    campaign = table.campaign
    observers = campaign.config.observers
    done = table.round + 1 if table.over else table.round  # the rounds that are over
    if marks.observed is None:
        marks.observed = done - 1  # observers join from the round in play
    queued = 0
    for round_ in range(marks.observed + 1, done):
        report = turn_report(table, round_, table.view_after_round(round_))
        for address in observers:
            post.queue(campaign, observer_report(post.identity, campaign, address, round_, report))
            queued += 1
    marks.observed = max(marks.observed, done - 1)
    return queued


BRIEF = (Pause, Resume, Extend, DeadlinesSet, ObserversSet, Replace, Drop)
"""The game master's actions told in a short mail of their own when nothing else happened:
they change the campaign, not the position (a drop by a game's own rule is not one)."""


def told_briefly(news: list[Step]) -> list[Command]:
    """The game master's actions of ``news`` to tell briefly, when they are all that
    happened in it (every other step told nothing); else none."""
    actions: list[Command] = []
    for step in news:
        record = step.record
        quiet = [a for a in record.actions if isinstance(a, BRIEF) and not a.effects()]
        if quiet and not record.orders and not record.missed:
            actions += quiet
        elif step.events:
            return []
    return actions


DAY = timedelta(days=1)


def _later(marks: Watermarks, key: str, now: datetime) -> bool:
    """Whether a player who asked for one mail a day (``mail digest``) had theirs today."""
    last = marks.mailed.get(key)
    return last is not None and now < datetime.fromisoformat(last) + DAY


def next_mail(table: Table, marks: Watermarks, now: datetime) -> datetime | None:
    """When the campaign's answers next need a tick of their own: at once when an answer
    waits for the player's next mail (or the gather time), else when a player who gets one
    mail a day has theirs held; None when nothing waits."""
    players = table.campaign.players
    daily = {k for k in marks.mailed if players[int(k)].mail == "digest" and _later(marks, k, now)}
    times = [now for key, reads in marks.held.items() if reads and key not in daily]
    for key in daily:
        if marks.held.get(key) or table.steps_after(marks.digests.get(key, 0)):
            times.append(datetime.fromisoformat(marks.mailed[key]) + DAY)
    return min(times, default=None)


def _may_wait(records: list[Record], now: datetime, gather: timedelta) -> bool:
    """Whether answers about these records may wait for a later mail: each record is only
    accepted orders (or news), and the first is younger than the campaign's gather time."""
    if not records or not gather:
        return False
    if any(r.kind == Kind.MAIL and not _plain(r) for r in records):
        return False
    first = datetime.fromisoformat(records[0].at.replace("Z", "+00:00"))
    return now - first < gather


def _plain(record: Record) -> bool:
    """A mail whose answer would only say that its orders were accepted."""
    return bool(record.orders) and not (
        record.bad_lines or record.refused or record.actions or any(record.queues.values())
    )


def history_for(table: Table, record: Record) -> str:
    """The history a mail asked for with `history` (the whole game, or one turn)."""
    asked = [c for c in record.commands if isinstance(c, History)]
    if not asked:
        return ""
    try:
        return history_text(table, asked[-1].turn)
    except NoSuchTurn as err:
        return str(err)


def write_turns(table: Table, since: int) -> None:
    """The report, text map and PNG map of every round that ended since record ``since``
    (the record that ends a round is one of its own): a round in play is written once, when
    it ends, not again at every order."""
    rounds = sorted({s.round for s in table.steps_after(since)})
    folder = table.campaign.dir("turns")
    for round_ in (r for r in rounds if over(table, r)):
        for name, content in turn_files(table, round_).items():
            # derived from the log, so written again if a crash loses them
            atomic_write(folder / name, content, durable=False)


# the site's own mail to its game masters ------------------------------------------------------


def tell_failures(post: Post, site: SiteFiles, game_masters: list[str], now: datetime) -> bool:
    """Queue the summary of the failures not told yet to the site's game masters, when there
    are any and the last summary is a day old; True when one was queued."""
    if not game_masters:
        return False
    told_path = site.state_dir / "failures-told.json"
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
        subject=f"referee: {len(new)} failure(s) since {told.at or 'the start'}",
        text=text,
        message_id=message_id(post.identity, "failures", place.inode, place.head, place.offset),
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
        entry = (load_file(root / "campaign.yaml") or {}).get("gm") or {}
        if isinstance(entry, dict) and plain_address(str(entry.get("address"))):
            token = str(entry.get("token") or "")
            # a token no mail can carry (it may be what is wrong) leaves out the Reply-To
            gm = (str(entry["address"]), token if TOKEN_PATTERN.match(token) else "")
    except (OSError, SettingsError, AttributeError):
        pass  # the site's game masters are told all the same
    marks = [error]
    for name in ("campaign.yaml", "log.jsonl", "snapshot.json"):
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
            text=text,
            message_id=message_id(post.identity, campaign_id or "site", kind, key),
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
