"""Figures of how each seat played a game, for ``simulate`` to report per bot
(``GameDescriptor.play_figures``).

wasted_markers: action markers a seat placed, when it could have passed instead (B6: two
down already this round), on a space that did nothing for it when it resolved: Line
Expansion, Passengers, Buildings or Vrrooomm! owing no decision (B4, B8: nothing to lay,
bring, build or carry), Buses with the bus cap reached (B3), Starting Player when the seat
would have started the next round anyway or there was none (B12, B13). The clock always
owes its taker a decision. A space the game never resolved (it ended at once, B13) did not
fail the seat and is not counted."""

from __future__ import annotations

from collections.abc import Sequence

from .notation import ACTIONS, Order
from .rules import space_of_slot
from .state import BusState

# the actions whose space does something only by a decision its taker owes when it resolves
DECIDED = ("line", "passengers", "buildings", "clock", "vroom")


def play_figures(
    start: BusState, steps: Sequence[tuple[int, Order, BusState]]
) -> dict[int, dict[str, int]]:
    placed: list[tuple[int, int, str, int]] = []  # (seat, round, action, space) that may waste
    owed: set[tuple[int, str, int]] = set()  # (round, action, space) that owed a decision
    rounds = {start.round: start}  # the first state of each round
    before = start
    for seat, order, after in steps:
        if before.phase == "choose" and order.kind == "action" and order.args[0] != "pass":
            if before.placed[seat] >= 2:  # B6: the seat could have passed instead
                action = order.args[0]
                placed.append((seat, before.round, action, len(before.board[action])))
        elif before.phase == "resolve":
            action = ACTIONS[before.act]
            owed.add((before.round, action, space_of_slot(before, action, before.slot)))
        rounds.setdefault(after.round, after)
        before = after
    last = before
    wasted = dict.fromkeys(range(start.n), 0)
    for seat, round_, action, space in placed:
        then, following = rounds[round_], rounds.get(round_ + 1)
        if action in DECIDED:
            # B13: a game ended by the clock never resolves that round's Vrrooomm!
            cut = action == "vroom" and last.end_reason == "clock" and last.round == round_
            did = cut or (round_, action, space) in owed
        elif action == "buses":
            did = (following or last).buses[seat] > then.buses[seat]
        elif following is None:  # start, with no next round to start
            did = last.end_reason == "clock"  # B13: ended at once, before Starting Player
        else:  # start: B12, the seat would have started anyway
            did = (then.start + 1) % then.n != seat
        wasted[seat] += not did
    return {seat: {"wasted_markers": n} for seat, n in wasted.items()}
