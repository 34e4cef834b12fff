"""The site's health at a glance, for `referee status` and a monitoring system: the last tick
and what came of it, the mail waiting to go out and failing, and the mail and campaigns that
wait for the game master."""

from __future__ import annotations

from datetime import datetime

from ..store import snapshots
from ..store.campaign import Campaign, Status, Table
from ..store.names import QUARANTINE, WAITS
from ..store.waits import Waits
from .site import Site


def health(site: Site, now: datetime) -> dict:
    """``ok`` is false when the last tick did not go well (or none ran yet); a monitoring
    system also watches ``seconds_since_last_tick``, which grows when ticks stop."""
    last = site.last_tick()
    outbox = site.outbox
    failing = outbox.failing()
    pending = outbox.pending()
    failing_mails = sum(
        1
        for name in pending
        if outbox.error_note(name) is not None
        or all(a.lower() in failing for a in outbox.outgoing(name).recipients)
    )

    def since(key: str) -> int | None:
        at = (last or {}).get(key)
        return round((now - datetime.fromisoformat(at)).total_seconds()) if at else None

    skipped = list((last or {}).get("skipped") or [])
    return {
        "ok": (last or {}).get("outcome") == "ok",
        "last_tick": last,
        "seconds_since_last_tick": since("at"),
        "seconds_since_last_ok_tick": since("last_ok"),
        "campaigns_skipped": skipped,
        "mails_waiting": len(pending),
        "mails_failing": failing_mails,
        "addresses_failing": failing,
        "mails_undelivered": sum(1 for _ in outbox.failed_dir.glob("*.eml")),
        "mails_quarantined": sum(1 for _ in (site.state_dir / QUARANTINE).glob("*.eml")),
    }


def campaign_summary(campaign: Campaign, table: Table | None) -> dict:
    """What `referee status` shows of a campaign: ``table``, its game (None while it is
    open for sign-up). Kept with what it waits for at each tick's commit (``Waits.note``)."""
    if table is None:
        return {
            "id": campaign.id,
            "game": campaign.game,
            "state": "open",
            "round": 0,
            "awaiting": [],
            "scores": {},
            "finished": False,
            "seats": campaign.seats,
            "joined": [p.name for p in campaign.players],
        }
    view = table.view()
    scores = table.rules.result(table.state)
    return {
        "id": campaign.id,
        "game": campaign.game,
        "state": str(campaign.status),
        "round": view["round"],
        "awaiting": [
            {
                "player": campaign.players[d.seat].name,
                "decision": d.kind,
                "prompt": str(d.prompt),
            }
            for d in table.awaiting
        ],
        "scores": {p["name"]: p[table.descriptor.measure] for p in view["players"]},
        "finished": scores is not None,
    }


class Summaries:
    """The campaigns' summaries for `referee status`: as the last tick kept them, or, for a
    campaign whose files changed since (a command from the shell, an edit by hand, a
    campaign no tick has looked at yet), read from its files."""

    def __init__(self, site: Site):
        self.site = site
        self.waits = Waits(site.state_dir / WAITS)

    def of(self, campaign_id: str) -> dict:
        """The summary of ``campaign_id``; CampaignError when it cannot be read."""
        kept = self.waits.summary(self.site.data_root / campaign_id)
        if kept is not None:
            return kept
        campaign = self.site.campaign(campaign_id)
        table = snapshots.load(campaign) if campaign.status != Status.OPEN else None
        return campaign_summary(campaign, table)
