"""A campaign as one tick holds it: read once, acted on by every mail and every due deadline
of the tick, its answers decided once (``answers``)."""

from __future__ import annotations

from ..store.campaign import Campaign, Table
from ..store.snapshots import load as load_table
from .site import Site


class Sessions:
    """The campaigns one tick touches, each a session: read once (its settings, and its
    deadline book and watermarks when first asked for), its table loaded once from its
    snapshot (or its log), acted on by every mail and due deadline of the tick: every change
    a tick makes goes through these objects."""

    def __init__(self, site: Site):
        self.site = site
        self.campaigns: dict[str, Campaign] = {}
        self.tables: dict[str, Table] = {}

    def campaign(self, campaign_id: str) -> Campaign:
        if campaign_id not in self.campaigns:
            self.campaigns[campaign_id] = self.site.campaign(campaign_id)
        return self.campaigns[campaign_id]

    def table(self, campaign_id: str) -> Table:
        if campaign_id not in self.tables:
            self.tables[campaign_id] = load_table(self.campaign(campaign_id))
        return self.tables[campaign_id]

    def replay(self, campaign_id: str) -> None:
        """Rebuild a table from its log (after a rollback)."""
        self.tables[campaign_id] = self.campaign(campaign_id).table()

    def forget(self, campaign_id: str | None = None) -> None:
        """Read a campaign (or every one) afresh from its files: after it failed half-way, or
        after a mail outside any campaign wrote to its files beside this tick's copy."""
        for cached in (self.campaigns, self.tables):
            if campaign_id is None:
                cached.clear()
            else:
                cached.pop(campaign_id, None)
