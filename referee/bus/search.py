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

A marker the seat could keep (it may pass, B6) is seldom thrown away on a space that will do
nothing for it when it resolves (a wasted marker, ``figures``): a space the rules show will
owe nothing whatever the others do (``futile``: M at Passengers and Buildings is known once
the Buses space is taken, B4) is not searched, and a candidate whose own marker did nothing
in any of its rollouts is never chosen over one whose marker did (passing always does);
after that, one that left idle a space of the seat's already down (a clock stopped, a
passenger carried by the first of two Vrrooomm! spaces) is not chosen over one that did
not. Its rollouts' mean could look best, as the default bot that plays the seat on in them
may spend a marker kept better later. A marker can still go to waste where the game goes
otherwise than every rollout did (a Vrrooomm! space whose passengers or free buildings the
spaces before it took, a Starting Player in what turned out the last round): none in the 200
games of ``referee simulate bus --seats strong,default,default,default`` (seed 1), one before.

The budget is a number of rollouts per decision, not seconds, and every rollout's random
generator comes from the bot's generator, so the bot is deterministic for a given state, seed
and budget: tests and replays are exact. A bot only chooses new orders; the orders it chose
are logged as text like anyone's, and a replay never asks a bot.
"""

from __future__ import annotations

import random

from ..contract import Bot, Words
from .bot import default_choice, default_values
from .notation import ACTIONS, Order
from .rules import (
    APPLY,
    PASS,
    _run_on,
    legal_orders,
    listed,
    owed,
    ranking,
    space_amount,
    space_of_slot,
)
from .state import BUS_CAP, BusState

# the default budget, rollouts per decision: at 100, keeping its markers, the bot won 96.5%
# of 200 games against three default seats, the base had 95% of 20 at 200, in twice the time
# (bench/bus_strong_bench.py)
ROLLOUTS = 100
# the most: about a second a decision (4 players); a billion, a slip of the keyboard in
# campaign.yaml, held the tick (and its lock) for days at the first missed deadline
MOST_ROLLOUTS = 2000
WIDTH = 8  # the candidates searched: the default bot's favourites among the legal orders
HORIZON = 1  # rounds a rollout plays after the one in play, unless the game ends first
MARKER_VALUE = 0.3  # what an action marker still in hand is worth where a rollout stops early
MARGIN = 0.02  # reward per point of lead (or lag) at the end, besides the share of the win


def strong_bot(rollouts: int = ROLLOUTS) -> Bot:
    """The strong bot with a budget of ``rollouts`` per decision (1 to MOST_ROLLOUTS)."""
    if not 1 <= rollouts <= MOST_ROLLOUTS:
        raise ValueError(
            f"the strong bot takes at least 1 rollout a decision and at most {MOST_ROLLOUTS},"
            f" not {rollouts}"
        )

    def strong(s: BusState, seat: int, rng: random.Random) -> Order:
        return search(s, seat, rng, rollouts)

    return strong


def search(s: BusState, seat: int, rng: random.Random, rollouts: int = ROLLOUTS) -> Order:
    """The seat's order found by ``rollouts`` rollouts; a forced order at once."""
    legal = legal_orders(s, seat)
    if PASS in legal:
        legal = [o for o in legal if o is PASS or not futile(s, seat, o.args[0])]
    if len(legal) == 1:
        return legal[0]
    values = default_values(s, seat, legal)
    ranked = sorted(range(len(legal)), key=lambda i: -values[i])  # stable: ties keep order
    candidates = [legal[i] for i in ranked[:WIDTH]]
    seed = rng.getrandbits(64)
    totals = [0.0] * len(candidates)
    counts = [0] * len(candidates)
    idle = [False] * len(candidates)  # a space of the seat's did nothing in a rollout
    own = [False] * len(candidates)  # the candidate's own marker did, when it could pass
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
                value, wasted, thrown = rollout(s, seat, candidates[c], random.Random(seed + j))
                totals[c] += value
                idle[c] |= wasted
                own[c] |= thrown
                counts[c] += 1
                spent += 1
        alive.sort(key=lambda c: (own[c], idle[c], -totals[c] / counts[c] if counts[c] else 0.0))
        alive = alive[: max(1, len(alive) // 2)]
    best = max(
        (c for c in range(len(candidates)) if counts[c]),
        key=lambda c: (not own[c], not idle[c], totals[c] / counts[c], -c),
    )
    return candidates[best]


def futile(s: BusState, seat: int, action: str) -> bool:
    """Whether a marker on the next space of ``action`` is sure to do nothing for the seat
    when it resolves, whatever is chosen after it. Clock always owes its taker a decision;
    whether Vrrooomm! finds a passenger to carry, only play shows (``rollout``)."""
    space = len(s.board[action])
    most, cap = max(s.buses), BUS_CAP[s.edition]
    if action == "line":  # B4: M read before any bus of this round is bought
        return s.line_left[seat] == 0 or space_amount(action, space, most, s.n) == 0
    # Buses resolves before Passengers and Buildings and raises M (B4) when its one space
    # (B2) goes to a player with the most buses, below the cap (B3): once it is taken, M at
    # their resolution is known; while it is free, anyone may still take it
    takers = s.board["buses"]
    if takers:
        raised = max(most, s.buses[takers[0]] + (cap is None or s.buses[takers[0]] < cap))
    else:
        raised = most if cap is not None and most >= cap else most + 1
    if action == "passengers":
        return all(_passengers_brought(s, space, m) == 0 for m in (most, raised))
    if action == "buildings":
        return not s.any_lot_free() or space_amount(action, space, raised, s.n) == 0
    if action == "buses":
        return cap is not None and s.buses[seat] >= cap
    if action == "start":  # B12: the seat would start the next round anyway
        return (s.start + 1) % s.n == seat
    return False


def _passengers_brought(s: BusState, space: int, most: int) -> int:
    """What Passengers' space ``space`` brings with M at ``most``: the spaces before it
    bring theirs first (B5), all from one supply (B9)."""
    supply = s.supply
    for earlier in range(space):
        supply -= min(space_amount("passengers", earlier, most, s.n), supply)
    return min(space_amount("passengers", space, most, s.n), supply)


def rollout(s: BusState, seat: int, order: Order, rng: random.Random) -> tuple[float, bool, bool]:
    """The seat's reward after ``order``, the default bot playing every seat from then on
    until the game ends or HORIZON more rounds have been played; whether a space of the
    seat's in this round did nothing for it: a marker ``order`` places, or one already down,
    which a later order of the seat's own may leave idle; and whether the marker ``order``
    places when the seat could pass did nothing (a wasted marker, ``figures``)."""
    last, round_ = s.round + HORIZON, s.round
    kept = s.phase == "choose" and order is not PASS and s.placed[seat] >= 2
    mine = (ACTIONS.index(order.args[0]), len(s.board[order.args[0]])) if kept else None
    s = s.copy()  # a state is a value: stepping this copy leaves ``s``'s lists alone
    step(s, seat, order)
    waiting = _spaces_to_resolve(s, seat) if s.round == round_ else set()
    while (due := owed(s)) is not None and s.round <= last:
        if waiting and s.phase == "resolve" and s.round == round_:
            waiting.discard((s.act, space_of_slot(s, ACTIONS[s.act], s.slot)))  # owed
        player = due[0]
        legal = listed(s, player)
        step(s, player, legal[0] if len(legal) == 1 else default_choice(s, player, legal, rng))
    # B13: a clock that ends the game at once leaves Vrrooomm! and Starting Player unresolved
    cut = s.phase == "over" and s.round == round_ and s.end_reason == "clock"
    left = [space for space in waiting if not (cut and space[0] == VROOM)]
    thrown = mine in left
    if kept and order.args[0] == "start" and s.phase == "over" and s.round == round_:
        thrown = thrown or not cut  # there was no next round to start (B12)
    return reward(s, seat), thrown or bool(left), thrown


VROOM = ACTIONS.index("vroom")
# the actions whose space does something only by a decision its taker owes when it resolves;
# the clock always owes one, Buses and Starting Player are foreseen (``futile``)
DECIDED = tuple(ACTIONS.index(a) for a in ("line", "passengers", "buildings", "vroom"))


def _spaces_to_resolve(s: BusState, seat: int) -> set[tuple[int, int]]:
    """(action index, space) of the seat's spaces of DECIDED actions in this round that have
    not resolved yet (B5: in the order of the slots)."""
    spaces = set()
    for act in DECIDED:
        if s.phase == "resolve" and act < s.act:
            continue
        action = ACTIONS[act]
        first = s.slot if s.phase == "resolve" and act == s.act else 0
        for slot in range(first, len(s.board[action])):
            space = space_of_slot(s, action, slot)
            if s.board[action][space] == seat:
                spaces.add((act, space))
    return spaces


def step(s: BusState, seat: int, order: Order) -> None:
    """A legal order applied to ``s`` itself (no check, no copy): for the search's own copies."""
    s.moves += 1
    events: list[Words] = []
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
