"""A campaign touched by a tick is loaded once and each thing that follows from it is worked
out once ("The middle, redesigned", item 3): over one tick with deadlines on and a mail of
two orders, the campaign's settings (with its deadlines) are read once, who is awaited is
worked out once for each state the game passes through, and so is the view."""

from __future__ import annotations

from collections import Counter
from datetime import UTC, datetime

from sites import PLAYERS, Mailboxes, make_site, person_mail

from referee import registry
from referee.service.tick import tick
from referee.store import campaign as campaign_module

T0 = datetime(2026, 11, 23, 9, 0, tzinfo=UTC)


def test_one_tick_works_out_the_awaited_the_view_and_the_deadline_settings_once(
    tmp_path, monkeypatch
):
    site = make_site(tmp_path)
    site.new_campaign(
        "bus", "g1", PLAYERS, seed=1, settings={"deadlines": {"hours": 24, "policy": "bot"}}
    )
    tick(site, T0)
    campaign = site.campaign("g1")
    table = campaign.table()
    seat = table.awaiting[0].seat
    legal = table.rules.legal_orders(table.state, seat)
    orders = [table.rules.format(legal[0]), table.rules.format(legal[-1])]
    player = campaign.players[seat]
    Mailboxes(site).deliver(
        person_mail(
            f"{player.name} <{player.address}>",
            site.identity.plus("g1", player.token),
            "orders",
            "\n".join(orders),
        )
    )

    rules = registry.get("bus").rules
    awaited: Counter[int] = Counter()
    viewed: Counter[int] = Counter()
    states: list[int] = []
    reads: Counter[str] = Counter()
    real_awaiting, real_view, real_apply = rules.awaiting, rules.view, rules.apply
    real_read = campaign_module.read

    in_view = []  # a game's view tells who is awaited: its own business, within the view

    def awaiting(state):
        if not in_view:
            awaited[id(state)] += 1
        return real_awaiting(state)

    def view(state):
        viewed[id(state)] += 1
        in_view.append(state)
        try:
            return real_view(state)
        finally:
            in_view.pop()

    def apply(state, seat, order):
        after = real_apply(state, seat, order)
        states.append(id(after[0]))
        return after

    def read(described, *args, **kwargs):
        reads[described.__name__] += 1
        return real_read(described, *args, **kwargs)

    monkeypatch.setattr(rules, "awaiting", awaiting)
    monkeypatch.setattr(rules, "view", view)
    monkeypatch.setattr(rules, "apply", apply)
    monkeypatch.setattr(campaign_module, "read", read)
    report = tick(site, T0)

    assert report.applied == 1 and not report.errors
    assert states, "the mail's orders were applied"
    assert reads == {"CampaignFile": 1}  # campaign.yaml and its deadlines: read once
    assert max(awaited.values()) == 1  # who is awaited: once for each state
    assert max(viewed.values()) == 1  # the view: once for each state shown
