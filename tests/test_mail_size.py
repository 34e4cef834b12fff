"""A tick holds one mail at a time, and never reads a mail over inbox.max_mail_kb whole: its
head is kept in quarantine, the whole mail stays in the inbox's processed folder, and its
sender hears why, while every other mail of the tick plays. On a Maildir and over IMAP."""

import json
import mailbox
import os
import tracemalloc

from sites import PLAYERS, Mailboxes, make_site, person_mail, run_tick, text_of
from test_referee_by_mail import mail_site

from referee.bus.engine import RULES
from referee.mail.inbox import MaildirInbox
from referee.service.intake import HEAD_BYTES
from referee.service.play import read_orders
from referee.service.site import Site
from referee.service.tick import tick
from referee.settings.site import ConfigError, load_config

LIMIT_KB = 100


def with_limit(site: Site, kb: int = LIMIT_KB) -> Site:
    path = site.config.path
    text = path.read_text().replace(
        "  processed_folder: processed\n",
        f"  processed_folder: processed\n  max_mail_kb: {kb}\n",
        1,
    )
    path.write_text(text)
    return Site(load_config(path))


def big_mail(site: Site, seat: int, kb: int):
    """A player's order with an attachment of ``kb`` KB."""
    token = site.campaign("bus1").players[seat].token
    mail = person_mail(PLAYERS[seat], site.identity.plus("bus1", token), "orders", "build house 15")
    mail.add_attachment(os.urandom(kb * 1024), "image", "jpeg", filename="board.jpg")
    return mail


def small_mail(site: Site, seat: int, text: str):
    token = site.campaign("bus1").players[seat].token
    return person_mail(PLAYERS[seat], site.identity.plus("bus1", token), "orders", text)


def quarantined(site: Site) -> list:
    folder = site.state_dir / "quarantine"
    return sorted(folder.iterdir()) if folder.exists() else []


def test_a_mail_over_the_limit_is_kept_answered_and_not_read_while_the_others_play(tmp_path):
    site = make_site(tmp_path)
    site.new_campaign("bus", "bus1", PLAYERS, seed=1)  # Ann builds first
    run_tick(site)
    site = with_limit(site)
    boxes = Mailboxes(site)
    boxes.new()
    big = big_mail(site, 0, 2 * LIMIT_KB).as_bytes()
    boxes.deliver(big)
    boxes.deliver(small_mail(site, 0, "build house 15"))
    report = tick(site)
    assert not report.errors, report.errors
    # the small mail played; the big one was not applied
    assert [o.text for r in site.campaign("bus1").records() for o in r.orders] == ["build house 15"]
    outcomes = [json.loads(line)["outcome"] for line in (site.state_dir / "received.jsonl").open()]
    assert (
        outcomes[0].startswith("unreadable: too large (") and f"over {LIMIT_KB} KB" in outcomes[0]
    )
    # its head in quarantine, the whole of it in the processed folder
    [kept] = quarantined(site)
    assert big.startswith(kept.read_bytes()) and len(kept.read_bytes()) == HEAD_BYTES
    processed = mailbox.Maildir(site.config.inbox.path, create=False).get_folder("processed")
    assert big in [processed.get_bytes(k) for k in processed.iterkeys()]
    # Ann is told why, in plain words
    [told] = [m for m in boxes.new("ann@example.org") if "too large" in str(m["Subject"])]
    text = " ".join(text_of(told).split())
    assert f"and the referee reads mails of up to {LIMIT_KB} KB" in text
    assert "send them again in a plain text mail" in text


def test_an_imap_mail_over_the_limit_stays_whole_on_the_server(mailrig, tmp_path):
    site = mail_site(tmp_path, mailrig)
    path = site.config.path  # the inbox comes first: its security line is the first
    path.write_text(
        path.read_text().replace(
            "  security: none\n", f"  security: none\n  max_mail_kb: {LIMIT_KB}\n", 1
        )
    )
    site = Site(load_config(path))
    site.new_campaign("bus", "bus1", PLAYERS, seed=1)
    run_tick(site)
    referee = site.config.inbox.user
    big = big_mail(site, 0, 3 * LIMIT_KB).as_bytes()
    mailrig.deliver(referee, big)
    mailrig.deliver(referee, small_mail(site, 0, "build house 15").as_bytes())
    mailrig.deliver(referee, small_mail(site, 1, "build office 21").as_bytes())
    report = tick(site)
    assert not report.errors, report.errors
    records = site.campaign("bus1").records()
    assert [o.text for r in records for o in r.orders][0] == "build house 15"
    assert [r.sender for r in records if r.sender] == ["ann@example.org", "bob@example.org"]
    [kept] = quarantined(site)
    head = kept.read_bytes().replace(b"\r\n", b"\n").rstrip(b"\r")
    assert big.replace(b"\r\n", b"\n").startswith(head)
    assert len(kept.read_bytes()) == HEAD_BYTES
    processed = mailrig.read_mails(referee, "processed")
    assert len(processed) == 3
    assert max(map(len, processed)) >= len(big)  # whole, where the game master can read it
    assert mailrig.read_mails(referee) == []


def test_max_mail_kb_must_be_a_whole_number_of_at_least_64(tmp_path):
    site = make_site(tmp_path)
    path = site.config.path
    for bad in ("10", "lots", "true", "64.5"):
        path.write_text(
            path.read_text().replace(
                "  processed_folder: processed\n",
                f"  processed_folder: processed\n  max_mail_kb: {bad}\n",
                1,
            )
        )
        try:
            load_config(path)
        except ConfigError as err:
            assert "inbox.max_mail_kb" in str(err) and "at least 64" in str(err)
        else:
            raise AssertionError(f"max_mail_kb: {bad} was taken")
        path.write_text(path.read_text().replace(f"  max_mail_kb: {bad}\n", ""))


def test_a_mail_gone_from_the_maildir_before_it_is_taken_stops_the_taking_until_next_tick(
    tmp_path, monkeypatch
):
    site = make_site(tmp_path)
    site.new_campaign("bus", "bus1", PLAYERS, seed=1)
    run_tick(site)
    boxes = Mailboxes(site)
    boxes.deliver(small_mail(site, 0, "build house 15"))
    boxes.deliver(small_mail(site, 1, "build office 21"))
    fetch = MaildirInbox.fetch
    moved = tmp_path / "elsewhere"

    def fetch_then_lose_the_second(self, limit=None):
        mails = fetch(self, limit)
        second = next(p for p in (self.path / "new").iterdir() if mails[1].key in p.name)
        os.replace(second, moved)  # a mail program took it meanwhile
        return mails

    monkeypatch.setattr(MaildirInbox, "fetch", fetch_then_lose_the_second)
    report = tick(site)
    assert len(report.errors) == 1 and "reading the inbox stopped" in report.errors[0]
    assert report.applied == 1
    monkeypatch.undo()
    os.replace(moved, site.config.inbox.path / "new" / moved.name)  # and put it back
    run_tick(site)
    records = site.campaign("bus1").records()
    assert [r.sender for r in records if r.sender] == ["ann@example.org", "bob@example.org"]


def test_a_huge_word_is_not_measured_against_every_verb():
    """(Its memory grew with the word's length times the verbs': 130 MB for 256 KB.)"""
    tracemalloc.start()
    reading = read_orders(RULES, ["x" * 500_000])
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert reading.ignored == ["x" * 500_000] and not reading.errors
    assert peak < 5 * 500_000  # a few copies of the line, no table of distances
