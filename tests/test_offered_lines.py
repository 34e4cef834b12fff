"""Every line a mail offers works as written (issue 23, item 2): whatever a prompt tells a
player to copy gives that order when copied alone into a reply, or a precise answer (a
grouped line such as ``build house: 10, 15`` is a list: write one; ``build house: 34`` is
that order), never "no orders in it".

A whole game of each of Bus and Bus Boss is played by mail through real ticks, its players
answering each prompt with one offered line copied alone (a list or a bare round line
first, to be told, then an order). Every other line the prompt offers is copied alone into a
reply too, read as the intake reads it (the mail read, routed, its commands set apart and
its orders read), and the order it gives is checked legal in the position the prompt asked
about."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from referee import mailbot
from referee.demo import PLAYERS, Postman
from referee.mail.outbox import MaildirSender, OutMail
from referee.mail.read import read_mail
from referee.mail.routing import route
from referee.service.commands import split
from referee.service.play import read_orders, reads_as_order
from referee.service.site import Site
from referee.service.tick import tick
from referee.settings.site import load_config, write_default_config
from referee.store.campaign import Status
from referee.words.render import say

pytestmark = pytest.mark.slow  # whole games by mail: left out of --fast

LISTED = re.compile(r"^(?P<head>[^:,#|]+?): (?P<first>[^,\s]+)")
ROUND = re.compile(r"^round (\d+)$")
EXAMPLES = re.compile(r"write one as, for example: (build \S+)|\(or write: (no runs)\)")


def offered(text: str) -> list[str]:
    """The lines a prompt tells its reader to copy: those under "Reply with one of these
    lines" (comments left out), and the orders its comments show how to write."""
    start = text.find("Reply with one of these lines")
    assert start >= 0, "a prompt without its lines to copy"
    lines, started, comment = [], False, False
    for line in text[start:].splitlines()[1:]:
        if line.startswith("      ") and not line.strip().startswith("#") and not comment:
            lines[-1] += "\n" + line.strip()  # an order too long for a line goes on
        elif line.startswith("    "):
            started, comment = True, line.strip().startswith("#")
            if not comment:
                lines.append(line.strip())
        elif started:
            break
    block = text[start:]
    lines += [a or b for a, b in EXAMPLES.findall(block)]
    return lines


def answer_for(rules, line: str, listed: re.Match | None, round_: re.Match | None):
    """What the reading of ``line`` alone must give: (entries, errors)."""
    if listed:
        example = f"{listed['head']} {listed['first']}"
        if "," not in line:  # a group of one (a long group's last line) is that order
            return [example], []
        return [], [(line, say("a_list", line=line, example=example))]
    if round_:
        with pytest.raises(Exception) as told:
            rules.parse(line)
        return [], [(line, str(told.value.reason))]
    # an order the mail wrapped: after its colon, or inside its journey after a hyphen
    return [re.sub(r"-\s+", "-", " ".join(line.split("#")[0].split()))], []


class Player:
    def __init__(self, seat: int, name: str, address: str, seed: int):
        self.seat, self.name, self.address = seat, name, address
        self.rng = random.Random(seed * 31 + seat)
        self.told: set[str] = set()  # the lines sent to be told about, once a game each


