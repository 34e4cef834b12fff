"""`referee verify`: an untouched campaign passes; one changed log record, a removed record,
an edited seed or an edited turn report fails, naming the record or the file."""

import json
import random

import yaml
from click.testing import CliRunner
from played import played_site
from sites import logged

from referee.cli import main
from referee.records import Record
from referee.service.verify import verify
from referee.store.campaign import Campaign, Table


def campaign_root(tmp_path, **kwargs):
    site = played_site(tmp_path / "site", **kwargs)
    return site.data_root / kwargs.get("campaign_id", "game")


def log_lines(root):
    return (root / "log.jsonl").read_text().splitlines()


def write_log(root, lines):
    (root / "log.jsonl").write_text("\n".join(lines) + "\n")


def run_verify(root):
    return CliRunner().invoke(main, ["verify", str(root)])


def first_mail_record(lines, after=20):
    """The number of a record, past ``after``, that holds one player's order from a mail
    (an order other than 'pass')."""
    for line in lines[after:]:
        record = json.loads(line)
        orders = record.get("orders", ())
        if record.get("kind") == "mail" and len(orders) == 1 and orders[0][1] != "pass":
            return record["n"]
    raise AssertionError("no mail record with one order")


def test_an_untouched_campaign_verifies_and_says_what_was_checked(tmp_path):
    root = campaign_root(tmp_path)
    records = len(log_lines(root))
    result = verify(root)
    assert result.ok, result.summary()
    assert result.passed[0] == "the seed matches the published seed_hash"
    assert result.passed[1] == f"the hash chain of {records} log records holds"
    assert result.passed[2].startswith("the log replays: ")
    assert "the end (" in result.passed[2]
    turn_files = len(list((root / "turns").iterdir()))
    assert turn_files == len(Campaign.load(root).turn_hashes()) + 1  # and turns/hashes.json
    assert result.passed[3] == f"the {turn_files - 1} files in turns/ are as the referee wrote them"
    done = run_verify(root)
    assert done.exit_code == 0, done.output
    assert done.output.startswith("campaign game: verified\n")


def test_a_running_campaign_verifies_with_its_round_in_play_not_written_yet(tmp_path):
    """The files of a round are written when it ends: those of the round in play would go
    stale with each order (and cost a campaign's every tick their drawing)."""
    root = campaign_root(tmp_path, campaign_id="running", seed=5, until_round=3)
    assert not list((root / "turns").glob("round-03.*"))
    assert {"round-02.txt", "round-02.map.txt", "round-02.png"} <= {
        p.name for p in (root / "turns").iterdir()
    }
    result = verify(root)
    assert result.ok, result.summary()
    assert "to round 3" in result.passed[2] and "the end" not in result.passed[2]


def test_the_files_an_older_referee_wrote_of_the_round_in_play_are_not_checked(tmp_path):
    """An older referee wrote the round in play at every order (and a rollback may reopen a
    round written): they are noted, not refused, and written anew when the round ends."""
    root = campaign_root(tmp_path, campaign_id="running", seed=5, until_round=3)
    (root / "turns" / "round-03.txt").write_text("stale\n")
    result = verify(root)
    assert result.ok, result.summary()
    assert result.notes == [
        "the files of the round in play are not checked (they are written when it ends): "
        "turns/round-03.txt"
    ]
    (root / "turns" / "round-04.txt").write_text("a round not played\n")
    assert [str(f) for f in verify(root).findings] == [
        "turns/round-04.txt: is no file the log's replay writes"
    ]


def test_a_changed_order_text_is_named_by_its_record(tmp_path):
    root = campaign_root(tmp_path)
    lines = log_lines(root)
    n = first_mail_record(lines)
    record = json.loads(lines[n - 1])
    record["orders"][0][1] = "pass"
    lines[n - 1] = json.dumps(record)
    write_log(root, lines)
    result = verify(root)
    assert not result.ok
    first = result.findings[0]
    assert first.place == f"log.jsonl record {n}"
    assert first.problem.endswith(
        "it was changed after it was written (it now reads: "
        f"orders seat {record['orders'][0][0]}: 'pass')"
    )
    done = run_verify(root)
    assert done.exit_code == 1
    assert done.output.startswith("campaign game: ")
    assert f"\n  FAILED log.jsonl record {n}: its content does not match" in done.output


def test_another_legal_order_breaks_the_chain_there_and_the_turn_reports_after_it(tmp_path):
    """The order is changed to another legal one: the game replays, but differently."""
    root = campaign_root(tmp_path)
    campaign = Campaign.load(root)
    records = logged(campaign)
    table = Table(campaign)
    for record in records:
        orders = record.get("orders", ())
        if record.get("kind") == "mail" and len(orders) == 1 and record["n"] > 10:
            seat, text, _how = orders[0]
            others = [
                table.rules.format(o)
                for o in table.rules.legal_orders(table.state, seat)
                if table.rules.format(o) != text
            ]
            if others:
                orders[0][1] = random.Random(1).choice(others)
                changed = record["n"]
                break
        table.follow(Record.from_json(record))
    write_log(root, [json.dumps(r) for r in records])
    result = verify(root)
    assert result.findings[0].place == f"log.jsonl record {changed}"
    assert "does not match its hash" in result.findings[0].problem
    assert any(
        f.place.startswith("turns/") or "refuses" in f.problem for f in result.findings[1:]
    ), result.summary()


