"""Fair clocks (issue "Fair clocks: a deadline runs only while its player can act"): each
test moves the referee's clock on over hours or days, on the Maildir site, and reads the
mails and the log that come of it.

- a seat missed under policy `wait` wakes when the game master changes the deadlines or
  extends them: the deadline runs again from then, with the new settings;
- the prompt after a bot's move carries its due time, and its clock starts at that tick;
- the clock stands still while no mail can go out, while the mail that asks a decision
  waits undelivered, and while the campaign cannot be read;
- a player on `mail digest` is asked for each decision at once;
- the game master is told of a tick's missed deadlines in one mail, and of those the
  policy dealt with at most once a day.
"""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime, timedelta

import pytest
from sites import ADDRESSES, logged, text_of
from test_commands_maildir import T0, game
from test_gm_behaviours import bot_order, gm_mail, mail_from, run

from referee import mailbot
from referee.service import telling, timekeeping
from referee.service.tick import tick
from referee.store.names import WAITS
from referee.store.waits import Waits

HOUR = timedelta(hours=1)
DUE = re.compile(r"[Dd]ue by (\w{3} \d+ \w{3} \d{4} \d\d:\d\d) UTC")


def book(site) -> dict:
    return json.loads((site.campaign("g1").root / "deadlines.json").read_text())


def moves(site) -> list[str]:
    """Who made each order of the log: a player, or the bot."""
    return [o[2] for r in logged(site.campaign("g1")) if r.get("orders") for o in r["orders"]]


def missed(site) -> list[dict]:
    """The missed deadlines the log keeps (one missed under `wait` changes nothing in the
    game, and is logged all the same: the game master is told of it from there)."""
    return [m for r in logged(site.campaign("g1")) for m in r.get("missed") or []]


def gm_told_missed(boxes) -> list[str]:
    return [
        " ".join(text_of(m).split())
        for m in boxes.new("gil@example.org")
        if "missed" in str(m["Subject"])
    ]


def dues_told(boxes, address) -> list[str]:
    return [d for m in boxes.new(address) for d in DUE.findall(" ".join(text_of(m).split()))]


def test_a_seat_missed_under_wait_runs_again_from_new_deadlines(tmp_path):
    """Missed under `wait`, Ann's seat waits; the game master's `deadlines ... policy=bot`
    re-arms it from then: she is told a due time 24 hours on, and the bot decides for her
    once it has passed (not at once, not never)."""
    site, boxes = game(tmp_path, policy="wait")
    run(site, T0 + 25 * HOUR)
    assert len(gm_told_missed(boxes)) == 1 and book(site)["seats"]["0"]["missed"]
    boxes.new()
    gm_mail(site, boxes, "deadlines hours=24 policy=bot", T0 + 30 * HOUR)
    assert not book(site)["seats"]["0"]["missed"]
    assert dues_told(boxes, ADDRESSES[0]) == ["Wed 25 Nov 2026 15:00"]  # 30 h + 24 h
    assert Waits(site.state_dir / WAITS).entries["g1"]["wake"] is not None
    run(site, T0 + 50 * HOUR)
    assert moves(site) == []
    run(site, T0 + 54 * HOUR)
    assert moves(site) == ["bot"] and len(missed(site)) == 2  # the wait, then the bot
    assert missed(site)[0]["done"] == "the game waits for the game master"


def test_a_seat_missed_under_wait_runs_again_when_extended(tmp_path):
    site, boxes = game(tmp_path, policy="wait")
    run(site, T0 + 25 * HOUR)
    assert len(gm_told_missed(boxes)) == 1
    boxes.new()
    gm_mail(site, boxes, "extend 12", T0 + 30 * HOUR)
    entry = book(site)["seats"]["0"]
    assert not entry["missed"]
    # from 30 h on: the 24 hours of the settings and the 12 of the extension
    assert dues_told(boxes, ADDRESSES[0]) == ["Thu 26 Nov 2026 03:00"]
    run(site, T0 + 60 * HOUR)
    assert gm_told_missed(boxes) == []
    run(site, T0 + 66 * HOUR)
    assert len(gm_told_missed(boxes)) == 1  # missed again: the game master is told again


def test_adjudicate_still_decides_a_missed_seat_under_wait(tmp_path):
    site, boxes = game(tmp_path, policy="wait")
    run(site, T0 + 25 * HOUR)
    gm_mail(site, boxes, "adjudicate", T0 + 26 * HOUR)
    assert moves(site) == ["bot"]


