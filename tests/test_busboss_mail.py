"""Bus Boss by mail as Bus is: chatter around the orders is passed over and reported, a new
order before the round resolves replaces the one held (and the confirmation says so), the
player is told at once which pieces of a held order will not count (K10), and under the
`rules` deadline policy a void piece no longer costs the whole round."""

from datetime import timedelta

from sites import ADDRESSES, PLAYERS, logged, person_mail, text_of
from test_commands_maildir import T0, game, say

from referee.service.tick import tick


def send(site, boxes, seat: int, text: str) -> None:
    """A player's mail, and a tick: whatever it answers."""
    token = site.campaign("g1").players[seat].token
    boxes.deliver(person_mail(PLAYERS[seat], site.identity.plus("g1", token), "cmd", text))
    assert not tick(site, T0).errors


def flat(text: str) -> str:
    """Text with its lines joined and its spaces single: wording, whatever the wrapping."""
    return " ".join(text.split())


def owners(site, route: str) -> tuple[int, ...]:
    table = site.campaign("g1").table()
    m = table.state.map
    return table.state.owners[m.route(*route.split("-")).index]


def test_chatter_above_and_between_the_orders_is_passed_over_and_reported(tmp_path):
    site, boxes = game(tmp_path, game="busboss")
    text = text_of(
        say(site, boxes, 0, "Let's go!\nround 1\nGood luck everyone\nbuild leeds-york | nothing")
    )
    assert "Accepted:\n  + round 1\n    build leeds-york | nothing" in text  # indented as one order
    assert "Passed over (not orders):\n    Let's go!\n    Good luck everyone\n" in text
    assert "Not understood" not in text
    [record] = [r for r in logged(site.campaign("g1")) if r.get("seat") == 0]
    assert record["ignored"] == ["Let's go!", "Good luck everyone"]
    assert record["orders"] == [[0, "round 1\nbuild leeds-york | nothing", "mail"]]


def test_a_malformed_order_line_still_stops_the_mail_and_is_explained(tmp_path):
    site, boxes = game(tmp_path, game="busboss")
    text = text_of(say(site, boxes, 0, "Hello\nbuild leeds"))
    assert "Not understood, so nothing in this mail was used" in text
    assert "'leeds' is not a route" in text
    assert "Passed over (not orders):\n    Hello\n" in text


def test_a_new_order_before_the_round_resolves_replaces_the_held_one(tmp_path):
    site, boxes = game(tmp_path, game="busboss")
    say(site, boxes, 0, "build leeds-york")
    text = text_of(say(site, boxes, 0, "Changed my mind.\nbuild hull-beverley"))
    assert flat(
        "  + build hull-beverley\n"
        "      Ann (red) sent new orders for round 1; they replace those sent before.\n"
    ) in flat(text)
    assert "Kept for later" not in text
    assert flat(
        "  Your orders for round 1 are held until the round resolves; a new order sent "
        "before then replaces them.\n"
    ) in flat(text)
    say(site, boxes, 1, "build nothing")
    send(site, boxes, 2, "build nothing")  # the round resolves: a report, not a confirmation
    assert owners(site, "hull-beverley") == (0,) and owners(site, "leeds-york") == ()
    table = site.campaign("g1").table()
    assert table.round == 2 and table.queues.get(0) == []


def test_the_confirmation_names_the_pieces_that_will_not_count(tmp_path):
    site, boxes = game(tmp_path, game="busboss")
    text = text_of(say(site, boxes, 0, "build leeds-york york-malton | york-malton"))
    assert flat(
        "  These pieces of them will not count (K10):\n"
        "    build leeds-york york-malton: two to four routes may cost at most 12 together; "
        "leeds-york malton-york cost 13 (rule 8).\n"
    ) in flat(text)


def test_k10_under_the_rules_policy_a_skipped_alternative_does_not_cost_the_round(tmp_path):
    site, boxes = game(tmp_path, game="busboss", policy="rules")
    say(site, boxes, 0, "build leeds-york york-malton | york-malton")
    report = tick(site, T0 + timedelta(hours=25))  # the others miss the deadline
    assert not report.errors
    records = logged(site.campaign("g1"))
    hows = sorted((seat, how) for r in records for seat, _text, how in r.get("orders", ()))
    assert hows == [(0, "mail"), (1, "missed"), (2, "missed")]
    assert owners(site, "malton-york") == (0,)  # the second preference (rule 35)
    table = site.campaign("g1").table()
    assert table.round == 2 and table.state.extra_build == (1, 2)  # rule 38 for the others
    for address in ADDRESSES[1:]:
        assert any("round 2" in text_of(m).lower() for m in boxes.new(address))


def test_the_routes_to_buy_are_listed_by_cost_and_choices_lists_each_on_its_own_line(tmp_path):
    site, boxes = game(tmp_path, game="busboss")
    table = site.campaign("g1").table()
    full = [str(line) for line in table.rules.prompt_lines(table.state, 1)]  # in English
    builds = [line for line in full if line.startswith("build ") and "cost" in line]
    assert len(builds) > 30  # round 1: every route of the map is for sale
    welcome = text_of(
        next(
            m
            for m in boxes.sent()
            if ADDRESSES[1] in str(m["To"]) and "Welcome" in str(m["Subject"])
        )
    )
    short = welcome[welcome.index("YOUR DECISION") : welcome.index("Welcome to")]
    assert "# By cost; write one as, for example: build " in short
    for line in builds:  # every route is still named, under its cost
        route, cost = line.split()[1], line.split()[3]
        assert route in short
        assert f"#    {cost}: " in short
    assert not any(line in short for line in builds)  # not a line each
    assert len(short.splitlines()) < len(full) / 2
    # the whole list, a line each, by the command choices
    listed = text_of(say(site, boxes, 1, "choices"))
    assert all(line.split("   #")[0] in listed for line in builds)


def test_status_tells_a_player_whose_orders_are_held_that_they_are_and_what_will_not_count(
    tmp_path,
):
    """Between handing in her orders and the round's end nothing is awaited from Ann, but
    her orders are not done with: `status` says they are held (a new order replaces them)
    and which pieces will not count (K10), as her confirmation did."""
    site, boxes = game(tmp_path, game="busboss")
    say(site, boxes, 0, "build leeds-york york-malton | york-malton")
    text = flat(text_of(say(site, boxes, 0, "status")).split("+ status")[1])
    assert "Nothing is awaited from you now" not in text
    assert (
        flat(
            "Your orders for round 1 are held until the round resolves; a new order sent before "
            "then replaces them."
        )
        in text
    )
    assert "will not count (K10)" in text
    bob = flat(text_of(say(site, boxes, 1, "status")))
    assert "Awaited from you" in bob and "held until" not in bob
