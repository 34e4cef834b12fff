"""Deadline arithmetic: hours, times of day, weekdays only, time zones, absences."""

from datetime import UTC, datetime, timedelta

import pytest

from referee.deadlines import DeadlineError, Deadlines, absent_days, show

UTC = UTC
FRIDAY_NOON = datetime(2026, 11, 27, 12, 0, tzinfo=UTC)


def test_no_settings_no_deadline():
    assert Deadlines.from_settings(None).due(FRIDAY_NOON) is None


def test_hours_after_the_decision_was_asked_for():
    rules = Deadlines.from_settings({"hours": 48})
    assert rules.due(FRIDAY_NOON) == datetime(2026, 11, 29, 12, 0, tzinfo=UTC)
    assert rules.due(FRIDAY_NOON, timedelta(hours=6)) == datetime(2026, 11, 29, 18, 0, tzinfo=UTC)


def test_weekdays_only_lets_the_weekend_pass_uncounted():
    rules = Deadlines.from_settings({"hours": 24, "weekdays_only": True})
    # 12 hours of Friday, then Monday's first 12
    assert rules.due(FRIDAY_NOON) == datetime(2026, 11, 30, 12, 0, tzinfo=UTC)
    saturday = datetime(2026, 11, 28, 9, 0, tzinfo=UTC)
    assert rules.due(saturday) == datetime(2026, 12, 1, 0, 0, tzinfo=UTC)


def test_times_of_day_in_the_campaigns_time_zone():
    rules = Deadlines.from_settings(
        {"times": ["08:00", "20:00"], "min_hours": 12, "timezone": "Europe/Berlin"}
    )
    # asked at 13:00 Berlin: at least 12 hours, so the next 08:00 Berlin (07:00 UTC)
    assert rules.due(FRIDAY_NOON) == datetime(2026, 11, 28, 7, 0, tzinfo=UTC)
    weekdays = Deadlines.from_settings({"times": ["08:00"], "weekdays_only": True})
    assert weekdays.due(FRIDAY_NOON) == datetime(2026, 11, 30, 8, 0, tzinfo=UTC)


def test_bad_settings_say_what_is_wrong():
    with pytest.raises(DeadlineError, match="is not a time zone"):
        Deadlines.from_settings({"hours": 4, "timezone": "Atlantis/Capital"})
    with pytest.raises(DeadlineError, match="policy must be one of wait, bot, rules"):
        Deadlines.from_settings({"hours": 4, "policy": "coin"})
    with pytest.raises(DeadlineError, match="is not a time of day"):
        Deadlines.from_settings({"times": ["noonish"]})
    with pytest.raises(DeadlineError, match="positive number of hours"):
        Deadlines.from_settings({"hours": -2})


def test_absent_days_count_the_days_within_the_window():
    absences = [["2026-11-28", "2026-11-30"]]
    assert absent_days(absences, FRIDAY_NOON, FRIDAY_NOON + timedelta(days=1)) == 1
    assert absent_days(absences, FRIDAY_NOON, FRIDAY_NOON + timedelta(days=5)) == 3
    assert absent_days(absences, FRIDAY_NOON - timedelta(days=3), FRIDAY_NOON) == 0


def test_times_are_shown_in_the_readers_zone():
    zone = Deadlines.from_settings({"timezone": "Europe/London"}).zone
    assert show(FRIDAY_NOON, "Asia/Tokyo", zone) == "Fri 27 Nov 2026 21:00 JST"
    assert show(FRIDAY_NOON, None, zone) == "Fri 27 Nov 2026 12:00 GMT"
    assert show(FRIDAY_NOON, "Nowhere/Else", zone) == "Fri 27 Nov 2026 12:00 GMT"
