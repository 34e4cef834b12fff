"""K16: a joint run counts in each partner's rule 20 limit on the line of their own order
that enters it. A partner whose line is missing or void voids the joint run for all (rule
26), the others' lines still take their places, and the report names that partner and why
(rule 20, 21 or 26), in rounds of two, three and four companies (K11: the limit is six runs
with two or three players left, five with four)."""

import pytest
from busboss_positions import ANN, BOB, CAT, DAN, at_round, new, owning, play

from referee.busboss.game import drop, entry_limit

JOINT = "run AS-5S with blue: leeds-york-malton-scarborough"
OTHER_RUNS = ["KD-5D", "8S-6S", "QH-JC", "2C-3D", "4H-7C", "9S-10H", "6D-8C"]


def position(companies: int):
    """Ann (Leeds-York) and Bob (York-Malton) may run AS-5S (Leeds to Scarborough)
    jointly; Cat owns Malton-Scarborough. Seats beyond ``companies`` are dropped (rule 40),
    before the round begins (K11)."""
    s = owning(
        new(),
        {ANN: "leeds-york", BOB: "york-malton", CAT: "malton-scarborough"},
    )
    for seat in (DAN, CAT)[: 4 - companies]:
        s, _ = drop(s, seat)
    s = at_round(s, 10, " ".join(["AS-5S", *OTHER_RUNS]))
    s.round_players = companies
    return s


def orders(s, given: dict[int, list[str]]) -> dict[int, str]:
    """Every seat still in the game gives an order; those not in ``given`` enter no runs."""
    return {seat: "\n".join(["round 10", *given.get(seat, ["no runs"])]) for seat in s.order}


def others(count: int, start: int = 0) -> list[str]:
    """Lines entering other runs (their journeys go nowhere near: each is void as it runs)."""
    return [f"run {run}: leeds-york" for run in OTHER_RUNS[start : start + count]]


def joint_void(s) -> dict:
    [void] = [r for r in s.last["runs"] if r["run"] == "AS-5S"][0]["void"]
    return void


COMPANIES = [2, 3, 4]


@pytest.mark.parametrize("companies", COMPANIES)
def test_both_partners_within_their_limits_run_it_and_each_uses_a_place(companies):
    s = position(companies)
    limit = entry_limit(s)
    assert limit == (5 if companies == 4 else 6)
    # each fills the rest of their limit, then one line more: void, the joint run's line
    # having taken a place in each limit
    s, events = play(
        s,
        orders(
            s,
            {
                ANN: [JOINT, *others(limit)],
                BOB: ["run AS-5S with red", *others(limit)],
            },
        ),
    )
    [run] = [r for r in s.last["runs"] if r["run"] == "AS-5S"]
    assert run["outcome"] == "run" and run["entrants"][0]["seats"] == [ANN, BOB]
    past = f"run {OTHER_RUNS[limit - 1]}"
    for seat in (ANN, BOB):
        [void] = [v for v in s.last["void"] if v["seats"] == [seat]]
        assert (
            void["piece"] == past and f"this would be run {limit + 1} (rule 20" in (void["reason"])
        )


@pytest.mark.parametrize("companies", COMPANIES)
def test_a_partner_past_their_limit_is_named_with_rule_20(companies):
    s = position(companies)
    limit = entry_limit(s)
    s, events = play(
        s,
        orders(
            s,
            {ANN: [JOINT, *others(limit - 1)], BOB: [*others(limit), "run AS-5S with red"]},
        ),
    )
    reason = joint_void(s)["reason"]
    assert joint_void(s)["seats"] == [ANN]
    assert reason.startswith(
        f"Bob (blue)'s line run AS-5S is void: at most {limit} runs may be entered in a "
        f"round, and this would be run {limit + 1} (rule 20, K15); a joint run is void for "
        "all its partners (rule 26)"
    )
    assert reason.endswith("the entry still takes its place in Ann's limit of runs (rule 20, K16)")
    assert f"  Ann (red): the entry is void, {reason}." in events
    # Bob's own line is named void in his pieces too, and Ann's other lines all count: her
    # limit is full with the joint run's line
    assert {"seats": [BOB], "piece": "run AS-5S", "reason": reason.split(" is void: ")[1]
            .split("; a joint")[0]} in s.last["void"]  # fmt: skip
    assert not [v for v in s.last["void"] if v["seats"] == [ANN]]


@pytest.mark.parametrize("companies", COMPANIES)
def test_a_partner_naming_a_run_not_on_offer_is_named_with_rule_21(companies):
    s = position(companies)
    s, events = play(s, orders(s, {ANN: [JOINT], BOB: ["run AS-5H with red"]}))
    void = joint_void(s)
    assert void["seats"] == [ANN]
    assert void["reason"].startswith(
        "Bob (blue)'s line run AS-5H is void: no such run is on offer this round"
    )
    assert "(rules 16, 21); a joint run is void for all its partners (rule 26)" in (void["reason"])
    assert void["reason"].endswith("takes its place in Ann's limit of runs (rule 20, K16)")


@pytest.mark.parametrize("companies", COMPANIES)
def test_a_partner_with_no_line_for_it_is_named_with_rule_26(companies):
    s = position(companies)
    s, events = play(s, orders(s, {ANN: [JOINT], BOB: others(2)}))
    assert joint_void(s) == {
        "seats": [ANN],
        "reason": "Bob (blue) did not enter it (rule 26); a joint run is void for all its "
        "partners (rule 26), and the entry still takes its place in Ann's limit of runs "
        "(rule 20, K16)",
    }
    assert s.cash[ANN] == 100 and s.cash[BOB] == 100  # nothing run, nothing paid


@pytest.mark.parametrize("companies", COMPANIES)
def test_a_partner_who_entered_it_alone_is_named(companies):
    s = position(companies)
    s, events = play(s, orders(s, {ANN: [JOINT], BOB: ["run AS-5S: leeds-york-malton"]}))
    reason = [v for v in s.last["runs"][0]["void"] if v["seats"] == [ANN]][0]["reason"]
    assert reason.startswith("Bob (blue) entered it alone (rule 26); a joint run is void")


@pytest.mark.parametrize("companies", [3, 4])
def test_three_partners_one_missing_names_them_and_both_places_used(companies):
    s = position(companies)
    s, events = play(
        s,
        orders(
            s,
            {ANN: ["run AS-5S with blue green: leeds-york-malton-scarborough"],
             BOB: ["run AS-5S with red green"]},
        ),
    )  # fmt: skip
    assert joint_void(s) == {
        "seats": [ANN, BOB],
        "reason": "Cat (green) did not enter it (rule 26); a joint run is void for all its "
        "partners (rule 26), and the entry still takes its place in the limits of runs of "
        "Ann and Bob (rule 20, K16)",
    }
