"""The text map: reviewed goldens of real engine positions, the 78-column limit, and lines
drawn by their letters on the schematic.

Regenerate the goldens only on purpose, and read the diff: REFEREE_REGEN_GOLDEN=1 pytest ...
"""

import os
from pathlib import Path

import pytest
from map_views import POSITIONS, bot_views, stored, with_lines

from referee.bus.board import BOARD
from referee.bus.scene import STYLES, build_scene
from referee.bus.text_map import WIDTH, street_cells, text_map

GOLDEN = Path(__file__).resolve().parent / "golden"


def schematic(text: str) -> list[str]:
    """The schematic's rows: the second block of the map."""
    return text.split("\n\n")[1].split("\n")


@pytest.mark.parametrize("name", POSITIONS)
def test_text_map_matches_its_reviewed_golden(name):
    text = text_map(stored(name), BOARD)
    golden = GOLDEN / f"bus_map_{name}.txt"
    if os.environ.get("REFEREE_REGEN_GOLDEN") == "1":
        golden.write_text(text, encoding="utf-8")
    assert text == golden.read_text(encoding="utf-8")


@pytest.mark.parametrize("name", POSITIONS)
def test_text_map_is_plain_ascii_in_at_most_78_columns(name):
    text = text_map(stored(name), BOARD)
    assert text.isascii()
    assert max(len(line) for line in text.splitlines()) <= WIDTH == 78
    assert all(line == line.rstrip() for line in text.splitlines())


def test_every_line_is_drawn_by_its_letters_and_shared_streets_alternate():
    view = stored("middle")
    rows = schematic(text_map(view, BOARD))
    scene = build_scene(view, BOARD)
    assert max(len(seats) for seats in scene.street_lines.values()) >= 3
    for street, seats in scene.street_lines.items():
        letters = [STYLES[s].letter for s in seats]
        drawn = [rows[r][c] for (r, c), _ in street_cells(BOARD)[street]]
        # a cell may belong to a street that touches this one next to a crossing
        assert (
            drawn[len(drawn) // 2 - 1 : len(drawn) // 2 + 1]
            in ([a, b] for a, b in zip(letters * 2, (letters * 2)[1:]))
            or len(letters) == 1
        )
        middle = drawn[1:-1]
        assert sum(ch in letters for ch in middle) >= len(middle) - 2, street
        assert set(letters) <= set(drawn), street


def test_streets_without_a_line_show_their_slope():
    rows = schematic(text_map(stored("start"), BOARD))
    # 25-26 runs straight across, 1-6 straight down; no line is on them at the start
    assert {rows[r][c] for (r, c), _ in street_cells(BOARD)[(25, 26)]} == {"-"}
    assert {rows[r][c] for (r, c), _ in street_cells(BOARD)[(1, 6)]} <= {"|", "\\", "/"}
    assert rows[round(37 * 0.46)][round(26 * 0.74) : round(26 * 0.74) + 2] == "14"


def test_tables_give_the_line_as_a_path_and_a_closed_circle():
    text = text_map(stored("middle"), BOARD)
    # Dot (seat 3) has closed a circle at 22 (B7): both heads there
    assert "O Dot (start)" in text and "22 (circle)" in text
    assert "  line 22-16-15-14-21-22\n" in text
    row = next(line for line in text.splitlines() if line.startswith("    22   "))
    assert row.split()[1:] == [
        "A",
        "office*,",
        "A",
        "office",
        "1",
        "0",
        "R",
        "U",
        "G",
        "O",
        "P",
        "O",
        "O",
    ]


def test_a_long_line_wraps_after_a_dash_within_100_columns():
    # longer than any real line (a 1999 line has at most 28 streets), to make it wrap
    path = (
        "1-2-3-4-5-12-18-24-31-36-29-35-34-33-32-25-19-13-6-7-8-9-15-10-11-17-23-30-"
        "29-22-21-20-26-27-28-16-14"
    )
    text = text_map(with_lines(stored("start"), {0: (path, [1, 14])}), BOARD)
    lines = text.splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith("  line 1-"))
    assert lines[at].endswith("-") and lines[at + 1].startswith("       ")
    assert max(map(len, lines)) <= 78
    crossings = (lines[at] + lines[at + 1].strip()).removeprefix("  line ").split("-")
    assert len(crossings) == len(path.split("-")) and crossings[-1] == "14"


def test_a_long_prompt_wraps_within_100_columns():
    view = stored("start")
    view["awaiting"][0]["prompt"] = "choose " * 40
    text = text_map(view, BOARD)
    awaiting = text.split("\n\n")[-1].splitlines()
    assert len(awaiting) == 4 and max(map(len, awaiting)) <= 78
    assert awaiting[0].startswith("Awaiting: ") and awaiting[1].startswith("  choose")


def test_the_end_shows_the_result_and_no_prompt():
    text = text_map(stored("end"), BOARD)
    assert "Game over: no building lot is free" in text
    assert "Awaiting" not in text
    assert "No free building lot is left." in text


def test_every_position_of_a_whole_game_fits_and_reads_each_line_head_to_head():
    # a five-player game from the empty board through setup to the end
    for view in bot_views(5, seed=3):
        text = text_map(view, BOARD)
        assert text.isascii() and max(map(len, text.splitlines())) <= 78
        for player in build_scene(view, BOARD).players:
            streets = view["players"][player.seat]["streets"]
            path = player.path
            assert sorted(tuple(sorted(s)) for s in zip(path, path[1:])) == sorted(
                tuple(sorted(s)) for s in streets
            )
            if streets:
                assert {path[0], path[-1]} == set(view["players"][player.seat]["heads"])


def test_a_word_longer_than_a_line_breaks_after_a_hyphen_and_nothing_else_does():
    from referee.maps.textgrid import WIDTH, wrap

    journey = "auckland-durham-hartlepool-sunderland-southshields-newcastle-morpeth-alnwick"
    text = wrap(f"run 6D-10C: {journey}-coldstream, then york-leeds and hull-york", "    ", "  + ")
    lines = text.splitlines()
    assert all(len(line) <= WIDTH for line in lines)
    assert lines[0] == "  + run 6D-10C:"
    assert lines[1].endswith("-") and lines[1].startswith("    auckland-durham-")
    assert "".join(line.strip() for line in lines[1:3]) == f"{journey}-coldstream,"
    assert "york-leeds" in text and "hull-york" in text  # short names stay whole
