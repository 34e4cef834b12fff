"""The referee's commands on the Maildir default: help, time zones, absences, extensions,
dropping a player, adjudicating, the game master's press, `referee gm` and `show --png`."""

from datetime import UTC, datetime, timedelta

import pytest
from click.testing import CliRunner
from played import played_site
from sites import (
    ADDRESSES,
    PLAYERS,
    Mailboxes,
    confirmation_reply,
    logged,
    make_site,
    person_mail,
    reply_to,
    text_of,
    with_game_master,
)

from referee import mailbot
from referee.busboss.engine import RULES as BUSBOSS
from referee.cli import main
from referee.service.tick import tick
from referee.service.work import run_as_gm

T0 = datetime(2026, 11, 23, 9, 0, tzinfo=UTC)  # a Monday


def game(tmp_path, game="bus", **deadlines):
    site = make_site(tmp_path)
    settings = (
        {"deadlines": {"hours": 24, "remind_hours": 12, "policy": "bot", **deadlines}}
        if deadlines is not None
        else None
    )
    site.new_campaign(game, "g1", PLAYERS, seed=1, gm="Gil <gil@example.org>", settings=settings)
    report = tick(site, T0)
    assert not report.errors
    boxes = Mailboxes(site)
    boxes.new()
    return site, boxes


def delivered(site, boxes, sender, to, text, subject="hello", now=T0) -> None:
    """``text`` mailed from ``sender`` to ``to``, and a tick that takes it without an error."""
    boxes.deliver(person_mail(sender, to, subject, text))
    report = tick(site, now)
    assert not report.errors, report.errors


def said_to(boxes, address) -> list[str]:
    """The mails to ``address`` since the last look, each flattened."""
    return [" ".join(text_of(m).split()) for m in boxes.new(address)]


def observing(site, boxes, person, campaign_id) -> None:
    """``person`` asks to observe the campaign, and confirms by a reply (issue 22, item 4)."""
    delivered(site, boxes, person, site.identity.address, f"observe {campaign_id}", "hi")
    boxes.deliver(confirmation_reply(boxes.new(person.partition("<")[2].rstrip(">")), person))
    assert not tick(site, T0).errors


def say(site, boxes, seat, text, now=T0):
    token = site.campaign("g1").players[seat].token
    delivered(site, boxes, PLAYERS[seat], site.identity.plus("g1", token), text, "cmd", now)
    return [m for m in boxes.new(ADDRESSES[seat]) if "Your mail:" in str(m["Subject"])][-1]


def test_help_by_mail_answers_with_the_orders_and_commands_of_that_game(tmp_path):
    site, boxes = game(tmp_path, game="busboss")
    text = text_of(say(site, boxes, 1, "help"))
    assert "Orders of Bus Boss" in text and "absence 2026-12-24 2026-12-31" in text
    assert "Orders of Bus (" not in text


def test_a_players_time_zone_shows_their_deadline_in_it(tmp_path):
    site, boxes = game(tmp_path)
    text = text_of(say(site, boxes, 0, "timezone America/New_York"))
    assert "Times are shown to you in America/New_York" in text
    assert "Due by Tue 24 Nov 2026 04:00 EST" in text
    text = text_of(say(site, boxes, 0, "timezone Mars/Olympus"))
    assert "is not a time zone" in text


def test_an_absence_moves_the_deadline_and_is_capped(tmp_path):
    site, boxes = game(tmp_path)
    text = text_of(say(site, boxes, 0, "absence 2026-11-23 2026-11-24"))
    assert "Noted: you are away from 2026-11-23 to 2026-11-24" in text
    assert "Due by Thu 26 Nov 2026 09:00 UTC" in text  # 24 hours + the two days away
    text = text_of(say(site, boxes, 0, "absence 2026-12-01 2027-01-31"))
    assert "an absence is at most 21 days" in text
    report = tick(site, T0 + timedelta(hours=30))
    assert not report.errors and not any(r.get("missed") for r in logged(site.campaign("g1")))


def test_extensions_are_capped(tmp_path):
    site, boxes = game(tmp_path)
    for _ in range(3):
        actions = run_as_gm(site, "g1", "extend 200", T0)
        assert "moves on by 200 hours" in actions[0].said
    assert "between 1 hour and 14 days" in run_as_gm(site, "g1", "extend 500", T0)[0].reason
    # 600 hours asked for, 14 days given: due 24 h + 336 h after it was asked
    tick(site, T0 + timedelta(hours=24 + 335))
    assert not any(r.get("missed") for r in logged(site.campaign("g1")))
    tick(site, T0 + timedelta(hours=24 + 337))
    assert any(r.get("missed") for r in logged(site.campaign("g1")))


