"""Six behaviours game masters and players hit, each through the paths a person takes: mail
delivered to a Maildir site and a tick run, or `referee gm <id> ...` on the command line,
with the mails the referee queued read back ("The middle, redesigned", item 8).

1. a paused game neither prompts nor calls a player's orders "not understood";
2. `adjudicate` then `extend 48` in one mail extends the decisions adjudication brought;
3. after `replace Bob with Bea`, every later mail and map name Bea, the result both;
4. a finished game cannot be rolled back (its seed is public);
5. the prompt after a command-line rollback carries its due time;
6. a dropped player's orders are answered truthfully: the bot plays the seat.
"""

import random
import re
from datetime import UTC, datetime, timedelta

import pytest
from click.testing import CliRunner
from played import played_site
from sites import ADDRESSES, Mailboxes, logged, person_mail, text_of
from test_commands_maildir import T0, game

from referee.cli import main
from referee.service.tick import tick

DUE = re.compile(r"[Dd]ue by \w{3} \d+ \w{3} \d{4} \d\d:\d\d")


def flat(text: str) -> str:
    return " ".join(text.split())


def run(site, now=T0):
    report = tick(site, now)
    assert not report.errors, report.errors
    return report


def mail_from(site, boxes, seat, text, now=T0, campaign_id="g1"):
    """A mail from the player of ``seat`` (from the address the campaign has for the seat
    now), with their token, and a tick."""
    player = site.campaign(campaign_id).players[seat]
    to = site.identity.plus(campaign_id, player.token)
    boxes.deliver(person_mail(f"{player.name} <{player.address}>", to, "orders", text))
    return run(site, now)


def gm_mail(site, boxes, text, now=T0):
    to = site.identity.plus("g1", site.campaign("g1").gm.token)
    boxes.deliver(person_mail("Gil <gil@example.org>", to, "commands", text))
    return run(site, now)


def gm_cli(site, campaign_id, *command):
    return CliRunner().invoke(
        main, ["--config", str(site.config.path), "gm", campaign_id, *command]
    )


def said(boxes, address) -> list[tuple[str, str]]:
    return [(str(m["Subject"]), flat(text_of(m))) for m in boxes.new(address)]


def test_a_paused_game_asks_for_nothing_and_says_so_to_a_players_orders(tmp_path):
    """While paused the deadlines stand still, so no mail may say "your turn" or give a due
    time; a player's orders are refused (not kept), saying the game is paused and that she
    sends them again when it resumes, which everyone is told of: orders kept through a
    pause could be overtaken by what the game master does meanwhile (a rollback, a drop)."""
    site, boxes = game(tmp_path)
    gm_mail(site, boxes, "pause", T0 + timedelta(hours=1))
    for address in ADDRESSES:
        for subject, text in said(boxes, address):
            assert "The game master pauses the campaign." in text
            assert "your turn" not in subject and not DUE.search(text), (subject, text)
            assert "The game is paused" in text
    mail_from(site, boxes, 0, "build house 15\nbuild pub 16", T0 + timedelta(hours=2))
    [(subject, text)] = said(boxes, ADDRESSES[0])
    assert "Campaign g1 is paused: no orders are taken now." in text
    assert "send your orders again then" in text
    assert "Not understood" not in text and not DUE.search(text)
    assert not any(r.get("orders") for r in logged(site.campaign("g1")))
    # resumed: the prompt comes again, with its due time (24 h + the 2 h pause)
    gm_mail(site, boxes, "resume", T0 + timedelta(hours=3))
    [(subject, text)] = said(boxes, ADDRESSES[0])
    assert "your turn" in subject and "Due by Tue 24 Nov 2026 11:00 UTC" in text


def test_adjudicate_then_extend_in_one_mail_extends_the_new_decisions(tmp_path):
    """The game master is told the deadlines move on by 48 hours: the decision the
    adjudication brought (Ann's second building) is one of them, so its report shows the
    extended due time and the bot does not decide for her before it."""
    site, boxes = game(tmp_path)
    gm_mail(site, boxes, "adjudicate\nextend 48", T0 + timedelta(hours=1))
    [(_, told)] = said(boxes, "gil@example.org")
    assert "Decided now for Ann." in told and "moves on by 48 hours" in told
    # the decision adjudication brought was asked at 10:00: due 24 h + 48 h later
    [(subject, text)] = [s for s in said(boxes, ADDRESSES[0]) if "your turn" in s[0]]
    assert "Due by Thu 26 Nov 2026 10:00 UTC" in text
    run(site, T0 + timedelta(hours=1 + 30))
    assert [r["orders"][0][2] for r in logged(site.campaign("g1")) if r.get("orders")] == [
        "bot"  # the adjudication only: 30 hours on, the deadline has not passed
    ]
    run(site, T0 + timedelta(hours=1 + 72, minutes=1))
    assert any(r.get("missed") for r in logged(site.campaign("g1")))


def bot_order(site, campaign_id: str, n: int) -> tuple[int, str]:
    table = site.campaign(campaign_id).table()
    due = table.rules.awaiting(table.state)[0]
    order = table.rules.bot("default")(table.state, due.seat, random.Random(n))
    return due.seat, table.rules.format(order)


