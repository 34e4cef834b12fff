"""What each person is told (issue "What each person is told, derived from what happened"):
the defects a newcomer's evening of play found, each tried as a player or game master meets
it, by mail on the Maildir default, with the real tick; and the telling itself as a table of
cases, a pure function of the log and the clock with no mail server (``telling.tell``)."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from types import SimpleNamespace

import pytest
from sites import (
    ADDRESSES,
    PLAYERS,
    Mailboxes,
    lines_as_sent,
    make_site,
    person_mail,
    reply_to,
    text_of,
)

from referee.records import Kind, Letter, Record
from referee.service.telling import tell
from referee.service.tick import tick
from referee.store.marks import Watermarks
from referee.words.mails import result_context
from referee.words.render import ENV

T0 = datetime(2026, 11, 23, 9, 0, tzinfo=UTC)  # a Monday
HOUR = timedelta(hours=1)
GM = "Gil <gil@example.org>"
GIL = "gil@example.org"


def game(tmp_path, name="bus", **deadlines):
    """Campaign g1 of three players and Gil as game master, its welcomes sent and read."""
    site = make_site(tmp_path)
    settings = {"deadlines": deadlines} if deadlines else None
    site.new_campaign(name, "g1", PLAYERS, seed=1, gm=GM, settings=settings)
    assert not tick(site, T0).errors
    boxes = Mailboxes(site)
    return site, boxes


def mail(site, boxes, seat, text, now=T0, subject="orders"):
    """Player ``seat`` writes ``text`` to their game (the plus-address with their token)."""
    token = site.campaign("g1").players[seat].token
    boxes.deliver(person_mail(PLAYERS[seat], site.identity.plus("g1", token), subject, text))
    report = tick(site, now)
    assert not report.errors, report.errors


def gm_says(site, boxes, text, now=T0):
    token = site.campaign("g1").gm.token
    boxes.deliver(person_mail(GM, site.identity.plus("g1", token), "gm", text))
    assert not tick(site, now).errors


def subjects(mails) -> list[str]:
    return [str(m["Subject"]) for m in mails]


def flat(msg) -> str:
    return " ".join(text_of(msg).split())


def welcome_of(boxes, address):
    return next(m for m in boxes.new(address) if "Welcome" in str(m["Subject"]))


# history and status beside an order show the game after it --------------------------------


def answered_beside_an_order(tmp_path, command: str) -> tuple[str, str]:
    """Ann replies to her welcome with an order and ``command``: her report's plain text and
    its HTML."""
    site, boxes = game(tmp_path)
    welcome = welcome_of(boxes, ADDRESSES[0])
    boxes.deliver(reply_to(welcome, ADDRESSES[0], f"build house 10\n{command}"))
    assert not tick(site, T0).errors
    [report] = boxes.new(ADDRESSES[0])
    html = report.get_body(("html",))
    return text_of(report), html.get_content() if html is not None else ""


def test_history_beside_an_order_is_in_the_report_that_answers_it(tmp_path):
    text, html = answered_beside_an_order(tmp_path, "history")
    assert "The history you asked for is below." in text
    for part in filter(None, (text, html)):  # a mail program shows one or the other
        history = part.partition("the history so far")[2]
        assert "Ann builds a house at 10 (zone A)." in history  # the order of this very mail


def test_status_beside_an_order_shows_the_game_after_it(tmp_path):
    text, _ = answered_beside_an_order(tmp_path, "status")
    status = " ".join(text.partition("+ status")[2].partition("What happened")[0].split())
    assert "Awaited from you: First buildings: place a building in zone A (1 left" in status
    assert "2 left" not in status  # as it was before the order


# subjects tell the truth ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("seat", "text", "subject"),
    [
        (1, "buidl house 99", "[g1] Your mail: orders refused, nothing used"),
        (1, "status", "[g1] Your mail: commands answered"),
        (1, "Hello all!", "[g1] Your mail: nothing in it to use"),
        (1, "build house 15\nstatus", "[g1] Your mail: orders used"),  # kept for later
    ],
)
def test_the_subject_of_an_answer_says_what_became_of_the_mail(tmp_path, seat, text, subject):
    site, boxes = game(tmp_path)
    boxes.new()
    mail(site, boxes, seat, text)
    assert subjects(boxes.new(ADDRESSES[seat])) == [subject]


def test_orders_sent_while_paused_are_not_headed_as_received(tmp_path):
    site, boxes = game(tmp_path)
    gm_says(site, boxes, "pause")
    boxes.new()
    mail(site, boxes, 0, "build house 10")
    [answer] = boxes.new(ADDRESSES[0])
    assert str(answer["Subject"]) == "[g1] Your mail: orders not used"
    assert "is paused: no orders are taken now" in flat(answer)


def test_a_refusal_inside_a_report_is_named_in_its_subject(tmp_path):
    """Bob's typo comes in the same tick as his turn: his report leads with his decision,
    and its subject says that his mail was refused, so that a phone's list of mail does not
    read it as success; a refusal answered alone says so first."""
    site, boxes = game(tmp_path)
    boxes.new()
    for seat, text in ((0, "build house 10\nbuild house 15"), (1, "buidl house 20")):
        token = site.campaign("g1").players[seat].token
        boxes.deliver(person_mail(PLAYERS[seat], site.identity.plus("g1", token), "o", text))
    assert not tick(site, T0).errors
    [report] = boxes.new(ADDRESSES[1])
    assert str(report["Subject"]) == (
        "[g1] Setup: your turn - first buildings (your mail: orders refused, nothing used)"
    )
    mail(site, boxes, 1, "buidl house 21")
    [answer] = boxes.new(ADDRESSES[1])
    assert str(answer["Subject"]) == (
        "[g1] Your mail: orders refused, nothing used - your turn - first buildings"
    )


# what a player's orders did, once and under the right order ---------------------------------


def test_two_orders_effects_are_told_together_not_under_the_last_order(tmp_path):
    site, boxes = game(tmp_path)
    boxes.new()
    mail(site, boxes, 0, "build house 10\nbuild pub 15")
    text = text_of(boxes.new(ADDRESSES[0])[-1])
    assert "  + build house 10\n  + build pub 15\n  What they did:\n" in text
    assert "+ build pub 15\n      Ann builds a house" not in text


def busboss_game(tmp_path, **deadlines):
    site, boxes = game(tmp_path, "busboss", **deadlines)
    boxes.new()
    return site, boxes


def test_busboss_status_shows_the_held_order_who_the_round_waits_for_and_when(tmp_path):
    site, boxes = busboss_game(tmp_path, hours=24)
    mail(site, boxes, 0, "round 1\nbuild leeds-york | nothing\nstatus")
    [answer] = boxes.new(ADDRESSES[0])
    text = text_of(answer)
    status = text.partition("+ status")[2]
    assert "Your orders, held until the round resolves:" in status
    assert "round 1" in status and "build leeds-york | nothing" in status
    assert "The round waits for Bob" in " ".join(status.split())
    assert "due by Tue 24 Nov 2026 09:00 UTC" in " ".join(status.split())
    assert text.count("are held until the round resolves") == 1  # once, not twice


def test_a_busboss_order_of_several_lines_is_indented_as_one(tmp_path):
    site, boxes = busboss_game(tmp_path)
    mail(site, boxes, 0, "round 1\nbuild leeds-york | nothing")
    text = text_of(boxes.new(ADDRESSES[0])[-1])
    assert "  + round 1\n    build leeds-york | nothing\n" in text


def test_a_busboss_round_resolved_by_a_mail_is_told_once_in_its_answer(tmp_path):
    site, boxes = busboss_game(tmp_path)
    for seat in (0, 1):
        mail(site, boxes, seat, "round 1\nbuild nothing")
    boxes.new()
    mail(site, boxes, 2, "round 1\nbuild nothing")
    [report] = boxes.new(ADDRESSES[2])
    text = text_of(report)
    resolved = [line for line in text.splitlines() if "buys nothing" in line]
    assert len(resolved) == 3 == len(set(resolved))  # each event told once


# the game master is told what concerns them ---------------------------------------------------


def test_the_game_master_is_told_when_an_open_game_fills_and_starts(tmp_path):
    site = make_site(tmp_path)
    site.new_campaign("bus", "cup", [], seats=3, gm=GM)
    boxes = Mailboxes(site)
    assert not tick(site, T0).errors
    boxes.new()
    for person in PLAYERS:
        name = person.partition(" ")[0]
        boxes.deliver(person_mail(person, site.identity.address, "join", f"join cup as {name}"))
    assert not tick(site, T0).errors
    [started] = [m for m in boxes.new(GIL) if "has started" in str(m["Subject"])]
    text = flat(started)
    assert "3 players: Ann, Bob, Cid" in text and "waits first for" in text


def test_the_game_master_is_told_the_result_and_the_seed_when_the_game_ends(tmp_path):
    site, boxes = game(tmp_path)
    table = site.campaign("g1").table()
    from played import play

    play(site, table, answer=False)
    boxes.new()
    assert not tick(site, T0 + HOUR).errors
    [over] = [m for m in boxes.new(GIL) if "The game is over" in str(m["Subject"])]
    text = flat(over)
    campaign = site.campaign("g1")
    assert f"The secret seed was {campaign.seed}" in text
    assert "1. " in text and "Standings:" in text
    assert not tick(site, T0 + 2 * HOUR).errors
    assert not [m for m in boxes.new(GIL) if "over" in str(m["Subject"])]  # once


def test_a_missed_deadline_tells_the_game_master_what_the_bot_chose_in_readable_time(tmp_path):
    site, boxes = game(tmp_path, hours=24, policy="bot")
    boxes.new()
    assert not tick(site, T0 + 25 * HOUR).errors
    [notice] = [m for m in boxes.new(GIL) if "missed" in str(m["Subject"])]
    text = text_of(notice)
    chosen = [o.text for r in site.campaign("g1").records() for o in r.orders if o.how == "bot"]
    assert chosen and f"the bot decided for them: {chosen[0]}." in " ".join(text.split())
    assert "due by Tue 24 Nov 2026 09:00 UTC" in " ".join(text.split())
    assert not re.search(r"\d{4}-\d\d-\d\dT\d\d:\d\d", text)  # no raw ISO time
    assert all(len(line) <= 78 for line in lines_as_sent(notice))
    # the commands for it, each a line as written and its meaning under it, as the help has
    # them: a phone wraps the meaning, never the command
    read = text.split("\n")
    for command, meaning in (
        ("extend 24", "every running decision a day more"),
        ("deadlines hours=48 policy=bot", "new deadline settings, from now on"),
        ("drop Bob", "the bot plays that seat for good"),
    ):
        assert read[read.index(f"    {command}") + 1] == f"        {meaning}", text


def test_deadlines_missed_at_one_tick_reach_the_game_master_in_one_mail(tmp_path):
    site, boxes = busboss_game(tmp_path, hours=24, policy="bot")
    assert not tick(site, T0 + 25 * HOUR).errors  # all three miss round 1
    missed = [m for m in boxes.new(GIL) if "missed" in str(m["Subject"])]
    assert subjects(missed) == ["[g1] Ann, Bob, Cid missed deadlines"]


def test_the_prompt_after_a_bots_move_has_a_future_due_time(tmp_path):
    """Ann misses her first building; the bot places it, and her next decision (her second
    building) is asked at once with its own 24 hours from this tick, not the deadline that
    just passed nor none."""
    site, boxes = game(tmp_path, hours=24, policy="bot")
    boxes.new()
    assert not tick(site, T0 + 25 * HOUR).errors
    [prompt] = [m for m in boxes.new(ADDRESSES[0]) if "your turn" in str(m["Subject"])]
    assert str(prompt["Subject"]).endswith("due Wed 10:00 UTC")
    assert "Due by Wed 25 Nov 2026 10:00 UTC." in text_of(prompt)


# a dropped player, a replaced one, a newcomer ------------------------------------------------


def test_a_dropped_player_is_told_in_their_own_words_that_a_bot_plays_their_seat(tmp_path):
    site, boxes = game(tmp_path)
    boxes.new()
    gm_says(site, boxes, "drop Cid")
    [told] = boxes.new(ADDRESSES[2])
    assert str(told["Subject"]) == "[g1] You were dropped from the game: a bot plays your seat now"
    text = flat(told)
    assert "Cid, the game master has dropped you from g1." in text
    assert "A bot plays your seat from now on" in text
    assert "The game master drops Cid" not in text


def test_a_newcomer_who_is_not_awaited_gets_the_picture_of_the_map(tmp_path):
    site, boxes = game(tmp_path)
    boxes.new()
    gm_says(site, boxes, "replace Cid with Eve <eve@example.org>")
    [welcome] = boxes.new("eve@example.org")
    assert "Welcome" in str(welcome["Subject"])
    images = [p for p in welcome.walk() if p.get_content_type() == "image/png"]
    assert len(images) == 1


# the result explains its ties ---------------------------------------------------------------


def test_a_result_with_equal_scores_says_how_the_rules_ranked_them():
    view = {
        "game": "bus",
        "result": {"reason": "the last clock stone was taken", "ranking": [[1], [0, 2]]},
    }
    view["result"]["scores"] = [4, 6, 4]
    names = ["Ann", "Bob", "Cid"]
    holders = SimpleNamespace(named=lambda seat: names[seat])  # the seats' players
    rules = SimpleNamespace(result=lambda state: None)  # (the view's reason, as it is)
    result = result_context(SimpleNamespace(holders=holders, rules=rules, state=None), view)
    assert result is not None and result["ties"]
    macro = '{% import "_macros.txt" as m %}{{ m.ranking(result, "bus") }}'
    text = ENV.from_string(macro).render(result=result)
    assert "2. Ann and Cid (4) - tied" in text
    assert "more clock stones rank higher" in " ".join(text.split())


# the telling as a table of cases: no mail server, no file written ----------------------------


def told_now(tmp_path, name="bus", **deadlines):
    site, boxes = game(tmp_path, name, **deadlines)
    campaign = site.campaign("g1")
    return site, campaign.table()


def test_the_telling_is_a_pure_function_of_the_log_and_the_clock(tmp_path):
    site, table = told_now(tmp_path)
    marks = table.campaign.marks
    before = Watermarks.from_data(marks.__dict__)
    files = {p: p.stat().st_mtime_ns for p in site.config.path.parent.rglob("*")}
    first = tell(table, marks, T0 + HOUR)
    again = tell(table, marks, T0 + HOUR)
    assert first.letters == again.letters and marks == before  # it changed nothing
    assert {p: p.stat().st_mtime_ns for p in site.config.path.parent.rglob("*")} == files


def record_of(table, record):
    from referee.service.play import Outcome, commit

    return commit(table, Outcome(round=table.round), record).record


def test_a_message_is_told_to_its_readers_and_a_drop_to_the_dropped(tmp_path):
    from referee.records import Drop, Message

    site, table = told_now(tmp_path)
    marks = table.campaign.marks
    message = Message("message Bob hi", "sent", sender=0, sender_name="Ann", to=(1,), text="hi")
    press = record_of(table, Record(Kind.MAIL, actions=(message,), seat=0, message_id="<m@x>"))
    drop = record_of(
        table, Record(Kind.GM, actions=(Drop("drop Cid", "done", seat=2, name="Cid"),))
    )
    letters = tell(table, marks, T0).letters
    assert Letter("press", 1, (press.n, 0, 1), press.n, 0) in letters
    assert Letter("dropped", 2, (drop.n, 2), drop.n, 0) in letters
    assert not [x for x in letters if x.kind == "told" and x.to == 2]  # told in its own words


def test_the_misses_the_timekeeper_tells_now_make_one_letter_to_the_game_master(tmp_path):
    from referee.service.timekeeping import Notices

    site, table = told_now(tmp_path)
    news = [["Ann", "2026-11-24T09:00:00Z", "waits"], ["Bob", "2026-11-24T09:00:00Z", "waits"]]
    letters = tell(table, table.campaign.marks, T0, Notices(gm=news)).letters
    missed = [x for x in letters if x.kind == "missed"]
    assert missed == [Letter("missed", None, (tuple(news[0]), tuple(news[1])))]


def test_a_stopped_campaigns_notice_names_the_site_folder_and_fits_the_screen(
    tmp_path, monkeypatch
):
    """A site opened as `referee --config referee.yaml` from its folder names that folder
    in full (not 'the referee in .'), and no line of the notice runs past 78 columns, a long
    error included."""
    from referee.service.site import Site
    from referee.settings.site import load_config

    site, boxes = game(tmp_path)
    boxes.new()
    monkeypatch.chdir(tmp_path)
    site = Site(load_config("referee.yaml"))
    path = site.data_root / "g1" / "campaign.yaml"
    path.write_text(path.read_text() + "gather_minutes: " + "ten " * 30 + "\n")
    tick(site, T0)
    [notice] = [m for m in Mailboxes(site).new(GIL) if "stopped" in str(m["Subject"])]
    text = text_of(notice)
    assert f"on the referee in {tmp_path}" in " ".join(text.split())
    assert "referee in ." not in text
    assert all(len(line) <= 78 for line in lines_as_sent(notice)), text
