"""A referee site at work: its settings, its files (``store.site``), where its mail goes
out (``post``), and the start of its campaigns."""

from __future__ import annotations

import logging
from datetime import datetime
from pathlib import Path

from ..records import Kind, Record
from ..settings.site import Config
from ..store.campaign import Campaign, Status, Table
from ..store.site import SiteFiles
from .answers import welcome_game_master, welcome_players
from .play import advance, commit
from .post import Post

log = logging.getLogger(__name__)


class Site(SiteFiles):
    def __init__(self, config: Config):
        super().__init__(Path(config.path).parent, Path(config.data_root))
        self.config = config
        self.post = Post(config, self.state_dir)
        self.identity = self.post.identity
        self.outbox = self.post.outbox

    def new_campaign(
        self,
        game: str,
        campaign_id: str,
        players: list[str],
        seed=None,
        options=None,
        seats: int | None = None,
        gm: str | None = None,
        settings: dict | None = None,
    ) -> Campaign:
        """A new campaign, started at once, or open for sign-up when ``seats`` is given."""
        campaign = Campaign.create(
            self.data_root, campaign_id, game, players, seed, options, seats, gm, settings
        )
        log.info("campaign %s created: %s, %s", campaign.id, campaign.rules.title, campaign.status)
        if campaign.gm:
            welcome_game_master(self.post, campaign)
        if campaign.status == Status.RUNNING:
            self.start_campaign(campaign)
        return campaign

    def start_campaign(self, campaign: Campaign, now: datetime | None = None) -> Table:
        """The game begins (``now``, or at once): a welcome to every player with their
        token and the seed's fingerprint, and the first prompt to whoever acts first."""
        campaign.status = Status.RUNNING
        campaign.seats = None
        campaign.check_game()
        campaign.save()
        table = campaign.table()
        commit(table, advance(table, set(campaign.robots)), Record(Kind.REFEREE))
        welcome_players(self.post, table, now)
        log.info(
            "campaign %s started: %s", campaign.id, ", ".join(p.name for p in campaign.players)
        )
        return table
