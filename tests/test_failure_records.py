"""Records that rotate (issue 22, item 6): state/failures.jsonl moves aside when it is full or
a new month begins, a bounded number of old files is kept, every failure is noted all along,
and the daily summary tells exactly what is new since the last one, also when the file was
rotated by the referee, or deleted, emptied or rotated by hand meanwhile."""

import json
import os
from datetime import UTC, datetime, timedelta

import pytest
from sites import Mailboxes, make_site, text_of, with_game_master

from referee.service import failures
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
