"""Caches that let a tick cost what its new mail costs: each campaign's snapshot, and the
site's index of what each campaign waits for (``waits``).

    games/<id>/snapshot.json   the campaign's table when a round last ended (``due``) or a
                               game master's command last ran: the engine's state as data,
                               how many log records it covers and the hash of the last one,
                               the queues, the mails applied (sender and Message-ID; each
                               player's digests and latest Date), and the rounds and events
                               of the last records (those the answers and the turn files of
                               the next tick may still ask about)
    state/waits.marshal        per campaign: the size and time of its files when a tick last
                               looked at it, and when a deadline of it next falls due

Both are caches, never the source of truth: a snapshot is used only when the log's record at
its position has its hash and it was written for the same settings and the same code;
anything else (missing, stale, corrupt, another version) means a full replay of the log, the
one ``referee verify`` always makes. A campaign whose files have not changed since a tick
looked at it, and whose next deadline is not due, has nothing to do: the tick does not load
it (a finished one waits for mail only).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import os
from functools import cache
from importlib import import_module
from pathlib import Path
from typing import Any

from .. import contract, records, registry
from ..contract import Say
from ..files import atomic_write
from ..records import Record, RecordError
from . import campaign as campaign_module
from .campaign import Campaign, Step, Table, undone_orders
from .names import SNAPSHOT

log = logging.getLogger(__name__)

FORMAT = 1  # the snapshot's own layout


@cache
def code_version(game: str) -> str:
    """A fingerprint of the code a replay runs: the sources of the game's package and of the
    shared modules that read and apply records (found from the modules themselves, so a
    moved or renamed one is still counted), so a snapshot written by other code is never
    trusted."""
    digest = hashlib.sha256()
    package = Path(str(import_module(registry.package(game)).__file__)).parent
    shared = [Path(str(module.__file__)) for module in (contract, records, campaign_module)]
    for path in shared + [Path(__file__)] + sorted(package.rglob("*.py")):
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def key(campaign: Campaign) -> dict[str, Any]:
    """What a snapshot must have been written for: the same game from the same settings, by
    the same code."""
    return {
        "format": FORMAT,
        "code": code_version(campaign.game),
        "game": campaign.game,
        "options": campaign.game_options(),
        "seed": campaign.seed,
        "players": [p.name for p in campaign.players],
    }


def due(table: Table) -> bool:
    """Whether the table is worth a new snapshot: a round ended, or the game, since the one
    it was loaded from (or since the start). Within a round the next tick replays the few
    records after it, which costs less than writing the snapshot at every tick."""
    since = table.steps_after(table.snapshot_n or 0)
    return bool(since) and (since[0].round != table.round or table.over)


def save(table: Table, floor: int) -> None:
    """Keep the table's snapshot; ``floor`` is the earliest record the answers still report
    from (the lowest watermark): the rounds and events of the records after it are kept, and
    so are those of the round in play, which the next turn files tell again."""
    if not table.held:
        return  # nothing followed since the snapshot it was loaded from
    last_round = table.held[-1].round
    in_round = [s.record.n for s in table.held if s.round == last_round]
    tail_from = max(min(floor, in_round[0] - 1), table.skipped)
    data = {
        "key": key(table.campaign),
        "n": table.count,
        "hash": table.last_hash,
        "state": table.rules.to_data(table.state),
        "queues": {str(seat): queue for seat, queue in table.queues.items()},
        "seen": sorted(table.seen),
        "bodies": table.bodies,
        "dates": {str(seat): date for seat, date in table.dates.items()},
        "tail_from": tail_from,
        "skipped_rounds": sorted(
            table.skipped_rounds | {s.round for s in table.held if s.record.n <= tail_from}
        ),
        "tail": [
            [s.round, [_plain(e) for e in s.events]] for s in table.held if s.record.n > tail_from
        ],
    }
    # a cache: if a crash loses it, the next tick replays the log
    atomic_write(
        table.campaign.root / SNAPSHOT,
        json.dumps(data, ensure_ascii=False, separators=(",", ":")),
        durable=False,
    )


def load(campaign: Campaign) -> Table:
    """The campaign's table: from its snapshot and the records after it when the snapshot
    holds, else by a full replay of the log. A snapshot that is stale (written for other
    settings or code, or before a rollback) is passed over; one that cannot be read or does
    not hold what a snapshot holds, and a snapshot the log's later records do not follow
    from while the full replay does, is damaged: it is set aside (``set_aside``, kept for
    the game master to look at) and the table says so (``Table.set_aside``), so a snapshot
    never stops a game."""
    try:
        table = _resume(campaign)
    except (Stale, RecordError) as err:  # a log that cannot be read: the replay says why
        log.info("campaign %s: snapshot not used (%s), replaying the log", campaign.id, err)
        table = None
    except Exception as err:  # damaged, or the log after it is: the full replay tells which
        table = Table.replay(campaign)
        table.set_aside = set_aside(campaign, err)
        return table
    return table if table is not None else Table.replay(campaign)


DAMAGED = SNAPSHOT + ".damaged"


def set_aside(campaign: Campaign, err: Exception) -> str:
    """Move a damaged snapshot to ``snapshot.json.damaged`` (over an older one); returns why
    it could not be used."""
    why = f"{type(err).__name__}: {str(err)[:200]}"
    log.warning("campaign %s: snapshot damaged (%s), set aside; the log replayed", campaign.id, why)
    with contextlib.suppress(FileNotFoundError):
        os.replace(campaign.root / SNAPSHOT, campaign.root / DAMAGED)
    return why


class Stale(ValueError):
    """A snapshot that does not fit the log or the code."""


def _valid(snap: Any) -> dict:
    """The snapshot's data when it holds what ``save`` writes, each in its type; else
    ValueError saying what is wrong (the state itself the game reads, ``from_data``)."""
    shapes = {
        "key": dict,
        "n": int,
        "hash": str,
        "queues": dict,
        "seen": list,
        "bodies": dict,
        "dates": dict,
        "tail_from": int,
        "skipped_rounds": list,
        "tail": list,
    }
    if not isinstance(snap, dict):
        raise ValueError(f"a snapshot is a JSON object, not {type(snap).__name__}")
    for name, kind in shapes.items():
        if not isinstance(snap.get(name), kind) or isinstance(snap.get(name), bool):
            raise ValueError(f"its {name!r} is {snap.get(name)!r}, not a {kind.__name__}")
    if "state" not in snap:
        raise ValueError("it holds no state")
    if not all(
        isinstance(q, list) and all(isinstance(o, str) for o in q) for q in snap["queues"].values()
    ):
        raise ValueError(f"its queues {snap['queues']!r} are not lists of orders")
    if not all(
        isinstance(m, list) and len(m) == 2 and all(isinstance(p, str) for p in m)
        for m in snap["seen"]
    ):
        raise ValueError("its 'seen' holds more than senders and Message-IDs")
    for name in ("bodies", "dates"):
        if not all(isinstance(v, str) for v in snap[name].values()):
            raise ValueError(f"its {name!r} holds more than times")
    if not all(s.isdigit() for s in snap["dates"]):
        raise ValueError("its 'dates' are not by seat")
    if not all(isinstance(r, int) and not isinstance(r, bool) for r in snap["skipped_rounds"]):
        raise ValueError("its 'skipped_rounds' holds more than round numbers")
    for step in snap["tail"]:
        if not (
            isinstance(step, list)
            and len(step) == 2
            and isinstance(step[0], int)
            and isinstance(step[1], list)
            and all(isinstance(e, str) or _is_say(e) for e in step[1])
        ):
            raise ValueError(f"a step of its tail is {step!r}, not [round, events]")
    return snap


def _resume(campaign: Campaign) -> Table | None:
    try:
        data = (campaign.root / SNAPSHOT).read_bytes()
    except FileNotFoundError:
        return None
    snap = json.loads(data)
    # the key first: a snapshot of other code (an earlier release) may have another layout,
    # which is no damage
    if isinstance(snap, dict) and snap.get("key") != key(campaign):
        raise Stale("written for other settings or by other code")
    snap = _valid(snap)
    n, tail_from = int(snap["n"]), int(snap["tail_from"])
    lines = campaign.log_path.read_bytes().split(b"\n")[:-1]  # a torn last line is not used
    if len(lines) < n:
        raise Stale(f"the log has {len(lines)} records, the snapshot covers {n}")
    covered = json.loads(lines[n - 1])
    if covered.get("n") != n or covered.get("hash") != snap["hash"]:
        raise Stale(f"record {n} of the log is not the one the snapshot covers")
    later = [Record.from_json(json.loads(line)) for line in lines[n:] if line.strip()]
    if any(m <= n for m, _ in undone_orders(later)):
        raise Stale("a later rollback undid orders the snapshot covers")
    rules = campaign.rules
    table = Table(campaign, rules.from_data(snap["state"]))
    table.queues = {int(seat): list(queue) for seat, queue in snap["queues"].items()}
    table.seen = {(str(sender), str(mid)) for sender, mid in snap["seen"]}
    table.bodies = {str(key): str(at) for key, at in snap["bodies"].items()}
    table.dates = {int(seat): str(date) for seat, date in snap["dates"].items()}
    table.skipped, table.skipped_rounds = tail_from, set(snap["skipped_rounds"])
    kept = [Record.from_json(json.loads(line)) for line in lines[tail_from:n]]
    if len(kept) != len(snap["tail"]):
        raise Stale("the snapshot's steps do not match the log")
    table.held = [
        Step(record, round_, [_words(e) for e in events], None, table)
        for record, (round_, events) in zip(kept, snap["tail"], strict=True)
    ]
    if table.held:
        table.held[-1].state = table.state
    table.last_hash = snap["hash"]
    table.snapshot_n = n
    return table.follow_all(later)


# an event to be worded in each reader's language (``contract.Say``), as the snapshot keeps it:
# {"say": its message, "params": its fields, each kept the same way}
def _plain(value: Any) -> Any:
    if isinstance(value, Say):
        return {"say": value.text, "params": {k: _plain(v) for k, v in value.params.items()}}
    return value


def _words(value: Any) -> Any:
    if _is_say(value):
        return Say(value["say"], {k: _words(v) for k, v in value["params"].items()})
    return value


def _is_say(value: Any) -> bool:
    return (
        isinstance(value, dict)
        and set(value) == {"say", "params"}
        and isinstance(value["say"], str)
        and isinstance(value["params"], dict)
    )
