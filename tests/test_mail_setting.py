"""A player chooses how much mail they get (issue 23, item 9): `mail each` (a mail for each
thing that happens, the default), `mail brief` (decisions and results only) or `mail digest`
(one mail a day with everything since). The choice is kept in campaign.yaml and honoured by
the one stage that decides every mail (answers)."""

from datetime import UTC, datetime, time, timedelta

import pytest
from played import play
from sites import PLAYERS, Mailboxes, make_site, person_mail, text_of

from referee.service import telling, timekeeping
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
    assert "write 'mail' and one of: each (" in words(told)
    assert "digest (each decision at once, and one mail a day" in words(told)


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


def test_digest_asks_each_decision_at_once_and_gathers_the_rest_at_a_time_of_day(tmp_path):
    """Bob on `mail digest` is asked for each of his decisions at once (the bot never
    decides for him unasked); what happened besides waits for his daily mail, at 18:00 in
    his zone (UTC here), whenever his last mail went."""
    site, boxes = game(tmp_path, "digest")  # the answer to that mail was the day's mail
    table = play(site, site.campaign("bus1").table(), until_round=3, seed=3)
    bobs = sent(site, boxes, BOB)
    assert bobs and all("YOUR DECISION" in text_of(m) for m in bobs)
    assert len(sent(site, boxes, "ann@example.org")) > 3
    marks, goes = table.campaign.marks, None
    for n in range(6):  # on, until something happens that asks Bob nothing
        table = play(site, table, orders=1, seed=n)
        assert all("YOUR DECISION" in text_of(m) for m in sent(site, boxes, BOB))
        last = datetime.fromisoformat(marks.mailed["1"])
        goes = telling.next_mail(
            table, marks, last, timekeeping.daily_mail_due(table.campaign, marks.mailed, last)
        )
        if goes is not None:
            break
    evening = datetime.combine(last.date(), time(18, 0), UTC)
    assert goes == evening + (timedelta(days=1) if evening <= last else timedelta(0))
