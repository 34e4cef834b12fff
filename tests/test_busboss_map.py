"""Ruling K1: the project's own Bus Boss map, and the loader that checks map files."""

from importlib import resources

import pytest

from referee.busboss.engine import RULES
from referee.busboss.map import CARDS, MapError, load_map, map_names, parse_map
from referee.contract import option_defaults

SHIPPED = (
    resources.files("referee.busboss")
    .joinpath("maps", "yorkshire.yaml")
    .read_text(encoding="utf-8")
)


def problems(text: str) -> list[str]:
    with pytest.raises(MapError) as caught:
        parse_map(text, "test", "test.yaml")
    return caught.value.problems


def test_k1_the_shipped_map_keys_every_card_once():
    m = load_map("yorkshire")
    assert m.title == "Yorkshire and the North East"
    assert sorted(m.card_destination) == sorted(CARDS) and len(CARDS) == 52
    assert sum(len(cards) for cards in m.destination_cards.values()) == 52


def test_k1_big_towns_carry_several_cards_and_some_destinations_stand_twice():
    m = load_map()
    assert m.destination_cards["Leeds"] == ("AS", "KH", "QD")
    assert len(m.destination_cards["Sheffield"]) == 3
    assert m.destinations["Scotland"] == ("coldstream", "carterbar")
    assert m.places_of_card("9H") == ("colne", "rochdale")
    twice = [d for d, places in m.destinations.items() if len(places) == 2]
    assert sorted(twice) == ["Cumbria", "Lancashire", "Scotland", "The Midlands"]


def test_k1_k9_towns_routes_lengths_and_doubled_routes():
    m = load_map()
    towns = [p for p in m.places.values() if p.kind == "town"]
    assert {t.key for t in towns} >= {"scotchcorner", "wetherby", "ferrybridge", "thirsk"}
    assert m.places["scotchcorner"].name == "Scotch Corner"
    assert all(m.routes_at[t.key] for t in towns)  # routes end at towns, cards or none
    assert m.route("york", "leeds") is m.route("leeds", "york")
    leeds_york = m.route("leeds", "york")
    assert (leeds_york.length, leeds_york.cost, leeds_york.copies) == (5, 7, 2)  # rule 9, 12
    doubled = [r.name for r in m.routes if r.copies == 2]
    assert "bradford-leeds" in doubled and len(doubled) == 9
    assert m.route("leeds", "scarborough") is None
    assert all(0 <= v <= 100 for p in m.places.values() for v in p.pos)


def test_map_option_by_name_and_by_path(tmp_path):
    assert "yorkshire" in map_names()
    assert option_defaults(RULES)["map"] == "yorkshire"
    own = tmp_path / "my-region.yaml"
    own.write_text(SHIPPED.replace("name: Yorkshire and the North East", "name: My copy"))
    s = RULES.new_game({"map": str(own)}, ["a", "b", "c"], 5)
    assert s.map.title == "My copy"
    assert RULES.view(s)["map"] == "My copy"


def test_an_unknown_map_names_the_maps_there_are():
    with pytest.raises(MapError) as caught:
        load_map("atlantis")
    assert "the maps shipped are example, yorkshire" in str(caught.value)
    with pytest.raises(ValueError):
        RULES.new_game({"map": "atlantis"}, ["a", "b", "c"], 1)


def test_a_card_keyed_to_nothing_and_a_card_keyed_twice():
    text = SHIPPED.replace(
        "{cards: [5H], places: {bridlington", "{cards: [5C], places: {bridlington"
    )
    found = problems(text)
    assert (
        "card 5C is keyed twice: to Harrogate and Bridlington" in found[0]
        or "card 5C is keyed twice: to Bridlington and Harrogate" in found[0]
    )
    assert any("card(s) 5H are keyed to no destination" in p for p in found)


