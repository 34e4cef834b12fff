"""The log's record format (referee/records.py): records round-trip to the byte, and a log
written before the format had a version (tests/fixtures/old-logs, a demo campaign with game
master's actions, a refused rollback among them) still replays to the same state and the same
turn reports."""

import json
import shutil
from pathlib import Path

import pytest

from referee.records import (
    FORMAT_VERSION,
    AppliedOrder,
    BadLine,
    Drop,
    How,
    Kind,
    Message,
    Record,
    RecordError,
    RefusedCommand,
    Rollback,
)
from referee.store.campaign import Campaign, CampaignError, record_hash
from referee.words.history import turn_files

OLD_DEMO = Path(__file__).parent / "fixtures" / "old-logs" / "bus-demo"


def old_lines() -> list[dict]:
    return [json.loads(line) for line in (OLD_DEMO / "log.jsonl").read_text().splitlines()]


def test_every_record_of_an_old_log_reads_back_to_the_same_json_and_hash():
    previous = "0" * 16
    for data in old_lines():
        record = Record.from_json(data)
        assert record.version == 1
        assert record.to_json() == data
        assert record_hash(previous, record.to_json()) == data["hash"]
        previous = data["hash"]


def test_the_old_log_holds_each_kind_of_record_typed():
    records = [Record.from_json(d) for d in old_lines()]
    kinds = {r.kind for r in records}
    assert kinds == {Kind.MAIL, Kind.GM}  # the demo had no forced moves
    actions = [a for r in records for a in r.actions]
    assert {type(a).__name__ for a in actions} >= {
        "Pause",
        "Resume",
        "Extend",
        "Message",
        "Drop",
        "Rollback",
        "RefusedCommand",
    }
    refused = [a for a in actions if isinstance(a, RefusedCommand)]
    assert refused == [RefusedCommand("rollback", "rollback 99", "only 68 orders can be undone")]
    rollback = next(a for a in actions if isinstance(a, Rollback))
    assert rollback.undone == ((69, 0), (70, 0))
    message = next(a for a in actions if isinstance(a, Message))
    assert message.everyone and message.sender is None
    assert [str(t) for t in message.told()] == ["The game master to everyone: Hello from the GM"]
    hows = {o.how for r in records for o in r.orders}
    assert hows <= set(How) and How.MAIL in hows


def copy_of_old_demo(tmp_path) -> Campaign:
    root = tmp_path / "demo"
    shutil.copytree(OLD_DEMO, root)
    return Campaign.load(root)


def test_replay_of_an_old_log_gives_the_same_state_and_turn_reports(tmp_path):
    campaign = copy_of_old_demo(tmp_path)
    table = campaign.table()
    expected = json.loads((OLD_DEMO / "expected_state.json").read_text())
    assert table.rules.to_data(table.state) == expected
    assert len(table.steps) == 77 and table.undone == {(69, 0), (70, 0)}
    for round_ in sorted({s.round for s in table.steps}):
        for name, content in turn_files(table, round_).items():
            if name.endswith(".txt"):
                assert content == (OLD_DEMO / "turns" / name).read_text(), name


def test_new_records_carry_the_format_version_and_round_trip():
    record = Record(
        Kind.MAIL,
        orders=(AppliedOrder(1, "build house 15", How.MAIL),),
        queues={1: ("line 15-21",)},
        message_id="<m@x>",
        sender="ann@example.org",
        seat=1,
        subject="Re: turn",
        ignored=("Hello all",),
        bad_lines=(BadLine("biuld pub 21", "not an order"),),
        actions=(
            Drop("drop Bob", "Bob is dropped.", 2, "Bob", ("e",)),
            RefusedCommand("rollback", "rollback -1", "write 'rollback 3'"),
        ),
        n=5,
        at="2026-11-24T10:00:00Z",
        hash="abc",
    )
    data = json.loads(json.dumps(record.to_json()))
    assert data["v"] == FORMAT_VERSION
    assert Record.from_json(data) == record


def test_a_new_campaigns_log_is_written_in_the_current_format(tmp_path):
    campaign = copy_of_old_demo(tmp_path)
    table = campaign.table()
    written = campaign.append(
        Record(Kind.GM, actions=(RefusedCommand("pause", "pause", "no"),)),
        len(table.steps) + 1,
        table.last_hash,
    )
    last = json.loads(campaign.log_path.read_text().splitlines()[-1])
    assert last["v"] == FORMAT_VERSION and last["n"] == 78
    assert Record.from_json(last) == written
    assert len(campaign.table().steps) == 78


@pytest.mark.parametrize(
    "damage, says",
    [
        ({"kind": "letter"}, "is not a log record"),
        (
            {"actions": [{"action": "teleport", "line": "teleport", "said": "ok"}]},
            "a command 'teleport' that this referee does not know",
        ),
        (
            {"actions": [{"action": "rollback", "line": "rollback 2", "said": "ok"}]},
            "a rollback command without its 'undone'",
        ),
        ({"orders": [[0, "pass"]]}, "is not a log record"),
    ],
)
def test_a_record_this_format_cannot_read_is_refused_with_its_number(tmp_path, damage, says):
    campaign = copy_of_old_demo(tmp_path)
    lines = old_lines()
    lines[9].update(damage)
    campaign.log_path.write_text("".join(json.dumps(d) + "\n" for d in lines))
    with pytest.raises(CampaignError) as raised:
        campaign.records()
    assert "record 10" in str(raised.value) and says in str(raised.value)
    with pytest.raises(RecordError):
        Record.from_json(lines[9])