class Game:
    """A campaign played by mail on local Maildirs, as ``referee demo`` plays it."""

    def __init__(self, root: Path, game: str, seed: int):
        path = write_default_config(root)
        # every prompt is answered at once, some twice: more answers an hour than players
        # by mail give
        path.write_text(path.read_text() + "limits:\n  per_hour: 1000\n  per_day: 10000\n")
        self.site = Site(load_config(path))
        self.site.new_campaign(game, "g", [f"{n} <{a}>" for n, a in PLAYERS], seed)
        self.postman = Postman(self.site.config.outbox.path)  # before the welcomes
        self.site.outbox.flush(self.site.config.make_sender())
        self.inbox = MaildirSender(self.site.config.inbox.path)
        self.players = [Player(s, n, a, seed) for s, (n, a) in enumerate(PLAYERS)]
        self.sent: dict[str, tuple[int, str, list]] = {}  # Message-ID: (seat, line, expected)
        self.lines_checked = 0

    def play(self, max_ticks: int = 1500) -> None:
        for _ in range(max_ticks):
            post = self.postman.new_mail()
            for player in self.players:
                prompts = [m for m in post.get(player.address, []) if "YOUR DECISION" in body(m)]
                if prompts:
                    self.answer(player, prompts[-1])
            report = tick(self.site)
            assert not report.errors, report.errors
            self.check_sent()
            if self.site.campaign("g").status == Status.FINISHED:
                return
        raise AssertionError("the game did not end")

    def answer(self, player: Player, prompt) -> None:
        table = self.site.campaign("g").table()
        rules, state = table.rules, table.state
        if not any(d.seat == player.seat for d in rules.awaiting(state)):
            return  # a stale prompt: nothing is owed
        lines = offered(body(prompt))
        assert lines, body(prompt)
        told, orders = [], []
        for line in lines:
            listed = None if parses(rules, line) else LISTED.match(line)
            round_ = ROUND.match(line)
            expected = answer_for(rules, line, listed, round_)
            got = reading_of(self.site, rules, self.reply(player, prompt, line))
            assert got == expected, (line, got)
            self.lines_checked += 1
            if expected[0]:
                orders.append((line, expected))
            else:
                if line not in player.told:
                    told.append((line, expected))
                if listed:  # what the answer tells to write is an order too
                    example = f"{listed['head']} {listed['first']}"
                    orders.append((example, ([example], [])))
            if orders and orders[-1][0] != (told[-1][0] if told else None):
                # an order: legal in the position the prompt asked about
                for entry in rules.parse(orders[-1][1][0][0]):
                    rules.apply(state, player.seat, entry.alternatives[0])
        line, expected = told[0] if told else player.rng.choice(orders)
        player.told.add(line)
        reply = self.reply(player, prompt, line)
        self.sent[str(reply["Message-ID"])] = (player.seat, line, expected)
        with self.inbox:
            self.inbox.send(OutMail.of(reply))

    def reply(self, player: Player, prompt, line: str):
        return mailbot.reply(prompt, player.name, player.address, [line])

    def check_sent(self) -> None:
        """The replies sent through the tick: each in the log with what it gave."""
        records = {r.message_id: r for r in self.site.campaign("g").records() if r.message_id}
        for mid, (seat, line, (entries, errors)) in list(self.sent.items()):
            record = records[mid]
            if errors:
                assert [(b.line, str(b.reason)) for b in record.bad_lines] == errors, line
                assert not record.orders
            else:
                assert not record.bad_lines and not record.ignored, record
                assert (seat, entries[0]) in [(o.seat, o.text) for o in record.orders]
            del self.sent[mid]


def parses(rules, line: str) -> bool:
    try:
        return bool(rules.parse(line))
    except ValueError:
        return False


def body(msg) -> str:
    return mailbot.body(msg)


def reading_of(site: Site, rules, reply) -> tuple[list, list]:
    """A reply read as the intake reads a player's mail: its orders' entries and errors."""
    where = route(read_mail(reply.as_bytes(), site.identity.address))
    _, order_lines = split(where.lines, False, lambda line: reads_as_order(rules, line))
    reading = read_orders(rules, order_lines)
    assert not reading.ignored, reading.ignored
    return reading.entries, [(line, str(reason)) for line, reason in reading.errors]


@pytest.mark.parametrize("game", ["bus", "busboss"])
def test_every_line_every_prompt_offers_works_copied_alone(tmp_path, game):
    played = Game(tmp_path, game, seed=1)
    played.play()
    told = [p.told for p in played.players]
    assert played.lines_checked > 150
    if game == "bus":  # grouped lines were offered, copied and told
        assert all(any(LISTED.match(line) for line in lines) for lines in told)
    else:  # the round line alone was copied and told
        assert all(any(ROUND.match(line) for line in lines) for lines in told)
