"""The players' colours on the PNG maps stay apart for colour-blind players: each pair of
owners' colours (and each against the free road it is drawn over) keeps a distance under
simulated protanopia, deuteranopia and tritanopia, and every owner has a stroke pattern and
a letter of its own besides (the second cue, for whom the colours still meet)."""

from __future__ import annotations

from itertools import combinations

import colorspacious
import pytest

from referee.bus import png_map as bus_png
from referee.busboss import png_map as busboss_png
from referee.busboss.scene import BANK_STYLE
from referee.maps.styles import COLOUR_STYLES

OWNERS = (*COLOUR_STYLES.values(), BANK_STYLE)
ROADS = {"Bus": bus_png.ROAD, "Bus Boss": busboss_png.ROAD}

# The distance floor, in CAM02-UCS (colorspacious's deltaE): about one unit is a just
# noticeable difference between two large patches side by side. A player tells lines of a few
# pixels apart across the map, not patches side by side, so the floor asks ten times that.
# Okabe-Ito's colours, made for colour-blind readers, keep at least 11 under full
# dichromacy (orange and purple under tritanopia are the closest pair).
FLOOR = 10.0

# Machado, Oliveira and Fernandes (2009), at full severity: dichromacy, the strongest case
SIGHTS = {
    "normal": "sRGB1",
    **{
        kind: {"name": "sRGB1+CVD", "cvd_type": f"{kind}anomaly", "severity": 100}
        for kind in ("prot", "deuter", "trit")
    },
}


def seen(colour: tuple[int, int, int], sight: str):
    """The colour (sRGB) as a reader of that sight sees it."""
    return colorspacious.cspace_convert([v / 255 for v in colour], SIGHTS[sight], "sRGB1")


def distance(a: tuple[int, int, int], b: tuple[int, int, int], sight: str) -> float:
    return float(colorspacious.deltaE(seen(a, sight), seen(b, sight), input_space="sRGB1"))


@pytest.mark.parametrize("sight", SIGHTS)
def test_every_two_owners_colours_stay_apart(sight):
    close = [
        (a.colour_name, b.colour_name, round(distance(a.colour, b.colour, sight), 1))
        for a, b in combinations(OWNERS, 2)
        if distance(a.colour, b.colour, sight) < FLOOR
    ]
    assert close == []


@pytest.mark.parametrize("sight", SIGHTS)
@pytest.mark.parametrize("game", ROADS)
def test_every_owner_stands_out_from_the_free_road(game, sight):
    close = [
        style.colour_name for style in OWNERS if distance(style.colour, ROADS[game], sight) < FLOOR
    ]
    assert close == []


def test_the_simulation_does_see_a_difference_the_eye_loses():
    # red and green of a traffic light: far apart to a normal eye, close under deuteranopia
    red, green = (220, 40, 40), (40, 160, 40)
    assert distance(red, green, "normal") > 3 * FLOOR
    assert distance(red, green, "deuter") < distance(red, green, "normal") / 2


def test_every_owner_has_a_pattern_and_a_letter_of_its_own():
    for part in ("pattern", "letter", "colour"):
        assert len({getattr(style, part) for style in OWNERS}) == len(OWNERS), part
