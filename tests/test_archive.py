"""`referee archive`: a static site of a campaign that works from the file system, and the
text history shared with the mail command."""

import re
import xml.etree.ElementTree as ET
from html.parser import HTMLParser
from pathlib import Path

import pytest
from click.testing import CliRunner
from markupsafe import escape
from played import play, played_site
from sites import ADDRESSES, PLAYERS, make_site

from referee import maps
from referee.bus import png_map as bus_png
from referee.cli import main
from referee.service.archive import write_archive
from referee.words.chart import score_chart
from referee.words.history import NoSuchTurn, history_text, turns

SVG = "{http://www.w3.org/2000/svg}"


class Links(HTMLParser):
    """Every href and src of a page, and its script tags."""

    def __init__(self):
        super().__init__()
        self.links: list[str] = []
        self.scripts = 0

    def handle_starttag(self, tag, attrs):
        self.scripts += tag == "script"
        self.links += [value for name, value in attrs if name in ("href", "src")]


def archive_of(tmp_path, **kwargs) -> tuple[Path, object]:
    site = played_site(tmp_path / "site", **kwargs)
    campaign_id = kwargs.get("campaign_id", "game")
    done = CliRunner().invoke(main, ["--config", str(site.config.path), "archive", campaign_id])
    out = site.data_root / campaign_id / "archive"
    assert done.exit_code == 0, done.output
    assert (
        done.output == f"wrote {len(list(out.iterdir()))} files to {out}; open "
        f"{out / 'index.html'} in a browser\n"
    )
    return out, site.campaign(campaign_id).table()


@pytest.fixture(scope="module")
def finished(tmp_path_factory):
    """The archive of a finished campaign, and its game replayed: read, never changed."""
    return archive_of(tmp_path_factory.mktemp("finished"))


@pytest.fixture(scope="module")
def running(tmp_path_factory):
    return archive_of(
        tmp_path_factory.mktemp("running"), campaign_id="running", seed=5, until_round=3
    )


def svg_of(page: Path) -> ET.Element:
    text = page.read_text()
    return ET.fromstring(text[text.index("<svg") : text.index("</svg>") + len("</svg>")])


def test_every_page_exists_and_every_link_resolves_within_the_archive(finished):
    out, table = finished
    stems = sorted(
        p.name.removesuffix(".txt") for p in (table.campaign.root / "turns").glob("round-??.txt")
    )
    assert stems == [t.stem for t in turns(table)]
    expected = {
        "index.html",
        "players.html",
        "history.txt",
        "style.css",
        *(f"{s}.html" for s in stems),
        *(f"{s}.png" for s in stems),
    }
    assert {p.name for p in out.iterdir()} == expected
    for page in out.glob("*.html"):
        links = Links()
        links.feed(page.read_text())
        assert links.scripts == 0, page.name
        assert links.links, page.name
        for link in links.links:
            if link == "data:,":  # the empty icon: no request for one
                continue
            assert not re.match(r"^[a-z]+:|^/", link), (page.name, link)
            assert (out / link.partition("#")[0]).is_file(), (page.name, link)
    assert "url(" not in (out / "style.css").read_text()  # nothing fetched by the CSS


def test_each_turn_page_holds_its_report_and_its_map_and_steps_to_its_neighbours(finished):
    out, table = finished
    played = turns(table)
    for number, turn in enumerate(played):
        page = (out / f"{turn.stem}.html").read_text()
        report = (table.campaign.root / "turns" / f"{turn.stem}.txt").read_text()
        assert f'<pre class="report">{escape(report)}</pre>' in page
        size = f'width="{bus_png.WIDTH}" height="{bus_png.HEIGHT}"'  # the mails' picture
        assert f'<img src="{turn.stem}.png" {size}' in page
        # and what the mails say under it: whose line is which, the clock, the actions
        for line in maps.map_key(turn.view):
            assert f"<p>{escape(line)}</p>" in page
        assert (out / f"{turn.stem}.png").read_bytes() == (
            table.campaign.root / "turns" / f"{turn.stem}.png"
        ).read_bytes()
        if number:
            assert f'<a rel="prev" href="{played[number - 1].stem}.html">' in page
        if number + 1 < len(played):
            assert f'<a rel="next" href="{played[number + 1].stem}.html">' in page
    last = (out / f"{played[-1].stem}.html").read_text()
    assert "The game is over: " in last and '<a rel="next"' not in last


def test_the_chart_has_a_line_per_player_ending_at_the_final_scores(finished):
    out, table = finished
    view = table.view()
    final = [p["score"] for p in view["players"]]
    assert final == list(table.rules.result(table.state).scores)
    svg = svg_of(out / "index.html")
    lines = svg.findall(f".//{SVG}polyline")
    assert [line.get("data-player") for line in lines] == [p.name for p in table.campaign.players]
    assert [int(line.get("data-values").split()[-1]) for line in lines] == final
    played = turns(table)
    for line in lines:
        points = [tuple(map(float, xy.split(","))) for xy in line.get("points").split()]
        assert len(points) == len(played)
        assert points[0][0] < points[-1][0]
    # a higher score is drawn higher up
    ends = {
        line.get("data-player"): float(line.get("points").split()[-1].split(",")[1])
        for line in lines
    }
    best, worst = (
        max(view["players"], key=lambda p: p["score"]),
        min(view["players"], key=lambda p: p["score"]),
    )
    assert best["score"] > worst["score"]
    assert ends[best["name"]] < ends[worst["name"]]
    # the turn page marks its turn on the same chart
    page = svg_of(out / f"{played[2].stem}.html")
    mark = page.find(f".//{SVG}line[@class='mark']")
    first_line = page.find(f".//{SVG}polyline")
    assert mark.get("x1") == f"{float(first_line.get('points').split()[2].split(',')[0]):.1f}"
    legend = (out / "index.html").read_text()
    for name, score in zip((p.name for p in table.campaign.players), final):
        assert f"{name} <strong>{score}</strong>" in legend


