"""Crash-safe files: atomic writes, the JSON-lines log with a torn last line, the tick lock."""

import os
import subprocess
import sys

import pytest

from referee.files import (
    CorruptRecord,
    append_record,
    atomic_write,
    grouped,
    read_records,
    second_name,
)
from referee.store.rest import LockBusy, TickLock


def test_atomic_write_replaces_the_whole_file_and_leaves_no_temp_file(tmp_path):
    target = tmp_path / "settings.yaml"
    atomic_write(target, "game: bus\n")
    target.chmod(0o640)
    atomic_write(target, b"game: busboss\nplayers: 4\n")
    assert target.read_text() == "game: busboss\nplayers: 4\n"
    assert target.stat().st_mode & 0o777 == 0o640  # an existing file keeps its permissions
    assert os.listdir(tmp_path) == ["settings.yaml"]


def test_atomic_write_of_a_new_file_is_its_owners_alone(tmp_path):
    atomic_write(tmp_path / "report.txt", "Round 1\n")
    assert (tmp_path / "report.txt").stat().st_mode & 0o777 == 0o600


def test_a_second_name_is_the_same_file_and_replaces_an_older_one(tmp_path):
    (tmp_path / "queue").mkdir()
    (tmp_path / "archive").mkdir()
    source, copy = tmp_path / "queue" / "a.eml", tmp_path / "archive" / "a.eml"
    atomic_write(source, b"the mail")
    copy.write_bytes(b"an older try")
    second_name(source, copy, b"the mail")
    assert copy.samefile(source)  # its bytes are kept once
    source.unlink()  # sent, and the queue's copy removed: the second name stays
    assert copy.read_bytes() == b"the mail"
    assert sorted(p.name for p in tmp_path.rglob("*")) == ["a.eml", "archive", "queue"]


def test_a_second_name_across_file_systems_is_a_copy(tmp_path, monkeypatch):
    source, copy = tmp_path / "a.eml", tmp_path / "b.eml"
    atomic_write(source, b"the mail")

    def cross_device(*args):
        raise OSError(18, "Invalid cross-device link")

    monkeypatch.setattr(os, "link", cross_device)
    second_name(source, copy, b"the mail")
    assert copy.read_bytes() == b"the mail" and not copy.samefile(source)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.eml", "b.eml"]


def test_a_failed_write_keeps_the_old_content(tmp_path):
    target = tmp_path / "state.json"
    atomic_write(target, "{}")
    with pytest.raises(TypeError):
        atomic_write(target, 42)  # not bytes: fails while writing the temporary file
    assert target.read_text() == "{}"
    assert os.listdir(tmp_path) == ["state.json"]


def test_records_round_trip_in_order_with_unicode(tmp_path):
    log = tmp_path / "orders.jsonl"
    records = [{"seq": i, "player": "Zoë", "order": f"build {i}-{i + 1}"} for i in range(5)]
    for record in records:
        append_record(log, record)
    assert read_records(log) == (records, None)
    assert log.read_text(encoding="utf-8").count("\n") == 5  # one line per record, readable


def test_a_missing_log_is_empty(tmp_path):
    assert read_records(tmp_path / "none.jsonl") == ([], None)


def test_a_torn_last_line_is_reported_not_trusted(tmp_path):
    log = tmp_path / "orders.jsonl"
    append_record(log, {"seq": 1})
    append_record(log, {"seq": 2})
    with open(log, "ab") as f:
        f.write(b'{"seq": 3, "ord')  # the crash came mid-write
    records, torn = read_records(log)
    assert records == [{"seq": 1}, {"seq": 2}]
    assert "line 3" in torn and "cut short" in torn and str(log) in torn


def test_a_garbled_last_line_with_its_line_end_is_also_not_trusted(tmp_path):
    log = tmp_path / "orders.jsonl"
    append_record(log, {"seq": 1})
    with open(log, "ab") as f:
        f.write(b"\x00\x00\x00\x00\n")  # what some file systems leave after a power cut
    records, torn = read_records(log)
    assert records == [{"seq": 1}]
    assert "line 2" in torn


def test_appending_after_a_torn_line_cuts_it_off_and_keeps_its_bytes_aside(tmp_path):
    log = tmp_path / "orders.jsonl"
    append_record(log, {"seq": 1})
    with open(log, "ab") as f:
        f.write(b'{"seq": 2, "ord')
    append_record(log, {"seq": 2, "order": "pass"})
    assert read_records(log) == ([{"seq": 1}, {"seq": 2, "order": "pass"}], None)
    assert (tmp_path / "orders.jsonl.torn").read_bytes() == b'{"seq": 2, "ord\n'


