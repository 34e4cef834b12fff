"""Campaign life against the real mail rig: joining by mail, deadlines and reminders, the
game master's commands (pause, replace, rollback), press. The clock is the test's."""

from datetime import UTC, datetime, timedelta

from sites import logged
from test_referee_by_mail import MailPlayer, mail_site

from referee import mailbot
from referee.bus.engine import RULES
from referee.service.tick import tick

T0 = datetime(2026, 11, 23, 9, 0, tzinfo=UTC)  # a Monday


def run(site, now):
    report = tick(site, now)
    assert not report.errors, report.errors
    return report


def subjects(player):
    return [str(m["Subject"]) for m in player.new_mail()]


def write(rig, player, to, text, subject="orders"):
    msg = mailbot.EmailMessage()
    msg["From"] = f"{player.name} <{player.account.address}>"
    msg["To"] = to
    msg["Subject"] = subject
    msg["Message-ID"] = mailbot.make_msgid(domain="example.test")
    msg.set_content(text)
    rig.send(msg.as_bytes(), to, player.account.address)


def last_text(player, word):
    return mailbot.body([m for m in player.received if word in str(m["Subject"])][-1])


def test_three_strangers_join_by_mail_and_play_the_first_round(mailrig, tmp_path):
    site = mail_site(tmp_path, mailrig)
    site.new_campaign("bus", "open1", [], seed=3, seats=3)
    strangers = [MailPlayer(mailrig, n, s) for s, n in enumerate(["Ann", "Bob", "Cid"])]
    referee = site.identity.address
    write(mailrig, strangers[0], referee, "list")
    run(site, T0)
    assert "open1: Bus, 3 of 3 seats free" in last_text_after(strangers[0], "Games open")
    for player in strangers:
        write(mailrig, player, referee, f"join open1 as {player.name}")
        run(site, T0)
    campaign = site.campaign("open1")
    assert campaign.status == "running" and [p.name for p in campaign.players] == [
        "Ann",
        "Bob",
        "Cid",
    ]
    for player, seat in zip(strangers, campaign.players):
        mails = [mailbot.parse(raw) for raw in mailrig.read_mails(player.account.address)]
        joined = [m for m in mails if "You have joined" in str(m["Subject"])]
        assert joined and seat.token in mailbot.body(joined[0])
        assert str(joined[0]["To"]) == player.account.address  # to the joiner only
        assert any("Welcome to Bus" in str(m["Subject"]) for m in mails)
    # they play by replying until the first round is over
    for _ in range(200):
        for player in strangers:
            player.play()
        run(site, T0)
        if campaign.table().round >= 2:
            break
    table = site.campaign("open1").table()
    assert table.round == 2
    assert all(len(line) >= 2 for line in table.state.streets)


def last_text_after(player, word):
    player.new_mail()
    return last_text(player, word)


def deadline_game(rig, tmp_path, **deadlines):
    site = mail_site(tmp_path, rig)
    players = [MailPlayer(rig, n, s) for s, n in enumerate(["Ann", "Bob", "Cid"])]
    gm = MailPlayer(rig, "Gil", 9)
    site.new_campaign(
        "bus",
        "dl",
        [f"{p.name} <{p.account.address}>" for p in players],
        seed=1,
        gm=f"Gil <{gm.account.address}>",
        settings={"deadlines": {"hours": 24, "remind_hours": 12, **deadlines}},
    )
    run(site, T0)
    return site, players, gm


def test_a_reminder_goes_out_once_and_the_bot_decides_after_the_deadline(mailrig, tmp_path):
    site, (ann, bob, cid), gm = deadline_game(mailrig, tmp_path, policy="bot")
    for player in (ann, bob, cid):
        player.new_mail()  # the welcomes
    run(site, T0 + timedelta(hours=11))
    assert subjects(ann) == []
    for hours in (13, 14, 20):
        run(site, T0 + timedelta(hours=hours))
    reminders = [s for s in subjects(ann) if "Reminder" in s]
    assert len(reminders) == 1 and "due by Tue 24 Nov 2026 09:00 UTC" in reminders[0]
    assert subjects(bob) == []
    run(site, T0 + timedelta(hours=24, minutes=1))
    records = logged(site.campaign("dl"))
    [chosen] = [o[1] for o in records[-1]["orders"] if o[2] == "bot"]
    assert records[-1]["missed"] == [
        {"seat": 0, "due": "2026-11-24T09:00:00Z", "done": f"the bot decided for them: {chosen}"}
    ]
    ann.new_mail()
    report = [m for m in ann.received if "your turn" in str(m["Subject"])][-1]
    assert "your deadline passed: the bot decided for you" in mailbot.body(report)


