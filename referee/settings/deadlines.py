"""Deadlines of a campaign: when a decision is due, when to remind, how times are shown.

A campaign's `deadlines` settings (campaign.yaml), all optional:

    deadlines:
      hours: 48                 # a decision is due this many hours after it was asked for
      times: ["08:00", "20:00"] # or: due at the next of these times of day, at least
                                #   `min_hours` (default 12) after it was asked for
      weekdays_only: true       # Saturdays and Sundays do not count
      grace_minutes: 60         # time after the deadline before the policy applies
      remind_hours: 12          # one reminder this long before the deadline
      timezone: Europe/London   # in which deadlines are set and shown
      policy: bot               # wait (the game master decides), bot, or rules (the game's own)

Everything here is pure: times in, times out.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, time, timedelta
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

POLICIES = ("wait", "bot", "rules")
SETTINGS = (
    "hours",
    "times",
    "min_hours",
    "weekdays_only",
    "grace_minutes",
    "remind_hours",
    "timezone",
    "policy",
)
MAX_EXTENSION = timedelta(days=14)  # a game master's extensions, in all, per decision
MAX_ABSENCE = timedelta(days=21)  # one player's announced absence


class DeadlineError(ValueError):
    """Settings or a command about time that cannot be used; the message says why."""


@dataclass(frozen=True)
class Deadlines:
    hours: float | None = None
    times: tuple[time, ...] = ()
    min_hours: float = 12
    weekdays_only: bool = False
    grace: timedelta = timedelta(0)
    remind: timedelta = timedelta(hours=12)
    zone: ZoneInfo = ZoneInfo("UTC")
    policy: str = "wait"

    @property
    def active(self) -> bool:
        return self.hours is not None or bool(self.times)

    @classmethod
    def from_settings(cls, data: dict | None) -> Deadlines:
        """The settings checked, every mistake told at once in one DeadlineError."""
        if data is not None and not isinstance(data, dict):
            raise DeadlineError("deadlines: expected a section of `key: value` lines")
        data = dict(data or {})
        errors: list[str] = []
        unknown = sorted(str(k) for k in data if k not in SETTINGS)
        if unknown:
            errors.append(
                f"deadlines: unknown setting {', '.join(unknown)}; "
                f"the settings are {', '.join(SETTINGS)}"
            )

        def number(key: str, default: float, least: float = 0) -> float:
            value = data.get(key, default)
            if isinstance(value, bool) or not isinstance(value, (int, float)) or value < least:
                errors.append(
                    f"deadlines.{key}: expected a number of at least {least}, found {value!r}"
                )
                return default
            return float(value)

        try:
            zone = ZoneInfo(str(data.get("timezone", "UTC")))
        except (ZoneInfoNotFoundError, ValueError, OSError):
            errors.append(
                f"deadlines.timezone: {data.get('timezone')!r} is not a time "
                f"zone; use a name like Europe/London or UTC"
            )
            zone = ZoneInfo("UTC")
        policy = str(data.get("policy", "wait"))
        if policy not in POLICIES:
            errors.append(f"deadlines.policy must be one of {', '.join(POLICIES)}, not {policy!r}")
        times: tuple[time, ...] = ()
        raw_times = data.get("times", ())
        if not isinstance(raw_times, (list, tuple)):
            errors.append("deadlines.times: expected a list of times of day, e.g. [08:00, 20:00]")
        else:
            try:
                times = tuple(parse_time(str(t)) for t in raw_times)
            except DeadlineError as err:
                errors.append(f"deadlines.times: {err}")
        hours = data.get("hours")
        if hours is not None and (
            isinstance(hours, bool) or not isinstance(hours, (int, float)) or hours <= 0
        ):
            errors.append(f"deadlines.hours must be a positive number of hours, not {hours!r}")
            hours = None
        weekdays_only = data.get("weekdays_only", False)
        if not isinstance(weekdays_only, bool):  # "no" in quotes would be true
            errors.append(f"deadlines.weekdays_only: write true or false, not {weekdays_only!r}")
            weekdays_only = False
        settings = cls(
            hours=hours,
            times=times,
            min_hours=number("min_hours", 12),
            weekdays_only=weekdays_only,
            grace=timedelta(minutes=number("grace_minutes", 0)),
            remind=timedelta(hours=number("remind_hours", 12)),
            zone=zone,
            policy=policy,
        )
        if errors:
            raise DeadlineError("; ".join(errors))
        return settings

    def due(self, asked: datetime, extra: timedelta = timedelta(0)) -> datetime | None:
        """When a decision asked for at ``asked`` is due (aware UTC), or None without
        deadlines. ``extra`` is time added by extensions, absences and pauses."""
        if not self.active:
            return None
        local = asked.astimezone(self.zone)
        if self.hours is not None:
            due = self._add_hours(local, self.hours)
        else:
            due = self._next_time(self._add_hours(local, self.min_hours))
        due = _later(due, extra)
        if self.weekdays_only:
            due = self._skip_weekend(due)
        return due.astimezone(UTC)

    def _add_hours(self, start: datetime, hours: float) -> datetime:
        if not self.weekdays_only:
            return _later(start, timedelta(hours=hours))
        # count only weekday time: step through the days
        left, now = timedelta(hours=hours), self._skip_weekend(start)
        while True:
            midnight = datetime.combine(now.date() + timedelta(days=1), time(0), now.tzinfo)
            if _elapsed(now, midnight) >= left:
                return _later(now, left)
            left -= _elapsed(now, midnight)
            now = self._skip_weekend(midnight)

    def _skip_weekend(self, moment: datetime) -> datetime:
        while moment.weekday() >= 5:
            moment = datetime.combine(moment.date() + timedelta(days=1), time(0), moment.tzinfo)
        return moment

    def _next_time(self, earliest: datetime) -> datetime:
        day = earliest.date()
        for _ in range(15):
            for t in sorted(self.times):
                candidate = datetime.combine(day, t, earliest.tzinfo)
                if candidate >= earliest and not (self.weekdays_only and candidate.weekday() >= 5):
                    return candidate
            day += timedelta(days=1)
        raise DeadlineError("no deadline time found in two weeks")


def _later(moment: datetime, delta: timedelta) -> datetime:
    """``delta`` of real time after ``moment``, in its zone: across a daylight-saving change
    48 hours are 48 hours, not a wall clock moved on by two days."""
    return (moment.astimezone(UTC) + delta).astimezone(moment.tzinfo)


def _elapsed(start: datetime, end: datetime) -> timedelta:
    """Real time between two moments (subtracting two times of one zone would compare wall
    clocks)."""
    return end.astimezone(UTC) - start.astimezone(UTC)


def parse_time(text: str) -> time:
    try:
        hours, minutes = text.strip().split(":")
        return time(int(hours), int(minutes))
    except ValueError:
        raise DeadlineError(f"{text!r} is not a time of day; write it like 08:00") from None


def parse_day(text: str) -> datetime:
    try:
        return datetime.strptime(text, "%Y-%m-%d").replace(tzinfo=UTC)
    except ValueError:
        raise DeadlineError(f"{text!r} is not a date; write it like 2026-12-24") from None


def absent_days(absences: list, start: datetime, end: datetime) -> int:
    """How many days of the player's announced absences fall in [start, end)."""
    days = set()
    for first, last in absences:
        day = parse_day(first)
        while day <= parse_day(last):
            if day < end and day + timedelta(days=1) > start:
                days.add(day)
            day += timedelta(days=1)
    return len(days)


def show(moment: datetime, zone_name: str | None, fallback: ZoneInfo) -> str:
    """A time as a player reads it: in their own time zone if they set one."""
    try:
        zone = ZoneInfo(zone_name) if zone_name else fallback
    except (ZoneInfoNotFoundError, ValueError):
        zone = fallback
    local = moment.astimezone(zone)
    return local.strftime("%a %d %b %Y %H:%M ") + (local.tzname() or str(zone))


def parse_when(text: str) -> datetime:
    return datetime.fromisoformat(text.replace("Z", "+00:00"))


def stamp(moment: datetime) -> str:
    return moment.astimezone(UTC).replace(microsecond=0).isoformat().replace("+00:00", "Z")
