"""`referee check`: the site's settings, every campaign and the mail servers' logins checked
at once, each problem told with what to do, without changing anything."""

from __future__ import annotations

import stat

from ..files import PRIVATE_FILE, PRIVATE_FOLDER, CorruptRecord
from ..mail.inbox import InboxError
from ..mail.outbox import SendError
from ..settings.secrets import env_file
from ..settings.site import Config, ConfigError
from ..store.campaign import CampaignError
from ..words.render import say
from .play import campaign_bot
from .site import Site


def check_site(site: Site, servers: bool = True) -> list[tuple[str, str | None]]:
    """(what, problem or None) for every site game master's token, the limits, every
    campaign and, with ``servers``, the inbox and the sender (a login each; no mail is read
    as processed, none is sent)."""
    results = game_master_tokens(site.config) + limits(site.config) + private_places(site)
    for campaign_id in site.campaign_ids():
        what = f"campaign {campaign_id}"
        try:
            campaign = site.campaign(campaign_id)
            if campaign.status.value != "open":
                # its whole log replays, and the bot its settings name is one its game has
                campaign_bot(campaign.table())
            results.append((what, None))
        except (CampaignError, CorruptRecord, ValueError, KeyError) as err:
            results.append((what, str(err)))
    if servers:
        results.append(("inbox", _inbox_problem(site)))
        results.append(("outbox", _sender_problem(site)))
    return results


def _inbox_problem(site: Site) -> str | None:
    try:
        inbox = site.config.make_inbox()
        try:
            inbox.fetch(limit=1)  # logs in and opens the folder; marks nothing
        finally:
            inbox.close()
    except (ConfigError, InboxError, OSError) as err:
        return str(err)
    return None


def _sender_problem(site: Site) -> str | None:
    try:
        with site.config.make_sender():  # connects and logs in; sends nothing
            pass
    except (ConfigError, SendError, OSError) as err:
        return str(err)
    return None


def game_master_tokens(config: Config) -> list[tuple[str, str | None]]:
    """Each site game master's token variable, set in referee.env or the environment:
    unset, their mail with `open` is refused."""

    def problem(name: str) -> str | None:
        token = config.secret(name)
        if not token:
            return say("token_env_unset", name=name, env_file=env_file(config.path))
        if token and not token.isascii():  # a mail's token is read as ASCII: none matches
            return say("token_env_not_ascii", name=name)
        return None

    return [
        (say("check_game_master", address=address), problem(name))
        for address, name in config.game_masters
    ]


def private_places(site: Site) -> list[tuple[str, str | None]]:
    """Each file or folder holding passwords, tokens or a seed still secret that other users
    of the machine can read or enter (one made by an older referee, or by hand)."""
    places = [env_file(site.config.path), site.config.queue_dir, *site.secret_places()]
    problems = []
    for place in places:
        try:
            mode = place.stat().st_mode
        except FileNotFoundError:
            continue
        if mode & 0o077:
            private = PRIVATE_FOLDER if stat.S_ISDIR(mode) else PRIVATE_FILE
            problems.append(
                say(
                    "readable_by_others",
                    path=place,
                    mode=f"{mode & 0o777:o}",
                    private=f"{private:o}",
                )
            )
    return [(say("check_private"), "; ".join(problems) or None)]


# (message, the limit, the one it must not be more than)
ORDERED_LIMITS = (
    ("limit_over", "per_hour", "per_day"),
    ("limit_over", "strangers_per_hour", "strangers_per_day"),
    ("strangers_looser", "strangers_per_hour", "per_hour"),
    ("strangers_looser", "strangers_per_day", "per_day"),
    ("one_over_all", "strangers_per_hour", "strangers_site_per_hour"),
)


def limits(config: Config) -> list[tuple[str, str | None]]:
    """The limits in referee.yaml, each sound alone (the loader saw to that), checked
    against each other."""
    answers, outbox = config.limits, config.outbox
    problems = [
        say(message, more=more, more_value=value, less=less, less_value=bound)
        for message, more, less in ORDERED_LIMITS
        if (value := getattr(answers, more)) > (bound := getattr(answers, less))
    ]
    if outbox.retry_at_most_hours >= outbox.give_up_days * 24:
        problems.append(
            say("retry_after_give_up", hours=outbox.retry_at_most_hours, days=outbox.give_up_days)
        )
    return [("limits", "; ".join(problems) or None)]