def test_dropping_a_bus_player_gives_the_seat_to_the_bot(tmp_path):
    site, boxes = game(tmp_path)
    actions = run_as_gm(site, "g1", "drop Ann", T0)
    assert actions[0].said == "Ann is dropped: the bot plays their seat."
    tick(site, T0)
    orders = [o for r in logged(site.campaign("g1")) for o in r.get("orders", ())]
    assert [(seat, how) for seat, _text, how in orders] == [(0, "bot"), (0, "bot")]
    table = site.campaign("g1").table()
    assert table.rules.awaiting(table.state)[0].seat == 1  # Bob builds now


def test_dropping_a_bus_boss_player_gives_the_routes_to_the_bank(tmp_path):
    site, boxes = game(tmp_path, game="busboss")
    actions = run_as_gm(site, "g1", "drop Cid", T0)
    assert "the bank takes their routes (rule 40)" in actions[0].said
    table = site.campaign("g1").table()
    assert 2 not in [d.seat for d in BUSBOSS.awaiting(table.state)]


def test_adjudicate_decides_now_and_the_gm_messages_everyone(tmp_path):
    site, boxes = game(tmp_path, game="busboss")
    actions = run_as_gm(site, "g1", "adjudicate", T0)
    assert actions[0].said == "Decided now for Bob, Cid, Ann."
    table = site.campaign("g1").table()
    assert table.round == 2
    assert [o[2] for o in logged(site.campaign("g1"))[-1]["orders"]] == ["missed"] * 3
    run_as_gm(site, "g1", "message all The next round is due on Friday.", T0)
    tick(site, T0)
    for address in ADDRESSES:
        [press] = [
            m for m in boxes.new(address) if "Message from the game master" in str(m["Subject"])
        ]
        assert "The next round is due on Friday." in mailbot.body(press)


def test_referee_gm_on_the_command_line_and_show_png(tmp_path):
    site, boxes = game(tmp_path)
    config = str(site.config.path)
    result = CliRunner().invoke(main, ["--config", config, "gm", "g1", "pause"])
    assert result.exit_code == 0 and "The campaign is paused" in result.output
    result = CliRunner().invoke(main, ["--config", config, "gm", "g1", "pause"])
    assert result.exit_code == 1 and "refused: the campaign is paused, not running" in result.output
    result = CliRunner().invoke(main, ["--config", config, "gm", "g1", "dance"])
    assert result.exit_code == 1 and "not a game master's command" in result.output
    png = tmp_path / "map.png"
    result = CliRunner().invoke(main, ["--config", config, "show", "g1", "--png", str(png)])
    assert result.exit_code == 0 and png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert "Bus (2019 edition)" in result.output


def test_history_by_mail_whole_and_one_turn(tmp_path):
    site, boxes = game(tmp_path)
    say(site, boxes, 0, "build house 15\nbuild pub 16")
    text = text_of(say(site, boxes, 1, "history"))
    assert "Ann builds a house at 15 (zone A)." in text and "Standings by score" in text
    text = text_of(say(site, boxes, 1, "history turn 0"))
    assert "Ann builds a pub at 16 (zone A)." in text
    text = text_of(say(site, boxes, 1, "history turn 9"))
    assert "campaign g1 has no turn 9: it has turns 0 to 0 (turn 0 is the setup)" in text


def test_press_and_game_master_actions_are_in_the_history_and_verify_holds(tmp_path):
    from referee.service.verify import verify

    site, boxes = game(tmp_path, game="busboss")
    say(site, boxes, 0, "message all Good luck!\nmessage Bob a secret plan")
    run_as_gm(site, "g1", "drop Cid", T0)
    run_as_gm(site, "g1", "pause", T0)
    table = site.campaign("g1").table()
    events = [str(e) for step in table.steps for e in step.events]  # (their English)
    assert "Ann to everyone: Good luck!" in events
    assert "Ann wrote to Bob (private)." in events and not any("secret" in e for e in events)
    assert (
        "The game master drops Cid." in events and "The game master pauses the campaign." in events
    )
    tick(site, T0)
    result = verify(site.campaign("g1").root)
    assert result.ok, result.summary()


def test_a_site_game_master_opens_a_campaign_for_sign_up_by_mail(tmp_path, monkeypatch):
    from sites import make_site as fresh

    site = fresh(tmp_path)
    path = site.config.path
    path.write_text(
        path.read_text().replace(
            "  name: Referee ",
            "  game_masters:\n    - address: gil@example.org\n"
            "      token_env: REFEREE_TEST_GM_TOKEN\n  name: Referee ",
        )
    )
    monkeypatch.setenv("REFEREE_TEST_GM_TOKEN", "opensesame")
    from referee.service.site import Site
    from referee.settings.site import load_config

    site = Site(load_config(path))
    boxes = Mailboxes(site)
    boxes.deliver(
        person_mail(
            "Gil <gil@example.org>",
            "referee@example.org",
            "new game",
            "token opensesame\nopen busboss spring 4",
        )
    )
    boxes.deliver(
        person_mail(
            "Eve <eve@example.org>",
            "referee@example.org",
            "new game",
            "token guess\nopen bus mine 3",
        )
    )
    assert not tick(site, T0).errors
    campaign = site.campaign("spring")
    assert (
        campaign.status == "open"
        and campaign.seats == 4
        and campaign.gm.address == "gil@example.org"
    )
    assert not site.has_campaign("mine")
    [opened] = [m for m in boxes.new("gil@example.org") if "Opened" in str(m["Subject"])]
    assert "join spring as TheirName" in text_of(opened)
    [refused] = boxes.new("eve@example.org")
    assert "Only a game master of this referee" in text_of(refused)


