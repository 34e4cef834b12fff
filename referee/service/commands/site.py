"""The commands of a mail that names no campaign: open, join, list, status, observe,
unobserve, help."""

from __future__ import annotations

import re
import secrets
from collections.abc import Sequence
from datetime import datetime
from typing import cast

from ...contract import Say, SignUp, SignupChoice
from ...mail.headers import decoded_once
from ...records import Action, Replace
from ...schema import SettingsError
from ...settings.deadlines import DeadlineError
from ...store.campaign import Campaign, CampaignError, Player, Status
from ...words import language
from ...words.render import Said
from ..limits import OBSERVE_CODE, UNOBSERVE_CODE
from ..notices import Notice
from .base import CommandError, Outside, Site, SiteCommand, checked_name, newcomer_name, seated
from .everyone import status_of
from .game_master import deadline_settings
from .players import chosen_language


def no_such_game(ctx: Outside, campaign_id: str) -> None:
    """The mail named a campaign this site does not have."""
    shown = campaign_id if re.fullmatch(r"[a-z0-9-]{1,32}", campaign_id) else ""
    ctx.answer(
        "no such game", Said.of("subject_no_such_game"), Said.of("no_such_game", campaign_id=shown)
    )


def named_campaign(ctx: Outside, campaign_id: str, subject: Said) -> Campaign | None:
    """The campaign a site command names, or None when the sender has been told that there
    is none, or that it cannot be read just now (its game master is told by the tick)."""
    if not ctx.site.has_campaign(campaign_id):
        no_such_game(ctx, campaign_id)
        return None
    try:
        return ctx.site.campaign(campaign_id)
    except CampaignError:
        ctx.answer("unavailable", subject, Said.of("unavailable", campaign_id=campaign_id))
        return None


class OpenCommand(SiteCommand):
    name = "open"
    aliases = ("eröffnen",)
    usage = Say("open <game> <id> <seats> [KEY=VALUE]")
    summary = Say("open a game for sign-up (game masters)")

    def run(self, ctx: Outside, rest: str, line: str) -> None:
        expected = ctx.site.config.game_master_token(ctx.sender_address)
        # as bytes: compare_digest raises on a str beyond ASCII (a token the GM set so)
        given = (ctx.token or "").encode()
        if not (expected and given and secrets.compare_digest(expected.encode(), given)):
            ctx.answer("not opened", Said.of("subject_not_opened"), Said.of("open_gm_only"))
            return
        words = rest.split()
        try:
            game, campaign_id, seats = words[0].lower(), words[1].lower(), int(words[2])
            options = dict(w.split("=", 1) for w in words[3:])
        except (IndexError, ValueError):
            ctx.answer("not opened", Said.of("subject_not_opened"), Said.of("open_usage"))
            return
        try:
            deadlines = deadline_settings(options)
        except DeadlineError as err:
            ctx.answer("not opened", Said.of("subject_not_opened"), as_said(err))
            return
        try:
            gm_name = checked_name(ctx.sender_name) if ctx.sender_name else "Game master"
            campaign = ctx.site.new_campaign(
                game,
                campaign_id,
                [],
                options=options,
                seats=seats,
                gm=f"{gm_name} <{ctx.sender_address}>",
                settings={"deadlines": deadlines} if deadlines else None,
            )
        except CampaignError as err:
            ctx.answer("not opened", Said.of("subject_not_opened"), as_said(err))
            return
        assert campaign.gm is not None
        identity = ctx.site.identity
        ctx.answer(
            "opened",
            Said.of("subject_opened", campaign_id=campaign.id),
            Said.of(
                "opened",
                campaign_id=campaign.id,
                title=campaign.rules.title,
                seats=seats,
                referee=identity.address,
                gm_address=identity.plus(campaign.id, campaign.gm.token),
                deadlines=deadlines,
            ),
            reply_to=identity.plus(campaign.id, campaign.gm.token),
        )


