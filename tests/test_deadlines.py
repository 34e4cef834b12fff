"""Deadline arithmetic: hours, times of day, weekdays only, time zones, absences, clocks that
stood still, each across a daylight-saving change in both directions."""

from datetime import UTC, datetime, timedelta
from types import SimpleNamespace

import pytest

from referee.service.timekeeping import due_of
from referee.settings.deadlines import DeadlineError, Deadlines, absent_days, show, stamp
from referee.store.book import Book, Due

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


# Across a daylight-saving change in both directions (Berlin: forward on Sunday 29 March
# 2026, back on Sunday 25 October; New York: forward on 8 March, back on 1 November), each
# of the deadline's rules keeps counting real time, and shows it on the reader's clock.
BERLIN = {"timezone": "Europe/Berlin"}
SPRING = datetime(2026, 3, 28, 9, 0, tzinfo=UTC)  # Saturday 10:00 CET
AUTUMN = datetime(2026, 10, 24, 8, 0, tzinfo=UTC)  # Saturday 10:00 CEST


def test_a_due_time_is_shown_on_the_readers_clock_either_side_of_a_change():
    rules = Deadlines.from_settings({"hours": 48, **BERLIN})
    assert show(rules.due(SPRING), None, rules.zone) == "Mon 30 Mar 2026 11:00 CEST"
    assert show(rules.due(AUTUMN), None, rules.zone) == "Mon 26 Oct 2026 09:00 CET"
    assert show(rules.due(SPRING), "America/New_York", rules.zone) == "Mon 30 Mar 2026 05:00 EDT"
    assert show(rules.due(AUTUMN), "America/New_York", rules.zone) == "Mon 26 Oct 2026 04:00 EDT"


def test_times_of_day_stay_on_the_wall_clock_across_a_change():
    rules = Deadlines.from_settings({"times": ["20:00"], "min_hours": 24, **BERLIN})
    assert show(rules.due(SPRING), None, rules.zone) == "Sun 29 Mar 2026 20:00 CEST"
    assert show(rules.due(AUTUMN), None, rules.zone) == "Sun 25 Oct 2026 20:00 CET"


def test_weekdays_only_counts_weekday_hours_across_the_spring_change_too():
    rules = Deadlines.from_settings(
        {"hours": 24, "weekdays_only": True, "timezone": "America/New_York"}
    )
    # asked Friday 6 March 20:00 EST: 4 hours of Friday, the weekend (clocks go forward on
    # Sunday), then 20 hours of Monday from midnight EDT
    asked = datetime(2026, 3, 7, 1, 0, tzinfo=UTC)
    assert rules.due(asked) == datetime(2026, 3, 10, 0, 0, tzinfo=UTC)  # Monday 20:00 EDT


@pytest.mark.parametrize("asked", [SPRING, AUTUMN])
def test_a_reminder_counts_real_hours_and_weekday_hours_across_a_change(asked):
    hours = Deadlines.from_settings({"hours": 48, **BERLIN})
    assert hours.reminder(asked, hours.due(asked)) - asked == timedelta(hours=36)
    weekdays = Deadlines.from_settings({"hours": 24, "weekdays_only": True, **BERLIN})
    due = weekdays.due(asked)  # asked on a Saturday: Monday and Tuesday's first hours
    assert due.astimezone(weekdays.zone).strftime("%a %H:%M") == "Tue 00:00"
    reminded = weekdays.reminder(asked, due).astimezone(weekdays.zone)
    assert reminded.strftime("%a %H:%M") == "Mon 18:00"


@pytest.mark.parametrize("asked", [SPRING, AUTUMN])
def test_an_absence_across_a_change_moves_a_deadline_on_by_whole_days(asked):
    """The absence's day is counted in real hours, as every other part of a deadline."""
    rules = Deadlines.from_settings({"hours": 48, **BERLIN})
    player = SimpleNamespace(absence=[[f"{asked:%Y-%m}-{asked.day + 1}"] * 2])
    campaign = SimpleNamespace(players=[player], book=Book())
    entry = Due(0, stamp(asked))
    assert due_of(rules, campaign, 0, entry) - asked == timedelta(hours=72)


@pytest.mark.parametrize("asked", [SPRING, AUTUMN])
def test_a_clock_that_stood_still_across_a_change_moves_on_by_the_real_time_it_stood(asked):
    rules = Deadlines.from_settings({"hours": 48, **BERLIN})
    book = Book()
    book.stop(asked + timedelta(hours=6), asked + timedelta(hours=30))  # the night of the change
    campaign = SimpleNamespace(players=[SimpleNamespace(absence=[])], book=book)
    entry = Due(0, stamp(asked))
    assert due_of(rules, campaign, 0, entry) - asked == timedelta(hours=72)