def test_a_torn_only_line_is_cut_off_too(tmp_path):
    log = tmp_path / "orders.jsonl"
    log.write_bytes(b'{"se')
    assert read_records(log) == (
        [],
        f"{log}: line 1 was cut short (no line end) and was not used: '{{\"se'",
    )
    append_record(log, {"seq": 1})
    assert read_records(log) == ([{"seq": 1}], None)


def test_a_corrupt_line_in_the_middle_is_an_error_naming_file_and_line(tmp_path):
    log = tmp_path / "orders.jsonl"
    log.write_text('{"seq": 1}\nthis was edited by hand\n{"seq": 3}\n')
    with pytest.raises(CorruptRecord) as err:
        read_records(log)
    assert f"{log}: line 2 is not a JSON object" in str(err.value)
    assert "repair or remove this line" in str(err.value)


def test_a_record_must_be_an_object(tmp_path):
    with pytest.raises(TypeError):
        append_record(tmp_path / "log.jsonl", ["not", "a", "dict"])
    (tmp_path / "log2.jsonl").write_text('[1, 2]\n{"seq": 1}\n')
    with pytest.raises(CorruptRecord):
        read_records(tmp_path / "log2.jsonl")


HOLD_LOCK = """
import sys, time
from referee.store.rest import TickLock
with TickLock(sys.argv[1]):
    print("locked", flush=True)
    sys.stdin.read()  # hold until the test closes our stdin
"""


def test_tick_lock_held_by_another_process(tmp_path):
    lock_path = tmp_path / "tick.lock"
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLD_LOCK, str(lock_path)],
        cwd=os.getcwd(),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout.readline() == "locked\n"
        with pytest.raises(LockBusy) as busy, TickLock(lock_path):
            pytest.fail("a second tick got the lock")
        assert busy.value.pid == holder.pid
        assert f"pid {holder.pid}, since 20" in str(busy.value)
        assert str(lock_path) in str(busy.value)
    finally:
        holder.stdin.close()
        holder.wait(10)
    with TickLock(lock_path):  # released when its holder ended
        assert lock_path.read_text().split()[0] == str(os.getpid())


def test_tick_lock_of_a_killed_process_is_free(tmp_path):
    lock_path = tmp_path / "tick.lock"
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLD_LOCK, str(lock_path)],
        cwd=os.getcwd(),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert holder.stdout.readline() == "locked\n"
    holder.kill()
    holder.wait(10)
    with TickLock(lock_path):
        pass
    assert lock_path.read_text() == ""  # released: the file no longer names a holder


def test_tick_lock_is_exclusive_within_one_process_too(tmp_path):
    with TickLock(tmp_path / "tick.lock"), pytest.raises(LockBusy):
        with TickLock(tmp_path / "tick.lock"):
            pass


def test_a_group_of_writes_is_made_durable_with_one_fsync_per_file_and_directory(
    tmp_path, monkeypatch
):
    synced: list[str] = []
    real_fsync = os.fsync

    def noting(fd):
        synced.append(os.readlink(f"/proc/self/fd/{fd}"))
        real_fsync(fd)

    monkeypatch.setattr(os, "fsync", noting)
    (tmp_path / "mail").mkdir()
    with grouped() as group:
        for n in range(3):
            atomic_write(tmp_path / "mail" / f"{n}.eml", b"raw")
            append_record(tmp_path / "log.jsonl", {"n": n})
            atomic_write(tmp_path / "book.json", f"{n}")
        assert synced == []  # written, not yet durable
        assert read_records(tmp_path / "log.jsonl")[0] == [{"n": 0}, {"n": 1}, {"n": 2}]
        group.sync()
    files = [str(tmp_path / "mail" / f"{n}.eml") for n in range(3)]
    files += [str(tmp_path / "log.jsonl"), str(tmp_path / "book.json")]
    assert sorted(synced[:5]) == sorted(files)  # each file once, before the directories
    assert sorted(synced[5:]) == sorted([str(tmp_path / "mail"), str(tmp_path)])
    atomic_write(tmp_path / "alone.json", "{}")  # outside a group: durable at once
    assert len(synced) == 9 and synced[8] == str(tmp_path)  # its temp file, then the folder
