"""A near miss of an order word gets its "did you mean" in Bus Boss as in Bus (issue
"Players' mail that reads at a glance on a phone", item 8): Bus Boss reads a mail's lines
as one order, and the lines that did not even start like an order were passed over without
a word, so `biuld` was silently dropped while Bus said what it nearly was."""

from __future__ import annotations

from datetime import UTC, datetime

from sites import PLAYERS, Mailboxes, make_site, person_mail, text_of

from referee.busboss.engine import RULES
from referee.service.play import read_orders
from referee.service.tick import tick

T0 = datetime(2026, 11, 23, 9, 0, tzinfo=UTC)


def test_a_misspelt_bus_boss_order_word_is_told_with_its_near_miss():
    reading = read_orders(RULES, ["Hello all", "biuld leeds-york", "no runs"])
    assert reading.errors == [
        ("biuld leeds-york", "not an order: did you mean 'build leeds-york'?")
    ]
    assert reading.ignored == ["Hello all"]


def test_the_player_is_told_by_mail_and_nothing_of_the_mail_is_used(tmp_path):
    site = make_site(tmp_path)
    site.new_campaign("busboss", "boss", PLAYERS, seed=4)
    tick(site, T0)
    boxes = Mailboxes(site)
    before = len(boxes.sent())
    ann = site.campaign("boss").players[0]
    boxes.deliver(
        person_mail(
            f"{ann.name} <{ann.address}>",
            site.identity.plus("boss", ann.token),
            "my order",
            "biuld leeds-york\nno runs",
        )
    )
    tick(site, T0)
    answer = [m for m in boxes.sent()[before:] if ann.address in str(m["To"])][-1]
    assert "did you mean 'build leeds-york'?" in text_of(answer)
    assert not site.campaign("boss").records()[-1].orders
