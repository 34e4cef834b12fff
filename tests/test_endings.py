"""How a game ended is a member of the game's own Enum of endings, told apart from its
wording; how it went for each seat is an ``Outcome`` (issue 21, the contract)."""

from referee.bus.rules import Ending as BusEnding
from referee.busboss.game import Ending as BusBossEnding
from referee.contract import Outcome, Result
from referee.registry import get
from referee.simulate import simulate


def test_every_game_of_a_simulation_ends_in_a_named_way_of_its_game():
    for name, endings in (("bus", BusEnding), ("busboss", BusBossEnding)):
        report = simulate(get(name).rules, 3, 6, 1)
        assert set(report["end_reasons"]) <= {e.name.lower() for e in endings}, report
        assert sum(report["end_reasons"].values()) == 6


def test_a_tie_for_first_place_is_shared():
    tied = Result(BusEnding.CLOCK, (5, 5, 3), ((0, 1), (2,)))
    assert str(tied.reason) == "the last clock stone was taken"
    assert [tied.outcome(seat) for seat in range(3)] == [
        Outcome.SHARED,
        Outcome.SHARED,
        Outcome.LOST,
    ]