@pytest.mark.slow
def test_after_a_replacement_every_mail_map_and_the_result_name_the_new_player(tmp_path):
    """Bea's moves are hers and Bob's stay his: the mails after the replacement name Bea
    (Bob only in the event of the replacement and in the result, which names the seat's
    players in turn), and the reports of the rounds Bob played still name him."""
    site = played_site(tmp_path, until_round=5)
    run(site)
    boxes = Mailboxes(site)
    boxes.new()
    result = gm_cli(site, "game", "replace", "Bob", "with", "Bea <bea@example.org>")
    assert result.exit_code == 0 and "Bea takes Bob's seat" in result.output
    finals = []
    for n in range(400):  # the rest of the game, by mail
        for address in ("ann@example.org", "bea@example.org", "cid@example.org"):
            for subject, text in said(boxes, address):
                assert "Bob" not in mentions(text), (subject, text)
                finals += [text] if "The game is over" in subject else []
        if site.campaign("game").status == "finished":
            break
        seat, order = bot_order(site, "game", n)
        mail_from(site, boxes, seat, order, campaign_id="game")
    assert site.campaign("game").status == "finished" and len(finals) == 3
    assert all("THE GAME IS OVER" in text and "Bob then Bea" in text for text in finals)
    for path in sorted((site.campaign("game").root / "turns").glob("*.txt")):
        played_by = "Bob" if path.name < "round-05" else "Bea"
        assert played_by in path.read_text(), path.name
        assert "Bob" not in mentions(path.read_text()) or played_by == "Bob", path.name


def mentions(text: str) -> str:
    """``text`` without its two mentions of the replaced player that stay."""
    return text.replace("Bea takes Bob's seat", "").replace("Bob then Bea", "")


def test_a_finished_game_is_not_rolled_back(tmp_path):
    """Refused, not done: the final mails published the seed, from which every die and draw
    of the rest of the game can be worked out, so a game played on from a rollback would no
    longer be fair; and the players were told the result. The game master hears why, the
    players get no new prompt, and the campaign stays finished."""
    site = played_site(tmp_path)
    run(site)
    boxes = Mailboxes(site)
    boxes.new()
    assert site.campaign("game").status == "finished"
    result = gm_cli(site, "game", "rollback", "1")
    assert result.exit_code == 1
    assert "refused: the game is over and its seed was published" in flat(result.output)
    run(site)
    assert site.campaign("game").status == "finished"
    assert boxes.new() == []
    mail_from(site, boxes, 0, "line 1-2", campaign_id="game")
    [(subject, text)] = said(boxes, ADDRESSES[0])
    assert "Campaign game is finished: no orders are taken now." in text
    assert "your turn" not in subject and "Not understood" not in text


def test_the_prompt_after_a_command_line_rollback_has_its_due_time(tmp_path):
    site, boxes = game(tmp_path)
    mail_from(site, boxes, 0, "build house 15\nbuild pub 16")
    boxes.new()
    before = datetime.now(UTC)
    result = gm_cli(site, "g1", "rollback", "1")
    assert result.exit_code == 0, result.output
    [(subject, text)] = [s for s in said(boxes, ADDRESSES[0]) if "your turn" in s[0]]
    assert "The game master undoes the last 1 order." in text
    due = DUE.search(text)
    assert due, text
    shown = datetime.strptime(due.group(0)[7:], "%a %d %b %Y %H:%M").replace(tzinfo=UTC)
    assert before + timedelta(hours=23) < shown < before + timedelta(hours=25)


def test_a_dropped_players_orders_are_answered_truthfully(tmp_path):
    """In Bus a dropped seat is the bot's for the rest of the game (there is no rule by which
    a dropped player comes back), so their orders are refused, saying so, not kept: kept,
    they were told "Kept for later" and never used, the bot deciding first."""
    site, boxes = game(tmp_path)
    gm_mail(site, boxes, "drop Bob")
    boxes.new()
    mail_from(site, boxes, 1, "build house 20\nbuild pub 21")
    [(subject, text)] = said(boxes, ADDRESSES[1])
    assert "You were dropped from g1: the bot plays your seat" in text, text
    assert "Kept for later" not in text and "Not understood" not in text
    mail_from(site, boxes, 0, "build house 15\nbuild pub 16")
    orders = [o for r in logged(site.campaign("g1")) for o in r.get("orders", ())]
    # Ann builds first, then the bot twice for Bob's seat, and none of his orders
    assert [(seat, how) for seat, _text, how in orders if seat == 1] == [(1, "bot"), (1, "bot")]


def test_a_player_dropped_by_the_game_s_own_rule_is_told_so_not_kept_for_later(tmp_path):
    """Bus Boss drops a player by its rule 40 (the bank takes their routes): they are out of
    the game for good, so their orders are refused, saying why, never "kept for later"."""
    site, boxes = game(tmp_path, "busboss")
    gm_mail(site, boxes, "drop Bob")
    boxes.new()
    mail_from(site, boxes, 1, "build nothing")
    [(subject, text)] = said(boxes, ADDRESSES[1])
    assert "You were dropped from g1 by its rules: the bank takes their routes (rule 40)" in text
    assert "Kept for later" not in text and "kept for later" not in text, text
    assert not [o for r in logged(site.campaign("g1")) for o in r.get("orders", ()) if o[0] == 1]


def test_a_drop_on_the_command_line_lets_the_bot_play_the_seat_at_once(tmp_path):
    """`referee gm g1 drop <name>` of the player the game waits for: the bot plays the seat
    in the same run, as a drop by mail does in its tick, and the next player is asked."""
    site, boxes = game(tmp_path)
    table = site.campaign("g1").table()
    [due] = table.awaiting
    name = site.campaign("g1").players[due.seat].name
    done = gm_cli(site, "g1", "drop", name)
    assert done.exit_code == 0, done.output
    orders = [o for r in logged(site.campaign("g1")) for o in r.get("orders", ())]
    assert orders and orders[-1][0] == due.seat and orders[-1][2] == "bot", orders
    assert site.campaign("g1").table().awaiting[0].seat != due.seat
