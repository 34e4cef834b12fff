"""Ruling K9: towns and junctions. A route runs between two towns (with cards or without); a
junction is a point where routes cross between towns: buses may change route there (rule 29)
and a route through it joins the network of a player who owns the other (rule 10). The
Yorkshire map has two, both where the A1 crosses a road between towns: Allerton (on
harrogate-york, 2 spaces from Harrogate, and on boroughbridge-wetherby, 2 from Boroughbridge)
and Bramham (on leeds-york, 2 from Leeds, and on ferrybridge-wetherby, 3 from Ferrybridge)."""

import random

import pytest
from busboss_positions import (
    ANN,
    BOB,
    CAT,
    DAN,
    at_round,
    new,
    order,
    owning,
    play,
    route_owners,
    void,
)
from test_busboss_map import SHIPPED, problems

from referee.busboss.engine import RULES
from referee.busboss.journeys import best_plan, network, resolve, seat_places
from referee.busboss.map import MapError, load_map, parse_map
from referee.busboss.runs import deal_runs

NOTHING = "build nothing"


# the map --------------------------------------------------------------------------------------


def test_k9_the_map_calls_a_place_without_cards_a_town_and_a_crossing_a_junction():
    m = load_map()
    assert m.version == 2
    assert (m.places["thirsk"].kind, m.places["leeds"].kind, m.places["bramham"].kind) == (
        "town",
        "destination",
        "junction",
    )
    assert m.routes_at["bramham"] == ()  # never a route's end
    assert [r.name for r in m.routes_through["bramham"]] == ["leeds-york", "ferrybridge-wetherby"]
    assert m.route("leeds", "york").places == ("leeds", "bramham", "york")
    assert m.leg("leeds", "bramham")[1] == 2 and m.leg("bramham", "york")[1] == 3
    assert m.leg("leeds", "york")[1] == 5  # a leg may pass a junction
    assert m.leg("bramham", "ferrybridge")[1] == 3 and m.leg("wetherby", "bramham")[1] == 1
    assert m.leg("york", "ferrybridge") is None  # two routes: change at the junction


def test_k9_version_1_of_the_map_had_no_junctions_and_deals_the_same_runs():
    old, now = load_map("yorkshire", 1), load_map("yorkshire", 2)
    assert old.version == 1 and not any(p.junction for p in old.places.values())
    assert [r.name for r in old.routes] == [r.name for r in now.routes]
    assert old.route("leeds", "york").places == ("leeds", "york")
    # the junctions shorten no run between destinations, so K3 deals the same runs
    assert deal_runs(old, random.Random(9)) == deal_runs(now, random.Random(9))


def test_k9_a_version_the_file_does_not_hold_is_named():
    with pytest.raises(MapError) as caught:
        load_map("yorkshire", 3)
    assert "started on version 3 of this map, but the file holds version 2" in str(caught.value)


@pytest.mark.parametrize(
    "junction, says",
    [
        (
            "  x: {name: X, pos: [50, 70]}",
            "junction x: a junction is a point where routes cross between towns, so it says "
            "which routes it lies along ('along: [a-b N, c-d M]', N spaces from a); a place "
            "where routes end is a town: list it under towns (K9)",
        ),
        (
            "  x: {name: X, pos: [50, 70], along: [harrogate-york 2]}",
            "junction x: a junction lies on at least two routes (K9)",
        ),
        (
            "  x: {name: X, pos: [50, 70], along: [harrogate-york 5, leeds-york 2]}",
            "junction x: on harrogate-york (5 spaces) it lies 1 to 4 spaces from harrogate, not 5",
        ),
        (
            "  x: {name: X, pos: [50, 70], along: [harrogate-leeds 1, hull-york 2]}",
            "junction x: there is no route hull-york for it to lie on",
        ),
        (
            "  x: {name: X, pos: [50, 70], along: [leeds-york 3, wetherby-york 1]}",
            "leeds-york and wetherby-york both pass x and york: two routes may meet at one "
            "junction or town, not run side by side between two",
        ),
        (
            "  x: {name: X, pos: [50, 70], along: [leeds-york 1, wetherby-york 1], since: 3}",
            "junction x: 'since' is the map version that added it, from 1 to 2, not 3",
        ),
    ],
)
def test_k9_a_map_file_s_junctions_are_checked(junction, says):
    assert says in problems(SHIPPED.replace("junctions:\n", f"junctions:\n{junction}\n"))


