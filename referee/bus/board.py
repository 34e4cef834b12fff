"""The Bus city board (ruling B1), loaded once from the project's own board.yaml."""

from __future__ import annotations

from dataclasses import dataclass
from importlib import resources

from ..schema import load_yaml

ZONES = "ABCD"


@dataclass(frozen=True)
class Crossing:
    label: int
    pos: tuple[int, int]
    lots: tuple[str, ...]  # zone letter of each building lot at this crossing
    station: bool = False
    central: bool = False


@dataclass(frozen=True)
class Lot:
    index: int
    crossing: int
    zone: str


class Board:
    """Crossings by label, streets by index (each a sorted pair of labels), lots by index.

    Precomputed adjacency so that legal-move generation only does lookups."""

    def __init__(self, data: dict):
        self.crossings: dict[int, Crossing] = {}
        for label, c in data["crossings"].items():
            self.crossings[int(label)] = Crossing(
                label=int(label),
                pos=tuple(c["pos"]),
                lots=tuple(c.get("lots", ())),
                station=bool(c.get("station", False)),
                central=bool(c.get("central", False)),
            )
        self.streets: list[tuple[int, int]] = []
        for name in data["streets"]:
            a, b = (int(x) for x in str(name).split("-"))
            self.streets.append((min(a, b), max(a, b)))
        self.street_index = {s: i for i, s in enumerate(self.streets)}
        self.streets_at: dict[int, tuple[int, ...]] = {
            c: tuple(i for i, s in enumerate(self.streets) if c in s) for c in self.crossings
        }
        # lots in zone order, then by crossing, so "the next free lot" is well defined
        lots = [(ZONES.index(z), c, z) for c, x in self.crossings.items() for z in x.lots]
        self.lots = [Lot(i, c, z) for i, (_, c, z) in enumerate(sorted(lots))]
        self.lots_at: dict[int, tuple[int, ...]] = {
            c: tuple(lot.index for lot in self.lots if lot.crossing == c) for c in self.crossings
        }
        self.lots_in_zone = {
            z: tuple(lot.index for lot in self.lots if lot.zone == z) for z in ZONES
        }
        self.stations = tuple(c for c, x in self.crossings.items() if x.station)
        self.centrals = tuple(c for c, x in self.crossings.items() if x.central)
        self._check()

    def other_end(self, street: int, crossing: int) -> int:
        a, b = self.streets[street]
        return b if a == crossing else a

    def street(self, a: int, b: int) -> int | None:
        return self.street_index.get((min(a, b), max(a, b)))

    def street_name(self, street: int) -> str:
        a, b = self.streets[street]
        return f"{a}-{b}"

    def _check(self) -> None:
        # B1: the published board's counts; a damaged data file must not start a game
        counts = {z: len(v) for z, v in self.lots_in_zone.items()}
        expected = (36, 70, {"A": 12, "B": 11, "C": 9, "D": 15}, 2, 4)
        found = (
            len(self.crossings),
            len(set(self.streets)),
            counts,
            len(self.stations),
            len(self.centrals),
        )
        if found != expected:
            raise ValueError(f"board.yaml does not describe the Bus board: {found} != {expected}")
        for a, b in self.streets:
            if a not in self.crossings or b not in self.crossings or a == b:
                raise ValueError(f"board.yaml: street {a}-{b} joins unknown crossings")


def _load() -> Board:
    text = resources.files(__package__).joinpath("board.yaml").read_text(encoding="utf-8")
    return Board(load_yaml(text))


BOARD = _load()
