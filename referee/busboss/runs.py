"""Runs: dealing them from the cards (rules 14-17, K3), racing (rules 27-28, K5) and the
points for places (rules 31-32)."""

from __future__ import annotations

import random
from collections.abc import Iterable

from .map import CARDS, Map

RUNS_PER_ROUND = {7: 9, 8: 9, 9: 8, 10: 9, 11: 9, 12: 8}  # rule 14
SHUFFLE_ROUNDS = (7, 10)  # rule 15, K3
MIN_RUN = 3  # rule 17
DIE = (2, 3, 3, 4, 4, 5)  # rule 27: the average die
POINTS = {  # rule 31, by entrants
    1: (30,),
    2: (20, 10),
    3: (16, 9, 5),
    4: (13, 8, 5, 4),
    5: (11, 7, 5, 4, 3),
    6: (10, 6, 5, 4, 3, 2),
}


def good_pair(m: Map, a: str, b: str, on_offer: frozenset = frozenset()) -> bool:
    """K3: two different destinations at least MIN_RUN spaces apart over the whole map.
    A pair still on offer from the last half is redrawn too, so that a run's two cards
    always name one run."""
    if m.card_destination[a] == m.card_destination[b] or m.distance(a, b) < MIN_RUN:
        return False
    return not on_offer or frozenset((a, b)) not in on_offer


def deal_runs(
    m: Map, rng: random.Random, on_offer: Iterable[tuple[str, str]] = ()
) -> tuple[tuple[str, str], ...]:
    """K3: shuffle the 52 cards and deal them in pairs. When a pair is no run, its second
    card goes back and the next one is drawn; if the last cards cannot pair, deal again.
    ``on_offer``: card pairs of runs carried forward, not to be dealt again."""
    offered = frozenset(frozenset(pair) for pair in on_offer)
    while True:
        deck = list(CARDS)
        rng.shuffle(deck)
        pairs = []
        while deck:
            first = deck.pop()
            for i in range(len(deck) - 1, -1, -1):
                if good_pair(m, first, deck[i], offered):
                    pairs.append((first, deck.pop(i)))
                    break
            else:  # the cards left cannot pair
                break
        if not deck and len(pairs) == len(CARDS) // 2:
            return tuple(pairs)


def race(distances: list[int], rng: random.Random) -> list[list[int]]:
    """K5: turn by turn every entrant still on the road throws the die, in entry order,
    until its throws reach or pass its distance. Returns each entrant's throws."""
    throws: list[list[int]] = [[] for _ in distances]
    to_go = list(distances)
    running = list(range(len(distances)))
    while running:
        still = []
        for i in running:
            throw = rng.choice(DIE)
            throws[i].append(throw)
            to_go[i] -= throw
            if to_go[i] > 0:
                still.append(i)
        running = still
    return throws


def share(total: int, favoured_first: list) -> list[int]:
    """Splits ``total`` equally; the odd amount goes one each to the first of the list
    (rule 32: the poorer players for revenue; rule 26: the richer ones pay the odd amount)."""
    n = len(favoured_first)
    base, odd = divmod(total, n)
    return [base + 1] * odd + [base] * (n - odd)


def award(throw_counts: list[int], poorness: list) -> tuple[list[int], list[int]]:
    """Places and points per entrant (rules 31-32). Fewer throws is a better place; entrants
    arriving on the same throw share their places' points, odd points to the poorer
    (smaller ``poorness``). Returns (place, points) per entrant; places count from 1."""
    table = POINTS[len(throw_counts)]
    order = sorted(range(len(throw_counts)), key=throw_counts.__getitem__)
    places, points = [0] * len(order), [0] * len(order)
    start = 0
    while start < len(order):
        tied = [i for i in order if throw_counts[i] == throw_counts[order[start]]]
        tied.sort(key=poorness.__getitem__)
        for i, amount in zip(tied, share(sum(table[start : start + len(tied)]), tied)):
            places[i], points[i] = start + 1, amount
        start += len(tied)
    return places, points
