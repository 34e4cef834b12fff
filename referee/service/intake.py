"""One incoming mail, from its raw bytes to its one outcome: stored, routed, authenticated,
and its commands and orders applied in one log record, or answered outside any campaign.

The order of work keeps a crash harmless: the raw mail is stored first; the log record that
carries the mail's Message-ID is the moment it counts as applied, and a mail already in a
log is never applied again. A mail is known by its Message-ID together with its sender: a
stranger's mail under a Message-ID a player used is another mail. A player's mail sent anew
(the same text, or dated more than a day before the last one applied) is refused, saying so.
"""

from __future__ import annotations

import logging
import traceback
from collections import Counter
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from functools import cached_property

from ..files import crashpoint
from ..mail.inbox import InMail
from ..mail.read import Incoming, read_head, read_mail
from ..mail.routing import MAX_LINES, Route, route
from ..records import BadLine, Help, Kind, Record, RefusedCommand
from ..settings.deadlines import stamp
from ..settings.site import Audience
from ..store.campaign import Campaign, CampaignError, Status, Table
from ..words.render import say
from .answers import tell_sender
from .commands import (
    SITE_VERBS,
    Commands,
    Outside,
    confirm_observer,
    help_inside,
    help_outside,
    no_such_game,
    run_outside,
    split,
    tell_replaced,
)
from .failures import note_failure
from .limits import OBSERVE_CODE
from .play import Outcome, commit, dropped_by, read_orders, reads_as_order, submit
from .session import Sessions, Unavailable
from .site import Site

log = logging.getLogger(__name__)

HEAD_BYTES = 64 * 1024  # what is read and kept of a mail too large to take
# the outcomes (state/received.jsonl) of a mail kept in the quarantine: `referee retry` takes
# such a mail again, but one too large to read, of which only its head was kept
FAILED, UNREADABLE, TOO_LARGE = "failed", "unreadable", "too large"
OLD_MAIL = timedelta(days=1)  # a player's mail dated this long before their last is refused


@dataclass
class Counts:
    """What the mails of one tick came to."""

    applied: int = 0  # mails whose orders went into a campaign's log
    ignored: int = 0  # machine mail, duplicates
    answered: int = 0  # notices queued
    held: int = 0  # mails held for a campaign that cannot be read
    errors: list[str] = field(default_factory=list)
    by_campaign: Counter[str] = field(default_factory=Counter)  # mails applied, per campaign


def among(mail: Incoming, keys: AbstractSet[tuple[str | None, str]]) -> bool:
    """Whether ``keys`` (sender, Message-ID) name the mail: a line written before senders
    were kept stands for its Message-ID from anyone."""
    return mail.key in keys or (None, mail.message_id) in keys


