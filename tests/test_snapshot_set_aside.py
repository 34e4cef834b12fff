"""A snapshot can't stop a game (issue 22, item 7): one that cannot be read or does not hold
what a snapshot holds is set aside (kept for the game master), the campaign replays its
log and plays on, and the game master is told once."""

import json
from datetime import UTC, datetime, timedelta

import pytest
from sites import ADDRESSES, PLAYERS, Mailboxes, make_site, person_mail, text_of

from referee.service.tick import tick
from referee.service.verify import verify
from referee.store import snapshots

T0 = datetime(2026, 11, 23, 9, 0, tzinfo=UTC)


def spoil(path, **changes):
    data = json.loads(path.read_bytes())
    data.update(changes)
    path.write_text(json.dumps(data))


@pytest.mark.parametrize(
    "damage",
    [
        {"queues": [1]},
        {"seen": {"a": 1}},
        {"tail": [[1, "x"]]},
        {"state": {"no": "state"}},
        {"n": "3"},
    ],
    ids=["queues a list", "seen an object", "a tail step", "a state", "n a string"],
)
def test_a_damaged_snapshot_is_set_aside_and_the_game_goes_on(tmp_path, damage):
    site = make_site(tmp_path)
    site.new_campaign("bus", "g1", PLAYERS, seed=1, gm="Gil <gil@example.org>")
    boxes = Mailboxes(site)
    ann = site.campaign("g1").players[0].token
    boxes.deliver(person_mail(PLAYERS[0], site.identity.plus("g1", ann), "o", "build house 15"))
    assert not tick(site, T0).errors
    boxes.new()
    root = site.data_root / "g1"
    campaign = site.campaign("g1")
    snapshots.save(campaign.table(), campaign.marks.floor())  # as a tick does when a round ends
    spoil(root / snapshots.SNAPSHOT, **damage)
    damaged = (root / snapshots.SNAPSHOT).read_bytes()
    bob = site.campaign("g1").players[1].token
    boxes.deliver(person_mail(PLAYERS[1], site.identity.plus("g1", bob), "o", "build office 21"))
    report = tick(site, T0 + timedelta(minutes=1))
    assert not report.errors, report.errors
    records = site.campaign("g1").records()
    assert [o.text for r in records for o in r.orders][0] == "build house 15"
    assert [r.sender for r in records].count(ADDRESSES[1]) == 1  # Bob's mail, applied once
    assert (root / snapshots.DAMAGED).read_bytes() == damaged  # kept for the game master
    assert snapshots.load(site.campaign("g1")).count == len(site.campaign("g1").records())
    told = [m for m in boxes.new("gil@example.org") if "snapshot" in str(m["Subject"])]
    assert len(told) == 1
    text = " ".join(text_of(told[0]).split())
    assert "snapshot.json.damaged" in text and "rebuilt from its log" in text
    assert any(ADDRESSES[1] in str(m["To"]) for m in boxes.sent())  # Bob was answered
    cid = site.campaign("g1").players[2].token
    boxes.deliver(person_mail(PLAYERS[2], site.identity.plus("g1", cid), "o", "build pub 22"))
    assert not tick(site, T0 + timedelta(minutes=2)).errors
    assert not [m for m in boxes.new("gil@example.org") if "snapshot" in str(m["Subject"])]
    assert verify(root).ok