def test_a_message_to_a_player_whose_name_has_spaces(tmp_path):
    site = make_site(tmp_path)
    site.new_campaign(
        "bus",
        "g1",
        ["Ann Lee <ann@example.org>", "Bob <bob@example.org>", "Cid <cid@example.org>"],
        seed=1,
    )
    tick(site, T0)
    boxes = Mailboxes(site)
    boxes.new()
    token = site.campaign("g1").players[1].token
    boxes.deliver(
        person_mail(
            "Bob <bob@example.org>",
            site.identity.plus("g1", token),
            "hi",
            "message ann lee see you at 21\nmessage Dan hello",
        )
    )
    assert not tick(site, T0).errors
    [press] = [m for m in boxes.new("ann@example.org") if "Message from Bob" in str(m["Subject"])]
    assert "see you at 21" in mailbot.body(press)
    [answer] = [m for m in boxes.new("bob@example.org") if "Your mail:" in str(m["Subject"])]
    assert "the players are Ann Lee, Bob, Cid" in " ".join(text_of(answer).split())


def test_the_game_master_closes_a_game_to_observers_and_opens_it_again(tmp_path):
    site, boxes = game(tmp_path)
    olga = "Olga <olga@example.org>"
    gil = site.identity.plus("g1", site.campaign("g1").gm.token)

    observing(site, boxes, olga, "g1")
    assert any("You now observe g1" in t for t in said_to(boxes, "olga@example.org"))
    delivered(site, boxes, "Gil <gil@example.org>", gil, "observers off")
    assert any("This game is closed to observers." in t for t in said_to(boxes, "gil@example.org"))
    campaign = site.campaign("g1")
    assert campaign.settings["no_observers"] is True and campaign.settings["observers"] == []
    assert any(
        "has closed it to observers, so you no longer get its reports" in t
        for t in said_to(boxes, "olga@example.org")
    )
    delivered(site, boxes, olga, site.identity.address, "observe g1")
    assert any("does not take observers" in t for t in said_to(boxes, "olga@example.org"))
    delivered(site, boxes, "Gil <gil@example.org>", gil, "observers on")
    assert any(
        "Observers may watch this game again." in t for t in said_to(boxes, "gil@example.org")
    )
    observing(site, boxes, olga, "g1")
    assert any("You now observe g1" in t for t in said_to(boxes, "olga@example.org"))
    # and the players' history has both on record
    history = " ".join(
        str(r.actions[0].told()[0]) for r in site.campaign("g1").records() if r.actions
    )
    assert "closes the game to observers" in history and "opens the game to observers" in history


def test_an_observer_stops_observing_and_a_stranger_stops_nobody(tmp_path):
    site, boxes = game(tmp_path)
    olga, pia = "Olga <olga@example.org>", "Pia <pia@example.org>"
    observing(site, boxes, olga, "g1")
    boxes.new()
    assert site.campaign("g1").config.observers == ("olga@example.org",)
    settings = (site.campaign("g1").root / "campaign.yaml").read_bytes()
    delivered(site, boxes, pia, site.identity.address, "unobserve g1")
    [told] = said_to(boxes, "pia@example.org")
    assert "You do not observe g1: there was nothing to stop." in told
    assert (site.campaign("g1").root / "campaign.yaml").read_bytes() == settings  # untouched
    delivered(site, boxes, olga, site.identity.address, "unobserve g1")
    [asked] = boxes.new("olga@example.org")  # confirmed as observe is (issue 34, item 4)
    boxes.deliver(person_mail(olga, str(asked["Reply-To"]), "Re: stop", "Yes, please."))
    assert not tick(site, T0).errors
    [told] = said_to(boxes, "olga@example.org")
    assert "You no longer observe g1." in told
    assert site.campaign("g1").config.observers == ()


