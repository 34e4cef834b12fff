"""`referee archive`: a campaign as a static web site that opens from the file system.

    index.html        the turns, the score chart, the final result
    round-NN.html     one page a turn: its report, its map, the chart with the turn marked
    round-NN.png      the map at the turn's end
    players.html      the players and the settings (never tokens or addresses; the seed
                      only once the game is over)
    history.txt       the whole history as text (what players get by mail)
    style.css

Every link is relative and nothing is fetched from elsewhere, so the folder can be copied
anywhere, put on any web server, or opened as it is. Built from the log by replay, with the
same reports and maps the players get by mail.
"""

from __future__ import annotations

from importlib import resources
from io import BytesIO
from pathlib import Path

from PIL import Image

from .. import maps
from ..contract import option_defaults
from ..files import PUBLIC_FILE, atomic_write
from ..store.campaign import Status, Table
from ..words import language
from ..words.chart import player_colour, score_chart
from ..words.history import history_text, measure, standings, turns
from ..words.mails import result_context, turn_report, waiting_for
from ..words.render import render, say


def write_archive(table: Table, out: Path) -> list[Path]:
    """Write the archive of ``table``'s campaign into ``out``; the files written."""
    out = Path(out)
    files = pages(table)
    out.mkdir(parents=True, exist_ok=True)
    for name, content in files.items():
        # made again from the log at will, to be published
        atomic_write(out / name, content, durable=False, new_mode=PUBLIC_FILE)
    return [out / name for name in files]


def pages(table: Table) -> dict[str, str | bytes]:
    """The archive's files by name, in the campaign's language (English, unless its
    campaign.yaml names another)."""
    with language.reading(table.campaign.config.language or language.ENGLISH, table.campaign.game):
        return _pages(table)


def _pages(table: Table) -> dict[str, str | bytes]:
    campaign = table.campaign
    played = turns(table)
    view = table.view()
    common = {
        "campaign": campaign,
        "title": table.rules.title,
        "records": len(table.steps),
        "last_at": table.steps[-1].record.at if table.steps else None,
        "result": result_context(table, view),
    }
    named = [table.holders.named(seat) for seat in range(len(view["players"]))]
    files: dict[str, str | bytes] = {
        "style.css": resources.files("referee")
        .joinpath("templates", "archive", "style.css")
        .read_bytes(),
        "index.html": render(
            "archive/index.html",
            state=state_line(table),
            turns=played,
            chart=score_chart(played, named) if played else None,
            **common,
        ),
        "players.html": render("archive/players.html", **players_context(table), **common),
        "history.txt": history_text(table),
    }
    for number, turn in enumerate(played):
        png = maps.png_map(turn.view)  # None for a game drawn in text only
        if png is not None:
            files[f"{turn.stem}.png"] = png
        files[f"{turn.stem}.html"] = render(
            "archive/turn.html",
            turn=turn,
            previous=played[number - 1] if number else None,
            next=played[number + 1] if number + 1 < len(played) else None,
            chart=score_chart(played, named, mark=turn.round),
            report=turn_report(table, turn.round, turn.view),
            map_size=Image.open(BytesIO(png)).size if png else None,
            map_key=maps.map_key(turn.view),  # as the mails show it under the same picture
            **common,
        )
    return files


def state_line(table: Table) -> str:
    view = table.view()
    ended = table.rules.result(table.state)
    status = str(table.campaign.status)
    reason = ended.reason if ended else None
    return say(
        "archive_state",
        round=view["round"],
        reason=reason,
        status=status,
        waiting_for=waiting_for(table),
    )


def players_context(table: Table) -> dict:
    campaign, view = table.campaign, table.view()
    over = table.over or campaign.status == Status.FINISHED
    figures = [figure for _name, figure in standings(view)]
    played_with = campaign.game_options()  # as the game was created, a campaign's defaults too
    options = {
        name: played_with.get(name, default)
        for name, default in option_defaults(table.rules).items()
    }
    return {
        "measure": measure(view),
        "players": [
            {
                "seat": p["seat"],
                "name": table.holders.named(p["seat"]),  # everyone who played the seat
                "colour": player_colour(view, p),
                "figure": figures[p["seat"]],
            }
            for p in view["players"]
        ],
        "options": sorted(options.items()),
        "seed_hash": campaign.config.seed_hash,
        "seed": campaign.seed if over else None,  # the seed is revealed at the end only
    }
