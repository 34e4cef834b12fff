"""A failing address over real SMTP (the rig's server answers 451 to it): its mail is tried
again after 2 minutes, 4, 8 ... at most every retry_at_most_hours, given up give_up_days after
it was queued, kept in the queue's failed/ folder, and the game masters are told which mails
were not delivered and why, once."""

import json
from datetime import UTC, datetime, timedelta

import pytest
from sites import status_health

from referee import mailbot
from referee.mail.inbox import create_maildir
from referee.service.site import Site
from referee.service.tick import tick
from referee.service.work import run_as_gm
from referee.settings.site import load_config


def smtp_site(root, rig, **outbox):
    """A site on a local Maildir inbox whose outbox is the rig's SMTP server, with a site
    game master."""
    (root / "referee.yaml").write_text(
        f"""\
data_root: games
referee:
  address: referee@example.test
  game_masters:
    - address: sam-undelivered@example.test
      token_env: REFEREE_TEST_SAM_TOKEN
inbox:
  type: maildir
  path: mail/inbox
outbox:
  type: smtp
  host: 127.0.0.1
  port: {rig.smtp_port}
  security: none
"""
        + "".join(f"  {key}: {value}\n" for key, value in outbox.items())
    )
    create_maildir(root / "mail" / "inbox")
    return Site(load_config(root / "referee.yaml"))


def subjects(rig, address):
    return [str(mailbot.parse(raw)["Subject"]) for raw in rig.read_mails(address)]


def notices(rig, account):
    mails = [mailbot.parse(raw) for raw in rig.read_mails(account.address)]
    return [m for m in mails if "could not be delivered" in str(m["Subject"])]


def test_a_failing_address_backs_off_is_given_up_and_the_game_masters_are_told(mailrig, tmp_path):
    names = ("ann", "bob", "cid", "gil", "sam")
    ann, bob, cid, gil, sam = (mailrig.add_account(f"{n}-undelivered") for n in names)
    site = smtp_site(tmp_path, mailrig, retry_at_most_hours=0.1)  # at most every 6 minutes
    mailrig.tempfail |= {bob.address, cid.address}
    site.new_campaign(
        "bus",
        "bus1",
        [f"{n.title()} <{a.address}>" for n, a in zip(names, (ann, bob, cid))],
        seed=1,
        gm=f"Gil <{gil.address}>",
    )
    queue = site.config.queue_dir
    t0 = datetime.now(UTC).replace(microsecond=0)  # the queue stamps its mail with the clock

    def tries(account):
        return mailrig.tried.count(account.address)

    report = tick(site, t0)
    assert (report.sent, report.waiting, report.errors) == (2, 2, [])  # Ann's and Gil's went
    failing = json.loads((queue / "addresses.json").read_text())
    assert set(failing) == {bob.address, cid.address}
    assert failing[bob.address]["failures"] == 1 and "451" in failing[bob.address]["error"]
    assert failing[bob.address]["next"] == (t0 + timedelta(minutes=2)).isoformat()
    health = status_health(site)  # what a monitoring system sees
    assert (health["mails_waiting"], health["mails_failing"]) == (2, 2)
    assert set(health["addresses_failing"]) == {bob.address, cid.address}

    # a minute later the failing addresses rest: the server is not asked again
    tick(site, t0 + timedelta(minutes=1))
    assert (tries(bob), tries(cid)) == (1, 1)
    # more mail to Bob waits with the rest of his (the game master extends the deadlines)
    run_as_gm(site, "bus1", "extend 24", t0 + timedelta(minutes=1, seconds=30))
    assert sum(bob.address in str(m) for m in map(site.outbox.read, site.outbox.pending())) == 2
    tick(site, t0 + timedelta(minutes=1, seconds=40))
    assert tries(bob) == 1

    # 2 minutes on, both are tried: Cid's server takes mail again, Bob's does not
    mailrig.tempfail.discard(cid.address)
    t = t0 + timedelta(minutes=2, seconds=1)
    tick(site, t)
    assert tries(bob) == 2 and "[bus1] Welcome to Bus, Cid" in subjects(mailrig, cid.address)
    failing = json.loads((queue / "addresses.json").read_text())
    assert list(failing) == [bob.address] and failing[bob.address]["failures"] == 2
    # the waits double (4, 8 minutes ...), capped at retry_at_most_hours (6 minutes)
    for wait in (4, 6, 6):
        assert failing[bob.address]["next"] == (t + timedelta(minutes=wait)).isoformat()
        tick(site, t + timedelta(minutes=wait) - timedelta(seconds=5))
        assert json.loads((queue / "addresses.json").read_text()) == failing  # rested
        t += timedelta(minutes=wait)
        before = tries(bob)
        tick(site, t)
        assert tries(bob) == before + 1  # one try of Bob's first mail, not one a mail
        failing = json.loads((queue / "addresses.json").read_text())
    assert mailrig.read_mails(bob.address) == [] and len(site.outbox.pending()) == 2

    # a week after they were queued, Bob's mails are given up and kept in failed/
    given_up = datetime.now(UTC) + timedelta(days=7, minutes=1)
    report = tick(site, given_up)
    assert report.waiting == 0 and report.errors == []
    kept = sorted((queue / "failed").glob("*.eml"))
    assert len(kept) == 2 and all(bob.address.encode() in p.read_bytes() for p in kept)
    reasons = [(queue / "failed" / f"{p.name}.reason").read_text() for p in kept]
    assert all("not delivered in 7 days" in r and "451" in r for r in reasons)
    health = status_health(site)
    assert (health["mails_waiting"], health["mails_undelivered"]) == (0, 2)

    # the next tick tells the campaign's game master and the site's, once
    tick(site, given_up + timedelta(minutes=1))
    for account in (gil, sam):
        [notice] = notices(mailrig, account)
        assert str(notice["Subject"]) == "[bus1] 2 mail(s) could not be delivered"
        text = mailbot.body(notice)
        assert bob.address in text and "Welcome to Bus, Bob" in text and "451" in text
        assert str(queue / "failed") in text and "not delivered in 7 days" in text
    tick(site, given_up + timedelta(days=2))
    assert len(notices(mailrig, gil)) == 1


