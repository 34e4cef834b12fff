"""Bounded for everyone (issue 22, item 4): 500-mail floods of forged observers, of strangers
and of relayed messages each make the referee send at most the number of mails its limits
(referee.yaml) allow; an observer is added only by a reply from their own address, up to a
game's cap; a registered player's own queries count under the players' limits."""

import mailbox
import os
from datetime import UTC, datetime, timedelta

import pytest
from click.testing import CliRunner
from sites import (
    PLAYERS,
    Mailboxes,
    confirmation_reply,
    make_site,
    person_mail,
    run_tick,
    text_of,
)

from referee.cli import main
from referee.service.site import Site
from referee.service.tick import tick
from referee.settings.site import load_config

pytestmark = pytest.mark.slow  # floods of 500 mails: left out of --fast

LIMITS = """limits:
  strangers_site_per_hour: 7
  messages_per_hour: 3
  observers_per_game: 2
"""


@pytest.fixture
def site(tmp_path, monkeypatch):
    monkeypatch.setattr(os, "fsync", lambda fd: None)  # mails, not durability, are tested
    site = make_site(tmp_path)
    path = site.config.path
    path.write_text(path.read_text() + LIMITS)
    site = Site(load_config(path))
    site.new_campaign("bus", "bus1", PLAYERS, seed=1, gm="Gil <gil@example.org>")
    run_tick(site)
    boxes = Mailboxes(site)
    boxes.new()  # the welcomes
    return site, boxes


def flood(site, mails) -> None:
    box = mailbox.Maildir(site.config.inbox.path, create=False)
    for msg in mails:
        box.add(msg.as_bytes())


def test_500_forged_observers_get_at_most_the_strangers_budget_and_add_no_observer(site):
    site, boxes = site
    referee = site.identity.address
    flood(
        site,
        (
            person_mail(f"V{n} <v{n}@example.net>", referee, "hi", "observe bus1")
            for n in range(500)
        ),
    )
    run_tick(site)
    sent = boxes.new()
    assert len(sent) == 7  # the site's budget for strangers, an hour
    assert all("Reply to observe" in str(m["Subject"]) for m in sent)
    assert site.campaign("bus1").config.observers == ()
    # a round goes by: no observer gets anything
    for line in ["build house 15", "build office 21", "build pub 10"]:
        campaign = site.campaign("bus1")
        [due] = campaign.table().awaiting
        player = campaign.players[due.seat]
        boxes.deliver(
            person_mail(player.formatted(), site.identity.plus("bus1", player.token), "o", line)
        )
        run_tick(site)
    assert not [m for m in boxes.new() if "example.net" in str(m["To"])]


def test_an_observer_confirms_from_their_address_and_a_game_has_a_cap(site):
    site, boxes = site
    referee = site.identity.address
    people = ["Olga <olga@example.org>", "Pia <pia@example.org>", "Quinn <quinn@example.org>"]
    for person in people:
        boxes.deliver(person_mail(person, referee, "hi", "observe bus1"))
    run_tick(site)
    asked = {p: boxes.new(p.split("<")[1].rstrip(">")) for p in people}
    # a reply with someone else's code, or from another address, does nothing
    eve = confirmation_reply(asked[people[0]], "Eve <eve@example.net>")
    boxes.deliver(eve)
    run_tick(site)
    [refused] = boxes.new("eve@example.net")
    assert "not one that holds for this address" in " ".join(text_of(refused).split())
    assert site.campaign("bus1").config.observers == ()
    for person in people:
        boxes.deliver(confirmation_reply(asked[person], person))
        run_tick(site)
    assert site.campaign("bus1").config.observers == ("olga@example.org", "pia@example.org")
    [full] = boxes.new("quinn@example.org")
    assert "as many observers as a game may have (2)" in " ".join(text_of(full).split())
    [now] = boxes.new("olga@example.org")
    assert "You now observe bus1" in " ".join(text_of(now).split())
    # a code is used once
    boxes.deliver(confirmation_reply(asked[people[0]], people[0]))
    run_tick(site)
    [again] = boxes.new("olga@example.org")
    assert "not one that holds" in " ".join(text_of(again).split())


def test_500_strangers_get_at_most_the_strangers_budget(site):
    site, boxes = site
    referee = site.identity.address
    strangers = (
        person_mail(f"S{n} <s{n}@example.net>", referee, "hi", "hello?") for n in range(250)
    )
    guesses = (
        person_mail(
            f"G{n} <g{n}@example.net>", site.identity.plus("bus1", f"guess{n}"), "o", "pass"
        )
        for n in range(250)
    )
    flood(site, [*strangers, *guesses])
    run_tick(site)
    assert len(boxes.new()) == 7
    # an hour later, the budget is there again
    flood(site, [person_mail("Late <late@example.net>", referee, "hi", "list")])
    report = tick(site, datetime.now(UTC) + timedelta(minutes=61))
    assert not report.errors
    [answer] = boxes.new()
    assert "late@example.net" in str(answer["To"])


def test_500_relayed_messages_reach_each_player_at_most_the_budget(site):
    site, boxes = site
    ann = site.campaign("bus1").players[0]
    to = site.identity.plus("bus1", ann.token)
    flood(
        site, (person_mail(ann.formatted(), to, "hi", f"message all hello {n}") for n in range(500))
    )
    run_tick(site)
    for other in ("bob@example.org", "cid@example.org", "gil@example.org"):
        assert len([m for m in boxes.new(other) if "Message from Ann" in str(m["Subject"])]) <= 3
    to_ann = boxes.new("ann@example.org")
    assert 1 <= len(to_ann) <= 10
    text = " ".join(text_of(to_ann[-1]).split())
    assert (
        "hello 2" in text and "not sent: you have had 3 messages relayed in the last hour" in text
    )
    assert "the next can go from " in text
    relayed = [
        a
        for r in site.campaign("bus1").records()
        for a in r.actions
        if type(a).__name__ == "Message"
    ]
    assert len(relayed) == 3


def test_a_players_own_queries_count_under_the_players_limits(site):
    site, boxes = site
    for _ in range(6):
        boxes.deliver(person_mail(PLAYERS[0], site.identity.address, "?", "status"))
        boxes.deliver(person_mail("Zed <zed@example.net>", site.identity.address, "?", "status"))
    run_tick(site)
    assert len(boxes.new("ann@example.org")) == 6  # players: 10 an hour
    assert len(boxes.new("zed@example.net")) == 3  # strangers: 3 an hour


def test_referee_check_tells_every_limit(site):
    site, _ = site
    result = CliRunner().invoke(main, ["--config", str(site.config.path), "check", "--no-servers"])
    assert result.exit_code == 0, result.output
    assert (
        "limits: ok (answers to a player 10/hour 60/day, to a stranger 3/hour 8/day, to all "
        "strangers 7/hour; messages relayed 3/hour a player; observers 2 a game)"
    ) in result.output
    path = site.config.path
    path.write_text(path.read_text() + "  strangers_per_hour: 9\n")
    result = CliRunner().invoke(main, ["--config", str(path), "check", "--no-servers"])
    assert result.exit_code == 1
    assert (
        "limits.strangers_per_hour (9) is more than limits.strangers_site_per_hour (7): one "
        "stranger would be allowed more answers an hour than all strangers together"
    ) in " ".join(result.output.split())
