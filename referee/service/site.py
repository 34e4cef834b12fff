"""A referee site at work: its settings, its files (``store.site``), where its mail goes
out (``post``), and the start of its campaigns.

A site is cheap to make: what mail out, the games and the answers need is imported when they
are first asked for, so that a tick with nothing to do (``tick.quiet``) imports none of
them."""

from __future__ import annotations

import logging
import os
from datetime import datetime
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING

from ..mail.inbox import InMail, read_file
from ..mail.queue import make_folders
from ..settings.site import Config
from ..store.rest import note_folders
from ..store.site import SiteFiles

if TYPE_CHECKING:
    from ..mail.outbox import Outbox
    from ..mail.routing import Identity
    from ..store.campaign import Campaign, Table
    from .post import Post

log = logging.getLogger(__name__)


class Site(SiteFiles):
    def __init__(self, config: Config):
        """OSError when a folder of the site cannot be made (a file in the way)."""
        # absolute: the site's folder is named in the game masters' notices
        super().__init__(Path(config.path).absolute().parent, Path(config.data_root))
        make_folders(config.queue_dir)  # here, so that a site that opens can queue mail
        self.config = config
        note_folders(
            self.state_dir,
            config.path,
            data_root=os.path.abspath(config.data_root),
            queue=os.path.abspath(config.queue_dir),
        )

    @cached_property
    def post(self) -> Post:
        from .post import Post

        return Post(self.config, self.state_dir)

    @property
    def identity(self) -> Identity:
        return self.post.identity

    @property
    def outbox(self) -> Outbox:
        return self.post.outbox

    def held_mails(self) -> list[InMail]:
        """The mails held for campaigns that could not be read, as the inbox gives mail."""
        return [InMail(key, path.stat().st_size, read_file(path)) for key, path in self.held()]

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
        from ..store.campaign import Campaign, Status
        from .answers import welcome_game_master

        campaign = Campaign.create(
            self.data_root,
            campaign_id,
            game,
            players,
            seed,
            options,
            seats,
            gm,
            settings,
            self.config.roles,
        )
        log.info("campaign %s created: %s, %s", campaign.id, campaign.rules.title, campaign.status)
        if campaign.gm:
            welcome_game_master(self.post, campaign)
        if campaign.status == Status.RUNNING:
            self.start_campaign(campaign)
        return campaign

    def start_campaign(
        self, campaign: Campaign, now: datetime | None = None, filled: bool = False
    ) -> Table:
        """The game begins (``now``, or at once): a welcome to every player with their
        token and the seed's fingerprint, and the first prompt to whoever acts first; the
        game master is told when it began as its last seat ``filled`` by mail (they gave no
        command for it)."""
        from ..records import Kind, Record
        from ..store.campaign import Status
        from .answers import welcome_players
        from .play import advance, commit

        campaign.status = Status.RUNNING
        campaign.seats = None
        campaign.check_game()
        campaign.save()
        table = campaign.table()
        commit(table, advance(table, set(campaign.robots)), Record(Kind.REFEREE))
        welcome_players(self.post, table, now, tell_gm=filled)
        log.info(
            "campaign %s started: %s", campaign.id, ", ".join(p.name for p in campaign.players)
        )
        return table