def test_the_patience_is_set_in_referee_yaml_and_checked(tmp_path, mailrig):
    site = smtp_site(tmp_path, mailrig, give_up_days=2, retry_at_most_hours=1)
    patience = site.outbox.patience
    assert (patience.give_up, patience.at_most) == (timedelta(days=2), timedelta(hours=1))
    config = tmp_path / "referee.yaml"
    config.write_text(config.read_text().replace("give_up_days: 2", "give_up_dayz: 0"))
    with pytest.raises(ValueError) as err:
        load_config(config)
    assert "outbox.give_up_dayz: unknown setting; did you mean `give_up_days`?" in str(err.value)
    # bounded above too: beyond the dates the queue reckons in, every flush stopped
    config.write_text(config.read_text().replace("give_up_dayz: 0", "give_up_days: 1.0e+300"))
    with pytest.raises(ValueError) as err:
        load_config(config)
    assert "give_up_days must be a number of days from 0.05 to 3650, not 1e+300" in str(err.value)


def test_mail_that_rests_is_no_work_for_an_idle_tick_till_its_next_try(mailrig, tmp_path):
    """cron's tick every minute would otherwise load the whole referee for a week to find
    that a dead address's mail is not due: the flush notes until when the mail it left
    rests, and a tick with nothing else to do passes over the queue till then, unless mail
    was queued since (issue 25, an idle tick that costs what it does)."""
    from sites import person_mail
    from test_idle_tick import HEAVY, referee

    from referee.service.tick import quiet

    ann, bob, cid = (mailrig.add_account(f"{n}-resting") for n in ("ann", "bob", "cid"))
    site = smtp_site(tmp_path, mailrig)
    mailrig.tempfail.add(bob.address)
    players = [f"{a.address.split('-')[0].title()} <{a.address}>" for a in (ann, bob, cid)]
    site.new_campaign("bus", "bus1", players)
    t0 = datetime.now(UTC).replace(microsecond=0)
    tick(site, t0)
    [waiting] = site.outbox.pending()
    rest = json.loads((site.config.queue_dir / "resting.json").read_text())
    assert rest == {"mails": [waiting], "until": (t0 + timedelta(minutes=2)).isoformat()}

    assert quiet(site, t0 + timedelta(minutes=1))
    status, modules, printed = referee(site.root, "tick")  # now, within Bob's rest
    assert (
        status == 0
        and printed == "fetched 0, applied 0, ignored 0, queued 0, sent 0, still queued 1"
    )
    assert {name.split(".")[0] for name in modules}.isdisjoint(HEAVY)
    assert mailrig.tried.count(bob.address) == 1 and site.outbox.pending() == [waiting]

    assert not quiet(site, t0 + timedelta(minutes=2))  # Bob's next try is due
    site.post.queue(None, person_mail("Referee <referee@example.test>", ann.address, "x", "y"))
    assert not quiet(site, t0 + timedelta(minutes=1))
    report = tick(site, t0 + timedelta(minutes=1))
    assert (report.sent, report.waiting) == (1, 1) and site.outbox.pending() == [waiting]
    assert quiet(site, t0 + timedelta(minutes=1, seconds=30))