def test_k9_a_route_ends_at_towns_never_at_a_junction():
    text = SHIPPED.replace("  - hull-goole 5\n", "  - hull-goole 5\n  - hull-bramham 9\n")
    assert problems(text) == [
        "route 64 ('hull-bramham 9'): a route runs between towns, and bramham is a junction, "
        "a point along routes (K9)"
    ]


def test_k9_a_map_without_junctions_is_fine_and_is_version_1():
    text = SHIPPED.replace("version: 2\n", "")
    text = text[: text.index("junctions:\n")] + text[text.index("routes:\n") :]
    m = parse_map(text)
    assert m.version == 1 and not any(p.junction for p in m.places.values())


# rule 29: changing route at a junction ----------------------------------------------------------


def york_to_wakefield():
    """Ann owns leeds-york, Bob the A1 south from Wetherby and on to Wakefield: from York the
    way to Wakefield is Ann's road to Bramham, then Bob's."""
    s = owning(new(), {ANN: "leeds-york", BOB: "wetherby-ferrybridge ferrybridge-wakefield"})
    return at_round(s, 8, "QH-2S", cash={ANN: 40, BOB: 40, CAT: 40, DAN: 40})


def test_rule_29_k9_a_bus_changes_route_at_a_junction():
    s = york_to_wakefield()
    net = network(s.map, s.owners)
    journey = order("run QH-2S: york-bramham-ferrybridge-wakefield").runs[0].journey
    plan = resolve(net, (ANN,), ("QH", "2S"), journey, s.colours)
    assert [(r.name, o, spaces) for r, o, spaces in plan.legs] == [
        ("leeds-york", ANN, 3),
        ("ferrybridge-wetherby", BOB, 3),
        ("ferrybridge-wakefield", BOB, 2),
    ]
    assert (plan.spaces, plan.changes, plan.paid) == (8, 1, 5)  # rules 23, 28
    s, events = play(
        s,
        {
            ANN: "run QH-2S: york-bramham-ferrybridge-wakefield",
            BOB: "no runs",
            CAT: "no runs",
            DAN: "no runs",
        },
    )
    assert (
        "  Ann (red) on york-bramham-ferrybridge-wakefield: 8 spaces and 1 change of colour, "
        "9 to go; throws" in "\n".join(events)
    )
    assert "  Ann (red) pays Bob (blue) 5." in events
    assert (s.cash[ANN], s.cash[BOB]) == (40 + 30 - 5, 40 + 5)


def test_rule_29_k4_a_journey_names_the_junction_where_it_changes_route():
    assert void(york_to_wakefield(), ANN, "run QH-2S: york-ferrybridge-wakefield") == [
        "run QH-2S: no route runs from york to ferrybridge: a journey names each town or "
        "junction where it changes route (K4, rule 29)"
    ]


def test_k9_passing_a_junction_on_the_same_route_is_no_change():
    s = at_round(owning(new(), {ANN: "leeds-york"}), 8, "AS-QH")
    net = network(s.map, s.owners)
    for text in ("run AS-QH: leeds-york", "run AS-QH: leeds-bramham-york"):
        plan = resolve(net, (ANN,), ("AS", "QH"), order(text).runs[0].journey, s.colours)
        assert (plan.spaces, plan.changes) == (5, 0)


def test_k9_the_quickest_journey_changes_at_a_junction_and_names_it_only_there():
    s = york_to_wakefield()
    plan = best_plan(network(s.map, s.owners), (ANN,), ("QH", "2S"))
    assert plan.places == ("york", "bramham", "ferrybridge", "wakefield")
    s = at_round(owning(new(), {ANN: "leeds-york"}), 8, "AS-QH")
    assert best_plan(network(s.map, s.owners), (ANN,), ("AS", "QH")).places == ("leeds", "york")


