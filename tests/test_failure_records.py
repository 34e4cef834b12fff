"""Records that rotate (issue 22, item 6): state/failures.jsonl moves aside when it is full or
a new month begins, a bounded number of old files is kept, every failure is noted all along,
and the daily summary tells exactly what is new since the last one, also when the file was
rotated by the referee, or deleted, emptied or rotated by hand meanwhile."""

import json
import os
import re
from datetime import UTC, datetime, timedelta

import pytest
from sites import PLAYERS, Mailboxes, make_site, person_mail, text_of, with_game_master

from referee.service import failures, session
from referee.service.failures import note_failure
from referee.service.tick import tick

T0 = datetime(2026, 11, 23, 9, 0, tzinfo=UTC)
DAY = timedelta(days=1, minutes=1)


@pytest.fixture
def site(tmp_path):
    return with_game_master(make_site(tmp_path), "gm@example.org", "GM_TOKEN")


def noted(site) -> list[dict]:
    """Every failure in every file of them, oldest first."""
    found = []
    for file in failures.failure_files(site.state_dir):
        found += [json.loads(line) for line in file.path.read_text().splitlines()]
    return found


def summaries(boxes) -> list[str]:
    """The failures each new summary lists, by their `what`."""
    told = []
    for msg in boxes.new("gm@example.org"):
        told.append(
            [line.split("  ", 1)[1] for line in text_of(msg).splitlines() if "  fail " in line]
        )
    return told


def fail(site, n, now):
    note_failure(site, f"fail {n}", "boom", now)


def test_the_file_rotates_by_size_keeps_a_bounded_number_and_notes_every_failure(site, monkeypatch):
    monkeypatch.setattr(failures, "MAX_FILE", 1000)
    monkeypatch.setattr(failures, "KEEP", 3)
    for n in range(80):  # about 85 bytes each: a file every 12
        fail(site, n, T0)
    files = failures.failure_files(site.state_dir)
    assert len(files) == 4  # the 3 kept and the current one
    assert all(f.size < 1100 for f in files)
    kept = [r["what"] for r in noted(site)]
    assert kept == [f"fail {n}" for n in range(80 - len(kept), 80)] and len(kept) > 36


def test_the_file_rotates_with_the_month(site):
    fail(site, 0, T0)
    fail(site, 1, T0 + timedelta(days=10))  # December
    current = site.state_dir / "failures.jsonl"
    assert [json.loads(line)["what"] for line in current.read_text().splitlines()] == ["fail 1"]
    [old] = list(site.state_dir.glob("failures-2026-11-*.jsonl"))
    assert "fail 0" in old.read_text()


def test_the_summary_tells_what_is_new_across_the_referees_rotation(site, monkeypatch):
    monkeypatch.setattr(failures, "MAX_FILE", 1000)
    boxes = Mailboxes(site)
    for n in range(3):
        fail(site, n, T0)
    tick(site, T0)
    assert summaries(boxes) == [["fail 0", "fail 1", "fail 2"]]
    for n in range(3, 20):  # a rotation or more on the way
        fail(site, n, T0)
    assert len(failures.failure_files(site.state_dir)) >= 2
    tick(site, T0 + DAY)
    assert summaries(boxes) == [[f"fail {n}" for n in range(3, 20)]]
    tick(site, T0 + 2 * DAY)
    assert summaries(boxes) == []  # nothing new: no summary


