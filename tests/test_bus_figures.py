"""The Bus descriptor's play_figures: markers each seat wasted, placed when it could have
passed (B6) on a space that did nothing for it when it resolved."""

from bus_positions import bare, build, lay

from referee.bus import GAME
from referee.bus.engine import RULES
from referee.bus.figures import play_figures
from referee.contract import PlayFigures


def played(s, orders):
    """``s`` and the steps of its orders (seat, action or pass) until the round has resolved,
    the first legal order taken for every decision of the resolution."""
    start, steps = s, []
    for seat, action in orders:
        order = RULES.parse("pass" if action == "pass" else f"action {action}")[0].alternatives[0]
        s, _ = RULES.apply(s, seat, order)
        steps.append((seat, order, s))
    assert s.phase == "resolve"
    while s.round == start.round and (due := RULES.awaiting(s)):
        seat = due[0].seat
        order = RULES.legal_orders(s, seat)[0]
        s, _ = RULES.apply(s, seat, order)
        steps.append((seat, order, s))
    assert s.round == start.round + 1
    return start, steps


def test_wasted_markers_are_those_that_did_nothing_when_the_seat_could_have_passed():
    s = bare(3)  # one bus each: M is 1 (B4); Ann starts, Bob would start the next round
    lay(s, 0, "15-16")
    lay(s, 1, "27-28")
    lay(s, 2, "32-33")
    start, steps = played(
        s,
        [
            (0, "line"),  # a: Ann lays M = 1 street
            (1, "line"),  # b: M - 1 = 0 streets, but Bob could not pass yet: not counted
            (2, "buildings"),
            (0, "passengers"),
            (1, "clock"),
            (2, "vroom"),  # nothing to carry on Cid's line, but his second marker
            (0, "buses"),  # Ann could pass: she buys a bus, which does something
            (1, "start"),  # Bob could pass, and would have started anyway (B12): wasted
            (2, "pass"),
            (0, "line"),  # c: M - 2 streets, M read before the bus is bought: wasted
            (1, "pass"),
            (0, "pass"),
        ],
    )
    assert steps[-1][2].buses[0] == 2 and steps[-1][2].start == 1
    assert GAME.offers(PlayFigures) == PlayFigures(play_figures)
    assert play_figures(start, steps) == {
        0: {"wasted_markers": 1},
        1: {"wasted_markers": 1},
        2: {"wasted_markers": 0},
    }


def test_a_third_marker_that_carries_a_passenger_or_takes_the_start_is_not_wasted():
    s = bare(3)
    s.start = s.turn = 1  # Bob starts: Cid would start the next round
    lay(s, 0, "15-16")
    lay(s, 1, "27-28")
    lay(s, 2, "32-33")
    build(s, 16, "house")  # seats the passenger at 16 (B9): the one at 15 wants to leave,
    build(s, 16, "house")  # and this house is free for her
    start, steps = played(
        s,
        [
            (1, "buildings"),  # (at 10, off Ann's line)
            (2, "line"),
            (0, "clock"),  # Ann stops the clock: still house for Vrrooomm!
            (1, "line"),
            (2, "passengers"),
            (0, "passengers"),  # b: M - 1 = 0, but Ann's second marker
            (1, "pass"),
            (2, "pass"),
            (0, "vroom"),  # Ann could pass: she carries her passenger
            (0, "start"),  # and starts the next round, which Cid would have
            (0, "pass"),
        ],
    )
    assert steps[-1][2].points[0] == 1 and steps[-1][2].start == 0
    assert play_figures(start, steps)[0] == {"wasted_markers": 0}
