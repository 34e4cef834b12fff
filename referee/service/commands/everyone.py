"""The commands every player and the game master may give inside a campaign."""

from __future__ import annotations

import logging
import re

from ... import records
from ...contract import HeldOrders, Say
from ...settings.deadlines import show
from ...store import snapshots
from ...store.campaign import Campaign, Status, Table
from ...words import language
from ...words.mails import waiting_for
from ...words.render import Said, say, spoken
from ..timekeeping import dues, first_due
from .base import ADDRESSEES, CampaignCommand, CommandError, Commands, Site, Who

log = logging.getLogger(__name__)


class HelpCommand(CampaignCommand):
    name = "help"
    aliases = ("hilfe",)
    usage = Say("help")
    summary = Say("this text")
    record = records.Help

    def run(self, ctx: Commands, rest: str, line: str) -> records.Command:
        return records.Help(line, say("help"))


class HistoryCommand(CampaignCommand):
    name = "history"
    aliases = ("verlauf",)
    usage = Say("history | history turn 3")
    summary = Say("the game so far, or one turn of it")
    record = records.History

    def run(self, ctx: Commands, rest: str, line: str) -> records.Command:
        ctx.started()  # an open game has no history: the answer would say it is below
        words = rest.lower().split()
        turn = None
        if words[:1] == ["turn"] and len(words) == 2 and words[1].isdecimal():
            turn = int(words[1])
        elif words:
            raise CommandError(say("history_usage"))
        return records.History(line, say("history"), turn)


class MessageCommand(CampaignCommand):
    name = "message"
    aliases = ("nachricht",)
    usage = Say("message all|<player>|gm <text>")
    summary = Say("a message to all, to one player or to the game master")
    record = records.Message
    wraps = True

    def run(self, ctx: Commands, rest: str, line: str) -> records.Command:
        players = ctx.campaign.players
        # the addressee is "all" or a player's whole name (which may have spaces in it), or
        # the German for all or for the game master after the players' names
        names = sorted((p.name for p in players), key=len, reverse=True)
        addressees = [*ADDRESSEES, *names, *GERMAN_ADDRESSEES]
        to = next((n for n in addressees if rest.lower().startswith(n.lower() + " ")), None)
        text = rest[len(to) :].strip() if to else ""
        to = GERMAN_ADDRESSEES.get(to, to) if to else None
        if to is None or not text:
            raise CommandError(say("message_usage", players=[p.name for p in players]))
        if ctx.table is None:  # messages are relayed with the game's mail, from its log
            raise CommandError(say("message_not_started", campaign_id=ctx.campaign.id))
        sender = None if ctx.seat is None else players[ctx.seat].name
        if to == "gm":
            if ctx.seat is None:  # the game master, writing to themselves
                raise CommandError(say("message_gm_yourself", players=[p.name for p in players]))
            if ctx.campaign.gm is None:
                raise CommandError(say("no_gm_to_write_to", campaign_id=ctx.campaign.id))
        relayed_within_budget(ctx)
        text, masked = without_secrets(ctx, text)
        if to == "gm":
            said = say("message_sent_gm", masked=masked)
            return records.Message(line, said, ctx.seat, sender, (), (), False, text, to_gm=True)
        if to == "all":
            seats = [s for s in range(len(players)) if s != ctx.seat]
        else:
            seats = [s for s in range(len(players)) if players[s].name.lower() == to.lower()]
        names = [players[s].name for s in seats]
        return records.Message(
            line,
            say("message_sent", names=names, masked=masked),
            ctx.seat,
            sender,
            tuple(seats),
            tuple(names),
            to == "all",
            text,
        )


GERMAN_ADDRESSEES = {"alle": "all", "sl": "gm"}  # 'nachricht alle ...', to the Spielleitung


def without_secrets(ctx: Commands, text: str) -> tuple[str, bool]:
    """``text`` with every token of the campaign (its players' and its game master's: each
    is the password to a seat) and every plus-address of the referee's (which carries one)
    shown as a mask instead; and whether there was any. Press is relayed, kept in the log
    and retold in the history: no secret of anyone's may travel in it."""
    local, _, domain = ctx.site.identity.address.partition("@")
    people = [*ctx.campaign.players, *([ctx.campaign.gm] if ctx.campaign.gm else [])]
    tokens = sorted({re.escape(p.token) for p in people}, key=len, reverse=True)
    secret = re.compile(
        rf"{re.escape(local)}\+[^\s@]*@{re.escape(domain)}"  # a plus-address, whole
        rf"|(?<![\w-])(?:{'|'.join(tokens)})(?![\w-])",  # a token, as a word of its own
        re.IGNORECASE,
    )
    masked, count = secret.subn(say("secret_masked"), text)
    return masked, count > 0