def test_rule_25_k9_the_shortest_journey_may_change_at_a_junction():
    # Leeds to Ferrybridge's neighbour Wakefield: 2 + 3 + 2 by Bramham is the only way
    s = owning(new(), {ANN: "leeds-york", BOB: "wetherby-ferrybridge ferrybridge-wakefield"})
    assert network(s.map, s.owners).shortest(("AS", "2S")) == 7


def test_k9_a_journey_passes_a_junction_once():
    s = york_to_wakefield()
    s = owning(s, {ANN: "leeds-wetherby"})
    text = "run QH-2S: york-bramham-wetherby-leeds-bramham-ferrybridge-wakefield"
    assert void(s, ANN, text) == ["run QH-2S: the journey passes bramham twice (K4)"]


# rule 10: a new route joins the network at a junction -------------------------------------------


def test_rule_10_k9_a_route_through_a_junction_joins_a_network_on_the_other_route():
    s = owning(new(), {ANN: "leeds-york"})
    assert "bramham" in seat_places(s, ANN)
    s, events = play(
        s,
        {ANN: "build wetherby-ferrybridge", BOB: NOTHING, CAT: NOTHING, DAN: NOTHING},
    )
    assert route_owners(s, "ferrybridge-wetherby") == (ANN,)


def test_rule_10_k9_without_the_junction_the_same_route_would_not_join():
    s = owning(new(), {ANN: "leeds-harrogate"})
    s, events = play(
        s,
        {ANN: "build wetherby-ferrybridge", BOB: NOTHING, CAT: NOTHING, DAN: NOTHING},
    )
    assert (
        "Ann (red) skips wetherby-ferrybridge: ferrybridge-wetherby does not meet the "
        "company's routes at a town or junction (rule 10)." in events
    )
    assert route_owners(s, "ferrybridge-wetherby") == ()


def test_rule_10_k2_k9_two_routes_of_one_purchase_may_join_at_a_junction():
    # a first purchase: harrogate-york (7) and boroughbridge-wetherby (5) meet only at Allerton
    s, _ = play(
        new(),
        {
            ANN: "build harrogate-york boroughbridge-wetherby",
            BOB: NOTHING,
            CAT: NOTHING,
            DAN: NOTHING,
        },
    )
    assert len(s.routes_of(ANN)) == 2 and s.cash[ANN] == 100 - 12


def test_k9_no_route_ends_at_a_junction_so_none_is_bought_there():
    assert void(new(), ANN, "build allerton-york | york-malton") == [
        "build allerton-york: there is no route allerton-york on the map: routes run "
        "between towns, and allerton is a junction along routes (K9)"
    ]


def test_k9_the_view_and_the_text_map_call_cardless_places_towns():
    view = RULES.view(new())
    kinds = {p["key"]: p["kind"] for p in view["places"]}
    assert kinds["ferrybridge"] == "town" and kinds["bramham"] == "junction"
    from referee import maps

    text = maps.text_map(view)
    assert "junction" not in text.split("Junctions (")[0].lower().replace("+: junctions", "")
    assert "fer ferrybridge" in text.split("Towns (abbreviation")[1]


def test_k9_a_map_file_that_calls_its_towns_junctions_is_told_to_list_them_as_towns():
    # the format before K9: places without cards where routes end, under "junctions"
    text = SHIPPED[: SHIPPED.index("junctions:\n")] + SHIPPED[SHIPPED.index("routes:\n") :]
    found = problems(text.replace("towns:\n", "junctions:\n"))
    towns = [p.key for p in load_map().places.values() if p.kind == "town"]
    assert len(found) == len(towns) == 10
    assert all("list it under towns (K9)" in p for p in found)
    assert found[0].startswith("junction washington: a junction is a point where routes cross")