def test_a_player_leaves_a_game_before_it_starts_and_not_after(tmp_path):
    site = make_site(tmp_path)
    site.new_campaign("bus", "open1", [], seed=1, seats=3)
    boxes = Mailboxes(site)

    delivered(site, boxes, PLAYERS[0], site.identity.address, "join open1 as Ann")
    delivered(site, boxes, PLAYERS[1], site.identity.address, "join open1 as Bob")
    ann, bob = (p.token for p in site.campaign("open1").players)
    boxes.new(ADDRESSES[0])
    delivered(
        site, boxes, PLAYERS[0], site.identity.plus("open1", ann), "leave\ntimezone Asia/Tokyo"
    )
    [left] = boxes.new(ADDRESSES[0])
    said = " ".join(text_of(left).split())
    assert "You have left open1." in said
    # the seat's number is Bob's now: a command after leave is not done, to him or anyone
    assert "nothing after `leave` is done" in said
    assert site.campaign("open1").players[0].timezone != "Asia/Tokyo"
    # Bob has Ann's seat number now: his token is in no mail to Ann
    assert bob not in left.as_string() and "open1" not in str(left["Reply-To"] or "")
    assert [p.address for p in site.campaign("open1").players] == [ADDRESSES[1]]
    delivered(site, boxes, PLAYERS[2], site.identity.address, "join open1 as Cid")
    # the last seat: it starts
    delivered(site, boxes, PLAYERS[0], site.identity.address, "join open1 as Ann")
    campaign = site.campaign("open1")
    assert [p.address for p in campaign.players] == [ADDRESSES[1], ADDRESSES[2], ADDRESSES[0]]
    boxes.new(ADDRESSES[2])
    cid = site.identity.plus("open1", campaign.players[1].token)
    delivered(site, boxes, PLAYERS[2], cid, "leave")
    [answer] = said_to(boxes, ADDRESSES[2])
    assert "the game has started: ask the game master to replace you" in answer
    assert [p.address for p in site.campaign("open1").players][1] == ADDRESSES[2]


def gm_says(site, boxes, text, now=T0):
    """The game master's mail to g1, and the answer to it (flattened)."""
    gil = site.identity.plus("g1", site.campaign("g1").gm.token)
    delivered(site, boxes, "Gil <gil@example.org>", gil, text, "cmd", now)
    [answer] = [m for m in boxes.new("gil@example.org") if "commands" in str(m["Subject"])]
    return " ".join(text_of(answer).split())


def test_dropping_a_player_twice_is_refused_and_tells_nobody_again(tmp_path):
    for name in ("bus", "busboss"):
        site, boxes = game(tmp_path / name, game=name)
        gm_says(site, boxes, "drop Cid")
        boxes.new()
        log = (site.campaign("g1").root / "log.jsonl").read_text()
        # Bus Boss's own rule took the seat out of the game, and the state refused a second
        # drop: the mail was quarantined with a traceback; Bus told everyone again
        said = gm_says(site, boxes, "drop Cid")
        assert "Cid was dropped already" in said
        assert not boxes.new("cid@example.org") and not boxes.new("ann@example.org")
        records = logged(site.campaign("g1"))
        assert (site.campaign("g1").root / "log.jsonl").read_text().startswith(log)
        [refused] = records[-1]["actions"]
        assert refused["refused"].startswith("Cid was dropped already from g1")


@pytest.mark.slow  # a whole game of Bus Boss, adjudicated round by round
def test_nobody_is_dropped_from_a_game_that_is_over(tmp_path):
    site, boxes = game(tmp_path, game="busboss")
    while site.campaign("g1").status != "finished":
        run_as_gm(site, "g1", "adjudicate", T0)
    tick(site, T0)  # the reports and the result go out
    boxes.new()
    log = (site.campaign("g1").root / "log.jsonl").read_bytes()
    # Bus Boss's state refused the drop: the mail was quarantined with a traceback
    said = gm_says(site, boxes, "drop Bob")
    assert "g1 is over: nothing in it changes now" in said
    assert not boxes.new("bob@example.org")
    assert (site.campaign("g1").root / "log.jsonl").read_bytes().startswith(log)
    assert site.campaign("g1").robots == []


def test_a_newcomer_plays_the_seat_of_a_dropped_player_the_bot_played(tmp_path):
    site, boxes = game(tmp_path)
    gm_says(site, boxes, "drop Bob")
    said = gm_says(site, boxes, "replace Bob with Dan <dan@example.org>")
    assert "Dan takes Bob's seat" in said
    # the seat stayed the bot's: it played Dan's turns and his orders were refused
    assert site.campaign("g1").robots == []
    say(site, boxes, 0, "build house 15\nbuild pub 16")
    table = site.campaign("g1").table()
    assert [d.seat for d in table.awaiting] == [1]
    [welcome] = [m for m in boxes.new("dan@example.org") if "Welcome" in str(m["Subject"])]
    dan = site.identity.plus("g1", site.campaign("g1").players[1].token)
    assert dan in str(welcome["Reply-To"])


