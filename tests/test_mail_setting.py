"""A player chooses how much mail they get (issue 23, item 9): `mail each` (a mail for each
thing that happens, the default), `mail brief` (decisions and results only) or `mail digest`
(one mail a day with everything since). The choice is kept in campaign.yaml and honoured by
the one stage that decides every mail (answers)."""

from datetime import UTC, datetime, timedelta

import pytest
from played import play
from sites import PLAYERS, Mailboxes, make_site, person_mail, text_of

from referee.service import answers, telling
from referee.service.tick import tick

pytestmark = pytest.mark.slow  # whole games by mail: left out of --fast

BOB = "bob@example.org"


def game(tmp_path, choice: str | None = None):
    """A game of Bus whose second player, Bob, chose ``choice`` by mail."""
    site = make_site(tmp_path)
    site.new_campaign("bus", "bus1", PLAYERS, seed=3)
    boxes = Mailboxes(site)
    if choice:
        bob = site.campaign("bus1").players[1]
        mail = person_mail(PLAYERS[1], site.identity.plus("bus1", bob.token), "m", f"mail {choice}")
        boxes.deliver(mail)
        assert not tick(site).errors
    boxes.new()
    return site, boxes


def sent(site, boxes, address: str) -> list:
    """The mails queued for ``address`` since the last look, sent."""
    site.outbox.flush(site.config.make_sender())
    return boxes.new(address)


def words(mail) -> str:
    return " ".join(text_of(mail).split())


def test_the_choice_is_kept_in_campaign_yaml_and_a_wrong_one_is_explained(tmp_path):
    site = make_site(tmp_path)
    site.new_campaign("bus", "bus1", PLAYERS, seed=3)
    tick(site)
    boxes = Mailboxes(site)
    boxes.new()
    bob = site.campaign("bus1").players[1]
    to = site.identity.plus("bus1", bob.token)
    boxes.deliver(person_mail(PLAYERS[1], to, "m", "mail brief"))
    assert not tick(site).errors
    assert site.campaign("bus1").players[1].mail == "brief"
    assert "mail: brief" in (site.data_root / "bus1" / "campaign.yaml").read_text()
    [told] = boxes.new(BOB)
    assert "Your mail from now on: brief, decisions and results only." in words(told)
    boxes.deliver(person_mail(PLAYERS[1], to, "m", "mail weekly"))
    assert not tick(site).errors
    assert site.campaign("bus1").players[1].mail == "brief"
    [told] = boxes.new(BOB)
    assert "write 'mail' and one of: each (" in words(told) and "digest (one mail a day" in words(
        told
    )


def test_brief_mail_is_decisions_and_results_only(tmp_path):
    got: dict[str, dict[str, list]] = {}
    for choice in ("each", "brief"):
        site, boxes = game(tmp_path / choice, choice)
        play(site, site.campaign("bus1").table(), seed=3)
        got[choice] = {a: sent(site, boxes, a) for a in ("ann@example.org", BOB)}
    each, brief = got["each"][BOB], got["brief"][BOB]
    assert len(brief) < len(each)
    assert all("YOUR DECISION" in text_of(m) or "THE GAME IS OVER" in text_of(m) for m in brief)
    assert sum("THE GAME IS OVER" in text_of(m) for m in brief) == 1
    # the same game, and Ann's mail as it was
    assert len(got["each"]["ann@example.org"]) == len(got["brief"]["ann@example.org"])


def test_digest_is_one_mail_a_day_with_everything_since(tmp_path):
    site, boxes = game(tmp_path, "digest")  # the answer to that mail was the day's mail
    table = play(site, site.campaign("bus1").table(), until_round=3, seed=3)
    assert sent(site, boxes, BOB) == []
    assert len(sent(site, boxes, "ann@example.org")) > 3
    marks = table.campaign.marks
    now = datetime.now(UTC)
    goes = telling.next_mail(table, marks, now)
    assert goes is not None and now + timedelta(hours=23) < goes <= now + timedelta(days=1)
    answers.answer(site.post, table, now + timedelta(days=1, minutes=1))
    [daily] = sent(site, boxes, BOB)
    text = words(daily)
    assert "Round 1" in text or "round 1" in text  # everything since the last one
    assert "What happened since your last report" in text
    # and nothing more that day
    play(site, table, until_round=4, seed=4)
    assert sent(site, boxes, BOB) == []
