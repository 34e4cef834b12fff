"""One tick reads each campaign once and keeps it in memory; what a mail outside any campaign
changes in a campaign's files (an observer, a seat taken) is seen by the mails after it in the
same tick, and never written over by them."""

from datetime import UTC, datetime

from sites import PLAYERS, Mailboxes, confirmation_reply, make_site, person_mail, run_tick

from referee.service.tick import tick
from referee.store.campaign import Status

T0 = datetime(2026, 11, 23, 9, 0, tzinfo=UTC)


def test_an_observer_added_mid_tick_survives_a_game_master_command_after_it(tmp_path):
    site = make_site(tmp_path)
    site.new_campaign("bus", "g1", PLAYERS, seed=1, gm="Gil <gil@example.org>")
    run_tick(site)
    boxes = Mailboxes(site)
    ann = site.identity.plus("g1", site.campaign("g1").players[0].token)
    gil = site.identity.plus("g1", site.campaign("g1").gm.token)
    olga = "Olga <olga@example.org>"
    boxes.deliver(person_mail(olga, site.identity.address, "hi", "observe g1"))
    run_tick(site)
    # in this order, in one tick: a player's order (the tick reads g1), a stranger confirms
    # observing g1 (issue 22, item 4), the game master pauses g1 (the tick's copy saved)
    boxes.deliver(person_mail(PLAYERS[0], ann, "orders", "build house 15"))
    boxes.deliver(confirmation_reply(boxes.new("olga@example.org"), olga))
    boxes.deliver(person_mail("Gil <gil@example.org>", gil, "gm", "pause"))
    report = tick(site, T0)
    assert not report.errors, report.errors
    campaign = site.campaign("g1")
    assert campaign.status == Status.PAUSED
    assert campaign.settings.get("observers") == ["olga@example.org"]
    assert [o.text for r in campaign.records() for o in r.orders] == ["build house 15"]
