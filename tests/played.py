"""Campaigns played by the game's default bot through the Site API on the Maildir default:
each order is committed as a player's mail would be, the referee resolves what it can, and
the site writes its answers and turn reports after every round, as a tick does."""

from __future__ import annotations

import random
import shutil
from pathlib import Path

from sites import PLAYERS, make_site

from referee.records import Kind, Record
from referee.service import answers, session
from referee.service.play import advance, commit, submit
from referee.service.site import Site
from referee.settings.site import load_config
from referee.store.campaign import Table

_PLAYED: dict[tuple, Path] = {}  # played once per test session, copied for each test


def play(
    site: Site,
    table: Table,
    until_round: int | None = None,
    seed: int = 0,
    answer: bool = True,
    orders: int | None = None,
) -> Table:
    """Bot orders, one mail a decision, until the game ends, has played the first order of
    ``until_round`` or has played ``orders`` orders; with ``answer``, the site's answers
    (digests, turn reports) after every round."""
    rng = random.Random(seed)
    bot = table.rules.bot("default")
    number = 0
    while not table.over and not reached(table, until_round) and number != orders:
        due = table.rules.awaiting(table.state)[0]
        number += 1
        round_ = table.round
        order = table.rules.format(bot(table.state, due.seat, rng))
        commit(
            table,
            submit(table, due.seat, [order]),
            Record(
                Kind.MAIL,
                message_id=f"<order.{number}@example.org>",
                sender=table.campaign.players[due.seat].address,
                seat=due.seat,
                subject="Re: your turn",
            ),
        )
        commit(table, advance(table), Record(Kind.REFEREE))
        if answer and table.round != round_:
            answered(site, table)
    if answer:
        answered(site, table)
    return table


def answered(site: Site, table: Table) -> None:
    """The turn files and the answers, as a tick writes them after its mails, committed
    without a snapshot (the tests of snapshots keep theirs themselves)."""
    answers.write_turns(table)
    _, marks = answers.answer(site.post, table)
    session.commit_files(table.campaign, None, marks)


def reached(table: Table, round_: int | None) -> bool:
    return round_ is not None and bool(table.steps) and table.steps[-1].round >= round_


def played_site(
    root: Path, campaign_id: str = "game", seed: int = 3, until_round: int | None = None
) -> Site:
    """A site in ``root`` whose campaign ``campaign_id`` of Bus is played to its end (or to
    ``until_round``)."""
    key = (campaign_id, seed, until_round)
    if key not in _PLAYED:
        source = root.parent / f"played-{campaign_id}-{seed}-{until_round}"
        site = make_site(source)
        site.new_campaign("bus", campaign_id, PLAYERS, seed)
        play(site, site.campaign(campaign_id).table(), until_round, seed)
        _PLAYED[key] = source
    shutil.copytree(_PLAYED[key], root, dirs_exist_ok=True)
    return Site(load_config(root / "referee.yaml"))
