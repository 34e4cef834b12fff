"""Deadlines of a campaign: when a decision is due, when to remind, how times are shown.

A campaign's `deadlines` settings (campaign.yaml), all optional:

    deadlines:
      hours: 48                 # a decision is due this many hours after it was asked for
      times: ["08:00", "20:00"] # or: due at the next of these times of day, at least
                                #   `min_hours` (default 12) after it was asked for
      weekdays_only: true       # Saturdays and Sundays do not count
      grace_minutes: 60         # time after the deadline before the policy applies
      remind_hours: 12          # one reminder this long before the deadline, or else
      remind_share: 0.75        #   when this share of the time allowed has passed (never
                                #   within the first half of it)
      timezone: Europe/London   # in which deadlines are set and shown
      policy: bot               # wait (the game master decides), bot, or rules (the game's own)

Everything here is pure: times in, times out.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, time, timedelta
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from ..schema import SettingsError, read, setting

POLICIES = ("wait", "bot", "rules")
MAX_EXTENSION = timedelta(days=14)  # a game master's extensions, in all, per decision
MAX_ABSENCE = timedelta(days=21)  # one player's announced absence
LONGEST = timedelta(days=366)  # a deadline's hours, its reminder's, its grace
DIGEST_AT = time(18, 0)  # when a player's daily digest goes, in their zone, unless they say


class DeadlineError(ValueError):
    """Settings or a command about time that cannot be used; the message says why."""


def _positive_hours(value: float | None) -> float | None:
    if value is not None and value <= 0:
        raise ValueError(f"must be a positive number of hours, not {value:g}")
    return _at_most_a_year(value, "hours")


def _non_negative(value: float | None, unit: str = "hours") -> float | None:
    if value is not None and value < 0:
        raise ValueError(f"expected a number of at least 0, found {value:g}")
    return _at_most_a_year(value, unit)


def _at_most_a_year(value: float | None, unit: str) -> float | None:
    """A time longer than LONGEST is a slip of the keyboard, and some are beyond the dates a
    deadline is computed in (a campaign with one stopped at every tick)."""
    most = LONGEST / timedelta(**{unit: 1})
    if value is not None and value > most:
        raise ValueError(f"must be at most {most:g} {unit} (a year), not {value:g}")
    return value


def _share(value: float) -> float:
    if not 0.5 <= value <= 1:
        raise ValueError(f"expected a share of the time allowed from 0.5 to 1, found {value:g}")
    return value


def _times_of_day(values: tuple) -> tuple[time, ...]:
    return tuple(parse_time(str(v)) for v in values)


def time_zone(name: object) -> ZoneInfo:
    """A check: the time zone of that name (a ZoneInfo is kept as it is)."""
    if isinstance(name, ZoneInfo):
        return name
    try:
        return ZoneInfo(str(name))
    except (ZoneInfoNotFoundError, ValueError, OSError):
        raise ValueError(
            f"{name!r} is not a time zone; use a name like Europe/London or UTC"
        ) from None


def _policy(value: str) -> str:
    if value not in POLICIES:
        raise ValueError(f"must be one of {', '.join(POLICIES)}, not {value!r}")
    return value


@dataclass(frozen=True)
class Deadlines:
    """A campaign's `deadlines` (campaign.yaml), as the module's docstring shows them."""

    hours: float | None = setting(None, check=_positive_hours)
    times: tuple[time, ...] = setting((), check=_times_of_day)
    min_hours: float = setting(12.0, check=_non_negative)
    weekdays_only: bool = False
    grace_minutes: float = setting(0.0, check=lambda v: _non_negative(v, "minutes"))
    # the one reminder: this many hours before the deadline, or else when ``remind_share`` of
    # the time allowed has passed; never within the first half of it
    remind_hours: float | None = setting(None, check=_non_negative)
    remind_share: float = setting(0.75, check=_share)
    timezone: ZoneInfo = setting(ZoneInfo("UTC"), check=time_zone)
    policy: str = setting("wait", check=_policy)

    @property
    def active(self) -> bool:
        return self.hours is not None or bool(self.times)

    @property
    def grace(self) -> timedelta:
        return timedelta(minutes=self.grace_minutes)

    def reminder(self, asked: datetime, due: datetime, gap: timedelta = timedelta(0)) -> datetime:
        """When the reminder of a decision asked for at ``asked`` and due at ``due`` goes
        out: ``remind_hours`` before the deadline, or once ``remind_share`` of the time
        allowed has passed, but never within the first half of it, so that a short deadline
        is not reminded at once (nor before the mail that asked for the decision). The time
        allowed is the decision's own: weekday time with ``weekdays_only`` (a reminder never
        falls on a weekend). Where ticks come ``gap`` apart, the last tick before the
        deadline reminds, if the reminder's time would fall after it."""
        allowed = self._counted(asked, due)
        if self.remind_hours is not None:
            into = allowed - timedelta(hours=self.remind_hours)
        else:
            into = allowed * self.remind_share
        at = self._after(asked, max(into, allowed / 2))
        return min(at, max(due - gap, self._after(asked, allowed / 2)))

    def _after(self, start: datetime, counted: timedelta) -> datetime:
        """The moment ``counted`` of the campaign's time after ``start`` (aware UTC)."""
        local = start.astimezone(self.zone)
        moment = self._add_hours(local, counted / timedelta(hours=1))
        return (self._skip_weekend(moment) if self.weekdays_only else moment).astimezone(UTC)

    def _counted(self, start: datetime, end: datetime) -> timedelta:
        """The campaign's time from ``start`` to ``end``: the weekday time between them with
        ``weekdays_only``, else all of it."""
        if not self.weekdays_only:
            return end - start
        counted, now = timedelta(0), self._skip_weekend(start.astimezone(self.zone))
        while now < end:
            midnight = datetime.combine(now.date() + timedelta(days=1), time(0), now.tzinfo)
            counted += _elapsed(now, min(midnight, end.astimezone(self.zone)))
            now = self._skip_weekend(midnight)
        return counted

    @property
    def zone(self) -> ZoneInfo:
        return self.timezone

    @classmethod
    def from_settings(cls, data: dict | None) -> Deadlines:
        """The settings as written (a game master's `deadlines` command), every mistake
        told at once in one DeadlineError."""
        try:
            return read(cls, data, "deadlines")
        except SettingsError as err:
            raise DeadlineError("; ".join(f"deadlines.{p}" for p in err.problems)) from None

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