def relayed_within_budget(ctx: Commands) -> None:
    """A player (or game master) has a budget of messages relayed an hour (referee.yaml's
    ``limits.messages_per_hour``): one more is counted, or CommandError says when the next
    may go."""
    who = ctx.player() if ctx.seat is not None else ctx.campaign.gm
    most = ctx.site.config.limits.messages_per_hour
    key = f"message {ctx.campaign.id} {who.address if who else 'gm'}"
    frees = ctx.site.post.answer_book.spend(key, most, ctx.now)
    if frees is not None:
        when = show(frees, who.timezone if who else None, ctx.campaign.config.deadlines.zone)
        raise CommandError(say("messages_over", most=most, when=when))


class StatusCommand(CampaignCommand):
    name = "status"
    aliases = ("games", "spiele")
    usage = Say("status | games")
    summary = Say("every game you play: its state and what it awaits")
    record = records.StatusAsked

    def run(self, ctx: Commands, rest: str, line: str) -> records.Command:
        who = ctx.player() if ctx.seat is not None else ctx.campaign.gm
        if who is None:  # `referee gm ID status` on a campaign with no game master of its own
            raise CommandError(say("status_no_gm", campaign_id=ctx.campaign.id))
        return records.StatusAsked(line, status_text(ctx.site, who.address))


class ChoicesCommand(CampaignCommand):
    name = "choices"
    aliases = ("auswahl",)
    usage = Say("choices")
    summary = Say("every choice of your decision, one a line")
    who = Who.PLAYERS
    record = records.ChoicesAsked

    def run(self, ctx: Commands, rest: str, line: str) -> records.Command:
        ctx.player()
        if not any(due.seat == ctx.seat for due in ctx.started().awaiting):
            raise CommandError(say("no_choices"))  # none would be listed
        return records.ChoicesAsked(line, say("choices_below"))


def status_text(site: Site, address: str, table: Table | None = None) -> str:
    """Every campaign ``address`` plays in (or runs), as text (``status_of``)."""
    return spoken(status_of(site, address, table=table))


def status_of(
    site: Site, address: str, addresses: bool = False, table: Table | None = None
) -> Said:
    """Every campaign ``address`` plays in (or runs): its state, its round, what it awaits
    from them and by when; one that cannot be read is named as such. Only those campaigns
    are read; ``table``, a campaign as this tick has it, is shown as it is now. With
    ``addresses`` (an answer to that address, never a log's text), the address with their
    token that each game reads their mail at."""
    games = []
    for campaign_id, campaign in site.campaigns_of(address):
        if table is not None and campaign_id == table.campaign.id:
            campaign = table.campaign
        try:
            game = game_status(campaign, address, table) if campaign is not None else None
        except Exception as err:  # its log cannot be replayed: the game master is told
            log.warning("status: campaign %s cannot be read: %s", campaign_id, err)
            game = None
        if game is not None and campaign is not None and addresses:
            seat = campaign.seat_of_address(address)
            who = campaign.gm if seat is None else campaign.players[seat]
            game["address"] = site.identity.plus(campaign.id, who.token) if who else None
        games.append(game or {"id": campaign_id, "unavailable": True, "address": None})
    return Said.of("status", games=games)


def game_status(campaign: Campaign, address: str, now: Table | None = None) -> dict:
    """One campaign's part of the status, for ``address``, its player or game master (from
    ``now``, its table as this tick has it, when it is that campaign's)."""
    seat = campaign.seat_of_address(address)
    game: dict = {"id": campaign.id, "title": campaign.rules.title, "unavailable": False}
    game.update(status=str(campaign.status), round=None, awaited=None, due=None, held=())
    game["gm"], game["address"] = seat is None, None
    if campaign.status != Status.OPEN:
        if now is not None and now.campaign.id == campaign.id:
            table = now
        else:
            table = snapshots.load(campaign)  # its snapshot, not its whole log
        game["round"] = table.round
        if seat is not None:
            # worded here, where the game's own catalogue is read: a status sent to the
            # referee's address lists games of several kinds
            with language.reading(language.current(), campaign.game):
                _own_game_status(game, table, seat)
    return game


def _own_game_status(game: dict, table: Table, seat: int) -> None:
    prompt = next((d.prompt for d in table.awaiting if d.seat == seat), None)
    game.update(awaited=language.word(prompt), due=dues(table).get(seat))
    holds = table.descriptor.offers(HeldOrders)  # an answer in, till the round resolves
    kept = holds.held(table.state, seat) if holds and prompt is None else None
    game["held"] = tuple(language.word(note) for note in kept.notes) if kept else ()
    game["holding"] = kept.text if kept else ""
    game["waiting_for"] = waiting_for(table) if kept else ""
    game["round_due"] = first_due(table, seat) if kept else None