def test_recipients_a_server_refused_of_a_mail_it_took_for_others_get_it_later(mailrig, tmp_path):
    """A mail to two, of whom the server takes one and refuses the other for now, was kept
    as sent with a note and the other never had it: now a copy for the refused alone is
    queued (as queued first, so given up counting from then) and rests and is tried again
    as any failing address; one refused for good is kept in failed/ and its game master
    told, as every mail refused for good is."""
    from email.message import EmailMessage
    from email.utils import make_msgid

    ann, bob = mailrig.add_account("ann-partial"), mailrig.add_account("bob-partial")
    refused = "refuse-partial@example.test"
    site = smtp_site(tmp_path, mailrig)
    mailrig.tempfail.add(bob.address)
    t0 = datetime.now(UTC).replace(microsecond=0)
    for to in (f"{ann.address}, {bob.address}", f"{ann.address}, {refused}"):
        mail = EmailMessage()
        mail["From"], mail["To"], mail["Subject"] = "referee@example.test", to, f"to {to}"
        mail["Message-ID"] = make_msgid(domain="example.test")
        mail.set_content("hello")
        site.post.queue(None, mail)
    first = site.outbox.pending()

    report = tick(site, t0)
    assert report.sent == 2 and len(mailrig.read_mails(ann.address)) == 2
    again = [n for n in site.outbox.pending() if n not in first]
    assert len(again) == 2 and all(n[:21] in {f[:21] for f in first} for n in again)
    assert {r for n in again for r in site.outbox.outgoing(n).recipients} == {
        bob.address,
        refused,
    }
    assert list(json.loads((site.config.queue_dir / "addresses.json").read_text())) == [bob.address]

    tick(site, t0 + timedelta(minutes=1))  # Bob rests; the address refused for good is kept
    [kept] = sorted((site.config.queue_dir / "failed").glob("*.eml"))
    assert site.outbox.outgoing(kept.name, kept.parent).recipients == (refused,)
    assert mailrig.read_mails(bob.address) == []
    sam = mailrig.add_account("sam-undelivered")
    told = len(notices(mailrig, sam))  # (the rig is the session's: earlier tests told Sam)
    tick(site, t0 + timedelta(minutes=1, seconds=30))  # the site's game master is told
    [notice] = notices(mailrig, sam)[told:]
    assert refused in mailbot.body(notice) and "550" in mailbot.body(notice)

    mailrig.tempfail.discard(bob.address)
    report = tick(site, t0 + timedelta(minutes=2, seconds=1))
    assert [str(mailbot.parse(m)["Subject"]) for m in mailrig.read_mails(bob.address)] == [
        f"to {ann.address}, {bob.address}"
    ]
    assert len(mailrig.read_mails(ann.address)) == 2 and site.outbox.pending() == []