def test_the_game_master_gets_one_mail_for_a_ticks_missed_deadlines(tmp_path):
    """Bus Boss asks every player at once: three seats missed in one tick are one mail to
    the game master, a line each, not three mails."""
    site, boxes = game(tmp_path, game="busboss", policy="wait")
    awaited = len(site.campaign("g1").table().awaiting)
    assert awaited == 3
    run(site, T0 + 25 * HOUR)
    [told] = gm_told_missed(boxes)
    assert told.count("was due by Tue 24 Nov 2026 09:00 UTC") == 3  # as people read times
    run(site, T0 + 26 * HOUR)
    assert gm_told_missed(boxes) == []


def test_the_prompt_after_a_bots_move_carries_a_due_time_started_at_that_tick(tmp_path):
    """Ann misses her deadline (the tick comes an hour after it); the bot decides for her,
    and the prompt of the decision that follows is due 24 hours after that tick, says so,
    and its clock runs from then, not from the next tick."""
    site, boxes = game(tmp_path)
    run(site, T0 + 25 * HOUR)
    assert moves(site) == ["bot"]
    prompts = [m for m in boxes.new() if "your turn" in str(m["Subject"])]
    assert prompts
    for prompt in prompts:
        text = " ".join(text_of(prompt).split())
        assert DUE.findall(text) == ["Wed 25 Nov 2026 10:00"], text
    [entry] = book(site)["seats"].values()
    assert entry["asked"] == "2026-11-24T10:00:00Z" and not entry["missed"]
    run(site, T0 + 26 * HOUR)
    assert book(site)["seats"] == {"0": entry} or list(book(site)["seats"].values()) == [entry]


DAY = timedelta(days=1)


def new_due_times(boxes, address) -> list[str]:
    """The due times told in 'New due time' mails to ``address`` since the last look."""
    return [
        d
        for m in boxes.new(address)
        if str(m["Subject"]).startswith("[g1] New due time")
        for d in DUE.findall(" ".join(text_of(m).split()))
    ]


def test_nine_days_without_mail_going_out_fire_no_deadline(tmp_path):
    """The outbox cannot deliver for nine days (its Maildir cannot be written: the server
    is away). From the first tick that could send nothing, Ann's clock stands still: the bot
    does not play her seat, and when mail goes out again she is told her decision is due the
    nine days later, and the bot plays only once that has passed."""
    site, boxes = game(tmp_path)
    outbox = site.config.outbox.path
    aside = outbox.with_name("outbox-aside")
    outbox.rename(aside)
    outbox.write_text("not a folder: no mail can be delivered here")
    now = T0 + 12 * HOUR  # the reminder is queued, and cannot go out
    while now < T0 + 12 * HOUR + 9 * DAY:
        report = tick(site, now)
        assert report.errors and "outbox Maildir" in report.errors[-1]
        now += 6 * HOUR
    assert moves(site) == [] and missed(site) == []
    outbox.unlink()
    aside.rename(outbox)
    run(site, now)  # the queue goes out: the outage ends here, 9 days after it began
    run(site, now + HOUR)
    assert new_due_times(boxes, ADDRESSES[0]) == ["Thu 03 Dec 2026 09:00"]  # 24 h + 9 days
    run(site, T0 + 9 * DAY + 23 * HOUR)
    assert moves(site) == []
    run(site, T0 + 10 * DAY + HOUR)
    assert moves(site) == ["bot"]


def test_a_campaign_unread_for_ten_days_has_its_deadlines_pushed_on(tmp_path):
    """campaign.yaml broken for ten days, then mended: the tick that reads it again does
    not fire the deadline that fell meanwhile; Ann is told the new due time."""
    site, boxes = game(tmp_path)
    settings = site.campaign("g1").root / "campaign.yaml"
    good = settings.read_text()
    settings.write_text(good + "\nplayers: [unclosed\n")
    now = T0 + 2 * HOUR
    while now < T0 + 2 * HOUR + 10 * DAY:
        report = tick(site, now)
        assert report.skipped == ["g1"]
        now += 6 * HOUR
    settings.write_text(good)
    run(site, now)
    assert moves(site) == [] and missed(site) == []
    assert new_due_times(boxes, ADDRESSES[0]) == ["Fri 04 Dec 2026 09:00"]  # 24 h + 10 days
    run(site, T0 + 10 * DAY + 23 * HOUR)
    assert moves(site) == []
    run(site, T0 + 11 * DAY + HOUR)
    assert moves(site) == ["bot"]