class JoinCommand(SiteCommand):
    name = "join"
    aliases = ("beitreten",)
    usage = Say("join <game> as <your name> [choices]")
    summary = Say("take a seat in a game open for sign-up (its help names the choices it asks for)")

    def run(self, ctx: Outside, rest: str, line: str) -> None:
        words = join_words(rest)
        try:
            words, chosen = asked_language(words)
        except CommandError as err:
            subject = Said.of("subject_not_joined")
            ctx.answer("not joined", subject, Said.of("said", text=str(err)))
            return
        if chosen is None:
            self.join(ctx, words, chosen)
            return
        with language.reading(chosen):  # answered in the language asked for
            self.join(ctx, words, chosen)

    def join(self, ctx: Outside, words: list[str], chosen: str | None) -> None:
        campaign_id = words[0].lower() if words else ""
        campaign = None
        if ctx.site.has_campaign(campaign_id):
            campaign = named_campaign(ctx, campaign_id, Said.of("subject_not_joined"))
            if campaign is None:
                return
        if campaign is None or campaign.status != Status.OPEN:
            ctx.answer(
                "not joined",
                Said.of("subject_not_joined"),
                Said.of("no_open_game", campaign_id=campaign_id),
                open_games(ctx.site),
            )
            return
        existing = campaign.seat_of_address(ctx.sender_address)
        try:
            name, signup = read_signup(campaign, words[1:], existing)
            player = (
                campaign.players[existing]
                if existing is not None
                else campaign.add_player(
                    newcomer_name(
                        decoded_once(name)
                        if name
                        else ctx.sender_name or ctx.sender_address.partition("@")[0],
                        ctx.site,
                        campaign,
                        ctx.sender_address,
                    ),
                    ctx.sender_address,
                )
            )
        except CampaignError as err:
            ctx.answer(
                "not joined",
                Said.of("subject_not_joined_game", campaign_id=campaign_id),
                as_said(err),
            )
            return
        player.signup.update(signup)
        player.language = chosen or player.language
        seated(campaign, player.address)
        campaign.save()
        subject, text, address = seat_taken(ctx.site, campaign, player)
        with language.reading_in(campaign, player, ctx.site.identity.language):  # as it mails them
            ctx.answer("joined", subject, text, reply_to=address)
        if len(campaign.players) == campaign.seats:
            ctx.site.start_campaign(campaign, filled=True)


def seat_taken(site: Site, campaign: Campaign, player: Player) -> tuple[Said, Said, str]:
    """The mail (subject, text and the Reply-To address) that tells a player of their
    seat in a game open for sign-up: their token and address, and when the game starts."""
    address = site.identity.plus(campaign.id, player.token)
    full = len(campaign.players) == campaign.seats
    text = Said.of(
        "joined",
        name=player.name,
        campaign_id=campaign.id,
        title=campaign.rules.title,
        token=player.token,
        address=address,
        full=full,
        seats=campaign.seats,
        joined=len(campaign.players),
        signup=signup_note(campaign, player, started=full),
    )
    return Said.of("subject_joined", campaign_id=campaign.id), text, address


def tell_replaced(site: Site, campaign: Campaign, actions: Sequence[Action]) -> list[Notice]:
    """The mails of each replace among the ``actions`` of a game open for sign-up, by mail or
    `referee gm` (a started game's answers tell both from its log): the newcomer's seat, with
    its token, and the notice to the player replaced. Each has its Message-ID from a token:
    queued again, it is sent once; the game's seats bound how many (no answer limits)."""
    told: list[Notice] = []
    for action in actions:
        if not action.gave_away():
            continue  # not a replace that ran
        action = cast(Replace, action)  # the command that gives a seat away is a replace
        newcomer = campaign.players[action.seat]
        if newcomer.name == action.new:  # not replaced again later in the same mail
            subject, text, address = seat_taken(site, campaign, newcomer)
            key = f"{campaign.id} replace {newcomer.token}"
            with language.reading_in(campaign, newcomer, site.identity.language):
                told.append(
                    Notice(
                        newcomer.address,
                        "joined",
                        subject,
                        (text,),
                        key,
                        reply_to=address,
                        audience=None,
                    )
                )
        text = Said.of("replaced_you", name=action.old, new=action.new, campaign_id=campaign.id)
        subject = Said.of(
            "subject_in_game", campaign_id=campaign.id, subject=Said.of("subject_replaced_you")
        )
        key = f"{campaign.id} replaced {action.old_address} {newcomer.token}"
        with language.reading_in(campaign, None, site.identity.language):  # no longer a player
            told.append(
                Notice(action.old_address, "replaced", subject, (text,), key, audience=None)
            )
    return told