def test_a_seat_bus_boss_took_out_of_the_game_is_given_to_nobody(tmp_path):
    site, boxes = game(tmp_path, game="busboss")
    gm_says(site, boxes, "drop Bob")
    settings = (site.campaign("g1").root / "campaign.yaml").read_bytes()
    # rule 40 gave Bob's routes to the bank and took the seat out of the rounds: a newcomer
    # was told they had it, and could never play it
    said = gm_says(site, boxes, "replace Bob with Dan <dan@example.org>")
    assert "Bob was dropped from g1 by its rules" in said
    assert (site.campaign("g1").root / "campaign.yaml").read_bytes() == settings
    assert not boxes.new("dan@example.org")


def test_a_number_written_with_a_superscript_is_refused_not_quarantined(tmp_path):
    site, boxes = game(tmp_path)
    say(site, boxes, 0, "build house 15\nbuild pub 16")
    log = (site.campaign("g1").root / "log.jsonl").read_text()
    # '²' passed str.isdigit but not int(): the mail was quarantined with a traceback
    text = " ".join(text_of(say(site, boxes, 1, "history turn ²")).split())
    assert "write 'history' for the whole game or 'history turn 3'" in text
    said = gm_says(site, boxes, "rollback ²")
    assert "write 'rollback 3' to undo the last three orders" in said
    records = logged(site.campaign("g1"))
    assert (site.campaign("g1").root / "log.jsonl").read_text().startswith(log)
    assert [o[1] for r in records for o in r.get("orders", ())] == [
        "build house 15",
        "build pub 16",
    ]


def open_game(tmp_path):
    """`open1`, a Bus game with its game master, open for sign-up: Ann, Bob and Cid have
    joined, one seat is free."""
    site = make_site(tmp_path)
    site.new_campaign("bus", "open1", [], seed=1, seats=4, gm="Gil <gil@example.org>")
    boxes = Mailboxes(site)
    for player in PLAYERS:
        name = player.partition(" ")[0]
        delivered(site, boxes, player, site.identity.address, f"join open1 as {name}", "hi")
    boxes.new()
    return site, boxes


def test_a_player_whose_address_ends_its_local_part_with_a_dot_joins_and_is_answered(tmp_path):
    # taro.@docomo.ne.jp, as a Japanese carrier gave them out: the answer to the join could
    # not be written, the mail was quarantined, and telling the sender failed in turn, so
    # the mail stayed in the inbox and failed again at every tick
    site, boxes = open_game(tmp_path)
    delivered(site, boxes, "Taro <taro.@docomo.ne.jp>", site.identity.address, "join open1", "hi")
    assert [p.address for p in site.campaign("open1").players][-1] == "taro.@docomo.ne.jp"
    assert boxes.new("taro.@docomo.ne.jp")  # welcomed, the game starting with four


def to_open_game(site, boxes, sender, token, text):
    """A mail to open1 with ``token``, and the answer to its sender (flattened)."""
    delivered(site, boxes, sender, site.identity.plus("open1", token), text, "cmd")
    address = sender.partition("<")[2].rstrip(">")
    [answer] = [m for m in boxes.new(address) if "Your mail" in str(m["Subject"])]
    return " ".join(text_of(answer).split())


def gm_to_open_game(site, boxes, text):
    """The game master's mail to open1, and the answer to it (flattened)."""
    gil = site.campaign("open1").gm.token
    return to_open_game(site, boxes, "Gil <gil@example.org>", gil, text)


def test_help_history_choices_and_messages_before_the_game_starts(tmp_path):
    site, boxes = open_game(tmp_path)
    ann = site.campaign("open1").players[0].token
    settings = (site.campaign("open1").root / "campaign.yaml").read_bytes()
    # each said that what was asked for was below, and nothing was
    said = to_open_game(site, boxes, PLAYERS[0], ann, "help")
    assert "Orders of Bus" in said and "absence 2026-12-24 2026-12-31" in said
    assert "pause" not in said  # the game master's commands are theirs
    said = to_open_game(site, boxes, PLAYERS[0], ann, "history\nchoices")
    assert "history: open1 has not started yet" in said
    assert "choices: open1 has not started yet" in said
    # the message was said to go to Bob and Cid, and went to nobody
    said = to_open_game(site, boxes, PLAYERS[0], ann, "message all Hello, see you soon")
    assert "open1 has not started yet: messages are relayed once it has" in said
    said = gm_to_open_game(site, boxes, "help\nmessage all Hi")
    assert "Game master's commands" in said and "open1 has not started yet: messages" in said
    assert not boxes.new()
    assert (site.campaign("open1").root / "campaign.yaml").read_bytes() == settings


