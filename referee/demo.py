"""`referee demo`: a four-player game (the registry's first unless named) on the embedded
default (local Maildirs), whose players are robots that read the referee's mail and answer it
by mail."""

from __future__ import annotations

import mailbox
import random
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from . import mailbot, registry
from .contract import IllegalOrder, Rules
from .mail.outbox import MaildirSender, OutMail
from .service.site import Site
from .service.tick import tick
from .settings.site import (
    CONFIG_NAME,
    ConfigError,
    MaildirInboxSettings,
    MaildirOutboxSettings,
    load_config,
    write_default_config,
)
from .store.campaign import Campaign, Status

# answers with nothing to decide wait this long for the player's next mail, as a campaign
# played at a brisk pace would set it
GATHER_MINUTES = 10
PLAN_AHEAD = 4  # orders a robot sends beyond the one asked for
PLAN_STEPS = 40  # decisions (anyone's) it looks ahead at most

PLAYERS = [
    ("Ada", "ada@demo.invalid"),
    ("Ben", "ben@demo.invalid"),
    ("Cleo", "cleo@demo.invalid"),
    ("Dan", "dan@demo.invalid"),
]


@dataclass
class MailCount:
    """The mail one player received: how many, their bytes, the largest, and the longest
    line of their plain text."""

    mails: int = 0
    bytes: int = 0
    largest: int = 0
    widest: int = 0


def mail_counts(outbox: Path, keys: Iterable[str] | None = None) -> dict[str, MailCount]:
    """Per recipient address, what the referee's outbox Maildir holds (of it, the mails
    ``keys`` names, when given)."""
    counts: dict[str, MailCount] = {}
    box = mailbox.Maildir(outbox, create=False)
    for key in box.iterkeys() if keys is None else keys:
        raw = box.get_bytes(key)
        msg = mailbot.parse(raw)
        count = counts.setdefault(str(msg["To"].addresses[0].addr_spec).lower(), MailCount())
        count.mails += 1
        count.bytes += len(raw)
        count.largest = max(count.largest, len(raw))
        # its lines as they travel: a flowed paragraph wraps on the reader's screen
        plain = msg.get_body(("plain",))
        lines = (plain.get_content() if plain is not None else "").splitlines() or [""]
        count.widest = max(count.widest, *map(len, lines))
    return counts


@dataclass
class DemoResult:
    campaign: Campaign
    ticks: int
    mails_read: int
    replies: int
    finished: bool
    counts: dict[str, MailCount]  # the mail of this game alone, per player's address
    earlier: int  # campaigns of earlier demos in the folder, kept beside this one


class Postman:
    """Reads the referee's outbox Maildir and sorts the new mail by recipient: the mail
    there before it came (an earlier demo's, in the same folder) is not this game's."""

    def __init__(self, path: Path):
        self.box = mailbox.Maildir(path, create=False)
        self.before = set(self.box.keys())
        self.seen: set[str] = set(self.before)

    def new_mail(self) -> dict[str, list]:
        by_address: dict[str, list] = {}
        for key in sorted(set(self.box.keys()) - self.seen):
            msg = mailbot.parse(self.box.get_bytes(key))
            for address in str(msg["To"]).lower().replace(">", "<").split("<"):
                by_address.setdefault(address.strip(), []).append(msg)
            self.seen.add(key)
        return by_address


