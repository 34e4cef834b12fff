"""`referee map check` and `referee map preview`: a game master's own Bus Boss map is checked
whole before any campaign plays on it (K1: a game master can add maps), every problem named
with its line, and drawn as the players will see it."""

from importlib import resources

import pytest
from click.testing import CliRunner

from referee.busboss.map import load_map, map_names
from referee.cli import main

EXAMPLE = (
    resources.files("referee.busboss").joinpath("maps", "example.yaml").read_text(encoding="utf-8")
)


def run(*args):
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def line_of(text: str, written: str) -> int:
    """The line (from 1) of the file on which ``written`` stands."""
    [number] = [n for n, line in enumerate(text.splitlines(), 1) if written in line]
    return number


def broken(old: str, new: str) -> str:
    assert EXAMPLE.count(old) == 1, old
    return EXAMPLE.replace(old, new)


# (what the map maker did, the map, the text on the line named, what the problem says)
MISTAKES = [
    (
        "an unknown place in a route",
        broken("  - ashby-brook 5\n", "  - ashby-brok 5\n"),
        "ashby-brok 5",
        "route 1 ('ashby-brok 5'): no place 'brok' on the map",
    ),
    (
        "a route given twice",
        broken("  - carfield-dunmore 4\n", "  - carfield-dunmore 4\n  - dunmore-carfield 4\n"),
        "dunmore-carfield 4",
        "carfield-dunmore is already route 3; write 'twice' on one line",
    ),
    (
        "a card dealt twice",
        broken("[2S, 2H, 2D, 2C]", "[2S, 2H, 2D, 2C, AS]"),
        "Brook:",
        "card AS is keyed twice: to Ashby and Brook",
    ),
    (
        "a card missing",
        broken("[2S, 2H, 2D, 2C]", "[2S, 2H, 2D]"),
        "destinations:",
        "card(s) 2C are keyed to no destination",
    ),
    (
        "a place no route reaches",
        broken("  - seaton-kingsmere 4\n", "").replace("  - jarrow-kingsmere 5\n", ""),
        "kingsmere: [96, 92]",
        "the map is not connected: no route leads from ashby to kingsmere",
    ),
    (
        "a junction along beyond its route",
        broken("hartley-ivybridge 2]", "hartley-ivybridge 7]"),
        "millcross:",
        "on hartley-ivybridge (5 spaces) it lies 1 to 4 spaces from hartley, not 7",
    ),
    (
        "a junction on a route that does not exist",
        broken("hartley-ivybridge 2]", "hartley-linton 2]"),
        "millcross:",
        "junction millcross: there is no route hartley-linton for it to lie on",
    ),
    (
        "coordinates off the map",
        broken("ashby: [8, 10]", "ashby: [8, 110]"),
        "ashby: [8, 110]",
        "the position of 'ashby' must be [x, y] with numbers from 0 to 100, not [8, 110]",
    ),
    (
        "a length under 1",
        broken("  - glenholm-hartley 5\n", "  - glenholm-hartley 0\n"),
        "glenholm-hartley 0",
        "the length must be a whole number of spaces, at least 1",
    ),
    (
        "two places with one key",
        broken("  crossgate:  {name: Crossgate", "  brook:  {name: Crossgate"),
        "brook:  {name: Crossgate",
        "town brook: place key 'brook' is used twice",
    ),
    (
        "a destination written twice",
        broken("  Linton:", "  Linton:     {cards: [QS], places: {lint: [5, 5]}}\n  Linton:"),
        "  Linton:     {cards: [QS, QH",
        "'Linton' is written twice (first on line",
    ),
    (
        "YAML that does not parse",
        broken("  Hartley:    {cards: [8S, 8H, 8D, 8C]", "  Hartley:    {cards: [8S, 8H, 8D, 8C"),
        "Hartley:",
        "not readable as YAML",
    ),
    (
        "a destination without places",
        broken("places: {eastwick: [70, 35]}", "places: {}"),
        "Eastwick:",
        "destination Eastwick: it needs at least one place",
    ),
    (
        "a route that cannot be read",
        broken("  - linton-seaton 3\n", "  - linton to seaton\n"),
        "linton to seaton",
        "write a route as 'a-b N' or 'a-b N twice'",
    ),
    (
        "a misspelt section",
        broken("junctions:\n", "junctons:\n"),
        "junctons:",
        "junctons: unknown setting; did you mean `junctions`?",
    ),
]