def test_a_player_on_digest_is_asked_for_each_decision_at_once(tmp_path):
    """Bob asked for one mail a day (answered at once, the day's mail as it was). Each of
    his decisions is asked for at once all the same, the bot never deciding for him unasked;
    what happens without asking him anything waits for his daily mail at 18:00 (UTC, the
    campaign's zone: he set none)."""
    site, boxes = game(tmp_path, hours=2)
    mail_from(site, boxes, 1, "mail digest", T0)
    boxes.new()
    asked, now, step = 0, T0, 0
    while asked < 3:
        now += 10 * timedelta(minutes=1)
        step += 1  # each mail's own choice: the same text twice is refused as sent anew
        seat, order = bot_order(site, "g1", step)
        if seat == 1:
            subjects = [str(m["Subject"]) for m in boxes.new(ADDRESSES[1])]
            prompts = [s for s in subjects if "your turn" in s and "Reminder" not in s]
            assert len(prompts) == 1, (asked, subjects)  # asked at once, not at his daily mail
            asked += 1
        mail_from(site, boxes, seat, order, now)
    assert "bot" not in moves(site)
    boxes.new(ADDRESSES[1])
    evening = now.replace(hour=17, minute=59)
    run(site, evening)
    assert not any("your turn" in str(m["Subject"]) for m in boxes.new(ADDRESSES[1]))


def test_the_daily_digest_goes_at_the_time_of_day_the_player_chose_in_their_zone(tmp_path):
    """Bob on `mail digest 07:30` in New York: what happened after his mail of 09:00 UTC
    (04:00 there) waits for 07:30 there, 12:30 UTC, not for 24 hours after his mail."""
    site, boxes = game(tmp_path, policy="wait")
    mail_from(site, boxes, 1, "timezone America/New_York\nmail digest 07:30", T0)
    assert site.campaign("g1").players[1].digest_at == "07:30"
    boxes.new()
    seat, order = bot_order(site, "g1", 0)
    assert seat == 0
    mail_from(site, boxes, 0, order, T0 + HOUR)
    assert boxes.new(ADDRESSES[1]) == []  # nothing for him to decide: it waits
    table = site.campaign("g1").table()
    goes = telling.next_mail(
        table,
        table.campaign.marks,
        T0 + HOUR,
        timekeeping.daily_mail_due(table.campaign, table.campaign.marks.mailed, T0 + HOUR),
    )
    assert goes == T0 + 3 * HOUR + timedelta(minutes=30)


@pytest.mark.slow  # three days of ticks over SMTP
def test_a_decision_whose_prompt_cannot_be_delivered_does_not_run_out(mailrig, tmp_path):
    """Over the rig's SMTP, Ann's address answers 'try again later' for three days: her
    welcome, which asks her first decision, waits in the queue, and her clock with it; once
    it is delivered she is told her decision is due 24 hours after that, and the bot plays
    her seat only then."""
    from test_undelivered import smtp_site

    ann, bob, cid, gil, sam = (
        mailrig.add_account(f"{n}-clock") for n in ["ann", "bob", "cid", "gil", "sam"]
    )
    site = smtp_site(tmp_path, mailrig, retry_at_most_hours=1)
    mailrig.tempfail.add(ann.address)
    people = [f"{n} <{a.address}>" for n, a in zip(("Ann", "Bob", "Cid"), (ann, bob, cid))]
    site.new_campaign(
        "bus",
        "clock",
        people,
        seed=1,
        gm=f"Gil <{gil.address}>",
        settings={"deadlines": {"hours": 24, "policy": "bot"}},
    )
    t0 = datetime.now(UTC).replace(microsecond=0)  # the queue stamps its mail with the clock

    def bot_moves() -> list[str]:
        return [
            o[2] for r in logged(site.campaign("clock")) if r.get("orders") for o in r["orders"]
        ]

    now = t0
    while now < t0 + 3 * DAY:
        tick(site, now)
        now += 2 * HOUR
    assert bot_moves() == [] and mailrig.read_mails(ann.address) == []
    mailrig.tempfail.discard(ann.address)
    tick(site, now)  # her welcome goes
    tick(site, now + HOUR)  # her clock runs from here: she is told when it is due
    subjects = [str(mailbot.parse(raw)["Subject"]) for raw in mailrig.read_mails(ann.address)]
    assert any("New due time" in s for s in subjects), subjects
    tick(site, now + 23 * HOUR)
    assert bot_moves() == []
    tick(site, now + 26 * HOUR)
    assert bot_moves() == ["bot"]


@pytest.mark.slow  # a day and a half of hourly ticks
def test_misses_the_bot_dealt_with_are_told_once_at_once_then_in_a_summary_a_day(tmp_path):
    """One-hour deadlines nobody keeps, a tick an hour, for a day and a half: the game
    master hears of the first miss at once, of the next ones in one summary a day after it,
    not in a mail per miss."""
    site, boxes = game(tmp_path, hours=1, remind_hours=None)
    boxes.new()
    told = []
    for hour in range(1, 37):
        run(site, T0 + hour * HOUR + timedelta(minutes=1))
        told += [(hour, text) for text in gm_told_missed(boxes)]
    assert [hour for hour, _ in told] == [1, 25]
    assert told[0][1].count("was due by") == 1
    assert told[1][1].count("the bot decided for them") == 24