class RobotPlayer:
    """Answers its mail with the choice the game's default bot would make among those the
    mail offers."""

    def __init__(self, seat: int, name: str, address: str, site: Site, campaign_id: str, seed: int):
        self.seat, self.name, self.address = seat, name, address
        self.site, self.campaign_id = site, campaign_id
        self.rng = random.Random(seed * 31 + seat)
        self.read = 0

    def choose(self, choices: list[str]) -> list[str]:
        table = self.site.campaign(self.campaign_id).table()
        rules, seat = table.rules, self.seat
        if not any(d.seat == seat for d in rules.awaiting(table.state)):
            return []  # the prompt is stale: nothing is owed
        bot = rules.bot("default")
        first = bot(table.state, seat, self.rng)
        order = rules.format(first)
        # a one-line order is one of the mail's choices; a game whose order spans lines
        # offers its parts, so its bot's whole order is sent as it is
        if rules.multiline_orders:
            return [order]
        if order not in choices:
            return []
        return [order, *self.planned(rules, table.state, first)]

    def planned(self, rules: Rules, state: Any, first: Any) -> list[str]:
        """The orders of this player's next decisions, as a player who thinks ahead writes
        them: played on from ``first`` with everyone choosing as the default bot would.
        The referee keeps them for those decisions; one that is not legal by then is
        dropped with the rest, and the player is asked again."""
        seat, bot, guess = self.seat, rules.bot("default"), random.Random(self.rng.random())
        orders: list[str] = []
        try:
            state, _ = rules.apply(state, seat, first)
            for _ in range(PLAN_STEPS):  # bounded: every step is one decision of someone's
                due = rules.awaiting(state)
                if not due or len(orders) == PLAN_AHEAD:
                    break
                mover = due[0].seat
                order = bot(state, mover, guess)
                if mover == seat:
                    orders.append(rules.format(order))
                state, _ = rules.apply(state, mover, order)
        except IllegalOrder:  # a guess that went wrong: no further plans
            pass
        return orders


def run_demo(
    directory: Path,
    seed: int = 1,
    max_ticks: int = 3000,
    progress: Callable[[str], None] = lambda line: None,
    game: str | None = None,
    settings: dict | None = None,
) -> DemoResult:
    """Play a game (the registry's first, unless named) to its end by mail, with the
    campaign's ``settings`` beside the demo's own (deadlines, for one)."""
    directory = Path(directory)
    config_path = directory / CONFIG_NAME
    if not config_path.exists():
        write_default_config(directory)
    site = Site(load_config(config_path))
    outbox, inbox_settings = site.config.outbox, site.config.inbox
    if not isinstance(outbox, MaildirOutboxSettings) or not isinstance(
        inbox_settings, MaildirInboxSettings
    ):
        raise ConfigError(
            config_path, f"the demo plays on local Maildirs; {config_path} names mail servers"
        )
    campaign_id = "demo"
    number = 1
    while site.has_campaign(campaign_id):
        number += 1
        campaign_id = f"demo-{number}"
    postman = Postman(outbox.path)  # before the welcomes: every mail of this game is new
    site.new_campaign(
        game or registry.names()[0],
        campaign_id,
        [f"{n} <{a}>" for n, a in PLAYERS],
        seed,
        settings={"gather_minutes": GATHER_MINUTES, **(settings or {})},
    )
    site.outbox.flush(site.config.make_sender())
    inbox = MaildirSender(inbox_settings.path)
    robots = [
        RobotPlayer(seat, n, a, site, campaign_id, seed) for seat, (n, a) in enumerate(PLAYERS)
    ]
    replies = ticks = 0
    while ticks < max_ticks:
        post = postman.new_mail()
        for robot in robots:
            mails = post.get(robot.address, [])
            robot.read += len(mails)
            answer = mailbot.answer_latest(mails, robot.name, robot.address, robot.choose)
            if answer is not None:
                with inbox:
                    inbox.send(OutMail.of(answer))
                replies += 1
        report = tick(site)
        ticks += 1
        if report.errors:
            raise RuntimeError("the demo tick failed: " + "; ".join(report.errors))
        campaign = site.campaign(campaign_id)
        if ticks % 25 == 0:
            progress(f"tick {ticks}: {report.summary()}")
        if campaign.status == Status.FINISHED:
            post = postman.new_mail()  # the final reports are read too
            for robot in robots:
                robot.read += len(post.get(robot.address, []))
            break
    campaign = site.campaign(campaign_id)
    return DemoResult(
        campaign,
        ticks,
        sum(r.read for r in robots),
        replies,
        campaign.status == Status.FINISHED,
        mail_counts(outbox.path, postman.seen - postman.before),
        number - 1,
    )