def test_the_game_master_replaces_a_player_before_the_game_starts(tmp_path):
    site, boxes = open_game(tmp_path)
    said = gm_to_open_game(site, boxes, "replace Bob with Dan <dan@example.org>")
    assert "Dan takes Bob's seat" in said
    campaign = site.campaign("open1")
    dan = campaign.players[1]
    assert (dan.name, dan.address) == ("Dan", "dan@example.org")
    # neither was told: Dan had no token until the game started, Bob thought he played
    [welcome] = boxes.new("dan@example.org")
    assert dan.token in text_of(welcome) and dan.token in str(welcome["Reply-To"])
    assert "The game starts when 4 have joined (3 so far)" in " ".join(text_of(welcome).split())
    [told] = boxes.new("bob@example.org")
    assert "The game master has given your seat in open1 to Dan" in " ".join(text_of(told).split())
    # and on the server, `referee gm open1 replace ...`
    run_as_gm(site, "open1", "replace Cid with Eve <eve@example.org>", T0)
    tick(site, T0)
    eve = site.campaign("open1").players[2]
    [welcome] = boxes.new("eve@example.org")
    assert eve.token in text_of(welcome) and eve.token in str(welcome["Reply-To"])
    [told] = boxes.new("cid@example.org")
    assert "The game master has given your seat in open1 to Eve" in " ".join(text_of(told).split())


def test_observers_on_or_off_as_they_are_already_is_refused_and_tells_nobody(tmp_path):
    site, boxes = game(tmp_path)
    said = gm_says(site, boxes, "observers on")
    assert "g1 is open to observers already" in said
    gm_says(site, boxes, "observers off")
    tick(site, T0)
    boxes.new()
    settings = (site.campaign("g1").root / "campaign.yaml").read_bytes()
    # the game was closed again, and every player told of it again
    said = gm_says(site, boxes, "observers off")
    assert "g1 is closed to observers already" in said
    tick(site, T0)
    assert not boxes.new("ann@example.org")
    assert (site.campaign("g1").root / "campaign.yaml").read_bytes() == settings
    assert [r.get("refused") for r in logged(site.campaign("g1"))[-1]["actions"]] == [
        "g1 is closed to observers already: write 'observers on' to let them watch"
    ]


def test_an_extension_under_an_hour_or_before_the_game_starts_is_refused(tmp_path):
    site, boxes = game(tmp_path)
    book = (site.campaign("g1").root / "deadlines.json").read_bytes()
    # 'between 1 hour and 14 days', it said, and took 0.01 hours, telling every player
    said = gm_says(site, boxes, "extend 0.5")
    assert "an extension is between 1 hour and 14 days" in said
    assert (site.campaign("g1").root / "deadlines.json").read_bytes() == book
    site, boxes = open_game(tmp_path / "open")
    # 'every deadline now running moves on', it said, of a game with none running
    said = gm_to_open_game(site, boxes, "extend 24")
    assert "extend 24: open1 has not started yet" in said


def test_start_comes_after_the_other_commands_of_its_mail(tmp_path):
    site, boxes = open_game(tmp_path)
    # after start, the deadlines changed under the welcomes that told the due times, and
    # pause stopped a game whose players were told it was their turn, with no log record
    said = gm_to_open_game(site, boxes, "start\ndeadlines hours=12\npause")
    assert "start: The game starts now" in said
    assert "pause: the campaign is open, not running" in said
    campaign = site.campaign("open1")
    assert campaign.status == "running" and campaign.settings["deadlines"] == {"hours": 12.0}
    [welcome] = [m for m in boxes.new("ann@example.org") if "Welcome" in str(m["Subject"])]
    assert "due Mon 21:00 UTC" in str(welcome["Subject"])


def test_a_rollback_is_never_beside_what_decides_orders_in_its_mail(tmp_path):
    from referee.service.verify import verify

    site, boxes = game(tmp_path)
    say(site, boxes, 0, "build house 15\nbuild pub 16")
    # the adjudication was decided before the rollback and replayed after it: the log
    # refused its own record, and the campaign stopped (skipped by every tick)
    said = gm_says(site, boxes, "message all Undoing Ann's pub\nrollback 1\nadjudicate")
    assert "Undone: build pub 16" in said and "Your message goes to Ann, Bob, Cid" in said
    assert "adjudicate the game was rolled back earlier in this mail" in said
    said = gm_says(site, boxes, "adjudicate\nrollback 1\nmessage all Decided")
    assert "Decided now for Ann" in said and "Your message goes to Ann, Bob, Cid" in said
    assert "rollback 1 a rollback cannot follow adjudicate, drop or another rollback" in said
    assert not tick(site, T0).errors
    assert verify(site.campaign("g1").root).ok
    orders = [o[1] for r in logged(site.campaign("g1")) for o in r.get("orders", ())]
    assert orders[:2] == ["build house 15", "build pub 16"] and len(orders) == 3


