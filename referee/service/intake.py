"""One incoming mail, from its raw bytes to its one outcome: stored, routed, authenticated,
and handed to its campaign's session, which applies its commands and orders in one log
record (``Sessions.apply``); or, outside a started game, what to answer decided as a
``notices.Notice`` for the answers stage to render and queue.

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
from collections.abc import Callable
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from functools import cached_property
from typing import Any

from ..files import crashpoint
from ..mail.inbox import InMail
from ..mail.read import Incoming, read_head, read_mail
from ..mail.routing import Route, route
from ..records import Record
from ..settings.deadlines import parse_when, show, stamp
from ..settings.site import Audience
from ..store.campaign import Campaign, CampaignError, Status, Table
from ..store.names import MAIL_IN, QUARANTINE, UNROUTED
from ..words import language
from ..words.render import Said, say
from .commands import (
    ASKS_TO_JOIN,
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
from .limits import OBSERVE_CODE, UNOBSERVE_CODE
from .notices import Notice
from .play import Outcome, reads_as_order
from .session import Sessions, Unavailable, set_aside
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
    """Takes the mails of one tick, one at a time. What a mail outside a started game is
    answered is decided here as a ``Notice`` and handed to ``tell`` (the answers stage),
    which says whether it was queued."""

    def __init__(
        self,
        site: Site,
        sessions: Sessions,
        now: datetime,
        tell: Callable[[Notice], bool | None],
        retrying: frozenset[tuple[str | None, str]] = frozenset(),
    ):
        self.site, self.sessions, self.now, self.tell = site, sessions, now, tell
        self.retrying = retrying  # quarantined mails taken again (`referee retry`)
        self.counts = Counts()
        self.unanswered = False  # the mail taken now was not answered: over the answer limits
        # the seats each campaign's log gave away, by the address that played them
        self.given_away: dict[tuple[str, int], dict[str, tuple[Any, Record]]] = {}

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
            notice = (Said.of("subject_too_large"), Said.of("too_large", size=size, most=most))
        else:
            raw = mail.raw
            incoming = read_mail(raw, address, self.site.post.sent_mail)
        # what is answered is in the site's language, unless the mail's sender reads another
        # where it is answered (``handle``)
        with language.reading(self.site.identity.language):
            return self.taken(mail, incoming, raw, held, notice)

    def taken(
        self,
        mail: InMail,
        incoming: Incoming,
        raw: bytes,
        held: bool,
        notice: tuple[Said, Said] | None,
    ) -> bool:
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

    def unreadable(
        self, mail: Incoming, raw: bytes, notice: tuple[Said, Said] | None = None
    ) -> None:
        """A mail the parser refused or failed on, or too large to read: kept, recorded,
        answered once."""
        log.warning("mail %s: unreadable: %s", mail.message_id, mail.unreadable)
        self.failed(mail, raw, f"{UNREADABLE}: {mail.unreadable}", notice)

    def failed(
        self, mail: Incoming, raw: bytes, outcome: str, notice: tuple[Said, Said] | None = None
    ) -> None:
        """The raw mail to the quarantine, its outcome recorded for the game master, and one
        plain answer to a person (never to machine mail; within the answer limits): the
        ``notice`` (subject, text) or else that the mail could not be read."""
        site = self.site
        site.keep_raw(site.state_dir / QUARANTINE, mail.message_id, raw, mail.sender_address)
        note_failure(site, f"mail {mail.message_id} from {mail.sender_address or '?'}", outcome)
        if self.taken_before(mail) or self.retried(mail):
            # recorded before (the failure came after its outcome, or the mail is taken
            # again and is still failing): no second answer, and its outcome stands
            return
        if not mail.automatic:
            try:
                subject, text = notice or (Said.of("subject_not_read"), Said.of("not_read"))
                self.send_notice(Notice.answering(mail, "not read", subject, text))
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
            site.keep_raw(site.state_dir / UNROUTED, mid, raw, mail.sender_address)
            why = mail.automatic or "the referee's own mail, come back"
            self.noted(mail, "-", f"ignored: {why}{self.late_bounce(mail, raw)}")
            self.counts.ignored += 1
            return True
        missing = where.campaign_id is not None and not site.has_campaign(where.campaign_id)
        theirs: list[Campaign] = []  # the games the sender plays or runs, for a mail outside one
        if where.campaign_id is None or missing:
            found = site.campaigns_of(mail.sender_address)
            theirs = [campaign for _, campaign in found if campaign is not None]
        if where.campaign_id is None:
            where = self.own_game(mail, where, theirs)
        if where.campaign_id is None or missing:
            site.keep_raw(site.state_dir / UNROUTED, mid, raw, mail.sender_address)
            with language.reading(self.outside_language(mail.sender_address, theirs)):
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
        site.keep_raw(campaign.dir(*MAIL_IN), mid, raw, mail.sender_address)
        crashpoint("stored")
        gm = campaign.is_gm_token(where.token)
        seat = None if gm else campaign.seat_of_token(where.token)
        if (
            seat is None
            and not gm
            and (where.token or "").startswith((OBSERVE_CODE, UNOBSERVE_CODE))
        ):
            # an observer reads the campaign's language
            with language.reading_in(campaign, None, site.identity.language):
                said = self.observe_reply(mail, campaign, where.token or "")
            self.noted(mail, campaign.id, said)
            return True
        if seat is None and not gm:
            self.answer_unknown_player(mail, campaign, where)
            self.noted(mail, campaign.id, "no valid token")
            return True
        # what the mail's commands answer is said in its sender's language
        sender = campaign.gm if seat is None else campaign.players[seat]
        with language.reading_in(campaign, sender, site.identity.language):
            return self.handle_in(mail, raw, held, campaign, seat, where)

    def handle_in(
        self,
        mail: Incoming,
        raw: bytes,
        held: bool,
        campaign: Campaign,
        seat: int | None,
        where: Route,
    ) -> bool:
        """A mail from a player (or the game master, seat None) of ``campaign``."""
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
        outcome, record = self.sessions.apply(mail, table, seat, where, self.now, sent_anew)
        done = "refused: sent anew" if sent_anew else "applied"
        self.noted(mail, campaign.id, done, effect(outcome, record))
        self.counts.by_campaign[campaign.id] += 1
        self.counts.applied += 1
        return True

    def own_game(self, mail: Incoming, where: Route, theirs: list[Campaign]) -> Route:
        """A fresh mail (no game named) from the player of exactly one game in play (of
        ``theirs``, the games they play or run), with no site command in it and a line that
        reads as an order or a command of that game: routed to that game, with their token;
        its answers go to the seat's address. Any other stays a mail for no campaign (a
        player of several games is told how to name one)."""
        if site_command(where.lines):
            return where
        seats = [
            (campaign, seat)
            for campaign in theirs
            if campaign.status in (Status.RUNNING, Status.PAUSED)
            and (seat := campaign.seat_of_address(mail.sender_address)) is not None
        ]
        if len(seats) != 1:
            return where
        [(campaign, seat)] = seats
        commands, lines = split(
            where.lines, False, lambda line: reads_as_order(campaign.rules, line)
        )
        if not commands and not any(reads_as_order(campaign.rules, line) for line in lines):
            return where
        return replace(where, campaign_id=campaign.id, token=campaign.players[seat].token)

    def outside_language(self, address: str, theirs: list[Campaign]) -> str:
        """The language a mail outside any campaign is answered in: the one its sender reads
        in every game they play or run (``theirs``: their own choice there, else the
        game's), else the site's (a stranger's, or a player's who reads two)."""
        site = self.site.identity.language
        read = {
            language.reader_language(
                person.language if person else None, campaign.config.language, site
            )
            for campaign in theirs
            for person in (campaign.gm, *campaign.players)
            if person is not None and person.address == address.lower()
        }
        return read.pop() if len(read) == 1 else site

    def late_bounce(self, mail: Incoming, raw: bytes) -> str:
        """A machine's mail that reports a mail of the referee's undelivered after all: the
        address given up (its game masters are told at the end of the tick); what to add
        to the mail's outcome."""
        if not mail.automatic:
            return ""
        given_up = self.site.post.bounced(raw, mail.sender_address)
        return f"; a late bounce: {', '.join(given_up)} given up" if given_up else ""

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
                Notice.answering(
                    mail,
                    "held",
                    Said.of("subject_held", campaign_id=campaign_id),
                    Said.of("held", campaign_id=campaign_id),
                    audience=Audience.PLAYER,
                )
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
        self.sessions.commit(campaign.id)  # before the answer that tells of it is queued
        lines = [Said.of("line_said", line=a.line, said=a.answer("")) for a in done.actions]
        # a sign-up's choices changed in a reply to the answer that gave the seat, which the
        # game's address (and the sender's token) is the Reply-To of: answered here
        joins = [line for line in order_lines if line.lower().split()[:1] == ["join"]]
        order_lines = [line for line in order_lines if line not in joins]
        for line in joins:
            self.join_again(mail, where, line, lines)
        if order_lines:
            lines.append(Said.of("not_started_orders", campaign_id=campaign.id))
        if not lines:
            lines = [Said.of("nothing_for_the_referee"), *set_aside(mail)]
        text = [Said.of("lines", lines=lines)]
        if any(
            a.wants == "help" for a in done.actions if not a.refused
        ):  # the game's help, and the commands
            text += help_inside(campaign.game, gm=seat is None)
        if seat is not None and sender not in campaign.players:
            sender = None  # left: their token is no longer one
        # in the language the sender reads now (a `language` line may have changed it)
        with language.reading_in(campaign, sender, self.site.identity.language):
            told = Notice.answering(
                mail,
                "open campaign",
                Said.of("subject_your_mail", campaign_id=campaign.id),
                *text,
                reply_to=self.site.identity.plus(campaign.id, sender.token) if sender else None,
                audience=Audience.PLAYER,
            )
        self.send_notice(told)
        for told in tell_replaced(self.site, campaign, done.actions):
            self.send_notice(told)
        self.counts.applied += 1

    def join_again(self, mail: Incoming, where: Route, line: str, lines: list[Said]) -> None:
        """A `join` line in a mail to a game open for sign-up, done as the site's join, its
        answer among the ``lines`` of the answer to the mail. The join read and saved the
        campaign afresh: the mails after it read it again."""

        def answer(kind: str, subject: Said, *text: Said, reply_to: str | None = None) -> bool:
            lines.append(Said.of("line_said", line=line, said=text))
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
        read = site_command(written) or any(ASKS_TO_JOIN.search(line) for line in written)
        unread = [] if read else [*written, *set_aside(mail)]

        def answer(kind: str, subject: Said, *text: Said, reply_to: str | None = None) -> bool:
            if unread:
                text = (*text, Said.of("not_read_outside", lines=unread))
            told = Notice.answering(
                mail, kind, subject, *text, reply_to=reply_to, audience=self.audience(mail)
            )
            return self.send_notice(told)

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
        """A reply to the mail that asked a would-be observer (or one who would stop) to
        confirm: its plus-address carries the code mailed to that address."""
        said = confirm_observer(self.site, campaign, mail.sender_address, code, self.now)
        subject = Said.of("subject_observing", campaign_id=campaign.id)
        if said is None:
            verb = "unobserve" if code.startswith(UNOBSERVE_CODE) else "observe"
            wrong = Said.of("observe_code_wrong", campaign_id=campaign.id, verb=verb)
            self.send_notice(Notice.answering(mail, "observe code", subject, wrong))
            return "observe code that does not hold"
        told = Notice.answering(mail, "observing", subject, said, audience=Audience.PLAYER)
        self.send_notice(told)
        return "observe code"

    def answer_unknown_player(self, mail: Incoming, campaign: Campaign, where: Route) -> None:
        """A mail to the campaign without a token of it: its player or game master is told
        how to write to it (in their language there), a player whose seat was given away
        who has it now (in the campaign's), a stranger nothing (in the site's)."""
        registered = campaign.seat_of_address(mail.sender_address)
        site = self.site.identity.language
        gm = campaign.gm
        if registered is not None:
            player = campaign.players[registered]
        elif gm is not None and gm.address == mail.sender_address:
            player = gm  # told at their own address, with the address their token is in
        elif gone := self.seat_given_away(campaign, mail.sender_address):
            # they played in it: told who has their seat, and how to go on reading
            action, record = gone
            with language.reading_in(campaign, None, site):
                self.send_notice(
                    Notice.answering(
                        mail,
                        "replaced",
                        Said.of(
                            "subject_in_game",
                            campaign_id=campaign.id,
                            subject=Said.of("subject_replaced_you"),
                        ),
                        Said.of(
                            "replaced_writes",
                            name=action.old,
                            new=action.new,
                            campaign_id=campaign.id,
                            when=show(parse_when(record.at), None, campaign.config.deadlines.zone),
                            observe=not campaign.config.no_observers,
                            referee=self.site.identity.address,
                        ),
                    )
                )
            return
        else:
            # a stranger learns nothing about the game, not even that it exists (nor its
            # language: this is the site's, as ``take`` reads)
            stranger = Notice.answering(
                mail, "stranger", Said.of("subject_stranger"), Said.of("stranger")
            )
            self.send_notice(stranger)
            return
        address = self.site.identity.plus(campaign.id, player.token)
        wrong = Said.of(
            "wrong_token", campaign_id=campaign.id, had_token=bool(where.token), address=address
        )
        subject = Said.of("subject_not_used", campaign_id=campaign.id)
        with language.reading_in(campaign, player, site):
            told = Notice.answering(
                mail, "wrong token", subject, wrong, to=player.address, reply_to=address
            )
        self.send_notice(told)

    def seat_given_away(self, campaign: Campaign, address: str) -> tuple[Any, Record] | None:
        """The last replace in the campaign's log that gave away the seat ``address``
        played, and its record; None when it played none, or the log cannot be read now (a
        game open for sign-up has none: those replaced before the start were told then).
        The log's records are read, not replayed, once a tick for each length of the log:
        a flood of strangers' mail to a game reads it once."""
        try:
            length = campaign.log_path.stat().st_size if campaign.log_path.exists() else 0
            key = (campaign.id, length)
            if key not in self.given_away:
                self.given_away[key] = {
                    command.gave_away(): (command, record)
                    for record in campaign.records()
                    for command in record.commands
                    if command.gave_away()
                }  # the last replace of each address
        except (CampaignError, OSError):
            return None
        return self.given_away[key].get(address.lower())

    def send_notice(self, notice: Notice) -> bool:
        """Hands what to answer to the answers stage; True when it was queued."""
        told = self.tell(notice)
        if told:
            self.counts.answered += 1
        elif told is False:
            self.unanswered = True  # recorded, not answered
        return bool(told)


def site_command(lines: list[str]) -> bool:
    """Whether one of the lines of a mail for no campaign is a site command."""
    return any(line.split()[0].lower() in SITE_VERBS for line in lines if line.strip())


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
