"""`referee check`: the site's settings, every campaign and the mail servers' logins checked
at once, each problem told with what to do, without changing anything."""

from __future__ import annotations

from ..files import CorruptRecord
from ..mail.inbox import InboxError
from ..mail.outbox import SendError
from ..settings.site import ConfigError
from ..store.campaign import CampaignError
from .play import campaign_bot
from .site import Site


def check_site(site: Site, servers: bool = True) -> list[tuple[str, str | None]]:
    """(what, problem or None) for every campaign and, with ``servers``, the inbox and the
    sender (a login each; no mail is read as processed, none is sent)."""
    results: list[tuple[str, str | None]] = []
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