class Intake:
    """Takes the mails of one tick, one at a time."""

    def __init__(
        self,
        site: Site,
        sessions: Sessions,
        now: datetime,
        retrying: frozenset[tuple[str | None, str]] = frozenset(),
    ):
        self.site, self.sessions, self.now = site, sessions, now
        self.retrying = retrying  # quarantined mails taken again (`referee retry`)
        self.counts = Counts()
        self.unanswered = False  # the mail taken now was not answered: over the answer limits

    @cached_property
    def received(self) -> set[tuple[str | None, str]]:
        """(sender, Message-ID) of every mail taken lately (but those taken again): read
        when a tick has mail, so that a tick without any does not read a log that grows with
        every mail the site got."""
        return {k for k in self.site.received_ids() if k not in self.retrying}

    def taken_before(self, mail: Incoming) -> bool:
        return among(mail, self.received)

    def retried(self, mail: Incoming) -> bool:
        """A quarantined mail taken again (`referee retry`): its sender heard of it when it
        failed."""
        return among(mail, self.retrying)

    def take(self, mail: InMail, held: bool = False) -> bool:
        """Handle one mail to exactly one recorded outcome; True when it may be marked
        processed, which is always, unless even the outcome could not be recorded, or a
        mail ``held`` before for a campaign that still cannot be read stays held. (An
        InboxError reading it leaves it in the inbox.)"""
        address, most = self.site.identity.address, self.site.config.inbox.max_mail_kb
        notice = None
        if mail.size > most * 1024:  # never read whole: its head is enough to answer
            raw = mail.read(HEAD_BYTES)
            size = -(-mail.size // 1024)
            why = f"{TOO_LARGE} ({size} KB, over {most} KB; whole in the inbox's processed folder)"
            incoming = read_head(raw, address, why)
            notice = (say("subject_too_large"), say("too_large", size=size, most=most))
        else:
            raw = mail.raw
            incoming = read_mail(raw, address, self.site.post.sent_mail)
        try:
            if incoming.unreadable and not self.taken_before(incoming):
                self.unreadable(incoming, raw, notice)
            else:
                return self.handle(incoming, raw, held)
        except Exception as err:  # one bad mail or campaign must not stop the others
            detail = traceback.format_exc(limit=3) if not isinstance(err, CampaignError) else ""
            self.counts.errors.append(f"mail {incoming.message_id}: {err}\n{detail}".rstrip())
            log.error(
                "mail %s: %s (kept in quarantine; the sender is told)", incoming.message_id, err
            )
            self.sessions.forget()  # a campaign may have been changed half-way: read it afresh
            try:
                self.failed(incoming, raw, f"{FAILED}: {type(err).__name__}: {err}")
            except Exception as second:  # not even the outcome: the mail stays in the inbox
                log.error("mail %s: its failure could not be recorded: %s", mail.key, second)
                return False
        return True

    def unreadable(self, mail: Incoming, raw: bytes, notice: tuple[str, str] | None = None) -> None:
        """A mail the parser refused or failed on, or too large to read: kept, recorded,
        answered once."""
        log.warning("mail %s: unreadable: %s", mail.message_id, mail.unreadable)
        self.failed(mail, raw, f"{UNREADABLE}: {mail.unreadable}", notice)

    def failed(
        self, mail: Incoming, raw: bytes, outcome: str, notice: tuple[str, str] | None = None
    ) -> None:
        """The raw mail to the quarantine, its outcome recorded for the game master, and one
        plain answer to a person (never to machine mail; within the answer limits): the
        ``notice`` (subject, text) or else that the mail could not be read."""
        site = self.site
        site.keep_raw(site.state_dir / "quarantine", mail.message_id, raw, mail.sender_address)
        note_failure(site, f"mail {mail.message_id} from {mail.sender_address or '?'}", outcome)
        if self.taken_before(mail) or self.retried(mail):
            # recorded before (the failure came after its outcome, or the mail is taken
            # again and is still failing): no second answer, and its outcome stands
            return
        if not mail.automatic:
            try:
                self.send_notice(mail, *(notice or (say("subject_not_read"), say("not_read"))))
            except Exception as err:  # the notice is lost, not the mail's outcome (below):
                # unrecorded, the mail would be taken, and fail, again at every tick
                log.error("mail %s: its sender could not be told: %s", mail.message_id, err)
                note_failure(
                    site,
                    f"answer to mail {mail.message_id}",
                    f"{FAILED}: {type(err).__name__}: {err}",
                )
        self.noted(mail, "-", outcome)

    def handle(self, mail: Incoming, raw: bytes, held: bool = False) -> bool:
        """One mail's outcome; False only for a ``held`` mail whose campaign still cannot be
        read (it stays held)."""
        site, mid = self.site, mail.message_id
        if self.taken_before(mail) and not held:
            log.info("mail %s from %s: taken before, ignored", mid, mail.sender_address or "?")
            self.counts.ignored += 1
            return True
        where = route(mail)
        if mail.automatic or self.site.post.sent_by_us(mid):
            site.keep_raw(site.state_dir / "unrouted", mid, raw, mail.sender_address)
            why = mail.automatic or "the referee's own mail, come back"
            self.noted(mail, "-", f"ignored: {why}")
            self.counts.ignored += 1
            return True
        if where.campaign_id is None or not site.has_campaign(where.campaign_id):
            site.keep_raw(site.state_dir / "unrouted", mid, raw, mail.sender_address)
            if where.campaign_id is None:
                run_outside(self.outside(mail, where), where.lines)
            else:
                no_such_game(self.outside(mail, where), where.campaign_id)
            # a join or an observe wrote a campaign's files: the mails after it must not
            # act on (and save over) the copy read before
            self.sessions.forget()
            self.noted(mail, "-", "answered outside any campaign")
            return True
        try:
            campaign = self.sessions.loaded(where.campaign_id)
        except Unavailable as err:
            return self.hold(mail, raw, where, str(err), held)
        site.keep_raw(campaign.dir("mail", "in"), mid, raw, mail.sender_address)
        crashpoint("stored")
        gm = campaign.is_gm_token(where.token)
        seat = None if gm else campaign.seat_of_token(where.token)
        if seat is None and not gm and (where.token or "").startswith(OBSERVE_CODE):
            self.noted(mail, campaign.id, self.observe_reply(mail, campaign, where.token or ""))
            return True
        if seat is None and not gm:
            self.answer_unknown_player(mail, campaign, where)
            self.noted(mail, campaign.id, "no valid token")
            return True
        if campaign.status == Status.OPEN:
            self.handle_open(mail, campaign, seat, where)
            self.noted(mail, campaign.id, "applied")
            return True
        try:
            table = self.sessions.loaded_table(campaign.id)
        except Unavailable as err:
            return self.hold(mail, raw, where, str(err), held)
        if mail.key in table.seen:
            self.noted(mail, campaign.id, "applied before")
            self.counts.ignored += 1
            return True
        sent_anew = self.sent_anew(mail, table, seat) if seat is not None else None
        outcome, record = self.apply(mail, table, seat, where, sent_anew)
        done = "refused: sent anew" if sent_anew else "applied"
        self.noted(mail, campaign.id, done, effect(outcome, record))
        self.counts.by_campaign[campaign.id] += 1
        self.counts.applied += 1
        return True

    def hold(self, mail: Incoming, raw: bytes, where: Route, why: str, again: bool) -> bool:
        """A mail for a campaign that cannot be read now is held, not quarantined: applied
        in its turn on the first tick that can read the campaign again. Its sender, if the
        campaign's files name them (or the token they used), is told that the game master
        is looking at it, not that their mail was wrong (once: a quarantined mail taken
        again by `referee retry` was answered when it failed). False: held (still, when
        ``again``)."""
        campaign_id = where.campaign_id
        assert campaign_id is not None
        if again:
            log.info("mail %s: still held for campaign %s", mail.message_id, campaign_id)
            return False
        self.site.hold(campaign_id, mail.message_id, raw)
        crashpoint("held")
        told = self.retried(mail)
        if not told and self.site.mentions(campaign_id, mail.sender_address, where.token or ""):
            self.send_notice(
                mail,
                say("subject_held", campaign_id=campaign_id),
                say("held", campaign_id=campaign_id),
                audience=Audience.PLAYER,
            )
        self.noted(mail, campaign_id, f"held: the campaign cannot be read ({why})")
        self.counts.held += 1
        return True

    def sent_anew(self, mail: Incoming, table: Table, seat: int) -> str | None:
        """Why a player's mail is an old one sent anew (its text repeats one of theirs
        applied before, or it is dated over a day before their latest), or None."""
        applied = table.bodies.get(f"{seat} {mail.body_digest}")
        if applied is not None:
            return say("replayed_body", when=applied)
        last = table.dates.get(seat)
        if mail.date is not None and last and mail.date < datetime.fromisoformat(last) - OLD_MAIL:
            return say(
                "replayed_date", date=stamp(mail.date), last=stamp(datetime.fromisoformat(last))
            )
        return None

    def apply(
        self,
        mail: Incoming,
        table: Table,
        seat: int | None,
        where: Route,
        sent_anew: str | None = None,
    ) -> tuple[Outcome, Record]:
        """A player's (or the game master's, seat None) mail to a started campaign: its
        commands, then its orders, in one log record; none of them when it was ``sent_anew``
        (why it is refused)."""
        campaign = table.campaign
        commands, order_lines = (
            split(where.lines, seat is None, lambda line: reads_as_order(table.rules, line))
            if not sent_anew
            else ([], [])
        )
        done = Commands(self.site, campaign, table, seat, self.now).run(commands)
        record = Record(
            Kind.MAIL,
            message_id=mail.message_id,
            sender=mail.sender_address,
            seat=seat,
            subject=mail.subject,
            actions=tuple(done.actions),
        )
        if seat is not None and not sent_anew:  # what knows this mail if it comes again
            record = replace(
                record,
                # a date to come (a wrong clock) counts as now: it must not refuse the next
                date=stamp(min(mail.date, self.now)) if mail.date else None,
                body=mail.body_digest if where.lines else None,
            )
        assert done.outcome is not None  # a started campaign's commands have one
        outcome = done.outcome
        if sent_anew:
            record = replace(record, bad_lines=(BadLine("(all)", sent_anew),))
        elif seat is None:
            record = replace(record, ignored=tuple(order_lines))
        elif campaign.status != Status.RUNNING or (dropped := dropped_by(table, seat)) is not None:
            # no orders are taken now, or ever from a dropped player
            if order_lines:
                why = (
                    say("no_orders_now", campaign_id=campaign.id, status=campaign.status)
                    if campaign.status != Status.RUNNING
                    else say("no_orders_dropped", campaign_id=campaign.id, rule=dropped)
                )
                record = replace(record, bad_lines=(BadLine("(all)", why),))
        else:
            reading = read_orders(table.rules, order_lines)
            if where.cut:
                reading.ignored.append(say("lines_unread", count=where.cut, limit=MAX_LINES))
            passed = reading.ignored
            if not (reading.entries or reading.errors or commands):
                passed = passed + set_aside(mail)  # the answer says what was not read
            record = replace(
                record,
                ignored=tuple(passed),
                bad_lines=tuple(BadLine(*e) for e in reading.errors),
            )
            if reading.entries and not reading.errors:
                outcome = submit(table, seat, reading.entries)
        commit(table, outcome, record)
        if done.rebuild:
            self.sessions.replay(campaign.id)
        return outcome, record

    def handle_open(
        self, mail: Incoming, campaign: Campaign, seat: int | None, where: Route
    ) -> None:
        """A mail to a campaign still open for sign-up: commands only, answered at once."""
        commands, order_lines = split(
            where.lines, seat is None, lambda line: reads_as_order(campaign.rules, line)
        )
        # who wrote, taken before the commands run: one who leaves frees their seat, and the
        # seat's number is then another player's
        sender = campaign.gm if seat is None else campaign.players[seat]
        done = Commands(self.site, campaign, None, seat, self.now).run(commands)
        lines = [
            f"{a.line}: {a.reason if isinstance(a, RefusedCommand) else a.said}"
            for a in done.actions
        ]
        # a sign-up's choices changed in a reply to the answer that gave the seat, which the
        # game's address (and the sender's token) is the Reply-To of: answered here
        joins = [line for line in order_lines if line.lower().split()[:1] == ["join"]]
        order_lines = [line for line in order_lines if line not in joins]
        for line in joins:
            self.join_again(mail, where, line, lines)
        if order_lines:
            lines.append(say("not_started_orders", campaign_id=campaign.id))
        if not lines:
            lines = [say("nothing_for_the_referee"), *set_aside(mail)]
        if any(isinstance(a, Help) for a in done.actions):  # the game's help, and the commands
            lines += ["", help_inside(campaign.game, gm=seat is None)]
        if seat is not None and sender not in campaign.players:
            sender = None  # left: their token is no longer one
        self.send_notice(
            mail,
            say("subject_your_mail", campaign_id=campaign.id),
            "\n".join(lines),
            reply_to=self.site.identity.plus(campaign.id, sender.token) if sender else None,
            audience=Audience.PLAYER,
        )
        tell_replaced(self.site, campaign, done.actions)
        self.counts.applied += 1

    def join_again(self, mail: Incoming, where: Route, line: str, lines: list[str]) -> None:
        """A `join` line in a mail to a game open for sign-up, done as the site's join, its
        answer among the ``lines`` of the answer to the mail. The join read and saved the
        campaign afresh: the mails after it read it again."""

        def answer(
            subject: str, text: str, to: str | None = None, reply_to: str | None = None
        ) -> bool:
            lines.append(f"{line}: {text}")
            return True

        ctx = replace(self.outside(mail, where), answer=answer)
        SITE_VERBS["join"].run(ctx, line.partition(" ")[2].strip(), line)
        self.sessions.forget()

    def noted(self, mail: Incoming, where: str, outcome: str, detail: str = "") -> None:
        if self.unanswered:  # recorded, not answered
            outcome, self.unanswered = f"{outcome} (not answered: over the answer limit)", False
        self.site.note_received(mail.message_id, mail.sender_address, where, outcome)
        self.received.add(mail.key)
        log.info(
            "mail %s to %s: %s%s",
            mail.message_id,
            "no campaign" if where == "-" else f"campaign {where}",
            outcome,
            detail,
        )

    # answers outside a player's game -------------------------------------------------------
    def outside(self, mail: Incoming, where: Route) -> Outside:
        """How a mail outside any campaign is answered: a mail with no command of the site
        in it (a player's mail that named no game, or a game there is none of) is told what
        in it was not read."""
        written = [line for line in where.lines if line.strip()]  # blank lines part messages
        commanded = any(line.split()[0].lower() in SITE_VERBS for line in written)
        unread = [] if commanded else [*written, *set_aside(mail)]

        def answer(
            subject: str, text: str, to: str | None = None, reply_to: str | None = None
        ) -> bool:
            if unread and to is None:  # to the sender
                text = f"{text}\n\n{say('not_read_outside', lines=unread)}"
            return self.send_notice(mail, subject, text, to, reply_to, self.audience(mail))

        return Outside(
            self.site,
            mail.sender_name,
            mail.sender_address,
            where.token,
            answer,
            help_outside,
            self.now,
        )

    def audience(self, mail: Incoming) -> Audience:
        """Whose limits an answer outside any game counts under: a player's (or a game
        master's) own queries under the players', anyone else's under the strangers'."""
        address = mail.sender_address.lower()
        if address in self.site.config.game_master_addresses or self.site.campaigns_of(address):
            return Audience.PLAYER
        return Audience.STRANGER

    def observe_reply(self, mail: Incoming, campaign: Campaign, code: str) -> str:
        """A reply to the mail that asked a would-be observer to confirm: its plus-address
        carries the code mailed to that address."""
        said = confirm_observer(self.site, campaign, mail.sender_address, code, self.now)
        subject = say("subject_observing", campaign_id=campaign.id)
        if said is None:
            self.send_notice(mail, subject, say("observe_code_wrong", campaign_id=campaign.id))
            return "observe code that does not hold"
        self.send_notice(mail, subject, said, audience=Audience.PLAYER)
        return "observe code"

    def answer_unknown_player(self, mail: Incoming, campaign: Campaign, where: Route) -> None:
        registered = campaign.seat_of_address(mail.sender_address)
        gm = campaign.gm
        if registered is not None:
            player = campaign.players[registered]
        elif gm is not None and gm.address == mail.sender_address:
            player = gm  # told at their own address, with the address their token is in
        else:
            # a stranger learns nothing about the game, not even that it exists
            self.send_notice(mail, say("subject_stranger"), say("stranger"))
            return
        address = self.site.identity.plus(campaign.id, player.token)
        self.send_notice(
            mail,
            say("subject_not_used", campaign_id=campaign.id),
            say(
                "wrong_token", campaign_id=campaign.id, had_token=bool(where.token), address=address
            ),
            to=player.address,
            reply_to=address,
        )

    def send_notice(
        self,
        mail: Incoming,
        subject: str,
        text: str,
        to: str | None = None,
        reply_to: str | None = None,
        audience: Audience = Audience.STRANGER,
    ) -> bool:
        """True when the answer was queued."""
        told = tell_sender(self.site.post, mail, subject, text, self.now, to, reply_to, audience)
        if told:
            self.counts.answered += 1
        elif told is False:
            self.unanswered = True  # recorded, not answered
        return bool(told)


def set_aside(mail: Incoming) -> list[str]:
    """What of a mail's text was not read (quotes, a signature, a footer), as its answer
    tells it."""
    return [say("set_aside", kind=a.kind, line=a.line, count=a.count) for a in mail.set_aside]


def effect(outcome: Outcome, record: Record) -> str:
    """What a mail did, for the log: its orders applied and refused, its commands, the lines
    that were bad or passed over."""
    counts = {
        "orders applied": len(outcome.applied),
        "refused": len(outcome.refusals),
        "commands": len(record.actions),
        "bad lines": len(record.bad_lines),
        "lines passed over": len(record.ignored),
    }
    shown = ", ".join(f"{what} {n}" for what, n in counts.items() if n)
    return f" ({shown})" if shown else ""
