"""`referee verify` holds for every legitimate history, the game master's actions included,
and for a campaign open for sign-up; it still fails, naming the place, on tampering."""

import json
from datetime import UTC, datetime

import pytest
from sites import PLAYERS, Mailboxes, make_site, person_mail, run_tick

from referee.records import RefusedCommand
from referee.service.tick import tick
from referee.service.verify import verify
from referee.service.work import run_as_gm

T0 = datetime(2026, 11, 23, 9, 0, tzinfo=UTC)


def order(site, seat, text):
    token = site.campaign("g1").players[seat].token
    address = site.identity.plus("g1", token)
    Mailboxes(site).deliver(person_mail(PLAYERS[seat], address, "orders", text))
    run_tick(site)


def played(tmp_path, game="bus"):
    site = make_site(tmp_path)
    settings = {"deadlines": {"hours": 24, "policy": "bot"}}
    site.new_campaign(game, "g1", PLAYERS, seed=1, gm="Gil <gil@example.org>", settings=settings)
    run_tick(site)
    return site


def gm(site, line):
    actions = run_as_gm(site, "g1", line, T0)
    assert not any(isinstance(a, RefusedCommand) for a in actions), actions
    tick(site, T0)


def verified(site):
    result = verify(site.campaign("g1").root)
    assert result.ok, result.summary()
    return result


BUS_ACTIONS = {
    "rollback then more play": lambda s: (
        order(s, 0, "build house 15\nbuild pub 16"),
        gm(s, "rollback 1"),
        order(s, 0, "build pub 17"),
        order(s, 1, "build office 21"),
    ),
    "replace": lambda s: (
        order(s, 0, "build house 15\nbuild pub 16"),
        gm(s, "replace Bob with Zoe <zoe@example.org>"),
    ),
    "drop": lambda s: gm(s, "drop Cid"),
    "adjudicate": lambda s: gm(s, "adjudicate"),
    "extend": lambda s: gm(s, "extend 12"),
    "pause and resume": lambda s: (gm(s, "pause"), gm(s, "resume"), order(s, 0, "build house 15")),
}


@pytest.mark.parametrize("action", BUS_ACTIONS)
def test_verify_holds_after_each_game_master_action(tmp_path, action):
    site = played(tmp_path)
    BUS_ACTIONS[action](site)
    verified(site)


def test_verify_holds_for_a_campaign_open_for_sign_up(tmp_path):
    site = make_site(tmp_path)
    site.new_campaign("bus", "g1", [], seats=3, gm="Gil <gil@example.org>")
    run_tick(site)
    result = verified(site)
    assert any("open for sign-up" in n for n in result.notes)


def test_verify_fails_on_a_changed_order_a_removed_record_or_an_edited_seed(tmp_path):
    site = played(tmp_path)
    order(site, 0, "build house 15")
    order(site, 0, "build pub 16")
    order(site, 1, "build office 21")
    verified(site)
    root = site.campaign("g1").root
    log = root / "log.jsonl"
    original = log.read_text()
    lines = original.splitlines()
    changed = [json.loads(line) for line in lines]
    target = next(r for r in changed if r.get("orders"))
    target["orders"][0][1] = "build house 14"
    log.write_text("\n".join(json.dumps(r) for r in changed) + "\n")
    result = verify(root)
    assert not result.ok and f"log.jsonl record {target['n']}" in result.summary()
    assert len(lines) >= 3
    log.write_text("\n".join(lines[:1] + lines[2:]) + "\n")  # record 2 removed
    assert "log.jsonl record 3: record 2 is missing" in verify(root).summary()
    log.write_text(original)
    yaml = root / "campaign.yaml"
    yaml.write_text(yaml.read_text().replace("seed: 1\n", "seed: 2\n"))
    assert "the seed does not match" in verify(root).summary()