def test_deadlines_of_no_end_or_of_ages_are_refused(tmp_path):
    site, boxes = game(tmp_path)
    settings = (site.campaign("g1").root / "campaign.yaml").read_bytes()
    # taken, they stopped the campaign at every tick after: no date is that far off
    for setting, why in [
        ("hours=inf", "deadlines.hours: expected a number, found inf"),
        ("remind_hours=nan", "deadlines.remind_hours: expected a number, found nan"),
        ("hours=1e300", "deadlines.hours must be at most 8784 hours (a year), not 1e+300"),
        ("grace_minutes=1e9", "deadlines.grace_minutes must be at most 527040 minutes"),
    ]:
        assert why in gm_says(site, boxes, f"deadlines {setting}")
        assert (site.campaign("g1").root / "campaign.yaml").read_bytes() == settings
    assert not tick(site, T0 + timedelta(hours=1)).errors


def test_deadlines_set_before_the_game_starts_are_told_with_the_welcomes(tmp_path):
    site, boxes = open_game(tmp_path)
    said = gm_to_open_game(site, boxes, "deadlines hours=12")
    # 'Every player is told', it said, and nobody was: an open game tells nothing until it starts
    assert "The deadlines are now: hours=12. The players' welcomes will tell them." in said
    assert not boxes.new()


def test_a_player_does_not_observe_their_own_game_and_unobserve_needs_a_game(tmp_path):
    site, boxes = game(tmp_path)
    # a player was asked to confirm, and then got every round's report twice
    delivered(site, boxes, PLAYERS[0], site.identity.address, "observe g1")
    [told] = said_to(boxes, ADDRESSES[0])
    assert "You play in g1: its reports come to you already." in told
    # the game master gets no round's report but by observing
    observing(site, boxes, "Gil <gil@example.org>", "g1")
    assert site.campaign("g1").config.observers == ("gil@example.org",)
    # 'there is no game that you named', it said, of a line that named none
    delivered(site, boxes, "Pia <pia@example.org>", site.identity.address, "unobserve", "hi")
    [told] = said_to(boxes, "pia@example.org")
    assert "Write 'observe <game>' or 'unobserve <game>'" in told


def test_replacing_a_name_that_plays_in_no_seat_says_so(tmp_path):
    site, boxes = game(tmp_path)
    # it answered with the usage, as if the line were written wrong
    said = gm_says(site, boxes, "replace Bobby with Dan <dan@example.org>")
    assert "no player 'Bobby' in g1" in said
    assert [p.name for p in site.campaign("g1").players] == ["Ann", "Bob", "Cid"]


def test_a_player_changes_their_sign_up_choices_by_replying_to_the_join_answer(tmp_path):
    site = make_site(tmp_path)
    site.new_campaign("busboss", "open1", [], seed=1, seats=4)
    boxes = Mailboxes(site)
    delivered(site, boxes, PLAYERS[0], site.identity.address, "join open1 as Ann", "hi")
    [joined] = boxes.new(ADDRESSES[0])
    assert "you may send 'join open1' again with" in " ".join(text_of(joined).split())
    # the reply went to the game, with Ann's token, where 'join' was read as an order:
    # 'orders are taken once it has started', and her choices were lost
    line = 'join open1 company "Vale Motors" colours red,blue\ntimezone Asia/Tokyo'
    boxes.deliver(reply_to(joined, ADDRESSES[0], line))
    assert not tick(site, T0).errors
    [answer] = boxes.new(ADDRESSES[0])
    said = " ".join(text_of(answer).split())
    assert "You chose: company Vale Motors; colours red, blue." in said
    assert "Times are shown to you in Asia/Tokyo" in said and "orders are taken" not in said
    [ann] = site.campaign("open1").players
    assert ann.signup == {"company": "Vale Motors", "colours": ["red", "blue"]}
    assert ann.timezone == "Asia/Tokyo"


def test_no_player_is_named_all_or_gm_whom_no_message_could_reach_alone(tmp_path):
    site, boxes = open_game(tmp_path)
    # 'message gm' went to the game master, 'message all' to everyone: never to them alone
    boxes.deliver(
        person_mail("Gem <gem@example.org>", site.identity.address, "hi", "join open1 as GM")
    )
    assert not tick(site, T0).errors
    [told] = boxes.new("gem@example.org")
    assert "the name GM is how a message is addressed to" in " ".join(text_of(told).split())
    said = gm_to_open_game(site, boxes, "replace Bob with All <al@example.org>")
    assert "the name All is how a message is addressed to" in said
    assert [p.name for p in site.campaign("open1").players] == ["Ann", "Bob", "Cid"]


def test_a_line_not_understood_beside_commands_done_asks_for_the_orders_again(tmp_path):
    site, boxes = game(tmp_path)
    answer = say(site, boxes, 0, "message all good luck\nbiuld house 15\nbuild pub 16")
    said = " ".join(text_of(answer).split())
    # 'nothing in this mail was used: send it all again', it said, of a message relayed
    # already: sent again, it went to everyone twice
    assert "none of this mail's orders were used (correct the line and send them again)" in said
    assert "+ message all good luck" in said
    assert len([m for m in boxes.new("bob@example.org") if "Message from Ann" in m["Subject"]]) == 1
    answer = say(site, boxes, 0, "biuld house 15\nbuild pub 16")
    assert "nothing in this mail was used (correct the line and send it all again)" in " ".join(
        text_of(answer).split()
    )