def next_daily(after: datetime, at: time, zone: ZoneInfo) -> datetime:
    """The first moment after ``after`` when the clocks of ``zone`` show ``at`` (aware UTC):
    a daily mail goes at a time of day, and does not drift with the ticks."""
    local = after.astimezone(zone)
    day = local.date()
    while True:
        moment = datetime.combine(day, at, zone)
        if moment > local:
            return moment.astimezone(UTC)
        day += timedelta(days=1)


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


class Shown(str):
    """A time as a player reads it, in full ('Fri 27 Nov 2026 18:00 CET'), with ``short``
    for a mail's subject ('Fri 18:00 CET'): the English; ``worded`` says it in another
    language, as a mail in that language shows it."""

    local: datetime  # the moment in the reader's time zone
    brief: bool  # the short form

    def __new__(cls, local: datetime, brief: bool = False) -> Shown:
        name = local.tzname() or str(local.tzinfo)
        shown = super().__new__(cls, local.strftime(ENGLISH[brief]) + name)
        shown.local, shown.brief = local, brief
        return shown

    @property
    def short(self) -> Shown:
        return Shown(self.local, brief=True)

    def worded(self, language: str) -> str:
        """The time in ``language`` (a locale's code), day and month names and the zone's
        as its readers write them."""
        if language == "en":
            return str(self)
        from babel.dates import format_datetime  # only for a reader of another language

        zone = format_datetime(self.local, "zzz", locale=language)
        if zone[:1] in "+-":  # no name of its own in that language: the one of the zone
            zone = self.local.tzname() or zone
        return f"{format_datetime(self.local, WORDED[self.brief], locale=language)} {zone}"


ENGLISH = {False: "%a %d %b %Y %H:%M ", True: "%a %H:%M "}  # as strftime writes them
WORDED = {False: "EEE d. MMM y HH:mm", True: "EEE HH:mm"}  # as Babel writes them (CLDR)


def reader_zone(zone_name: str | None, fallback: ZoneInfo) -> ZoneInfo:
    """A player's own time zone if they set one (and it is known), else ``fallback``."""
    try:
        return ZoneInfo(zone_name) if zone_name else fallback
    except (ZoneInfoNotFoundError, ValueError):
        return fallback


def show(moment: datetime, zone_name: str | None, fallback: ZoneInfo) -> Shown:
    """A time as a player reads it: in their own time zone if they set one."""
    zone = reader_zone(zone_name, fallback)
    return Shown(moment.astimezone(zone))


def parse_when(text: str) -> datetime:
    return datetime.fromisoformat(text.replace("Z", "+00:00"))


def stamp(moment: datetime) -> str:
    return moment.astimezone(UTC).replace(microsecond=0).isoformat().replace("+00:00", "Z")
