"""Snapshots and the index of what campaigns wait for: a cache that gives the state a full
replay gives, or is not used; a tick leaves alone the campaigns with nothing to do."""

import json
import random
from datetime import UTC, datetime, timedelta

import pytest
from played import play, played_site
from sites import ADDRESSES, PLAYERS, Mailboxes, logged, make_site, reply_to, run_tick

from referee import mailbot
from referee.service.tick import tick
from referee.store import snapshots
from referee.store.campaign import Campaign, Table
from referee.store.names import WAITS
from referee.store.waits import Waits
from referee.words.history import history_text, turn_files


def same_table(loaded: Table, replayed: Table) -> None:
    rules = replayed.rules
    assert rules.to_data(loaded.state) == rules.to_data(replayed.state)
    assert loaded.queues == replayed.queues
    assert loaded.seen == replayed.seen
    assert (loaded.count, loaded.last_hash, loaded.round) == (
        replayed.count,
        replayed.last_hash,
        replayed.round,
    )


@pytest.fixture
def mid_game(tmp_path):
    """A Bus campaign played into round 4, its answers written, and its snapshot kept."""
    site = played_site(tmp_path, "mid", seed=5, until_round=4)
    campaign = site.campaign("mid")
    table = campaign.table()
    snapshots.save(table, campaign.marks.floor())
    return site, campaign


def test_a_snapshot_gives_the_state_a_full_replay_gives(mid_game):
    site, campaign = mid_game
    loaded = snapshots.load(campaign)
    assert loaded.snapshot_n == campaign.table().count and loaded.skipped > 0
    same_table(loaded, campaign.table())


def test_records_after_the_snapshot_are_replayed_on_top_of_it(mid_game):
    site, campaign = mid_game
    play(site, snapshots.load(campaign), until_round=5, seed=5)  # more records in the log
    replayed = campaign.table()
    loaded = snapshots.load(campaign)
    assert loaded.snapshot_n is not None and loaded.count > loaded.snapshot_n
    same_table(loaded, replayed)


def test_the_history_and_the_turn_files_of_a_table_from_a_snapshot_are_the_full_ones(mid_game):
    site, campaign = mid_game
    replayed = campaign.table()
    for round_ in range(replayed.round + 1):
        assert turn_files(snapshots.load(campaign), round_) == turn_files(replayed, round_)
    loaded = snapshots.load(campaign)
    assert history_text(loaded) == history_text(replayed)
    assert [(s.record, s.round, s.events) for s in loaded.steps] == [
        (s.record, s.round, s.events) for s in replayed.steps
    ]


def test_a_snapshot_is_due_when_a_round_ends_not_at_every_order(mid_game):
    site, campaign = mid_game
    table = snapshots.load(campaign)
    assert not snapshots.due(table)  # nothing followed it
    in_play = table.round
    play(site, table, seed=5, orders=1)
    assert table.round == in_play and not snapshots.due(table)
    play(site, table, until_round=in_play + 1, seed=5)
    assert table.round == in_play + 1 and snapshots.due(table)
    snapshots.save(table, campaign.marks.floor())
    loaded = snapshots.load(campaign)
    assert loaded.snapshot_n == table.count and not snapshots.due(loaded)
    same_table(loaded, campaign.table())


def test_a_tick_keeps_the_snapshot_of_a_round_that_ended(tmp_path):
    site = played_site(tmp_path, "mid", seed=5, until_round=4)
    campaign = site.campaign("mid")
    table = campaign.table()
    assert not (campaign.root / snapshots.SNAPSHOT).exists()
    play(site, table, until_round=table.round + 1, seed=5, answer=False)
    run_tick(site)  # answers what was played, and keeps the snapshot of the round ended
    loaded = snapshots.load(campaign)
    assert loaded.snapshot_n == table.count
    same_table(loaded, campaign.table())


@pytest.mark.parametrize(
    "spoil",
    [
        pytest.param(lambda path: path.unlink(), id="missing"),
        pytest.param(lambda path: path.write_bytes(b'{"key": {"form'), id="corrupt"),
        pytest.param(lambda path: path.write_text("[1, 2]"), id="not-a-snapshot"),
        pytest.param(
            lambda path: path.write_text(
                json.dumps({**json.loads(path.read_text()), "hash": "0123456789abcdef"})
            ),
            id="stale-hash",
        ),
        pytest.param(
            lambda path: path.write_text(json.dumps({**json.loads(path.read_text()), "n": 10**6})),
            id="beyond-the-log",
        ),
        pytest.param(
            lambda path: path.write_text(
                json.dumps(
                    {
                        **json.loads(path.read_text()),
                        "key": {**json.loads(path.read_text())["key"], "code": "older"},
                    }
                )
            ),
            id="other-code",
        ),
    ],
)
def test_a_missing_stale_or_corrupt_snapshot_falls_back_to_a_full_replay(mid_game, spoil):
    site, campaign = mid_game
    spoil(campaign.root / snapshots.SNAPSHOT)
    loaded = snapshots.load(campaign)
    assert loaded.snapshot_n is None and loaded.skipped == 0
    same_table(loaded, campaign.table())


