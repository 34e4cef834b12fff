"""The site's health at a glance, for `referee status` and a monitoring system: the last tick
and what came of it, the mail waiting to go out and failing, and the mail and campaigns that
wait for the game master.

`referee status --json` of a site whose campaigns are as the ticks left them is told from
the site's state and the summaries the ticks kept (``store.waits``) alone: ``statusing`` runs
``site_status`` without the command line, the site's settings or any campaign, and this
module imports what only the campaigns and the outbox need when it needs them."""

from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path

from ..mail.queue import FAILING, given_up, queued
from ..store.names import QUARANTINE, WAITS
from ..store.site import last_tick
from ..store.waits import Waits

TYPE_CHECKING = False  # typing is not imported by `status --json` (see ``statusing``)
if TYPE_CHECKING:
    from collections.abc import Callable

    from ..store.campaign import Campaign, Table
    from .site import Site


class NotKept(Exception):
    """A campaign's summary is not as a tick kept it: it must be read (``Summaries``)."""


def health(state_dir: Path, queue_dir: Path, now: datetime) -> dict:
    """``ok`` is false when the last tick did not go well (or none ran yet); a monitoring
    system also watches ``seconds_since_last_tick``, which grows when ticks stop."""
    last = last_tick(state_dir)
    pending = queued(queue_dir)
    failing: dict[str, dict] = {}
    failing_mails = 0
    if pending or (queue_dir / FAILING).exists():  # the outbox reads the mail and its notes
        from ..mail.outbox import Outbox

        outbox = Outbox(queue_dir)
        failing = outbox.failing()
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
        "mails_undelivered": len(given_up(queue_dir)),
        "mails_quarantined": sum(1 for _ in (state_dir / QUARANTINE).glob("*.eml")),
    }


def site_status(
    state_dir: Path, queue_dir: Path, data_root: Path, now: datetime, read: Callable[[str], str]
) -> str:
    """What `referee status --json` prints: the site's ``health`` and each campaign's summary
    (a campaign a line: json indents in Python, slowly for 10,000 campaigns), as the ticks
    kept them, or as ``read`` gives it (JSON text) for a campaign whose files changed since;
    ``read`` may raise NotKept, which ends this."""
    rows = [
        kept if kept is not None else read(campaign_id)
        for campaign_id, kept in Waits(state_dir / WAITS).summaries(data_root)
    ]
    told = json.dumps(health(state_dir, queue_dir, now), indent=1).replace("\n", "\n ")
    campaigns = ",\n  ".join(rows)
    return f'{{\n "health": {told},\n "campaigns": [\n  {campaigns}\n ]\n}}'


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
        return kept if kept is not None else self.read(campaign_id)

    def read(self, campaign_id: str) -> dict:
        """The summary of ``campaign_id`` read from its files; CampaignError when it cannot
        be read."""
        from ..store import snapshots
        from ..store.campaign import Status

        campaign = self.site.campaign(campaign_id)
        table = snapshots.load(campaign) if campaign.status != Status.OPEN else None
        return campaign_summary(campaign, table)
