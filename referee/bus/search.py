"""The strong Bus bot: a rollout search over the engine, with the default bot as the model of
every player.

Bus has no hidden information and no chance after the start player is drawn (B14), so the
state is known exactly; what is not known is how the others will play. The search assumes
they play like the default bot. For each of the seat's best-looking legal orders (by the
default bot's own values) it plays the game on, every seat played by the default bot with its
own random tie-breaks, to the end of the game or at most HORIZON rounds after the one in play,
and scores where it stops (``reward``): a share of first place, and a little for the lead over
the best of the others. Points come only from Vrrooomm!, so the next round shows much of what
a line, a building or an action leads to: in small trials (a dozen games each) rollouts to the
end of the game won no more often at three times the cost, and rollouts that stop at the end
of the round in play won less. The rollouts are spread over the candidates by successive
halving: all get some, the better half get more, and so on. The order with the best mean
wins.

The budget is a number of rollouts per decision, not seconds, and every rollout's random
generator comes from the bot's generator, so the bot is deterministic for a given state, seed
and budget: tests and replays are exact. A bot only chooses new orders; the orders it chose
are logged as text like anyone's, and a replay never asks a bot.
"""

from __future__ import annotations

import random

from ..contract import Bot
from .bot import default_choice, default_values
from .notation import Order
from .rules import APPLY, _run_on, legal_orders, owed, owed_orders, ranking
from .state import BusState

ROLLOUTS = 200  # the default budget: rollouts per decision
WIDTH = 8  # the candidates searched: the default bot's favourites among the legal orders
HORIZON = 1  # rounds a rollout plays after the one in play, unless the game ends first
MARKER_VALUE = 0.3  # what an action marker still in hand is worth where a rollout stops early
MARGIN = 0.02  # reward per point of lead (or lag) at the end, besides the share of the win


def strong_bot(rollouts: int = ROLLOUTS) -> Bot:
    """The strong bot with a budget of ``rollouts`` per decision (at least 1)."""
    if rollouts < 1:
        raise ValueError(f"the strong bot needs at least 1 rollout a decision, not {rollouts}")

    def strong(s: BusState, seat: int, rng: random.Random) -> Order:
        return search(s, seat, rng, rollouts)

    return strong


def search(s: BusState, seat: int, rng: random.Random, rollouts: int = ROLLOUTS) -> Order:
    """The seat's order found by ``rollouts`` rollouts; a forced order at once."""
    legal = legal_orders(s, seat)
    if len(legal) == 1:
        return legal[0]
    values = default_values(s, seat, legal)
    ranked = sorted(range(len(legal)), key=lambda i: -values[i])  # stable: ties keep order
    candidates = [legal[i] for i in ranked[:WIDTH]]
    seed = rng.getrandbits(64)
    totals = [0.0] * len(candidates)
    counts = [0] * len(candidates)
    alive = list(range(len(candidates)))
    spent = 0
    rounds = max(1, (len(alive) - 1).bit_length())  # halvings until one is left
    for r in range(rounds):
        each = max(1, (rollouts - spent) // ((rounds - r) * len(alive)))
        for c in alive:
            for j in range(counts[c], counts[c] + each):
                if spent == rollouts:
                    break
                # rollout j of every candidate meets the same tie-breaks (common random
                # numbers), so candidates are compared on equal terms
                totals[c] += rollout(s, seat, candidates[c], random.Random(seed + j))
                counts[c] += 1
                spent += 1
        alive.sort(key=lambda c: -totals[c] / counts[c] if counts[c] else 0.0)
        alive = alive[: max(1, len(alive) // 2)]
    best = max(
        (c for c in range(len(candidates)) if counts[c]),
        key=lambda c: (totals[c] / counts[c], -c),
    )
    return candidates[best]


def rollout(s: BusState, seat: int, order: Order, rng: random.Random) -> float:
    """The seat's reward after ``order``, the default bot playing every seat from then on
    until the game ends or HORIZON more rounds have been played."""
    last = s.round + HORIZON
    s = s.copy()  # a state is a value: stepping this copy leaves ``s``'s lists alone
    step(s, seat, order)
    while (due := owed(s)) is not None and s.round <= last:
        player = due[0]
        legal = owed_orders(s, due)
        step(s, player, legal[0] if len(legal) == 1 else default_choice(s, player, legal, rng))
    return reward(s, seat)


def step(s: BusState, seat: int, order: Order) -> None:
    """A legal order applied to ``s`` itself (no check, no copy): for the search's own copies."""
    s.moves += 1
    events: list[str] = []
    APPLY[order.kind](s, seat, order.args, events)
    _run_on(s, events)


def reward(s: BusState, seat: int) -> float:
    """At the end of the game: a share of first place by B13's ranking (ties share it), and
    MARGIN a point of lead over the best of the others (negative when behind). Where a
    rollout stops early, the same by score and markers in hand, each worth MARKER_VALUE of a
    point: a marker spent now is an action missing later, which a short rollout cannot see."""
    if s.phase == "over":
        first = ranking(s)[0]
        values = [float(s.score(p)) for p in range(s.n)]
    else:
        values = [s.score(p) + MARKER_VALUE * s.markers[p] for p in range(s.n)]
        first = [p for p in range(s.n) if values[p] == max(values)]
    share = 1.0 / len(first) if seat in first else 0.0
    return share + MARGIN * (values[seat] - max(v for p, v in enumerate(values) if p != seat))