def test_a_snapshot_of_other_settings_is_not_used(mid_game):
    site, campaign = mid_game
    campaign.players[0].name = "Zed"  # a replay starts the game with the names of today
    loaded = snapshots.load(campaign)
    assert loaded.snapshot_n is None
    assert loaded.state.names[0] == "Zed"


def test_a_log_rewritten_under_the_snapshot_is_replayed(mid_game):
    site, campaign = mid_game
    lines = campaign.log_path.read_bytes().split(b"\n")
    campaign.log_path.write_bytes(b"\n".join(lines[:5]) + b"\n")  # a log cut back by hand
    loaded = snapshots.load(campaign)
    assert loaded.snapshot_n is None and loaded.count == 5
    same_table(loaded, campaign.table())


def loads(monkeypatch) -> list[str]:
    """The campaigns whose settings a tick reads from here on."""
    seen: list[str] = []
    original = Campaign.load.__func__  # type: ignore[attr-defined]

    def counting(cls, root):
        seen.append(root.name)
        return original(cls, root)

    monkeypatch.setattr(Campaign, "load", classmethod(counting))
    return seen


def test_an_idle_tick_loads_no_campaign_and_a_new_mail_or_a_change_wakes_one(tmp_path, monkeypatch):
    site = make_site(tmp_path)
    site.new_campaign("bus", "one", PLAYERS, seed=1)
    site.new_campaign("bus", "two", PLAYERS, seed=2)
    run_tick(site)
    boxes = Mailboxes(site)
    welcome = next(m for m in boxes.new("ann@example.org") if "[one]" in str(m["Subject"]))
    loaded = loads(monkeypatch)
    run_tick(site)
    assert loaded == []  # nothing new, nothing due: neither campaign is read
    boxes.deliver(reply_to(welcome, "ann@example.org", "build house 15"))
    run_tick(site)
    assert set(loaded) == {"one"}
    # the setup round goes on: the next tick replays its few records (snapshots.due)
    assert not (site.data_root / "one" / snapshots.SNAPSHOT).exists()
    loaded.clear()
    site.campaign("two").save()  # a game master's change from the shell
    loaded.clear()
    run_tick(site)
    assert loaded == ["two"]
    loaded.clear()
    run_tick(site)
    assert loaded == []


def test_a_campaign_sleeps_until_its_next_deadline(tmp_path, monkeypatch):
    site = make_site(tmp_path)
    site.new_campaign(
        "bus", "dl", PLAYERS, seed=1, settings={"deadlines": {"hours": 24, "remind_hours": 12}}
    )
    start = datetime.now(UTC)
    tick(site, start)
    tick(site, start)  # the book knows every decision now
    boxes = Mailboxes(site)
    boxes.new()
    loaded = loads(monkeypatch)
    tick(site, start + timedelta(hours=1))
    assert loaded == []
    tick(site, start + timedelta(hours=13))  # the reminder is due
    assert loaded == ["dl"]
    reminders = boxes.new()
    assert len(reminders) == 1 and "reminder" in str(reminders[0]["Subject"]).lower()


def played_by_mail(root, monkeypatch, snapshots_used: bool):
    """Ann, Bob and Cid answer their newest prompt each tick, for 20 ticks; what the site
    then holds: the log, the mails sent and the turns/ files."""
    if not snapshots_used:
        monkeypatch.setattr("referee.store.snapshots.load", lambda campaign: campaign.table())
    site = make_site(root)
    site.new_campaign("bus", "game", PLAYERS, seed=11)
    boxes = Mailboxes(site)
    rng = random.Random(11)
    for number in range(20):
        run_tick(site)
        for name, address in zip(("Ann", "Bob", "Cid"), ADDRESSES, strict=True):
            answer = mailbot.answer_latest(boxes.new(address), name, address, rng.choice)
            if answer is not None:
                answer.replace_header("Message-ID", f"<{name}.{number}@example.org>")
                boxes.deliver(answer)
    monkeypatch.undo()
    records = [
        {k: v for k, v in r.items() if k not in ("at", "hash", "date", "body")}
        for r in logged(site.campaign("game"))
    ]
    tokens = [p.token for p in site.campaign("game").players]

    def masked(text: str) -> str:  # the tokens are drawn at random
        for seat, token in enumerate(tokens):
            text = text.replace(token, f"<token {seat}>")
        return text

    mails = sorted((str(m["To"]), str(m["Subject"]), masked(mailbot.body(m))) for m in boxes.sent())
    folder = site.data_root / "game" / "turns"
    # the files' hashes too, but for the log's own (records hashed with their times)
    written = json.loads((folder / "hashes.json").read_text()).items()
    hashes = {name: (h["sha256"], h["record"]) for name, h in written}
    turns = {p.name: p.read_bytes() for p in folder.iterdir() if p.name != "hashes.json"}
    return records, mails, turns, hashes


