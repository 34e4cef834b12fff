"""Deadline arithmetic: hours, times of day, weekdays only, time zones, absences."""

from datetime import UTC, datetime, timedelta

import pytest

from referee.settings.deadlines import DeadlineError, Deadlines, absent_days, show

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


def test_deadline_hours_are_elapsed_hours_across_a_daylight_saving_change():
    # Europe/London falls back on Sunday 2026-10-25 at 02:00 BST: 48 hours are 48 real hours
    rules = Deadlines.from_settings({"hours": 48, "timezone": "Europe/London"})
    asked = datetime(2026, 10, 24, 9, 0, tzinfo=UTC)  # 10:00 BST
    assert rules.due(asked) - asked == timedelta(hours=48)
    spring = datetime(2026, 3, 28, 9, 0, tzinfo=UTC)  # clocks go forward on the 29th
    assert rules.due(spring) - spring == timedelta(hours=48)
    assert rules.due(spring, timedelta(hours=24)) - spring == timedelta(hours=72)


def test_weekdays_only_counts_elapsed_weekday_hours_across_a_daylight_saving_change():
    rules = Deadlines.from_settings(
        {"hours": 24, "weekdays_only": True, "timezone": "America/New_York"}
    )
    # asked Friday 2026-10-30 20:00 EDT: 4 hours of Friday, the weekend (clocks fall back on
    # Sunday 1 November), then 20 hours of Monday from midnight EST
    asked = datetime(2026, 10, 31, 0, 0, tzinfo=UTC)
    assert rules.due(asked) == datetime(2026, 11, 3, 1, 0, tzinfo=UTC)  # Monday 20:00 EST


def test_every_mistake_in_the_deadline_settings_is_told_at_once():
    with pytest.raises(DeadlineError) as told:
        Deadlines.from_settings(
            {
                "hours": "48",
                "timezone": "Mars/Olympus",
                "weekdays_only": "no",
                "grace_minutes": "soon",
                "policy": "dice",
                "hourz": 3,
            }
        )
    text = str(told.value)
    for part in ("hours", "Mars/Olympus", "weekdays_only", "'soon'", "dice", "hourz"):
        assert part in text


def test_weekdays_only_is_a_boolean_not_any_text():
    with pytest.raises(DeadlineError, match="write true or false, not 'no'"):
        Deadlines.from_settings({"hours": 24, "weekdays_only": "no"})
    assert Deadlines.from_settings({"hours": 24, "weekdays_only": False}).weekdays_only is False