def test_a_pause_stops_the_deadlines(mailrig, tmp_path):
    site, (ann, bob, cid), gm = deadline_game(mailrig, tmp_path, policy="bot")
    gm_address = site.identity.plus("dl", site.campaign("dl").gm.token)
    write(mailrig, gm, gm_address, "pause")
    run(site, T0 + timedelta(hours=1))
    assert site.campaign("dl").status == "paused"
    run(site, T0 + timedelta(hours=30))  # long past the deadline: paused
    assert not any(r.get("missed") for r in logged(site.campaign("dl")))
    write(mailrig, gm, gm_address, "resume")
    run(site, T0 + timedelta(hours=30))
    run(site, T0 + timedelta(hours=40))  # 24 h + the 29 h pause: not yet
    assert not any(r.get("missed") for r in logged(site.campaign("dl")))
    run(site, T0 + timedelta(hours=53, minutes=1))
    [missed] = [r["missed"] for r in logged(site.campaign("dl")) if r.get("missed")]
    assert [(m["seat"], m["due"]) for m in missed] == [(0, "2026-11-25T14:00:00Z")]
    assert missed[0]["done"].startswith("the bot decided for them: ")  # and what it chose
    confirmations = [mailbot.body(m) for m in gm.new_mail() if "Game master" in str(m["Subject"])]
    assert any("The campaign is paused" in c for c in confirmations)


def test_the_wait_policy_tells_the_game_master(mailrig, tmp_path):
    site, (ann, bob, cid), gm = deadline_game(mailrig, tmp_path, policy="wait")
    gm.new_mail()
    run(site, T0 + timedelta(hours=25))
    run(site, T0 + timedelta(hours=26))
    notices = [m for m in gm.new_mail() if "missed a deadline" in str(m["Subject"])]
    assert len(notices) == 1 and "the game waits for the game master" in " ".join(
        mailbot.body(notices[0]).split()
    )
    assert (
        site.campaign("dl").table().rules.awaiting(site.campaign("dl").table().state)[0].seat == 0
    )


def test_the_game_master_replaces_a_player_and_the_old_token_is_refused(mailrig, tmp_path):
    site, (ann, bob, cid), gm = deadline_game(mailrig, tmp_path)
    old_token = site.campaign("dl").players[1].token
    bea = MailPlayer(mailrig, "Bea", 4)
    gm_address = site.identity.plus("dl", site.campaign("dl").gm.token)
    write(mailrig, gm, gm_address, f"replace Bob with Bea <{bea.account.address}>")
    run(site, T0 + timedelta(hours=1))
    campaign = site.campaign("dl")
    assert campaign.players[1].name == "Bea" and campaign.players[1].token != old_token
    [welcome] = [m for m in bea.new_mail() if "Welcome" in str(m["Subject"])]
    assert campaign.players[1].token in mailbot.body(welcome)
    bob.new_mail()
    write(mailrig, bob, site.identity.plus("dl", old_token), "build house 15")
    run(site, T0 + timedelta(hours=2))
    answer = bob.new_mail()[-1]
    said = " ".join(mailbot.body(answer).split())  # told who has the seat, not "no player"
    assert "Bea took your seat in dl on" in said and "send 'observe dl'" in said
    assert not any(
        r.get("from") == bob.account.address and r.get("orders") for r in logged(campaign)
    )


def test_a_rollback_restores_the_earlier_state_exactly(mailrig, tmp_path):
    site, players, gm = deadline_game(mailrig, tmp_path)
    states = []
    for _ in range(40):  # play into the first round
        for player in players:
            player.play()
        run(site, T0)
        table = site.campaign("dl").table()
        states.append(
            (
                sum(len(r.get("orders", ())) for r in logged(table.campaign)),
                RULES.to_data(table.state),
            )
        )
        if table.round == 1 and table.state.placed[table.state.start] >= 1:
            break
    # roll back to a position some orders ago where a player chose an action
    count, earlier = states[-3]
    undo = states[-1][0] - count
    assert undo > 0
    gm_address = site.identity.plus("dl", site.campaign("dl").gm.token)
    write(mailrig, gm, gm_address, f"rollback {undo}")
    report = tick(site, T0)
    assert not report.errors
    table = site.campaign("dl").table()
    rollback = [r for r in logged(table.campaign) if r.get("actions")][-1]
    assert len(rollback["actions"][0]["undone"]) == undo
    assert RULES.to_data(table.state) == earlier
    # the log keeps the undone orders
    assert sum(len(r.get("orders", ())) for r in logged(table.campaign)) == states[-1][0]


def test_press_reaches_the_other_players_and_the_history(mailrig, tmp_path):
    site, (ann, bob, cid), gm = deadline_game(mailrig, tmp_path)
    for p in (ann, bob, cid):
        p.new_mail()
    token = site.campaign("dl").players[0].token
    write(
        mailrig,
        ann,
        site.identity.plus("dl", token),
        "message all Good luck, everyone!\nmessage Bob shall we share 21?",
    )
    run(site, T0)
    bob_mail = [mailbot.body(m) for m in bob.new_mail() if "Message from Ann" in str(m["Subject"])]
    cid_mail = [mailbot.body(m) for m in cid.new_mail() if "Message from Ann" in str(m["Subject"])]
    assert len(bob_mail) == 2 and len(cid_mail) == 1
    assert "Good luck, everyone!" in cid_mail[0]
    record = logged(site.campaign("dl"))[-1]
    assert [a["to"] for a in record["actions"]] == [[1, 2], [1]]