def test_a_card_that_is_no_card():
    found = problems(SHIPPED.replace("[5H]", "[1H]"))
    assert any("'1H' is not a playing card" in p for p in found)


def test_routes_must_join_known_places_with_positive_lengths():
    text = SHIPPED.replace(
        "  - coldstream-berwick 3\n",
        "  - coldstream-atlantis 3\n  - hull-york 0\n  - selby-selby 2\n",
    )
    found = problems(text)
    assert any("no place 'atlantis' on the map" in p for p in found)
    assert any("'hull-york 0'" in p and "at least 1" in p for p in found)
    assert any("must join two different places" in p for p in found)


def test_a_route_listed_twice_must_say_twice():
    found = problems(
        SHIPPED.replace("  - skipton-colne 2\n", "  - skipton-colne 2\n  - colne-skipton 2\n")
    )
    assert len(found) == 1 and "colne-skipton is already route" in found[0]
    assert "'twice'" in found[0]


def test_a_route_line_that_cannot_be_read():
    found = problems(SHIPPED.replace("  - skipton-colne 2\n", "  - colne to skipton\n"))
    assert found == ["route 48 ('colne to skipton'): write a route as 'a-b N' or 'a-b N twice'"]


def test_the_map_must_be_connected():
    # Skipton and Lancashire's place at Colne cut off together
    text = (
        SHIPPED.replace("  - harrogate-skipton 5\n", "")
        .replace("  - skipton-bradford 4\n", "")
        .replace("  - colne-halifax 4\n", "")
    )
    found = problems(text)
    assert len(found) == 1
    assert found[0].startswith("the map is not connected")
    assert found[0].endswith("colne, skipton")


def test_positions_keys_sections_and_junctions_are_checked():
    text = SHIPPED.replace("leeds: [41, 78]", "leeds: [41, 780]").replace(
        "washington:    {name: Washington, pos: [42, 34]}",
        "Washington: {name: Washington, pos: [42, 34]}",
    )
    found = problems(text)
    assert any("position of 'leeds'" in p for p in found)
    assert any("place key 'Washington'" in p for p in found)
    # the file's sections are read by its description (schema, issue 21)
    assert problems("name: x\nroutes: []\n") == [
        "destinations: missing; add `destinations: ...` to the top section"
    ]
    lonely = SHIPPED.replace("towns:\n", "towns:\n  nowhere: {name: Nowhere, pos: [1, 1]}\n")
    found = problems(
        lonely.replace("  - skipton-colne 2\n", "  - skipton-colne 2\n  - nowhere-hull 3\n")
    )
    assert found == ["town nowhere: a town without cards must join at least two routes"]


def test_the_sections_are_read_by_one_description_with_near_misses():
    """A misspelt section and a wrong kind of value are named with their key paths, all at
    once, as in every other file a person edits (``schema``)."""
    text = SHIPPED.replace("junctions:\n", "junctons:\n").replace("version: 2", "version: two")
    found = problems(text)
    assert "junctons: unknown setting; did you mean `junctions`?" in found
    assert "version: expected a whole number of at least 1, found 'two'" in found
    found = problems(SHIPPED.replace("{cards: [AS, KH, QD],", "{cards: AS,"))
    assert found == ["destinations.Leeds.cards: expected a list, found 'AS'"]


def test_all_problems_are_named_together():
    text = SHIPPED.replace("[5H]", "[1H]").replace("hull-goole 5", "hull-goole -2")
    with pytest.raises(MapError) as caught:
        parse_map(text, "test", "bad.yaml")
    message = str(caught.value)
    assert message.startswith("map bad.yaml cannot be used:")
    assert "'1H' is not a playing card" in message and "hull-goole -2" in message
    assert "5H" in message


def test_yaml_that_is_not_a_map():
    assert problems("just words") == [
        "the file: expected a section of `key: value` lines, found 'just words'"
    ]
    assert "not readable as YAML" in problems("a: [unclosed")[0]