def as_said(err: Exception) -> Said:
    """A refusal's reason, which says itself what is wrong (``CampaignError``)."""
    return Said.of("said", text=str(err))


ASKS_TO_JOIN = re.compile(r"\b(join|sign(ing)?[ -]?up)\b", re.IGNORECASE)


def asked_to_join(ctx: Outside, lines: list[str]) -> bool:
    """A mail that asks in words to join a game ("Hi, can I join your bus game?") is told
    the line that joins each game open for sign-up, under the name it came from."""
    if not any(ASKS_TO_JOIN.search(line) for line in lines):
        return False
    try:
        name = checked_name(ctx.sender_name)  # a suggestion: each game checks it at join
    except CampaignError:  # no name, or one that cannot be a player's: theirs to choose
        name = "YourName"
    ctx.answer(
        "join in words",
        Said.of("subject_open_games"),
        Said.of("join_in_words"),
        open_games(ctx.site, name),
    )
    return True


class ListCommand(SiteCommand):
    name = "list"
    aliases = ("liste",)
    usage = Say("list")
    summary = Say("the games open for sign-up")

    def run(self, ctx: Outside, rest: str, line: str) -> None:
        ctx.answer("open games", Said.of("subject_open_games"), open_games(ctx.site))


class SiteStatusCommand(SiteCommand):
    name = "status"
    aliases = ("games", "spiele")
    usage = Say("status | games")
    summary = Say("every game you play, from the address you play with")

    def run(self, ctx: Outside, rest: str, line: str) -> None:
        ctx.answer(
            "status",
            Said.of("subject_status"),
            status_of(ctx.site, ctx.sender_address, addresses=True),
        )


class ObserveCommand(SiteCommand):
    name = "observe"
    aliases = ("zuschauen",)
    usage = Say("observe <game> | unobserve <game>")
    summary = Say("get each round's report of a game you do not play (confirmed by a reply)")

    def run(self, ctx: Outside, rest: str, line: str) -> None:
        campaign_id = rest.split()[0].lower() if rest.split() else ""
        if not campaign_id:
            ctx.answer("observe usage", Said.of("subject_help"), Said.of("observe_usage"))
            return
        campaign = named_campaign(
            ctx, campaign_id, Said.of("subject_observing", campaign_id=campaign_id)
        )
        if campaign is None:
            return
        with language.reading_in(campaign, None, ctx.site.identity.language):  # as it reports
            self.observe(ctx, campaign)

    def observe(self, ctx: Outside, campaign: Campaign) -> None:
        subject = Said.of("subject_observing", campaign_id=campaign.id)
        refused = observe_refused(ctx.site, campaign, ctx.sender_address)
        if refused or ctx.sender_address in campaign.config.observers:
            ctx.answer(
                "observing", subject, refused or Said.of("observing", campaign_id=campaign.id)
            )
            return
        asked_to_confirm(ctx, campaign, OBSERVE_CODE, "observing")


def asked_to_confirm(ctx: Outside, campaign: Campaign, kind: str, what: str) -> None:
    """The sender is mailed a one-time code of ``kind`` (OBSERVE_CODE, UNOBSERVE_CODE) in
    the Reply-To, to bring back by a reply from their own address (``confirm_observer``): a
    forged sender never sees it, so adds or stops no observer, and the address's owner
    learns someone asked (the templates subject_confirm_``what`` and confirm_``what``)."""
    code = ctx.site.post.observe_codes.new(kind)
    reply = ctx.site.identity.plus(campaign.id, code)
    text = Said.of(f"confirm_{what}", campaign_id=campaign.id, address=reply)
    subject = Said.of(f"subject_confirm_{what}", campaign_id=campaign.id)
    if ctx.answer(f"confirm {what}", subject, text, reply_to=reply):
        ctx.site.post.observe_codes.keep(campaign.id, ctx.sender_address, code, ctx.now)


