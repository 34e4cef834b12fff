"""Bot-against-bot games of any game the registry knows, with figures for a report.

Bots are compared fairly by seating them: ``seats`` names one bot a seat, and from one game
to the next the seats rotate, so that over the games every seat is played by each bot. Each
bot's figures count its seats: a bot in three seats of a game has played three seat-games.
"""

from __future__ import annotations

import math
import random
import statistics
import time
from collections import Counter
from collections.abc import Callable, Sequence
from operator import itemgetter
from typing import Any

from .contract import IllegalOrder, Outcome

# a game's own figures of each seat's play: (the state it began with, each (seat, order,
# state after it) in order) -> {seat: {figure: n}} (the game's PlayFigures capability)
Figures = Callable[[Any, Sequence[tuple[int, Any, Any]]], dict[int, dict[str, int]]]
WILSON_Z = 1.96  # a 95% interval


def play_game(rules, players: int, seed: int, bot: str = "default", budget: int | None = None):
    """One game with the same bot in every seat (``budget``: a searching bot's rollouts per
    decision). Returns (final state, orders applied as (seat, text), orders the engine
    refused)."""
    game = play_seated(rules, [bot] * players, seed, budget, timed=False)
    return game.state, game.log, game.illegal


class SeatedGame:
    """A game played by one bot a seat, with what each seat's bot spent (when timed) and
    the game's own figures of each seat's play (when asked for)."""

    def __init__(self, state, players: int):
        self.state = state
        self.log: list[tuple[int, str]] = []
        self.illegal = 0
        self.cpu = [0.0] * players  # CPU seconds of each seat's bot
        self.decisions = [0] * players
        self.figures: dict[int, dict[str, int]] = {}


def play_seated(
    rules,
    bots: Sequence[str],
    seed: int,
    budget: int | None = None,
    figures: Figures | None = None,
    timed: bool = True,
) -> SeatedGame:
    """One game, seat ``i`` played by the bot ``bots[i]`` (each bot asked for once, with the
    budget), all drawing from one generator made from ``seed``; ``timed``: each decision's
    CPU counted for its seat (a decision of a quick bot takes little more than the clock)."""
    made = {name: rules.bot(name, budget) for name in set(bots)}
    rng = random.Random(seed)
    state = start = rules.new_game({}, [f"Bot {i + 1}" for i in range(len(bots))], seed)
    game = SeatedGame(start, len(bots))
    choose = [made[name] for name in bots]
    if timed:
        choose = [clocked(bot, game.cpu) for bot in choose]
    played: list[tuple[int, Any, Any]] = []
    log, awaiting, apply, text = game.log, rules.awaiting, rules.apply, rules.format
    while due := awaiting(state):
        seat = due[0].seat
        order = choose[seat](state, seat, rng)
        try:
            state, _ = apply(state, seat, order)
        except IllegalOrder:
            game.illegal += 1
            game.decisions[seat] += 1  # (the order refused)
            break  # a bot that errs ends its game unfinished, and is counted
        log.append((seat, text(order)))
        if figures is not None:
            played.append((seat, order, state))
    for seat, n in Counter(map(itemgetter(0), log)).items():
        game.decisions[seat] += n
    game.state = state
    if figures is not None:
        game.figures = figures(start, played)
    return game


def clocked(bot: Callable, cpu: list[float]) -> Callable:
    """The bot, adding the CPU time of each of its decisions to ``cpu[seat]``."""

    def choose(state, seat: int, rng: random.Random):
        clock = time.process_time()
        order = bot(state, seat, rng)
        cpu[seat] += time.process_time() - clock
        return order

    return choose


def replay(rules, players: list[str], seed: int, log: list[tuple[int, str]], options=None):
    """A game rebuilt from its accepted orders, as text."""
    state = rules.new_game(options or {}, players, seed)
    for seat, text in log:
        for entry in rules.parse(text):
            state, _ = rules.apply(state, seat, entry.alternatives[0])
    return state


def wilson(share: float, n: int, z: float = WILSON_Z) -> tuple[float, float]:
    """The Wilson score interval of a share observed over ``n`` trials."""
    if n == 0:
        return 0.0, 1.0
    centre = share + z * z / (2 * n)
    spread = z * math.sqrt(share * (1 - share) / n + z * z / (4 * n * n))
    scale = 1 + z * z / n
    return max(0.0, (centre - spread) / scale), min(1.0, (centre + spread) / scale)


def seating(bots: Sequence[str], game: int) -> list[str]:
    """The bot of each seat in game number ``game``: the list rotated one seat a game."""
    turn = game % len(bots)
    return [bots[(seat - turn) % len(bots)] for seat in range(len(bots))]


