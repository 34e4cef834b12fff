"""Bounded answers: machine mail is recognised more widely, and every address gets at most a
few answers an hour, fewer when it is a stranger's, so no mail loop runs unbounded."""

import json
import mailbox
import os

import pytest
from sites import PLAYERS, Mailboxes, make_site, person_mail, run_tick

from referee.mail.read import read_mail
from referee.service.site import Site
from referee.settings.site import AnswerLimits, load_config

REFEREE = "referee@example.org"


@pytest.fixture
def game(tmp_path):
    site = make_site(tmp_path)
    site.new_campaign("bus", "bus1", PLAYERS, seed=1)
    run_tick(site)
    boxes = Mailboxes(site)
    boxes.new()
    return site, boxes


def received(site) -> list[dict]:
    path = site.state_dir / "received.jsonl"
    return [json.loads(line) for line in path.read_text().splitlines()]


MACHINE_MAIL = {
    "a localized auto-reply subject": ("Subject: Automatisch antwoord: [bus1] Round 3", "subject"),
    "out of office not at the start": ("Subject: [bus1] Round 3 - Out of Office", "subject"),
    "a Swedish auto-reply": ("Subject: Autosvar: Re: [bus1]", "subject"),
    "a bounce without DSN or null sender": (
        "Subject: Returned mail: see transcript\nFrom: Mail Delivery Subsystem <mds@example.net>",
        "automatic sender",
    ),
    "a bounces+ sender": ("From: bounces+123@lists.example.net", "automatic sender"),
    "a ticket system by its header": ("X-RT-Loop-Prevention: helpdesk", "X-RT-Loop-Prevention"),
    "a ticket system by its subject": ("Subject: [Ticket #4711] Re: [bus1] Round 3", "subject"),
    "an Exchange auto-reply header": ("X-Auto-Response-Suppress: All", "X-Auto-Response-Suppress"),
}


@pytest.mark.parametrize("name", MACHINE_MAIL)
def test_wider_machine_mail_is_never_answered(name):
    headers, reason = MACHINE_MAIL[name]
    base = {"From": "Ann <ann@example.org>", "To": REFEREE, "Subject": "hello"}
    for line in headers.splitlines():
        key, _, value = line.partition(": ")
        base[key] = value
    raw = "".join(f"{k}: {v}\n" for k, v in base.items()) + "Message-ID: <m@x>\n\nbuild house 15\n"
    assert reason in (read_mail(raw.encode(), REFEREE).automatic or "")


def test_the_referees_own_mail_re_sent_without_its_headers_is_not_answered(game):
    site, boxes = game
    [sent] = [m for m in boxes.sent() if "ann@example.org" in str(m["To"])][:1]
    stripped = person_mail("List <list@example.net>", REFEREE, str(sent["Subject"]), "x")
    stripped.replace_header("Message-ID", str(sent["Message-ID"]))  # the list kept only that
    boxes.deliver(stripped)
    # the referee's own words without its headers are a person's mail (issue 22: known by
    # headers, never by words in the body): answered, within the strangers' limits
    words = person_mail("Fwd <fwd@example.net>", REFEREE, "fwd", "YOUR DECISION: First buildings")
    boxes.deliver(words)
    run_tick(site)
    assert [str(m["To"]) for m in boxes.new()] == ["fwd@example.net"]
    outcomes = [r["outcome"] for r in received(site)]
    assert outcomes == [
        "ignored: the referee's own mail, come back",
        "answered outside any campaign",
    ]


def test_a_dumb_auto_responder_is_answered_a_bounded_number_of_times_over_50_ticks(game):
    """It sets no header at all and answers every mail, to its Reply-To (with the token)."""
    site, boxes = game
    boxes.seen.clear()  # it answers the welcome too
    answered = 0
    for _ in range(50):
        for msg in boxes.new("ann@example.org"):
            answered += 1
            reply_to = str(msg["Reply-To"] or msg["From"])
            boxes.deliver(
                person_mail("Ann <ann@example.org>", reply_to, f"Re: {msg['Subject']}", "I am away")
            )
        run_tick(site)
    limits = AnswerLimits()
    assert 1 <= answered <= limits.per_hour + 1  # the welcome and the answers it allows
    assert len(received(site)) == answered  # every mail of it recorded


@pytest.mark.slow
def test_500_forged_token_guesses_send_at_most_the_limit_to_the_forged_address(game, monkeypatch):
    site, boxes = game
    monkeypatch.setattr(os, "fsync", lambda fd: None)  # answers, not durability, are tested
    box = mailbox.Maildir(site.config.inbox.path, create=False)
    for n in range(500):
        guess = site.identity.plus("bus1", f"guess{n}")
        box.add(person_mail("Ann <ann@example.org>", guess, "orders", "build house 15").as_bytes())
    run_tick(site)
    to_ann = boxes.new("ann@example.org")
    assert len(to_ann) == AnswerLimits().strangers_per_hour
    assert all(str(m["Subject"]) == "[bus1] Your orders were not used" for m in to_ann)
    outcomes = [r["outcome"] for r in received(site)]
    assert len(outcomes) == 500
    assert outcomes.count("no valid token (not answered: over the answer limit)") == 497
    assert [r for r in site.campaign("bus1").records() if r.kind.value == "mail"] == []


def test_the_limits_are_set_in_referee_yaml_and_checked(tmp_path):
    site = make_site(tmp_path)
    path = site.config.path
    path.write_text(path.read_text() + "limits:\n  per_hour: 2\n  strangers_per_day: 1\n")
    limits = load_config(path).limits
    assert (limits.per_hour, limits.strangers_per_day, limits.per_day) == (2, 1, 60)
    path.write_text(path.read_text() + "  strangers_per_hour: lots\n  per_dya: 3\n")
    with pytest.raises(Exception) as told:
        Site(load_config(path))
    assert "limits.strangers_per_hour: expected a whole number" in str(told.value)
    assert "per_dya: unknown setting; did you mean `per_day`?" in str(told.value)