def observe_refused(site: Site, campaign: Campaign, address: str) -> Said | None:
    """Why ``address`` may not observe the campaign now, or None."""
    if campaign.seat_of_address(address) is not None:  # a game master may: none come to them
        return Said.of("plays_in", campaign_id=campaign.id)
    if campaign.config.no_observers:
        return Said.of("no_observers", campaign_id=campaign.id)
    most = site.config.limits.observers_per_game
    if address not in campaign.config.observers and len(campaign.config.observers) >= most:
        return Said.of("observers_full", campaign_id=campaign.id, most=most)
    return None


def confirm_observer(
    site: Site, campaign: Campaign, address: str, code: str, now: datetime
) -> Said | None:
    """A reply that brings back the code mailed to ``address`` (the token of its
    plus-address): the address observes the campaign from now on, unless it may not, or
    observes no more (a code to stop, UNOBSERVE_CODE). What to answer, or None when the
    code is not one that holds (it was not sent to that address for that campaign, it was
    used, or it is too old)."""
    if not site.post.observe_codes.use(campaign.id, address, code, now):
        return None
    if code.startswith(UNOBSERVE_CODE):
        return stop_observing(campaign, address)
    refused = observe_refused(site, campaign, address)
    if refused:
        return refused
    observers = list(campaign.config.observers)
    if address not in observers:
        campaign.settings["observers"] = [*observers, address]
        campaign.save()
    return Said.of("observing", campaign_id=campaign.id)


class UnobserveCommand(SiteCommand):
    name = "unobserve"
    aliases = ("abbestellen",)
    usage = Say("unobserve <game>")
    summary = Say("stop observing a game (confirmed by a reply)")

    def run(self, ctx: Outside, rest: str, line: str) -> None:
        campaign_id = rest.split()[0].lower() if rest.split() else ""
        if not campaign_id:
            ctx.answer("observe usage", Said.of("subject_help"), Said.of("observe_usage"))
            return
        campaign = named_campaign(
            ctx, campaign_id, Said.of("subject_observing", campaign_id=campaign_id)
        )
        if campaign is None:
            return
        with language.reading_in(campaign, None, ctx.site.identity.language):  # as it reports
            if ctx.sender_address not in campaign.config.observers:  # its settings as they are
                subject = Said.of("subject_observing", campaign_id=campaign.id)
                said = Said.of("was_not_observing", campaign_id=campaign.id)
                ctx.answer("observing", subject, said)
                return
            asked_to_confirm(ctx, campaign, UNOBSERVE_CODE, "unobserving")


def stop_observing(campaign: Campaign, address: str) -> Said:
    """The address observes the campaign no more (it confirmed it): what to tell it."""
    observers = list(campaign.config.observers)
    if address not in observers:  # stopped meanwhile (the game closed to observers)
        return Said.of("was_not_observing", campaign_id=campaign.id)
    campaign.settings["observers"] = [a for a in observers if a != address]
    campaign.save()
    return Said.of("not_observing", campaign_id=campaign.id)


class SiteHelpCommand(SiteCommand):
    name = "help"
    aliases = ("hilfe",)
    usage = Say("help")
    summary = Say("how to play by mail")

    def run(self, ctx: Outside, rest: str, line: str) -> None:
        ctx.answer("help", Said.of("subject_help"), ctx.help_outside())


def signup_choices(campaign: Campaign) -> tuple[SignupChoice, ...]:
    """What a player may choose when joining the campaign's game (``SignUp``), if anything."""
    signup = campaign.descriptor.offers(SignUp)
    return signup.choices if signup else ()