def test_the_archive_never_shows_tokens_or_addresses_and_the_seed_only_at_the_end(
    finished, running
):
    (out, table), (running_out, running) = finished, running
    for folder, tab in ((out, table), (running_out, running)):
        text = " ".join(p.read_text() for p in folder.iterdir() if p.suffix != ".png")
        for player in tab.campaign.players:
            assert player.token not in text and player.address not in text
        assert "@example.org" not in text
    players_page = (out / "players.html").read_text()
    assert f"<dt>Seed</dt><dd><code>{table.campaign.seed}</code></dd>" in players_page
    assert f"<code>{table.campaign.settings['seed_hash']}</code>" in players_page
    running_page = (running_out / "players.html").read_text()
    assert "<dt>Seed</dt><dd>kept secret until the game ends</dd>" in running_page
    assert f"<code>{running.campaign.settings['seed_hash']}</code>" in running_page
    index = (running_out / "index.html").read_text()
    assert "In round 3; waiting for " in index
    assert '<a href="round-03.html">Round 3</a> (in play)' in index
    assert "The game is over" not in index


def test_the_out_option_writes_elsewhere(tmp_path):
    site = played_site(tmp_path / "site", campaign_id="running", seed=5, until_round=3)
    done = CliRunner().invoke(
        main,
        [
            "--config",
            str(site.config.path),
            "archive",
            "running",
            "--out",
            str(tmp_path / "public"),
        ],
    )
    assert done.exit_code == 0, done.output
    assert (tmp_path / "public" / "index.html").is_file()
    assert not (site.data_root / "running" / "archive").exists()
    done = CliRunner().invoke(main, ["--config", str(site.config.path), "archive", "nope"])
    assert done.exit_code == 1
    assert "Error: no campaign 'nope' (campaigns: running)" in done.output


def test_history_text_is_every_turn_or_one_turns_report(finished):
    out, table = finished
    whole = history_text(table)
    assert (out / "history.txt").read_text() == whole
    assert whole.startswith("Bus - campaign game - the history of the whole game\n\nSetup\n")
    played = turns(table)
    for turn in played:
        assert f"\n{turn.title}\n" in whole
    position = 0
    for step in table.steps:  # every event, in the order it happened
        for event in step.events:
            position = whole.index(f"  - {event}\n", position)
    final = ", ".join(f"{p['name']} {p['score']}" for p in table.view()["players"])
    assert f"  Standings by score: {final}\n" in whole
    assert "THE GAME IS OVER: " in whole
    for turn in played:
        assert (
            history_text(table, turn.round)
            == (table.campaign.root / "turns" / f"{turn.stem}.txt").read_text()
        )
    with pytest.raises(NoSuchTurn) as err:
        history_text(table, 99)
    assert str(err.value) == (
        f"campaign game has no turn 99: it has turns 0 to {played[-1].round} (turn 0 is the setup)"
    )


def test_bus_boss_follows_each_players_cash(tmp_path):
    """Bus Boss's chart and history follow the cash (its maps come from another part)."""
    site = make_site(tmp_path)
    site.new_campaign("busboss", "boss", PLAYERS, 7)
    table = site.campaign("boss").table()
    play(site, table, until_round=5, seed=7, answer=False)
    chart = score_chart(turns(table), table.campaign.names())
    assert chart.measure == "cash"
    cash = [p["cash"] for p in table.view()["players"]]
    assert [line.final for line in chart.lines] == cash
    assert [line.colour for line in chart.lines] == ["#d55e00", "#0072b2", "#009e73"]
    assert any(line.values[0] != line.final for line in chart.lines)
    whole = history_text(table)
    standings = ", ".join(f"{p.name} {c}" for p, c in zip(table.campaign.players, cash))
    assert f"  Standings by cash: {standings}\n" in whole
    assert ADDRESSES[0] not in whole


def test_names_are_escaped_on_every_page_and_in_the_chart(tmp_path):
    site = make_site(tmp_path)
    name = "Ann <b> & O'Neil"
    site.new_campaign("bus", "escapes", ['"Ann <b> & O\'Neil" <ann@example.org>', *PLAYERS[1:]], 2)
    table = site.campaign("escapes").table()
    play(site, table, until_round=1, seed=2, answer=False)
    out = tmp_path / "archive"
    write_archive(table, out)
    for page in out.glob("*.html"):
        text = page.read_text()
        assert name not in text and "<b>" not in text, page.name
        assert "Ann &lt;b&gt; &amp; O&#39;Neil" in text, page.name
    for page in [out / "index.html", *out.glob("round-*.html")]:
        assert svg_of(page).find(f".//{SVG}polyline").get("data-player") == name
