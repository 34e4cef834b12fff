"""One mail per event per player: the answer to a mail goes along with the player's next
decision, an answer that needs nothing waits (a campaign's gather_minutes) for the next
mail, and every line of plain text fits in 78 columns."""

from datetime import UTC, datetime, timedelta

import pytest
from sites import PLAYERS, Mailboxes, lines_as_sent, make_site, reply_to, text_of

from referee.mailbot import answer_latest
from referee.service.tick import tick

pytestmark = pytest.mark.slow  # whole games played by mail


@pytest.fixture
def game(tmp_path):
    site = make_site(tmp_path)
    site.new_campaign("bus", "bus1", PLAYERS, seed=1, settings={"gather_minutes": 10})
    tick(site)
    return site, Mailboxes(site)


def welcome_of(boxes, address):
    return next(m for m in boxes.new(address) if "Welcome" in str(m["Subject"]))


def test_an_order_that_leads_to_the_players_next_decision_is_answered_by_one_mail(game):
    site, boxes = game
    welcome = welcome_of(boxes, "ann@example.org")
    boxes.deliver(reply_to(welcome, "ann@example.org", "build house 15"))
    assert not tick(site).errors
    [answer] = boxes.new("ann@example.org")
    text = text_of(answer)
    assert str(answer["Subject"]) == "[bus1] Setup: your turn - first buildings"
    assert "was read." in text and "+ build house 15" in text and "YOUR DECISION" in text
    assert answer["In-Reply-To"]  # threaded under her mail


def test_a_plain_confirmation_waits_for_the_next_mail_then_stands_alone(game):
    site, boxes = game
    welcome = welcome_of(boxes, "ann@example.org")
    boxes.deliver(reply_to(welcome, "ann@example.org", "build house 15\nbuild pub 16"))
    now = datetime.now(UTC)
    assert not tick(site, now).errors
    assert boxes.new("ann@example.org") == []  # Bob decides next; nothing for Ann yet
    assert not tick(site, now + timedelta(minutes=5)).errors
    assert boxes.new("ann@example.org") == []
    assert not tick(site, now + timedelta(minutes=11)).errors
    [answer] = boxes.new("ann@example.org")
    assert str(answer["Subject"]) == "[bus1] Your mail: orders used"
    text = text_of(answer)
    assert "+ build house 15" in text and "+ build pub 16" in text
    assert "Nothing is awaited from you now." in text
    assert not tick(site, now + timedelta(minutes=20)).errors
    assert boxes.new("ann@example.org") == []  # once


def test_a_mail_with_a_mistake_is_answered_at_once(game):
    site, boxes = game
    welcome = welcome_of(boxes, "bob@example.org")
    boxes.deliver(reply_to(welcome, "bob@example.org", "message all hello\nbuild office 21"))
    assert not tick(site).errors
    [answer] = boxes.new("bob@example.org")
    assert "Kept for later" in text_of(answer) and "message all hello" in text_of(answer)


def test_every_mail_of_a_game_is_plain_text_within_78_columns_and_small(game):
    site, boxes = game
    bodies = []
    for _ in range(40):  # the players answer their latest mail with its first choice
        for address, name in (
            ("ann@example.org", "Ann"),
            ("bob@example.org", "Bob"),
            ("cid@example.org", "Cid"),
        ):
            mails = boxes.new(address)
            bodies += mails
            reply = answer_latest(mails, name, address, lambda choices: choices[0])
            if reply is not None:
                boxes.deliver(reply)
        assert not tick(site).errors
    assert len(bodies) > 20
    for mail in bodies:
        assert len(mail.as_bytes()) < 150_000
        assert max(map(len, lines_as_sent(mail))) <= 78, str(mail["Subject"])


def test_a_long_choice_list_is_grouped_and_choices_lists_it_whole(game):
    site, boxes = game
    welcome = welcome_of(boxes, "ann@example.org")
    text = text_of(welcome)
    offered = text.partition("Orders of Bus")[0]  # the help, after, writes orders of its own
    assert "    build pub: 10, 15, 16, 17, 20, 21, 22, 27\n" in offered
    assert "    build house 15\n" not in offered
    boxes.deliver(reply_to(welcome, "ann@example.org", "choices"))
    assert not tick(site).errors
    [answer] = boxes.new("ann@example.org")
    full = text_of(answer)
    assert "Every choice of your decision is listed below" in full
    assert "    build house 15\n" in full and "    build pub 27\n" in full


def test_observers_get_the_result_and_a_refusing_campaign_takes_none(tmp_path):
    from sites import confirmation_reply, person_mail

    from referee.store.campaign import Status

    site = make_site(tmp_path)
    site.new_campaign("bus", "watched", PLAYERS, seed=1)
    site.new_campaign("bus", "closed", PLAYERS, seed=2, settings={"no_observers": True})
    boxes = Mailboxes(site)
    for game in ("watched", "closed"):
        boxes.deliver(
            person_mail("Olga <olga@example.org>", "referee@example.org", "w", f"observe {game}")
        )
    assert not tick(site).errors
    asked = boxes.new("olga@example.org")
    said = [text_of(m) for m in asked]
    assert any("does not take observers" in t for t in said)
    assert site.campaign("closed").settings.get("observers") is None
    boxes.deliver(confirmation_reply(asked, "Olga <olga@example.org>"))  # issue 22, item 4
    assert not tick(site).errors
    assert site.campaign("watched").settings.get("observers") == ["olga@example.org"]
    for _ in range(400):  # the bot plays every seat to the end
        campaign = site.campaign("watched")
        campaign.robots = [0, 1, 2]
        campaign.save()
        assert not tick(site).errors
        if site.campaign("watched").status == Status.FINISHED:
            break
    reports = boxes.new("olga@example.org")
    assert len(reports) >= 5
    assert "THE GAME IS OVER" in text_of(reports[-1])
