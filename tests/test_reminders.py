"""A reminder comes at a sensible time (issue "Players' mail that reads at a glance on a
phone", item 5): when a set share of the time allowed has passed (three quarters unless the
campaign says otherwise), or `remind_hours` before the deadline, but never within the first
half of the time allowed, so that a short deadline is not reminded at the next tick, before
or beside the mail that asked for the decision."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from sites import PLAYERS, Mailboxes, make_site

from referee.service.tick import tick
from referee.settings.deadlines import Deadlines

T0 = datetime(2026, 11, 23, 9, 0, tzinfo=UTC)
HOUR = timedelta(hours=1)


def test_the_reminder_comes_at_a_share_of_the_time_allowed_never_in_its_first_half():
    def at(**settings) -> timedelta:
        deadlines = Deadlines.from_settings(settings)
        due = deadlines.due(T0)
        assert due is not None
        return deadlines.reminder(T0, due) - T0

    assert at(hours=48) == 36 * HOUR  # three quarters of the time allowed
    assert at(hours=6) == 4.5 * HOUR
    assert at(hours=6, remind_share=0.5) == 3 * HOUR
    assert at(hours=48, remind_hours=12) == 36 * HOUR
    assert at(hours=24, remind_hours=12) == 12 * HOUR
    assert at(hours=6, remind_hours=12) == 3 * HOUR  # not before half of the 6 hours


def test_a_short_deadline_is_reminded_late_and_after_its_prompt(tmp_path):
    site = make_site(tmp_path)
    site.new_campaign("bus", "g1", PLAYERS, seed=1, settings={"deadlines": {"hours": 6}})
    boxes = Mailboxes(site)

    def subjects() -> list[str]:
        return [str(m["Subject"]) for m in boxes.sent()]

    tick(site, T0)
    assert subjects() and not any("Reminder" in s for s in subjects())  # the prompt alone
    tick(site, T0 + HOUR)
    assert not any("Reminder" in s for s in subjects())
    tick(site, T0 + 4.5 * HOUR)
    assert sum("Reminder" in s for s in subjects()) == 1
    tick(site, T0 + 5 * HOUR)
    assert sum("Reminder" in s for s in subjects()) == 1  # once


def test_a_reminders_subject_names_the_campaign_the_round_and_what_is_asked(tmp_path):
    """Read in a phone's list of mail, a reminder says what it is about, as the prompt
    did: the campaign, the round, the decision and its due time."""
    site = make_site(tmp_path)
    site.new_campaign("bus", "g1", PLAYERS, seed=1, settings={"deadlines": {"hours": 6}})
    boxes = Mailboxes(site)
    tick(site, T0)
    boxes.new()
    tick(site, T0 + 4.5 * HOUR)
    [reminder] = [str(m["Subject"]) for m in boxes.new()]
    assert reminder == (
        "[g1] Reminder - Setup: your turn - first buildings, due by Mon 23 Nov 2026 15:00 UTC"
    )


def test_a_weekday_only_reminder_comes_at_a_share_of_the_weekday_time_never_on_a_weekend():
    """Asked Friday noon, due Monday noon with 24 weekday hours: three quarters of them
    have passed on Monday at 06:00, not on Sunday (three quarters of the real 72 hours)."""
    rules = Deadlines.from_settings({"hours": 24, "weekdays_only": True})
    friday = datetime(2026, 11, 27, 12, 0, tzinfo=UTC)
    due = rules.due(friday)
    assert due == datetime(2026, 11, 30, 12, 0, tzinfo=UTC)
    assert rules.reminder(friday, due) == datetime(2026, 11, 30, 6, 0, tzinfo=UTC)
    for hours in range(0, 7 * 24, 5):  # asked at any time of a week
        asked = friday + hours * HOUR
        due = rules.due(asked)
        assert due is not None
        assert rules.reminder(asked, due).weekday() < 5, asked


def test_where_ticks_are_sparse_the_last_tick_before_the_deadline_reminds(tmp_path):
    """A six-hour deadline, ticks four hours apart: the reminder's time (4.5 hours on)
    falls between the tick at 4 hours and the deadline's tick, so the tick at 4 hours
    reminds rather than none."""
    site = make_site(tmp_path)
    tick(site, T0 - 4 * HOUR)  # cron runs every four hours
    site.new_campaign("bus", "g1", PLAYERS, seed=1, settings={"deadlines": {"hours": 6}})
    boxes = Mailboxes(site)
    tick(site, T0)
    boxes.new()
    tick(site, T0 + 4 * HOUR)
    assert [str(m["Subject"]) for m in boxes.new()] == [
        "[g1] Reminder - Setup: your turn - first buildings, due by Mon 23 Nov 2026 15:00 UTC"
    ]