def join_words(text: str) -> list[str]:
    """The words of a join line; a name in double quotes (straight or curly) is one word."""
    text = re.sub("[\u201c\u201d\u201e]", '"', text)
    return [quoted or word for quoted, word in re.findall(r'"([^"]*)"|(\S+)', text)]


LANGUAGE_WORDS = ("language", "sprache")  # a join's choice of language, the referee's own
AS_WORDS = ("as", "als")  # before the name a player joins under


def asked_language(words: list[str]) -> tuple[list[str], str | None]:
    """A join line's words without its choice of language ('language de'), and the language
    chosen (None: none); CommandError when it is not one offered."""
    for i, word in enumerate(words):
        if i > 1 and word.lower() in LANGUAGE_WORDS:
            written = words[i + 1] if i + 1 < len(words) else ""
            return words[:i] + words[i + 2 :], chosen_language(written)
    return words, None


def read_signup(campaign: Campaign, words: list[str], seat: int | None) -> tuple[str, dict]:
    """A join line after the game's id: 'as <name>', then the choices the game asks for
    (``SignUp``), each its keyword and its value, e.g. company "Vale Motors" colours
    red,blue. Returns the name (or "") and the choices read; CampaignError says what is wrong
    with them."""
    signup = campaign.descriptor.offers(SignUp)
    choices = signup.choices if signup else ()
    keyword = {w: c for c in choices for w in (c.word, *c.aliases)}
    name: list[str] = []
    given: dict[str, list[str]] = {}
    current = None
    for i, word in enumerate(words):
        if i == 0 and word.lower() in AS_WORDS:
            continue
        if word.lower() in keyword:
            current = keyword[word.lower()]
            given[current.word] = []
        elif current is not None:
            given[current.word].append(word)
        elif words[:1] and words[0].lower() in AS_WORDS:
            name.append(word)
    if signup is None or not given:
        return " ".join(name), {}
    try:
        read = signup.read({word: " ".join(value) for word, value in given.items()}, "join")
    except SettingsError as err:
        raise CampaignError("; ".join(map(str, err.problems))) from None
    others = [p for s, p in enumerate(campaign.players) if s != seat]
    for choice in choices:
        value = read.get(choice.word)
        if (
            choice.distinct
            and value is not None
            and any(
                str(p.signup.get(choice.word, "")).lower() == str(value).lower() for p in others
            )
        ):
            raise CampaignError(f"{choice.word} {value} is taken in {campaign.id}: choose another")
    return " ".join(name), read


def signup_note(campaign: Campaign, player: Player, started: bool) -> Said | None:
    """What the player chose when joining, and, until the game starts, what more they may
    choose, for a game that asks."""
    choices = signup_choices(campaign)
    if not choices:
        return None
    chosen = [
        (c.word, ", ".join(v) if isinstance(v, list) else str(v))
        for c in choices
        if (v := player.signup.get(c.word)) is not None
    ]
    return Said.of(
        "signup_chosen",
        chosen=chosen,
        offered=[]
        if started
        else [(c.word, c.example, c.summary) for c in choices if c.word not in player.signup],
        campaign_id=campaign.id,
    )


def open_games(site: Site, name: str = "YourName") -> Said:
    """The games open for sign-up, each with the line that joins it as ``name``; one that
    cannot be read is passed over (its game master is told by the tick)."""
    games = []
    for campaign_id in site.signup_ids():
        try:
            campaign = site.campaign(campaign_id)
            campaign.descriptor  # noqa: B018 (a game this referee does not have: passed over)
        except (CampaignError, ValueError):
            continue
        if campaign.status == Status.OPEN and campaign.seats is not None:
            games.append(
                {
                    "id": campaign.id,
                    "title": campaign.rules.title,
                    "free": campaign.seats - len(campaign.players),
                    "seats": campaign.seats,
                    "signup": " ".join(f"{c.word} {c.example}" for c in signup_choices(campaign)),
                }
            )
    return Said.of("open_games", games=games, name=name)
