"""The Bus Boss text map: reviewed goldens of real engine positions, the 78-column limit,
routes drawn by their owners' letters, and tables that name every route, run and place.

Regenerate the goldens only on purpose, and read the diff: REFEREE_REGEN_GOLDEN=1 pytest ...
"""

import os
from pathlib import Path

import pytest
from busboss_map_views import POSITIONS, bot_views, stored

from referee import maps
from referee.busboss.scene import BANK_STYLE, view_map
from referee.busboss.text_map import (
    abbreviations,
    junction_cells,
    labels,
    length_cells,
    route_cells,
    text_map,
)
from referee.maps.styles import COLOUR_STYLES

GOLDEN = Path(__file__).resolve().parent / "golden"


def rendered(name: str) -> tuple[dict, str]:
    view = stored(name)
    return view, text_map(view, view_map(view))


def schematic(text: str) -> list[str]:
    """The schematic's rows: the second block of the map."""
    return text.split("\n\n")[1].split("\n")


def drawn(rows: list[str], cells) -> str:
    return "".join(rows[r][c] if c < len(rows[r]) else " " for (r, c), _ in cells)


@pytest.mark.parametrize("name", POSITIONS)
def test_text_map_matches_its_reviewed_golden(name):
    _, text = rendered(name)
    golden = GOLDEN / f"busboss_map_{name}.txt"
    if os.environ.get("REFEREE_REGEN_GOLDEN") == "1":
        golden.write_text(text, encoding="utf-8")
    assert text == golden.read_text(encoding="utf-8")


@pytest.mark.parametrize("name", POSITIONS)
def test_text_map_is_plain_ascii_in_at_most_78_columns(name):
    _, text = rendered(name)
    assert text.isascii()
    assert max(len(line) for line in text.splitlines()) <= 78
    assert all(line == line.rstrip() for line in text.splitlines())


def test_the_referee_picks_the_bus_boss_map_by_the_view():
    view = stored("middle")
    assert maps.text_map(view) == text_map(view, view_map(view))


def test_owned_routes_are_drawn_by_their_owners_letters_and_a_doubled_route_by_both():
    view, text = rendered("middle")
    rows, m = schematic(text), view_map(view)
    owners = {r["name"]: r["owners"] for r in view["routes"]}
    letter = {**{c: s.letter for c, s in COLOUR_STYLES.items()}, "bank": BANK_STYLE.letter}
    lengths = length_cells(m)
    for name, who in owners.items():
        cells = [cell for cell in route_cells(m)[name] if cell[0] not in lengths.get(name, ())]
        if not who or len(cells) < 3:
            continue
        middle = drawn(rows, cells[1:-1])
        expected = {letter[o] for o in who}
        # a cell may belong to a route that touches this one next to a place
        assert sum(ch in expected for ch in middle) >= len(middle) - 2, name
        assert expected <= set(drawn(rows, cells)), name
    # Ann (red) and the bank (Fay's copy, rule 40) both hold leeds-york; Dan and Ann both
    # bought bradford-leeds
    assert owners["leeds-york"] == ["red", "bank"] and owners["bradford-leeds"] == ["yellow", "red"]
    assert "R#R#" in drawn(rows, route_cells(m)["leeds-york"])
    assert {"Y", "R"} <= set(drawn(rows, route_cells(m)["bradford-leeds"]))


def test_free_routes_show_their_slope_and_every_length_is_told_once():
    view, text = rendered("start")
    rows, m = schematic(text), view_map(view)
    # alnwick (34, 14) to morpeth (34, 24) runs straight down
    assert set(drawn(rows, route_cells(m)["alnwick-morpeth"])) <= {"|", "4"}
    lengths = length_cells(m)
    for route in m.routes:
        if route.name in lengths:
            assert "".join(rows[r][c] for r, c in lengths[route.name]) == str(route.length)
    unwritten = text.split("Lengths not written on the map: ")[1].split("\n\n")[0]
    short = abbreviations(m)
    listed = [item.strip() for item in unwritten.replace("\n", " ").split(",")]
    assert listed == [
        f"{short[r.ends[0]]}-{short[r.ends[1]]} {r.length}"
        for r in m.routes
        if r.name not in lengths
    ]
    assert len(lengths) >= len(m.routes) * 2 // 3