@pytest.mark.slow
def test_a_game_played_by_mail_from_snapshots_is_the_game_played_by_full_replays(
    tmp_path, monkeypatch
):
    with_snapshots = played_by_mail(tmp_path / "snapshots", monkeypatch, True)
    assert len(with_snapshots[0]) > 15  # the game went on for many records
    assert with_snapshots == played_by_mail(tmp_path / "replays", monkeypatch, False)


def test_a_game_masters_command_from_the_shell_leaves_a_snapshot_the_next_tick_uses(
    mid_game, monkeypatch
):
    from referee.service.work import run_as_gm

    site, campaign = mid_game
    run_as_gm(site, "mid", "message all Lunch break, back at two.", datetime.now(UTC))
    count = len(campaign.records())
    snap = json.loads((campaign.root / snapshots.SNAPSHOT).read_text())
    assert snap["n"] == count  # the command's record is covered
    replayed = campaign.table()
    replays: list[str] = []
    monkeypatch.setattr(Table, "replay", lambda c: replays.append(c.id))
    same_table(snapshots.load(site.campaign("mid")), replayed)
    assert replays == []  # loaded from the snapshot, not replayed


def test_the_index_forgets_a_campaign_whose_folder_was_removed(tmp_path):
    import shutil

    site = make_site(tmp_path)
    site.new_campaign("bus", "one", PLAYERS, seed=1)
    site.new_campaign("bus", "two", PLAYERS, seed=2)
    run_tick(site)
    index = site.state_dir / WAITS
    assert set(Waits(index).entries) == {"one", "two"}
    shutil.rmtree(site.data_root / "two")
    run_tick(site)
    assert set(Waits(index).entries) == {"one"}


def test_a_tick_without_mail_does_not_read_the_log_of_every_mail_received(tmp_path, monkeypatch):
    from referee.service.site import Site

    site = make_site(tmp_path)
    site.new_campaign("bus", "one", PLAYERS, seed=1)
    run_tick(site)
    boxes = Mailboxes(site)
    welcome = next(m for m in boxes.new("ann@example.org") if "[one]" in str(m["Subject"]))
    reads: list[int] = []
    received_ids = Site.received_ids
    monkeypatch.setattr(Site, "received_ids", lambda self: reads.append(1) or received_ids(self))
    run_tick(site)
    assert reads == []  # nothing fetched: received.jsonl, which only grows, is not read
    boxes.deliver(reply_to(welcome, "ann@example.org", "build house 15"))
    run_tick(site)
    assert reads == [1]  # read once for the tick's mail
    assert [o.text for r in site.campaign("one").records() for o in r.orders] == ["build house 15"]


def test_the_log_of_mail_received_keeps_the_newest_and_moves_the_rest_aside(tmp_path, monkeypatch):
    """A tick with mail reads received.jsonl whole: once it holds twice RECENT_RECEIVED
    records, the older ones move to received-old.jsonl, which no tick reads. A mail taken
    again after its record left is still known to its campaign's log: applied once."""
    from referee.store import site as site_module

    monkeypatch.setattr(site_module, "RECENT_RECEIVED", 2)
    site = make_site(tmp_path)
    site.new_campaign("bus", "one", PLAYERS, seed=1)
    run_tick(site)
    boxes = Mailboxes(site)
    welcome = next(m for m in boxes.new("ann@example.org") if "[one]" in str(m["Subject"]))
    first = reply_to(welcome, "ann@example.org", "build house 15")
    boxes.deliver(first)
    for n in range(4):
        boxes.deliver(reply_to(welcome, "ann@example.org", f"status {n}"))
    run_tick(site)  # read empty: 5 records after it
    recent, old = site.state_dir / "received.jsonl", site.state_dir / "received-old.jsonl"
    lines = recent.read_text().splitlines()
    assert len(lines) == 5 and not old.exists()
    lines[1] = "a line a disk error left {"  # damaged: moved as it is, never lost
    recent.write_text("\n".join(lines) + "\n")
    boxes.deliver(reply_to(welcome, "ann@example.org", "status"))
    run_tick(site)  # read 5, over twice 2: the newest 2 stay, the 4 before them move
    kept = [json.loads(line)["message_id"] for line in recent.read_text().splitlines()]
    moved = old.read_text().splitlines()
    assert len(kept) == 2 and len(moved) == 4
    assert json.loads(moved[0])["message_id"] == first["Message-ID"]
    assert moved[1] == "a line a disk error left {"

    boxes.deliver(first)  # the same mail again, its record moved aside
    run_tick(site)
    orders = [o.text for r in site.campaign("one").records() for o in r.orders]
    assert orders == ["build house 15"]
