"""The session owns a campaign's writes (issue 33, point 3): whatever a tick's mails and
deadlines change is written once, in the order service/session.py documents (the settings and
the deadline book before the record that changed them; the watermarks and the snapshot after
the answers are queued). The crash tests (test_referee_crash.py, "recorded") kill a tick
between a record and what follows it."""

from __future__ import annotations

import json

from sites import PLAYERS, Mailboxes, logged, make_site, person_mail

from referee.service.tick import tick
from referee.store import campaign as campaign_files
from referee.store.names import BOOK, MARKS, SETTINGS_FILE

BOB = PLAYERS[1]


def test_one_mail_of_many_settings_and_orders_writes_the_settings_once_before_its_record(
    tmp_path, monkeypatch
):
    site = make_site(tmp_path)
    site.new_campaign("bus", "bus1", PLAYERS, seed=1)
    assert not tick(site).errors
    boxes = Mailboxes(site)
    boxes.new()
    root = site.data_root / "bus1"
    writes: list[tuple[str, int]] = []  # (file, records in the log when it was written)
    real = campaign_files.write_settings

    def counted(path, data, header):
        writes.append((path.name, len(logged(site.campaign("bus1")))))
        real(path, data, header)

    monkeypatch.setattr(campaign_files, "write_settings", counted)
    before = len(logged(site.campaign("bus1")))
    bob = site.campaign("bus1").players[1]
    boxes.deliver(
        person_mail(
            BOB,
            site.identity.plus("bus1", bob.token),
            "settings and orders",
            "timezone Europe/Berlin\nmail brief\nbuild office 21\nbuild office 22\nline 26-27",
        )
    )
    assert not tick(site).errors
    # three settings changed, one write, made before the mail's record went into the log
    assert writes == [(SETTINGS_FILE, before)]
    player = site.campaign("bus1").players[1]
    assert (player.timezone, player.mail) == ("Europe/Berlin", "brief")
    text = (root / SETTINGS_FILE).read_text()
    assert "timezone: Europe/Berlin" in text and "mail: brief" in text
    [record] = logged(site.campaign("bus1"))[before : before + 1]
    assert record["seat"] == 1 and (record.get("orders") or record.get("queues"))


def test_the_watermarks_and_the_book_are_written_after_the_answers_are_queued(tmp_path):
    """A deadline's reminder is marked told in the book, and the answers marked queued in
    mailed.json, only once the mails that tell them are in the queue: their files are newer
    than the queue's newest mail."""
    site = make_site(tmp_path)
    campaign = site.new_campaign("bus", "bus1", PLAYERS, seed=1)
    campaign.settings["deadlines"] = {"hours": 48}
    campaign.save()
    assert not tick(site).errors
    root = site.data_root / "bus1"
    queued = [p for p in (root / "mail" / "out").rglob("*") if p.is_file()]
    assert queued
    newest_mail = max(p.stat().st_mtime_ns for p in queued)
    for name in (BOOK, MARKS):
        assert (root / name).stat().st_mtime_ns >= newest_mail, name
    book = json.loads((root / BOOK).read_text())
    assert book["seats"]  # the decisions asked for, entered with their due times
