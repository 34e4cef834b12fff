"""A view for each seat ("The middle, redesigned", item 7): `Rules.view(state, seat)` shows a
seat what only it may see, and the view with no seat (an observer, the archive, the turn
files) what everyone may. Bus hides nothing. A Bus Boss player's orders for a round go to
the referee alone, written without sight of the others' (hence rule 35's preference lists),
and are held until everyone's are in: the player's own reports show them, nobody else's do,
and nothing public does."""

import random

from click.testing import CliRunner
from sites import ADDRESSES, text_of
from test_commands_maildir import game
from test_gm_behaviours import gm_mail, mail_from

from referee.bus.engine import RULES as BUS
from referee.busboss.engine import RULES as BUS_BOSS
from referee.cli import main
from referee.service.archive import pages

HELD = "your orders for round 1, held until the round resolves:"


def played(rules, decisions: int):
    """A 4-player game after ``decisions`` decisions of the default bot."""
    state, rng = rules.new_game({}, ["Ann", "Bob", "Cid", "Dee"], 3), random.Random(3)
    bot = rules.bot("default")
    for _ in range(decisions):
        due = rules.awaiting(state)[0]
        state, _ = rules.apply(state, due.seat, bot(state, due.seat, rng))
    return state


def test_bus_shows_every_seat_what_everyone_sees():
    state = played(BUS, 30)
    for seat in range(4):
        assert BUS.view(state, seat) == BUS.view(state)


def test_a_bus_boss_order_handed_in_is_in_its_seats_view_alone():
    state = BUS_BOSS.new_game({}, ["Ann", "Bob", "Cid"], 1)
    state, _ = BUS_BOSS.apply(
        state, 0, BUS_BOSS.parse("build leeds-york | nothing")[0].alternatives[0]
    )

    [ann, bob, cid] = BUS_BOSS.view(state, 0)["players"]
    assert ann["held_order"] == ["build leeds-york | nothing"]
    assert "held_order" not in bob and "held_order" not in cid
    assert BUS_BOSS.view(state, 1)["players"][1]["held_order"] is None  # Bob has sent none
    assert not any("held_order" in p for p in BUS_BOSS.view(state)["players"])
    # apart from what the seat holds, its view is everyone's
    own = BUS_BOSS.view(state, 0)
    del own["players"][0]["held_order"]
    assert own == BUS_BOSS.view(state)


def test_a_players_held_orders_reach_their_reports_and_no_one_elses(tmp_path):
    """Ann's orders are in, Bob's not; the game master drops Cid (the bank takes his
    routes, rule 40), which every player is told of in a report: Ann's shows her orders as
    held, Bob's does not show them, and neither do `referee show`, the archive or the
    report of a seat that asks for someone else."""
    site, boxes = game(tmp_path, game="busboss")
    mail_from(site, boxes, 0, "build leeds-york | nothing")
    boxes.new()
    gm_mail(site, boxes, "drop Cid")

    [ann] = [text_of(m) for m in boxes.new(ADDRESSES[0]) if "Round 1" in str(m["Subject"])]
    [bob] = [text_of(m) for m in boxes.new(ADDRESSES[1]) if "Round 1" in str(m["Subject"])]
    assert HELD in ann and "build leeds-york | nothing" in ann.split(HELD)[1]
    assert HELD not in bob and "leeds-york |" not in bob

    config = str(site.config.path)
    shown = {
        who: CliRunner().invoke(main, ["--config", config, "show", "g1", *who]).output
        for who in [(), ("--player", "Ann"), ("--player", "Bob")]
    }
    assert HELD in shown["--player", "Ann"]
    assert HELD not in shown["--player", "Bob"] and HELD not in shown[()]
    assert "held until" not in shown[()]

    archive = pages(site.campaign("g1").table())
    assert not any("held until" in page for page in archive.values() if isinstance(page, str))
