"""Whole games by mail as people play them, with the odd things they do, and what everyone is
told (issue "What each person is told"): a Bus game and a Bus Boss game on the Maildir
default, every tick six hours after the last, with a missed deadline under each policy
(bot, rules, wait), a pause, an extension, a replacement and a drop. Every mail that asks a
decision shows a due time after the tick that sent it; every subject matches its mail; the
history names the person who played each move."""

from __future__ import annotations

import random
import re
from datetime import UTC, datetime, timedelta

import pytest
from sites import Mailboxes, make_site, person_mail, text_of

from referee import mailbot
from referee.service.tick import tick

T0 = datetime(2026, 11, 23, 9, 0, tzinfo=UTC)
STEP = timedelta(hours=6)
PLAYERS = ["Ann <ann@example.org>", "Bob <bob@example.org>", "Cid <cid@example.org>"]
EVE = "Eve <eve@example.org>"
GM = "Gil <gil@example.org>"
DUE = re.compile(r"due by (\w{3} \d\d \w{3} \d{4} \d\d:\d\d) UTC\.", re.IGNORECASE)


class Table:
    """A campaign played by mail: people who answer their latest prompt with the game's
    default bot's choice, unless told to stay silent, and a game master."""

    def __init__(self, tmp_path, game: str, language: str = "en"):
        self.site = make_site(tmp_path)
        self.site.new_campaign(
            game,
            "g1",
            PLAYERS,
            seed=5,
            gm=GM,
            settings={"deadlines": {"hours": 24, "policy": "bot"}, "language": language},
        )
        self.boxes = Mailboxes(self.site)
        self.now = T0
        self.people = {p.partition("<")[2].rstrip(">"): p for p in PLAYERS}
        self.silent: set[str] = set()
        self.inbox: dict[str, list] = {}
        self.seen: list[tuple[datetime, object]] = []  # every mail, with the tick that sent it
        self.rng = random.Random(5)
        self.tick()

    def tick(self) -> None:
        report = tick(self.site, self.now)
        assert not report.errors, report.errors
        for msg in self.boxes.new():
            self.seen.append((self.now, msg))
            for address in self.people:
                if address in str(msg["To"]).lower():
                    self.inbox.setdefault(address, []).append(msg)
        self.now += STEP

    def gm(self, line: str) -> None:
        token = self.site.campaign("g1").gm.token
        self.boxes.deliver(person_mail(GM, self.site.identity.plus("g1", token), "gm", line))

    def play(self) -> None:
        """Every awaited person who is not silent answers their latest prompt."""
        table = self.site.campaign("g1").table()
        players = table.campaign.players
        for decision in table.awaiting:
            address = players[decision.seat].address
            if address in self.silent or address not in self.people:
                continue
            order = table.rules.format(
                table.rules.bot("default")(table.state, decision.seat, self.rng)
            )
            name = players[decision.seat].name
            choose = lambda choices, order=order: [order]  # noqa: E731
            answer = mailbot.answer_latest(self.inbox.get(address, []), name, address, choose)
            if answer is not None:
                self.boxes.deliver(answer)

    def over(self) -> bool:
        return self.site.campaign("g1").table().over


def played(tmp_path, game: str, more=None, language: str = "en") -> Table:
    """The game, with each odd thing at its turn, played to its end (and the things
    ``more`` does with the table, by the turn they are done at), its mail in ``language``."""
    t = Table(tmp_path, game, language)
    script = {
        2: lambda: t.silent.add("cid@example.org"),  # Cid misses: the bot plays (policy bot)
        13: lambda: t.silent.discard("cid@example.org"),
        14: lambda: t.gm("pause"),
        16: lambda: t.gm("resume"),
        17: lambda: t.gm("extend 12"),
        18: lambda: t.gm("replace Bob with " + EVE),
        19: lambda: t.people.update({"eve@example.org": EVE}),
        20: lambda: (t.gm("deadlines hours=12 policy=rules"), t.silent.add("ann@example.org")),
        24: lambda: (t.silent.discard("ann@example.org"), t.gm("deadlines policy=wait")),
        25: lambda: t.silent.add("eve@example.org"),
        31: lambda: (t.gm("adjudicate"), t.silent.discard("eve@example.org")),
        33: lambda: t.gm("drop Cid"),
    }
    for number, then in (more or {}).items():
        assert number not in script, number
        script[number] = lambda then=then: then(t)
    for number in range(400):
        if number in script:
            script[number]()
        t.play()
        t.tick()
        if t.over():
            break
    assert t.over(), "the game did not end"
    return t


@pytest.mark.slow
@pytest.mark.parametrize("game", ["bus", "busboss"])
def test_a_whole_game_by_mail_tells_everyone_the_truth(tmp_path, game):
    t = played(tmp_path, game)
    asked = 0
    for sent_at, msg in t.seen:
        subject, text = str(msg["Subject"]), text_of(msg)
        decision = "YOUR DECISION:" in text
        assert ("your turn" in subject) == decision, (subject, text[:300])
        if decision:
            asked += 1
            shown = DUE.search(" ".join(text.split()))  # a line may wrap inside it
            assert shown, (subject, text[:300])
            due = datetime.strptime(shown.group(1), "%a %d %b %Y %H:%M").replace(tzinfo=UTC)
            assert due > sent_at, (subject, sent_at)
            assert f"{due:%a} " in subject and f"{due:%H:%M} UTC" in subject, subject
        if "Your mail: orders used" in subject:
            assert "Accepted:" in text and "Not understood" not in text and "Refused:" not in text
        if "orders refused" in subject:
            assert "Not understood" in text or "Refused:" in text
        if "The game is over" in subject:
            assert "THE GAME IS OVER" in text or "is over:" in text
    assert asked > 20
    records = list(t.site.campaign("g1").records())
    policies = {m.done for r in records for m in r.missed}
    assert any("bot" in done for done in policies)  # a miss under each policy
    assert any("waits for the game master" in done for done in policies)
    to_gil = [str(m["Subject"]) for _, m in t.seen if "gil@example.org" in str(m["To"])]
    assert any("missed" in s for s in to_gil) and any("The game is over" in s for s in to_gil)
    # the history credits each move to whoever played it: Bob before the replacement
    history = t.site.campaign("g1").table()
    from referee.words.history import history_text

    told = history_text(history, None)
    before, taken, after = told.partition("Eve takes Bob's seat.")
    assert taken, told[-2000:]
    assert re.search(r"\bBob \(?\w", before) and "Eve" not in before  # Bob's moves, his
    assert re.search(r"\bEve \(?\w", after)  # and Eve's, hers