def simulate(
    rules,
    players: int,
    games: int,
    seed: int,
    bot: str = "default",
    progress: Callable[[int], None] | None = None,
    budget: int | None = None,
    seats: Sequence[str] | None = None,
    figures: Figures | None = None,
) -> dict:
    """``games`` games of ``players`` seats, each played by ``bot``, or by the bots of
    ``seats`` (one a seat, rotating), with figures in all, by bot, and by seat with the bot
    that played it (``figures``: the game's own, summed per bot, a mean per seat). A seat
    is counted by its place in the game's first order of play (0: the first asked to
    decide): a bot that plays well first and badly last shows there, whatever seat the
    game's own draw put first."""
    bots = list(seats) if seats else [bot] * players
    started = time.perf_counter()
    finished = decisions = illegal = 0
    rounds: list[int] = []
    scores: list[float] = []
    reasons: Counter[str] = Counter()
    by_bot: dict[str, dict[str, Any]] = {
        name: {"games": 0, "won": 0.0, "scores": [], "cpu": 0.0, "decisions": 0, "figures": {}}
        for name in bots
    }
    by_seat: dict[tuple[int, str], dict[str, Any]] = {}
    for i in range(games):
        seated = seating(bots, i)
        game = play_seated(rules, seated, seed * 100_003 + i, budget, figures)
        decisions += len(game.log)
        illegal += game.illegal
        result = rules.result(game.state)
        if result is not None:
            finished += 1
            reasons[result.ending.name.lower()] += 1
            scores.extend(result.scores)
        rounds.append(rules.round(game.state))
        first = first_order(game.log, len(seated))
        for seat, name in enumerate(seated):
            played = (
                by_seat.setdefault(
                    (first.index(seat), name),
                    {"games": 0, "won": 0.0, "scores": [], "figures": {}},
                ),
                by_bot[name],
            )
            for mine in played:
                mine["games"] += 1
                if result is not None:
                    if result.outcome(seat) is not Outcome.LOST:
                        mine["won"] += 1 / len(result.ranking[0])  # ties shared
                    mine["scores"].append(result.scores[seat])
                for figure, n in game.figures.get(seat, {}).items():
                    mine["figures"][figure] = mine["figures"].get(figure, 0) + n
            by_bot[name]["cpu"] += game.cpu[seat]
            by_bot[name]["decisions"] += game.decisions[seat]
        if progress:
            progress(1)
    return {
        "game": rules.name,
        "players": len(bots),
        **({"lineup": bots} if seats else {"bot": bot}),
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
        # by bot, for a comparison of seated bots (the CPU figures make two runs differ)
        **({"bots": {name: bot_figures(f) for name, f in by_bot.items()}} if seats else {}),
        "seats": [
            {"seat": seat, "bot": name, **seat_figures(by_seat[seat, name])}
            for seat, name in sorted(by_seat)
        ],
    }


def first_order(log: Sequence[tuple[int, str]], players: int) -> list[int]:
    """The seats in the order they were first asked to decide (a seat never asked, last)."""
    return list(dict.fromkeys([seat for seat, _ in log] + list(range(players))))


def seat_figures(played: dict[str, Any]) -> dict[str, Any]:
    """One seat's figures with one bot: its share of the wins with a 95% Wilson interval,
    its mean score, and the mean of each of the game's own figures."""
    games = played["games"]
    return {
        "games": games,
        **win_figures(played),
        **{
            f"{figure}_mean": round(n / games, 3) for figure, n in sorted(played["figures"].items())
        },
    }


def win_figures(played: dict[str, Any]) -> dict[str, Any]:
    """A share of the wins (a tie for first shared) with its 95% Wilson interval, and the
    mean score, of seat-games played."""
    games = played["games"]
    share = played["won"] / games if games else 0.0
    low, high = wilson(share, games)
    return {
        "win_share": round(share, 4),
        "wilson95": [round(low, 4), round(high, 4)],
        "mean_score": round(statistics.fmean(played["scores"]), 3) if played["scores"] else 0,
    }


def bot_figures(played: dict[str, Any]) -> dict[str, Any]:
    """One bot's figures over the seats it played: its share of the wins (a tie for first
    shared) with a 95% Wilson interval, its mean score, and its CPU a decision."""
    decisions = played["decisions"]
    return {
        "games": played["games"],
        **win_figures(played),
        "cpu_ms_per_decision": round(played["cpu"] / decisions * 1e3, 3) if decisions else 0,
        "decisions": decisions,
        **dict(sorted(played["figures"].items())),
    }