@pytest.mark.parametrize(
    "text, written, says", [m[1:] for m in MISTAKES], ids=[m[0] for m in MISTAKES]
)
def test_map_check_names_a_mistake_with_its_line(tmp_path, text, written, says):
    path = tmp_path / "my-map.yaml"
    path.write_text(text, encoding="utf-8")
    result = run("map", "check", str(path))
    assert result.exit_code == 1
    # the mistake first; what follows from it after (routes to a place it lost)
    [problem, *following] = [line for line in result.output.splitlines() if line.startswith("  - ")]
    assert all(" on the map" in f for f in following), result.output
    line = line_of(text, written)
    if "YAML" in says:  # the reader names where it stopped: the next line
        assert problem.startswith(f"  - line {line + 1}: ") or problem.startswith(
            f"  - line {line}: "
        )
    else:
        assert problem.startswith(f"  - line {line}: "), problem
    assert says in problem
    assert result.output.startswith(f"Error: map {path} cannot be used:")


def test_map_check_names_every_problem_at_once(tmp_path):
    text = (
        broken("  - ashby-brook 5\n", "  - ashby-brok 5\n")
        .replace("ashby: [8, 10]", "ashby: [8, 110]")
        .replace("[2S, 2H, 2D, 2C]", "[2S, 2H, 2D]")
    )
    path = tmp_path / "my-map.yaml"
    path.write_text(text, encoding="utf-8")
    result = run("map", "check", str(path))
    assert result.exit_code == 1
    assert f"line {line_of(text, 'ashby-brok 5')}: route 1" in result.output
    assert f"line {line_of(text, 'ashby: [8, 110]')}: destination Ashby" in result.output
    assert "card(s) 2C are keyed to no destination" in result.output


@pytest.mark.parametrize("name", map_names())
def test_the_shipped_maps_pass_with_a_summary(name):
    path = resources.files("referee.busboss").joinpath("maps", name + ".yaml")
    result = run("map", "check", str(path))
    assert result.exit_code == 0, result.output
    m = load_map(name)
    longest = max(m.routes, key=lambda r: (r.length, r.name))
    assert f"{len(m.places)} places" in result.output
    assert f"{len(m.routes)} routes" in result.output
    assert "52 cards" in result.output
    assert f"the longest route {longest.name} ({longest.length} spaces)" in result.output


def test_the_example_map_is_small_and_keyed_one_rank_a_town():
    m = load_map("example")
    assert len(m.destinations) == 13 and len(m.routes) < 30
    assert m.destination_cards["Ashby"] == ("AS", "AH", "AD", "AC")


def test_a_file_that_is_not_there_is_named(tmp_path):
    result = run("map", "check", str(tmp_path / "nowhere.yaml"))
    assert result.exit_code == 1 and "there is no such file" in result.output


def test_map_preview_prints_the_text_map_and_draws_the_png(tmp_path):
    path = tmp_path / "dales.yaml"
    path.write_text(EXAMPLE, encoding="utf-8")
    out = tmp_path / "dales.png"
    result = run("map", "preview", str(path), "--png", str(out))
    assert result.exit_code == 0, result.output
    assert "Bus Boss, The Example Dales" in result.output
    assert "millcross (Mill Cross)" in result.output  # the junctions, as players read them
    assert out.read_bytes().startswith(b"\x89PNG")
    assert f"wrote {out}" in result.output


def test_map_preview_of_a_broken_map_names_its_problems(tmp_path):
    path = tmp_path / "dales.yaml"
    path.write_text(broken("  - ashby-brook 5\n", "  - ashby-brok 5\n"), encoding="utf-8")
    result = run("map", "preview", str(path), "--png", str(tmp_path / "x.png"))
    assert result.exit_code == 1 and "no place 'brok' on the map" in result.output
    assert not (tmp_path / "x.png").exists()
