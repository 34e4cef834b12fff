"""The commands only a campaign's game master may give (by mail with their token, or on the
server with `referee gm <campaign> ...`)."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import replace

from ... import records
from ...contract import OwnDrop, Say
from ...mail.headers import decoded_once
from ...settings.deadlines import DeadlineError, Deadlines
from ...store.campaign import Player, Status, new_token, parse_player
from ...words.render import say
from .. import timekeeping
from ..play import adjudicate, decide_by_bot, dropped_by
from .base import CampaignCommand, CommandError, Commands, Who, newcomer_name, seated


def switch_status(ctx: Commands, wanted: Status, new: Status) -> None:
    """The game master moves the campaign from ``wanted`` to ``new`` (pause, resume)."""
    ctx.game_master()
    if ctx.campaign.status != wanted:
        raise CommandError(say("not_in_status", status=ctx.campaign.status, wanted=wanted))
    ctx.campaign.status = new
    ctx.campaign.changed()


class PauseCommand(CampaignCommand):
    name = "pause"
    aliases = ("pausieren",)
    usage = Say("pause")
    summary = Say("stop the game and its deadlines")
    who = Who.GAME_MASTER
    record = records.Pause

    def run(self, ctx: Commands, rest: str, line: str) -> records.Command:
        switch_status(ctx, Status.RUNNING, Status.PAUSED)
        timekeeping.pause(ctx.campaign, ctx.now)
        return records.Pause(line, say("paused"), ctx.now.isoformat())


class ResumeCommand(CampaignCommand):
    name = "resume"
    aliases = ("fortsetzen",)
    usage = Say("resume")
    summary = Say("go on again after a pause")
    who = Who.GAME_MASTER
    record = records.Resume

    def run(self, ctx: Commands, rest: str, line: str) -> records.Command:
        switch_status(ctx, Status.PAUSED, Status.RUNNING)
        timekeeping.resume(ctx.campaign, ctx.now)
        return records.Resume(line, say("resumed"), ctx.now.isoformat())


class ExtendCommand(CampaignCommand):
    name = "extend"
    aliases = ("verlängern",)
    usage = Say("extend 24")
    summary = Say("every running deadline moves on 24 hours")
    who = Who.GAME_MASTER
    record = records.Extend

    def run(self, ctx: Commands, rest: str, line: str) -> records.Command:
        ctx.game_master()
        ctx.started()  # no deadline runs before
        ctx.not_over()
        hours = rest.split()[0] if rest.split() else "24"
        try:
            value = float(hours)
        except ValueError:
            raise CommandError(say("extend_usage")) from None
        if not 1 <= value <= 24 * 14:
            raise CommandError(say("extend_range"))
        timekeeping.extend(ctx.campaign, value, ctx.table, ctx.now)
        return records.Extend(line, say("extended", hours=f"{value:g}"), value)


class DeadlinesCommand(CampaignCommand):
    name = "deadlines"
    aliases = ("fristen",)
    usage = Say("deadlines hours=48 policy=bot")
    summary = Say("change the deadline settings (hours, times, policy, ...)")
    who = Who.GAME_MASTER
    record = records.DeadlinesSet

    def run(self, ctx: Commands, rest: str, line: str) -> records.Command:
        ctx.game_master()
        ctx.not_over()
        try:
            words = dict(w.split("=", 1) for w in rest.split())
        except ValueError:
            raise CommandError(say("deadlines_usage")) from None
        changed = deadline_settings(words)
        if not changed or words:
            raise CommandError(say("deadlines_usage"))
        settings = {**(ctx.campaign.settings.get("deadlines") or {}), **changed}
        Deadlines.from_settings(settings)  # the whole, as the campaign will read it
        ctx.campaign.settings["deadlines"] = settings
        ctx.campaign.changed()
        timekeeping.rearm(ctx.campaign, ctx.now, every=True)  # the new settings, from now
        # a game open for sign-up tells its players nothing until their welcome
        said = say("deadlines_set", settings=rest.strip(), started=ctx.table is not None)
        return records.DeadlinesSet(line, said, rest.strip())


class ObserversCommand(CampaignCommand):
    name = "observers"
    aliases = ("zuschauer",)
    usage = Say("observers off")
    summary = Say("keep observers out (those watching are dropped and told), or 'observers on'")
    who = Who.GAME_MASTER
    record = records.ObserversSet

    def run(self, ctx: Commands, rest: str, line: str) -> records.Command:
        ctx.game_master()
        word = rest.strip().lower()
        if word not in ("on", "off"):
            raise CommandError(say("observers_usage"))
        settings = ctx.campaign.settings
        allowed = word == "on"
        if allowed != ctx.campaign.config.no_observers:  # as it is: nothing to tell anyone
            raise CommandError(
                say("observers_already", allowed=allowed, campaign_id=ctx.campaign.id)
            )
        dropped = () if allowed else tuple(settings.get("observers") or ())
        settings["no_observers"] = not allowed
        if dropped:
            settings["observers"] = []
        ctx.campaign.changed()
        return records.ObserversSet(line, say("observers_set", allowed=allowed), allowed, dropped)


WITH = re.compile(r"\s+with\s+", re.IGNORECASE)  # between a replace's two players


class ReplaceCommand(CampaignCommand):
    name = "replace"
    aliases = ("ersetzen",)
    usage = Say("replace Bob with Ann Lee <ann@example.org>")
    summary = Say("a new player takes the seat")
    who = Who.GAME_MASTER
    record = records.Replace

    def run(self, ctx: Commands, rest: str, line: str) -> records.Command:
        ctx.game_master()
        ctx.not_over()  # a newcomer would be welcomed to a game nobody plays
        cuts = list(WITH.finditer(rest))
        if not cuts:
            raise CommandError(say("replace_usage"))
        # a name may hold 'with' itself: the longest before a 'with' that is a player's
        plays = [c for c in cuts if ctx.campaign.seat_of_name(rest[: c.start()]) is not None]
        cut = (plays or cuts)[-1 if plays else 0]
        name, new = rest[: cut.start()], rest[cut.end() :]
        seat = ctx.campaign.seat_of_name(name)
        if seat is None:
            raise CommandError(say("no_such_player", name=name, campaign_id=ctx.campaign.id))
        new_name, address = parse_player(new)
        new_name = newcomer_name(decoded_once(new_name), ctx.site, ctx.campaign, address, seat)
        old = ctx.campaign.players[seat]
        rule = dropped_by(ctx.table, seat) if ctx.table is not None else None
        if rule:  # the game's own rule took the seat out of play (Bus Boss's rule 40)
            raise CommandError(
                say("replace_left", name=old.name, campaign_id=ctx.campaign.id, rule=rule)
            )
        if any(p.address == address for i, p in enumerate(ctx.campaign.players) if i != seat):
            raise CommandError(say("plays_already", address=address, campaign_id=ctx.campaign.id))
        # the newcomer takes over the seat as it is, with what its first player chose when
        # joining (a company, colours): the game replays from them
        ctx.campaign.players[seat] = Player(new_name, address, new_token(), signup=dict(old.signup))
        if seat in ctx.campaign.robots:  # a seat the bot played since a drop: the newcomer's
            ctx.campaign.robots.remove(seat)
        seated(ctx.campaign, address)
        ctx.campaign.changed()
        replaced = records.Replace(
            line, say("replaced", old=old.name, new=new_name), seat, old.name, new_name, old.address
        )
        if ctx.table is not None:  # the newcomer plays on under their own name from here
            replaced.replay(ctx.table)
        return replaced


class DropCommand(CampaignCommand):
    name = "drop"
    aliases = ("entfernen",)
    usage = Say("drop Bob")
    summary = Say("the game's rule for it, or a bot plays on")
    who = Who.GAME_MASTER
    record = records.Drop
    runs_first = True  # it changes the game before the mail's orders apply

    def run(self, ctx: Commands, rest: str, line: str) -> records.Command:
        ctx.game_master()
        seat = ctx.campaign.seat_of_name(rest)
        if seat is None:
            raise CommandError(say("no_such_player", name=rest, campaign_id=ctx.campaign.id))
        name = ctx.campaign.players[seat].name
        table = ctx.started()
        ctx.not_over()  # nobody plays on, and Bus Boss's state refuses it
        if dropped_by(table, seat) is not None:  # Bus Boss's state refuses a second drop
            raise CommandError(say("dropped_already", name=name, campaign_id=ctx.campaign.id))
        own = table.descriptor.offers(OwnDrop)
        said = say("dropped", name=name, note=own.note if own else say("bot_plays_seat"))
        dropped = records.Drop(line, said, seat, name)
        if own is not None:  # the game's own rule: what it did is kept for replay
            return replace(dropped, events=tuple(dropped.replay(table)))
        if seat not in ctx.campaign.robots:
            ctx.campaign.robots.append(seat)
            ctx.campaign.changed()
        return dropped


class RollbackCommand(CampaignCommand):
    name = "rollback"
    aliases = ("zurücknehmen",)
    usage = Say("rollback 3")
    summary = Say("undo the last 3 orders (the log keeps them)")
    who = Who.GAME_MASTER
    record = records.Rollback

    def run(self, ctx: Commands, rest: str, line: str) -> records.Command:
        ctx.game_master()
        if not rest.strip().isdecimal() or int(rest) < 1:
            raise CommandError(say("rollback_usage"))
        count = int(rest)
        table = ctx.started()
        if any(a.decides for a in ctx.done.actions):
            raise CommandError(say("rollback_alone"))
        if ctx.campaign.status == Status.FINISHED:
            raise CommandError(say("rollback_finished"))
        applied = [
            (step.record.n, i, o.text)
            for step in table.steps
            for i, o in enumerate(step.record.orders)
            if (step.record.n, i) not in table.undone
        ]
        if count > len(applied):
            raise CommandError(say("rollback_too_many", count=len(applied)))
        undone = applied[-count:]
        ctx.done.rebuild = True
        return records.Rollback(
            line,
            say("rolled_back", texts=[text for _, _, text in undone]),
            tuple((n, i) for n, i, _ in undone),
        )


class AdjudicateCommand(CampaignCommand):
    name = "adjudicate"
    aliases = ("entscheiden",)
    usage = Say("adjudicate")
    summary = Say("decide now for everyone awaited")
    who = Who.GAME_MASTER
    record = records.Adjudicate

    def run(self, ctx: Commands, rest: str, line: str) -> records.Command:
        ctx.game_master()
        table = ctx.started()
        outcome = ctx.done.outcome
        assert outcome is not None  # a started campaign's commands have one
        decided = []
        for due in table.awaiting:
            if not adjudicate(table, due.seat, outcome):
                decide_by_bot(table, due.seat, outcome)
            decided.append(ctx.campaign.players[due.seat].name)
        if not decided:
            raise CommandError(say("nobody_awaited"))
        return records.Adjudicate(line, say("adjudicated", names=decided))


class StartCommand(CampaignCommand):
    name = "start"
    aliases = ("starten",)
    usage = Say("start")
    summary = Say("start an open game before it is full")
    who = Who.GAME_MASTER
    record = records.Start
    # the settings its mail changes are those the welcomes tell, and what needs a running
    # game (pause, drop ...) is refused as before it, not done to a game just started
    runs_last = True

    def run(self, ctx: Commands, rest: str, line: str) -> records.Command:
        ctx.game_master()
        if ctx.campaign.status != Status.OPEN:
            raise CommandError(say("started_already", status=ctx.campaign.status))
        rules = ctx.campaign.rules
        if len(ctx.campaign.players) < rules.min_players:
            raise CommandError(
                say(
                    "too_few",
                    title=rules.title,
                    needed=rules.min_players,
                    joined=len(ctx.campaign.players),
                )
            )
        ctx.site.start_campaign(ctx.campaign, ctx.now)
        return records.Start(line, say("started"))


DEADLINE_KEYS: dict[str, Callable[[str], object]] = {
    "hours": float,
    "policy": str,
    "timezone": str,
    "times": lambda v: v.split(","),
    "remind_hours": float,
    "remind_share": float,
    "grace_minutes": float,
    "min_hours": float,
    "weekdays_only": lambda v: v.lower() in ("1", "yes", "true"),
}


def deadline_settings(options: dict[str, str]) -> dict:
    """The deadline settings among an `open` line's KEY=VALUE words (taken out of
    ``options``, which keeps the game's own), checked as the campaign will read them."""
    found = {}
    for key in [k for k in options if k.lower() in DEADLINE_KEYS]:
        value = options.pop(key)
        try:
            found[key.lower()] = DEADLINE_KEYS[key.lower()](value)
        except ValueError:
            raise DeadlineError(say("bad_deadline_value", key=key, value=value)) from None
    Deadlines.from_settings(found)
    return found
