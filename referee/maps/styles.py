"""How the maps tell players apart, the same in every game: an Okabe-Ito colour (safe for
colour-blind readers), a letter for the text maps and the PNG's badges, and a stroke pattern
for the PNG, all chosen by the player's colour name."""

from __future__ import annotations

from dataclasses import dataclass

from ..contract import Say

WHITE = (255, 255, 255)
INK = (34, 34, 34)


@dataclass(frozen=True)
class PlayerStyle:
    letter: str
    colour: tuple[int, int, int]
    colour_name: str
    pattern: str  # solid, dots, dashes, bars, dash-dot, pairs: marks along the stroke
    ink: tuple[int, int, int] = WHITE  # letters and pattern marks drawn on the colour

    @property
    def looks(self) -> Say:
        """How its strokes look, in words: for the key beside the PNG map."""
        return Say(
            "{colour}, {pattern}",
            {"colour": COLOUR_WORDS[self.colour_name], "pattern": PATTERN_WORDS[self.pattern]},
        )


COLOUR_WORDS = {
    "red": Say("red"),
    "blue": Say("blue"),
    "green": Say("green"),
    "orange": Say("orange"),
    "purple": Say("purple"),
    "yellow": Say("yellow"),
    "grey": Say("grey"),
}
PATTERN_WORDS = {
    "solid": Say("solid"),
    "dots": Say("dotted"),
    "dashes": Say("dashed"),
    "bars": Say("barred"),
    "dash-dot": Say("dashes and dots"),
    "pairs": Say("pairs of bars"),
    "gaps": Say("broken into dashes"),
}


# Letters follow the colour names (U for blue) and avoid the Bus zone letters A-D. Yellow
# is the one light colour: its letters and marks are dark.
COLOUR_STYLES = {
    style.colour_name: style
    for style in (
        PlayerStyle("R", (213, 94, 0), "red", "solid"),
        PlayerStyle("U", (0, 114, 178), "blue", "dots"),
        PlayerStyle("G", (0, 158, 115), "green", "dashes"),
        PlayerStyle("O", (230, 159, 0), "orange", "bars"),
        PlayerStyle("P", (204, 121, 167), "purple", "dash-dot"),
        PlayerStyle("Y", (240, 228, 66), "yellow", "pairs", INK),
    )
}
