"""The commands only a player may give inside a campaign."""

from __future__ import annotations

from datetime import timedelta
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from ... import records
from ...contract import Say
from ...settings.campaign import MAIL_CHOICES
from ...settings.deadlines import MAX_ABSENCE, DeadlineError, parse_day, parse_time
from ...store.campaign import Status
from ...words import language
from ...words.render import say
from .base import CampaignCommand, CommandError, Commands, Who


class AbsenceCommand(CampaignCommand):
    name = "absence"
    aliases = ("abwesend",)
    usage = Say("absence 2026-12-24 2026-12-31")
    summary = Say("away: your deadlines move on by those days")
    who = Who.PLAYERS
    record = records.Absence

    def run(self, ctx: Commands, rest: str, line: str) -> records.Command:
        player = ctx.player()
        words = rest.split()
        if len(words) != 2:
            raise CommandError(say("absence_usage"))
        first, last = parse_day(words[0]), parse_day(words[1])
        if last < first:
            raise CommandError(say("absence_backwards"))
        if last + timedelta(days=1) - first > MAX_ABSENCE:
            raise CommandError(say("absence_too_long", days=MAX_ABSENCE.days))
        if last + timedelta(days=1) < ctx.now:
            raise CommandError(say("absence_over"))
        kept = [a for a in player.absence if parse_day(a[1]) + timedelta(days=1) >= ctx.now]
        if words not in kept:  # the same absence twice is kept once
            kept.append(words)
        player.absence = kept
        ctx.campaign.changed()
        return records.Absence(line, say("absence_noted", first=words[0], last=words[1]))


class TimeZoneCommand(CampaignCommand):
    name = "timezone"
    aliases = ("zeitzone",)
    usage = Say("timezone Europe/Berlin")
    summary = Say("times shown to you in your own time zone")
    who = Who.PLAYERS
    record = records.TimeZone

    def run(self, ctx: Commands, rest: str, line: str) -> records.Command:
        player = ctx.player()
        zone = rest.strip()
        try:
            ZoneInfo(zone)
        except (ZoneInfoNotFoundError, ValueError):
            raise CommandError(say("no_such_zone", zone=zone)) from None
        player.timezone = zone
        ctx.campaign.changed()
        return records.TimeZone(line, say("timezone_set", zone=zone))


class LanguageCommand(CampaignCommand):
    name = "language"
    aliases = ("sprache",)
    usage = Say("language de")
    summary = Say("the language of your mail: en (English) or de (Deutsch)")
    who = Who.EVERYONE  # the game master reads their own mail too
    record = records.LanguageSet

    def run(self, ctx: Commands, rest: str, line: str) -> records.Command:
        person = ctx.person()
        person.language = chosen_language(rest)
        ctx.campaign.changed()
        with language.reading(person.language, ctx.campaign.game):  # said in the new one
            return records.LanguageSet(line, say("language_set", name=person.language))


def chosen_language(written: str) -> str:
    """The language a player asked for, by its code or its name ('de', 'Deutsch'), or
    CommandError naming those offered."""
    chosen = language.known(written)
    if chosen is None:
        raise CommandError(say("no_such_language", written=written.strip(), offered=OFFERED))
    return chosen


OFFERED = [f"{code} ({name})" for code, name in language.LANGUAGES.items()]


class MailCommand(CampaignCommand):
    name = "mail"
    aliases = ("post",)
    usage = Say("mail digest|each|brief")
    summary = Say(
        "how much mail: a daily digest (at 18:00, or 'mail digest 07:30'), each, or brief"
    )
    who = Who.PLAYERS
    record = records.MailSet

    def run(self, ctx: Commands, rest: str, line: str) -> records.Command:
        player = ctx.player()
        choice, _, at = rest.strip().lower().partition(" ")
        if choice not in MAIL_CHOICES or (at and choice != "digest"):
            raise CommandError(say("mail_usage", choices=MAIL_CHOICES))
        if at:
            try:
                at = parse_time(at).strftime("%H:%M")
            except DeadlineError as err:
                raise CommandError(str(err)) from None
        player.mail, player.digest_at = choice, at or None
        ctx.campaign.changed()
        means = MAIL_CHOICES[choice]
        return records.MailSet(line, say("mail_set", choice=choice, means=means, at=at))


class LeaveCommand(CampaignCommand):
    name = "leave"
    aliases = ("austreten",)
    usage = Say("leave")
    summary = Say("leave a game that has not started yet")
    who = Who.PLAYERS
    record = records.Leave

    def run(self, ctx: Commands, rest: str, line: str) -> records.Command:
        player = ctx.player()
        if ctx.campaign.status != Status.OPEN:
            raise CommandError(say("leave_too_late"))
        ctx.campaign.players.remove(player)
        ctx.campaign.changed()
        return records.Leave(line, say("left", campaign_id=ctx.campaign.id))