def test_a_record_changed_and_hashed_again_breaks_the_chain_at_the_next_record(tmp_path):
    from referee.store.campaign import record_hash

    root = campaign_root(tmp_path)
    lines = log_lines(root)
    n = first_mail_record(lines)
    record = json.loads(lines[n - 1])
    record["subject"] = "changed"
    record["hash"] = record_hash(json.loads(lines[n - 2])["hash"], record)
    lines[n - 1] = json.dumps(record)
    write_log(root, lines)
    result = verify(root)
    assert result.findings[0].place == f"log.jsonl record {n + 1}"
    assert len(result.findings) == 1, result.summary()  # the game itself is the same


def test_a_removed_record_is_named(tmp_path):
    root = campaign_root(tmp_path)
    lines = log_lines(root)
    n = first_mail_record(lines)
    del lines[n - 1]
    write_log(root, lines)
    result = verify(root)
    assert str(result.findings[0]) == (
        f"log.jsonl record {n + 1}: record {n} is missing "
        f"before it (it comes right after record {n - 1})"
    )


def test_a_record_removed_from_the_end_is_found_by_what_was_answered(tmp_path):
    root = campaign_root(tmp_path)
    lines = log_lines(root)
    write_log(root, lines[:-1])
    result = verify(root)
    assert str(result.findings[0]) == (
        f"log.jsonl: ends at record {len(lines) - 1}, but mailed.json shows that record "
        f"{len(lines)} was answered: records were removed from the end"
    )


def test_an_edited_seed_is_named(tmp_path):
    root = campaign_root(tmp_path)
    path = root / "campaign.yaml"
    data = yaml.safe_load(path.read_text())
    path.write_text(path.read_text().replace("seed: 3\n", "seed: 4\n"))
    result = verify(root)
    first = result.findings[0]
    assert first.place == "campaign.yaml"
    assert first.problem == (
        f"the seed does not match the seed_hash {data['seed_hash']} "
        "published at the start: the seed or its hash was changed"
    )
    assert "4" not in first.problem.replace(data["seed_hash"], "")  # the seed stays secret


def test_an_edited_turn_report_or_a_lost_map_is_named_by_its_file(tmp_path):
    root = campaign_root(tmp_path)
    report = root / "turns" / "round-02.txt"
    lines = report.read_text().splitlines(keepends=True)
    original = lines[2].rstrip("\n")
    lines[2] = "  - Nothing happened.\n"
    report.write_text("".join(lines))
    (root / "turns" / "round-01.png").unlink()
    result = verify(root)
    assert [str(f) for f in result.findings] == [
        "turns/round-01.png: is missing (the replay writes it)",
        "turns/round-02.txt: was changed after the referee wrote it (its SHA-256 is not the "
        f"one in turns/hashes.json): line 3 reads '  - Nothing happened.' where the log's "
        f"replay gives {original!r}",
    ]


def test_a_map_changed_by_one_byte_is_named(tmp_path):
    root = campaign_root(tmp_path)
    png = root / "turns" / "round-04.png"
    data = bytearray(png.read_bytes())
    data[-20] ^= 1
    png.write_bytes(bytes(data))
    assert [str(f) for f in verify(root).findings] == [
        "turns/round-04.png: was changed after the referee wrote it (its SHA-256 is not the "
        "one in turns/hashes.json): differs from the map the log's replay draws"
    ]


def test_a_folder_without_a_campaign_or_a_log_line_that_is_no_record_is_named(tmp_path):
    (tmp_path / "empty").mkdir()
    done = run_verify(tmp_path / "empty")
    assert done.exit_code == 1
    assert done.output == (
        f"campaign empty: 1 problem (in the order found: later ones may "
        f"follow from earlier ones)\n  FAILED campaign.yaml: no campaign in "
        f"{tmp_path / 'empty'} (campaign.yaml is missing)\n"
    )
    root = campaign_root(tmp_path)
    lines = log_lines(root)
    lines[4] = lines[4][:30]
    write_log(root, lines)
    result = verify(root)
    assert [f.place for f in result.findings] == ["log.jsonl"]
    assert "line 5 is not a JSON object" in result.findings[0].problem


def test_a_turn_file_is_bound_to_the_log_record_it_was_written_at(tmp_path):
    """Each turn file's hash is recorded with the log record it was written at and that
    record's chain hash: a log rewritten before it, chain and all, no longer vouches for it
    even where the game replays the same."""
    from referee.store.campaign import record_hash

    root = campaign_root(tmp_path)
    lines = log_lines(root)
    previous = "0" * 16
    rewritten = []
    for line in lines:  # every record hashed again: the chain holds
        record = json.loads(line)
        if record["n"] == 3:
            record["subject"] = "rewritten"
        record["hash"] = previous = record_hash(previous, record)
        rewritten.append(json.dumps(record))
    write_log(root, rewritten)
    result = verify(root)
    turns = [f for f in result.findings if f.place.startswith("turns/")]
    assert turns and all(
        "which is no longer the record it was" in f.problem
        and "the log was changed before it" in f.problem
        for f in turns
    ), result.summary()
