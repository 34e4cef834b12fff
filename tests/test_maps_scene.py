"""What both maps show, worked out from the engine's view (referee/maps/scene.py)."""

from map_views import stored, with_lines

from referee.bus.board import BOARD
from referee.bus.scene import STYLES, build_scene, line_path


def test_a_line_reads_from_head_to_head_even_through_a_crossing_it_visits_twice():
    # laid 10-15, 15-21, 21-14, 14-8, 8-9, 9-15: the head at 15 was joined to the line (B7)
    streets = [[10, 15], [15, 21], [14, 21], [8, 14], [8, 9], [9, 15]]
    path = line_path(streets, [10, 15])
    assert path[0] == 10 and path[-1] == 15
    assert sorted(tuple(sorted(p)) for p in zip(path, path[1:])) == sorted(map(tuple, streets))


def test_a_closed_circle_reads_from_its_head_round_to_it():
    assert line_path([[15, 21], [21, 22], [16, 22], [15, 16]], [15, 15]) == (15, 21, 22, 16, 15)


def test_no_line_before_the_first_marker():
    assert line_path([], []) == ()


def test_streets_know_their_lines_in_seat_order_and_crossings_their_heads():
    # Eve (seat 4) already runs along 15-21 in the middle position
    view = with_lines(stored("middle"), {2: ("15-21", [15, 21]), 0: ("22-21-15", [22, 15])})
    scene = build_scene(view, BOARD)
    assert scene.street_lines[(15, 21)] == (0, 2, 4)
    assert scene.crossings[15].heads == (0, 2)
    assert scene.crossings[22].lines == (0, 1, 3, 4)


def test_seated_passengers_sit_in_buildings_of_the_clock_type():
    # B9: the middle position, clock on office: both offices at 15 are taken, one at 16
    scene = build_scene(stored("middle"), BOARD)
    assert scene.clock == "office" and scene.next_clock == "pub"
    assert [(lot.building, lot.seated) for lot in scene.crossings[16].lots] == [
        ("office", True),
        ("office", False),
    ]
    assert all(lot.seated for lot in scene.crossings[15].lots)


def test_player_styles_are_distinct_and_keep_clear_of_the_zone_letters():
    assert len({s.letter for s in STYLES}) == len({s.colour for s in STYLES}) == 5
    assert len({s.pattern for s in STYLES}) == 5
    assert not {s.letter for s in STYLES} & set("ABCD")
