"""Random bot games of Bus, every invariant checked after every order."""

from collections import Counter

import pytest
from bus_positions import bot_game

from referee.bus.board import BOARD, ZONES
from referee.bus.engine import RULES
from referee.bus.state import ACTION_MARKERS, BUS_CAP, line_marker_supply

GAMES = 200


def is_trail_between_heads(streets, heads) -> bool:
    """A line is a trail from head to head: connected, and the odd crossings are the heads."""
    if not streets:
        return heads == []
    degree = Counter(c for st in streets for c in BOARD.streets[st])
    odd = sorted(c for c, d in degree.items() if d % 2)
    ends = sorted(c for c, _ in heads)
    if odd != ([] if ends[0] == ends[1] else ends):
        return False
    seen, todo = set(), [ends[0]]
    while todo:
        c = todo.pop()
        if c not in seen:
            seen.add(c)
            todo += [BOARD.other_end(st, c) for st in streets if c in BOARD.streets[st]]
    return seen == set(degree)


class Invariants:
    def __init__(self, n):
        self.points = [0] * n
        self.checks = 0

    def __call__(self, s):
        self.checks += 1
        n = s.n
        for p in range(n):
            assert is_trail_between_heads(s.streets[p], s.heads[p]), (p, s.streets[p], s.heads[p])
            assert len(set(s.streets[p])) == len(s.streets[p])
            assert s.line_left[p] >= 0
            assert s.line_left[p] + len(s.streets[p]) == line_marker_supply(s.edition, p)
            assert 0 <= s.markers[p] <= ACTION_MARKERS
            assert 1 <= s.buses[p] <= (BUS_CAP[s.edition] or ACTION_MARKERS + 1)
            assert s.points[p] >= self.points[p], "a score fell"
        self.points = list(s.points)
        assert sum(s.passengers) + s.supply == 15 and s.supply >= 0
        assert min(s.passengers) >= 0
        total_stones = 4 if n == 3 else 5
        assert s.clock_stones >= 0 and s.clock_stones + sum(s.stones) == total_stones
        for c in BOARD.crossings:  # one passenger per building
            assert s.seated(c) <= s.buildings_of(c, s.clock)
        built = [any(s.lots[i] for i in BOARD.lots_in_zone[z]) for z in ZONES]
        full = [all(s.lots[i] for i in BOARD.lots_in_zone[z]) for z in ZONES]
        for k in range(1, 4):  # zones open in order
            if built[k]:
                assert all(full[:k]), f"zone {ZONES[k]} built before the lower zones were full"
        for street, bits in enumerate(s.street_lines):
            assert bits == sum(1 << p for p in range(n) if street in s.streets[p])


@pytest.mark.parametrize(
    "players", [3, pytest.param(4, marks=pytest.mark.slow), pytest.param(5, marks=pytest.mark.slow)]
)
def test_random_games_keep_every_invariant(players):
    reasons = Counter()
    for seed in range(GAMES):
        check = Invariants(players)
        final, log = bot_game(players, 1000 * players + seed, "random", check)
        assert final.phase == "over" and RULES.result(final) is not None
        assert check.checks == len(log) > 0
        reasons[final.end_reason] += 1
    assert sum(reasons.values()) == GAMES