def test_places_have_unique_abbreviations_upper_case_for_destinations():
    m = view_map(stored("start"))
    short = abbreviations(m)
    towns = [key for key, place in m.places.items() if not place.junction]
    assert len({s.upper() for s in short.values()}) == len(towns) == len(short)
    assert short["leeds"] == "LEE" and short["leeming"] == "lem" and short["colne"] == "CON"
    for key in towns:
        assert short[key].isupper() == (m.places[key].kind == "destination")
    rows = schematic(rendered("start")[1])
    for r, col, text in labels(m).values():
        assert rows[r][col : col + 3] == text


def test_k9_a_junction_is_a_plus_where_its_routes_cross_and_is_listed_with_them():
    view, text = rendered("start")
    m, rows = view_map(view), schematic(text)
    cells = route_cells(m)
    for key in ("allerton", "bramham"):
        r, col = junction_cells(m)[key]
        assert rows[r][col] == "+"
        through = [route.name for route in m.routes_through[key]]
        assert len(through) == 2 and all((r, col) in dict(cells[name]) for name in through)
    assert "lower case: towns without cards, +: junctions" in text
    assert (
        "\nbramham: on leeds-york 2 from leeds, ferrybridge-wetherby 3 from ferrybridge\n" in text
    )


def test_tables_give_cash_routes_runs_and_every_place_with_its_cards():
    view, text = rendered("middle")
    assert "\nY Dan               yellow      52      14      41  order in\n" in text
    assert "\nO Fay               orange      63       0       0  dropped (rule 40)\n" in text
    assert "# The bank (rule 40): 10 routes (* doubled)\n  huddersfield-rochdale 4," in text
    assert (
        "Runs on offer: 13 runs, 4 of them offered again (rule 21); each player may\n"
        "  enter up to 5." in text
    )
    assert "  AH-7S    Sheffield - Stockton-on-Tees (stockton), since 7" in text
    assert "  4H-8S    Northallerton - The Midlands (chesterfield/worksop), new" in text
    places = text.split("Towns (abbreviation, key in orders, name, cards):\n")[1]
    for entry in (
        "LEE leeds AS KH QD",
        "COL coldstream (Scotland) 9S 10C",
        "was washington",
        "sco scotchcorner (Scotch Corner)",
        "STO stockton (Stockton-on-Tees) 7S",
    ):
        assert entry in places
    # one line for the four awaited (in the order of play), Dan's order being in
    assert (
        "\n\nAwaiting: Ann (R), Eve (P), Bob (U), Cat (G): Round 8, an operating round:\n"
        "  enter up to 5 of the 13 runs on offer, then buy routes after the runs.\n" in text
    )


def test_the_end_shows_the_result_and_no_prompt():
    _, text = rendered("end")
    assert text.startswith(
        "Bus Boss, Yorkshire and the North East: round 12 of 12, the game is over\n\n"
    )
    assert text.endswith(
        "Result (round 12 is over):\n1. Dan (Y): 287\n2. Cat (G): 208\n"
        "3. Ann (R): 198\n4. Bob (U): 126\n"
    )
    assert "Awaiting" not in text and "Order of play" not in text


def test_every_position_of_a_whole_six_player_game_fits():
    for view in bot_views(6, seed=2):
        text = text_map(view, view_map(view))
        assert text.isascii() and max(map(len, text.splitlines())) <= 78


def test_long_names_wrap_within_78_columns():
    # a game master's map may name places at length, and players may have long names
    view = stored("middle")
    view["runs"][0]["destinations"][0] = "Sheffield, the Steel City of the South Riding"
    view["players"][0]["name"] = "Annabel Montgomery-Smythe"
    text = text_map(view, view_map(view))
    assert max(map(len, text.splitlines())) <= 78
    assert (
        "\n  AH-7S    Sheffield, the Steel City of the South Riding (sheffield) -\n"
        "           Stockton-on-Tees (stockton), since 7\n" in text
    )
    assert "\nR Annabel Montgomer red        130      11" in text