@pytest.mark.parametrize("by_hand", ["deleted", "emptied", "rotated", "rotated and deleted"])
def test_the_summary_goes_on_after_the_file_is_changed_by_hand(site, by_hand):
    boxes = Mailboxes(site)
    for n in range(5):
        fail(site, n, T0)
    tick(site, T0)
    assert len(summaries(boxes)[0]) == 5
    fail(site, 5, T0)  # noted after the summary, before the change by hand
    current = site.state_dir / "failures.jsonl"
    if by_hand == "deleted":
        current.unlink()
    elif by_hand == "emptied":
        current.write_bytes(b"")
    else:  # as logrotate does it
        os.replace(current, site.state_dir / "failures.jsonl.1")
        if by_hand == "rotated and deleted":
            (site.state_dir / "failures.jsonl.1").unlink()
    fail(site, 6, T0)
    fail(site, 7, T0)
    tick(site, T0 + DAY)
    told = {"deleted": [6, 7], "emptied": [6, 7], "rotated": [5, 6, 7]}.get(by_hand, [6, 7])
    assert summaries(boxes) == [[f"fail {n}" for n in told]]
    fail(site, 8, T0 + DAY)
    tick(site, T0 + 2 * DAY + DAY)
    assert summaries(boxes) == [["fail 8"]]


def test_a_summary_of_an_older_referee_is_read_on(site):
    boxes = Mailboxes(site)
    for n in range(4):
        fail(site, n, T0)
    (site.state_dir / "failures-told.json").write_text(
        json.dumps({"count": 3, "at": (T0 - DAY).isoformat()})
    )
    tick(site, T0)
    assert summaries(boxes) == [["fail 3"]]
    fail(site, 4, T0)
    tick(site, T0 + DAY)
    assert summaries(boxes) == [["fail 4"]]


def test_the_summary_names_each_cause_once_and_a_new_one_beside_a_flood_of_repeats(
    site, monkeypatch
):
    """A broken campaign noted a failure at every tick: a day's summary listed its oldest 30
    entries and "... and 19,949 more", so a player's mail quarantined that day was counted
    and never named (issue 34, item 6). Each cause is named once, with its count."""
    site.new_campaign("bus", "g1", PLAYERS, seed=1)
    site.new_campaign("bus", "g2", PLAYERS, seed=2)
    tick(site, T0)
    boxes = Mailboxes(site)
    boxes.new()
    (site.data_root / "g2" / "log.jsonl").write_text('{not json\n{"n": 1}\n')  # broken
    for minute in range(3):  # ticks of the referee, each noting the same failure
        assert tick(site, T0 + timedelta(minutes=minute)).skipped == ["g2"]
    assert len(summarised(boxes)) == 1  # the first summary goes at once
    current = site.state_dir / "failures.jsonl"
    repeat = current.read_text().splitlines()[-1]
    with current.open("a") as file:  # the rest of a day of ticks, a failure each
        file.write(f"{repeat}\n" * 19_975)
    # a player's mail that cannot be handled: quarantined, and noted once
    token = site.campaign("g1").players[0].token
    boxes.deliver(person_mail(PLAYERS[0], site.identity.plus("g1", token), "o", "build"))
    monkeypatch.setattr(session.Sessions, "apply", lambda *a, **k: 1 / 0)
    later = T0 + timedelta(hours=20)
    assert any("ZeroDivisionError" in e for e in tick(site, later).errors)
    monkeypatch.undo()
    tick(site, T0 + DAY)  # g2 still broken: noted again
    [summary] = summarised(boxes)
    text = text_of(summary)
    # g2's: 2 left from the first day's ticks, 19,975 written, 2 of the ticks since
    assert str(summary["Subject"]).startswith("referee: 19980 failure(s)")
    assert "19,980 thing(s) failed" in text and "from 2 cause(s), each named once" in text
    assert text.count("campaign g2") == 1
    assert "19,979 times, the last at 2026-11-24T09:01:00+00:00" in text
    flat = " ".join(text.split())  # its lines are fitted to the mail's width
    assert flat.count("mail <") == 1 and re.search(r"mail <[^>]+> from ann@example.org", flat)
    assert "ZeroDivisionError" in text
    assert "more" not in text  # every cause is named


def summarised(boxes) -> list:
    """The failure summaries among the new mails to the site's game master."""
    return [m for m in boxes.new("gm@example.org") if "failure(s)" in str(m["Subject"])]