def test_choices_from_a_player_with_no_decision_says_so(tmp_path):
    site, boxes = game(tmp_path)
    # 'every choice of your decision is listed below', it said, with none below
    said = " ".join(text_of(say(site, boxes, 1, "choices")).split())
    assert "nothing is awaited from you now: your choices come with your next decision" in said
    said = " ".join(text_of(say(site, boxes, 0, "choices")).split())
    assert "Every choice of your decision is listed below" in said and "build pub 27" in said


def test_the_same_absence_twice_is_kept_once(tmp_path):
    site, boxes = game(tmp_path)
    say(site, boxes, 1, "absence 2026-11-30 2026-12-01\nabsence 2026-11-30 2026-12-01")
    assert site.campaign("g1").players[1].absence == [["2026-11-30", "2026-12-01"]]


def test_a_game_option_written_with_a_superscript_is_refused_saying_what_it_takes(
    tmp_path, monkeypatch
):
    monkeypatch.setenv("REFEREE_TEST_GM_TOKEN", "opensesame")
    site = with_game_master(make_site(tmp_path), "gil@example.org", "REFEREE_TEST_GM_TOKEN")
    boxes = Mailboxes(site)
    text = "token opensesame\nopen busboss spring 4 map_version=²"
    delivered(site, boxes, "Gil <gil@example.org>", site.identity.address, text, "new")
    [refused] = boxes.new("gil@example.org")
    # '²' passed str.isdigit but not int(), whose error was the answer: "invalid literal for
    # int() with base 10: '²'"
    assert "Not opened" in str(refused["Subject"]) and "map_version" in text_of(refused)
    assert not site.has_campaign("spring")


def test_an_observer_who_takes_a_seat_observes_no_more(tmp_path):
    olga = "Olga <olga@example.org>"
    # she got each round's report as an observer beside her own as a player
    site, boxes = open_game(tmp_path / "open")
    observing(site, boxes, olga, "open1")
    assert site.campaign("open1").config.observers == ("olga@example.org",)
    delivered(site, boxes, olga, site.identity.address, "join open1 as Olga", "hi")
    assert site.campaign("open1").config.observers == ()
    site, boxes = game(tmp_path / "running")
    observing(site, boxes, olga, "g1")
    assert site.campaign("g1").config.observers == ("olga@example.org",)
    gm_says(site, boxes, "replace Bob with Olga <olga@example.org>")
    assert site.campaign("g1").config.observers == ()


def test_replace_reads_a_name_with_with_in_it_and_any_case_of_with(tmp_path):
    site = make_site(tmp_path)
    players = ["Bob <bob@example.org>", "Bob with Hat <hat@example.org>", PLAYERS[2]]
    site.new_campaign("bus", "g1", players, seed=1, gm="Gil <gil@example.org>")
    assert not tick(site, T0).errors
    boxes = Mailboxes(site)
    boxes.new()
    # the line was cut at its first ' with ': Bob's seat went to 'Hat with Dan'
    said = gm_says(site, boxes, "replace Bob with Hat with Dan <dan@example.org>")
    assert "Dan takes Bob with Hat's seat" in said
    said = gm_says(site, boxes, "replace Cid WITH Eve <eve@example.org>")
    assert "Eve takes Cid's seat" in said
    assert [p.name for p in site.campaign("g1").players] == ["Bob", "Dan", "Eve"]


@pytest.mark.parametrize(
    "line", ["extend 5", "deadlines hours=4", "replace Ann with Al <al@example.org>", "drop Bob"]
)
def test_a_game_over_takes_no_change(tmp_path, line):
    site = played_site(tmp_path, "done", seed=3)
    campaign = site.campaign("done")
    assert campaign.table().over
    files = {name: (campaign.root / name).read_bytes() for name in ("campaign.yaml", "log.jsonl")}
    [refused] = run_as_gm(site, "done", line, T0)
    assert refused.reason == "done is over: nothing in it changes now"
    assert {name: (campaign.root / name).read_bytes() for name in files} == files
    assert not Mailboxes(site).new("al@example.org")  # no welcome to a finished game


def test_status_from_the_command_line_of_a_campaign_with_no_game_master_says_where_to_look(
    tmp_path,
):
    site = played_site(tmp_path, "done", seed=3)
    [refused] = run_as_gm(site, "done", "status", T0)
    assert refused.reason == (
        "done has no game master of its own, whose games status would list: "
        "`referee status` lists every game of the site"
    )
