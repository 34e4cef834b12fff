"""Bot-against-bot games of any game the registry knows, with figures for a report."""

from __future__ import annotations

import random
import statistics
import time
from collections import Counter
from collections.abc import Callable

from .contract import IllegalOrder


def play_game(rules, players: int, seed: int, bot: str = "default", budget: int | None = None):
    """One game with the same bot in every seat (``budget``: a searching bot's rollouts per
    decision). Returns (final state, orders applied as (seat, text), orders the engine
    refused)."""
    choose = rules.bot(bot, budget)
    rng = random.Random(seed)
    state = rules.new_game({}, [f"Bot {i + 1}" for i in range(players)], seed)
    log, illegal = [], 0
    while due := rules.awaiting(state):
        seat = due[0].seat
        order = choose(state, seat, rng)
        try:
            state, _ = rules.apply(state, seat, order)
        except IllegalOrder:
            illegal += 1
            break  # a bot that errs ends its game unfinished, and is counted
        log.append((seat, rules.format(order)))
    return state, log, illegal


def replay(rules, players: list[str], seed: int, log: list[tuple[int, str]], options=None):
    """A game rebuilt from its accepted orders, as text."""
    state = rules.new_game(options or {}, players, seed)
    for seat, text in log:
        for entry in rules.parse(text):
            state, _ = rules.apply(state, seat, entry.alternatives[0])
    return state


def simulate(
    rules,
    players: int,
    games: int,
    seed: int,
    bot: str = "default",
    progress: Callable[[int], None] | None = None,
    budget: int | None = None,
) -> dict:
    started = time.perf_counter()
    finished = decisions = illegal = 0
    rounds: list[int] = []
    scores: list[float] = []
    reasons: Counter[str] = Counter()
    for i in range(games):
        state, log, refused = play_game(rules, players, seed * 100_003 + i, bot, budget)
        decisions += len(log)
        illegal += refused
        result = rules.result(state)
        if result is not None:
            finished += 1
            reasons[result.reason] += 1
            scores.extend(result.scores)
        rounds.append(rules.round(state))
        if progress:
            progress(1)
    return {
        "game": rules.name,
        "players": players,
        "bot": bot,
        **({"rollouts": budget} if budget is not None else {}),
        "seed": seed,
        "games": games,
        "finished": finished,
        "seconds": round(time.perf_counter() - started, 3),
        "mean_rounds": round(statistics.fmean(rounds), 3) if rounds else 0,
        "end_reasons": dict(sorted(reasons.items())),
        "mean_score": round(statistics.fmean(scores), 3) if scores else 0,
        "decisions": decisions,
        "illegal": illegal,
    }
