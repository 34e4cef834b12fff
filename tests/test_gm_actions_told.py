"""Every game-master action is told to the players it concerns, over the real mail rig:
pause and resume, extend, drop, adjudicate, rollback (with new prompts), replace (the old
player told, the new one welcomed with the game), and deadlines set when a campaign is
opened by mail."""

from datetime import timedelta

from test_campaign_life import T0, deadline_game, run, write
from test_referee_by_mail import MailPlayer, mail_site

from referee import mailbot
from referee.service.site import Site
from referee.settings.site import load_config


def texts(player) -> list[str]:
    return [mailbot.body(m) for m in player.new_mail()]


def gm_does(site, rig, gm, line: str, hours: float = 1) -> None:
    write(rig, gm, site.identity.plus("dl", site.campaign("dl").gm.token), line)
    run(site, T0 + timedelta(hours=hours))


def test_pause_resume_and_extend_are_told_to_every_player_with_the_deadline(mailrig, tmp_path):
    site, players, gm = deadline_game(mailrig, tmp_path)
    for player in players:
        player.new_mail()
    gm_does(site, mailrig, gm, "pause")
    for player in players:
        [text] = texts(player)
        assert "The game master pauses the campaign." in text
    gm_does(site, mailrig, gm, "resume", hours=2)
    gm_does(site, mailrig, gm, "extend 12", hours=3)
    ann, bob, cid = players
    told = texts(ann)
    assert any("The game master resumes the campaign." in t for t in told)
    [extended] = [t for t in told if "extends the deadlines by 12 hours" in t]
    # Ann is awaited: her report says by when, 24 h + the pause + 12 h from the start
    assert "Due by Tue 24 Nov 2026 22:00 UTC" in extended
    assert any("extends the deadlines by 12 hours" in t for t in texts(bob))


def test_drop_and_adjudicate_are_told(mailrig, tmp_path):
    site, (ann, bob, cid), gm = deadline_game(mailrig, tmp_path)
    for player in (ann, bob, cid):
        player.new_mail()
    gm_does(site, mailrig, gm, "adjudicate")
    assert any("The game master decides now for the players awaited." in t for t in texts(bob))
    gm_does(site, mailrig, gm, "drop Cid", hours=2)
    assert any("The game master drops Cid." in t for t in texts(ann))
    # Cid is told in words of his own (issue "What each person is told")
    assert any("the game master has dropped you from" in t for t in texts(cid))


def test_rollback_prompts_the_awaited_player_again(mailrig, tmp_path):
    site, players, gm = deadline_game(mailrig, tmp_path)
    ann = players[0]
    assert ann.play()  # her first building, answering her welcome
    run(site, T0)
    ann.new_mail()
    gm_does(site, mailrig, gm, "rollback 1")
    [text] = texts(ann)
    assert "The game master undoes the last 1 order." in text
    assert "YOUR DECISION: First buildings" in text


def test_replace_tells_the_old_player_and_shows_the_new_one_the_game(mailrig, tmp_path):
    site, (ann, bob, cid), gm = deadline_game(mailrig, tmp_path)
    bea = MailPlayer(mailrig, "Bea", 4)
    for player in (ann, bob, cid):
        player.new_mail()
    gm_does(site, mailrig, gm, f"replace Ann with Bea <{bea.account.address}>")
    [gone] = [m for m in ann.new_mail() if "You have left the game" in str(m["Subject"])]
    assert "given your seat in dl to Bea" in " ".join(mailbot.body(gone).split())
    [welcome] = [m for m in bea.new_mail() if "Welcome" in str(m["Subject"])]
    text = mailbot.body(welcome)
    assert "You take over a game under way" in text and "Standings:" in text
    assert "Clock:" in text  # the text map
    assert "YOUR DECISION" in text  # Ann's seat was awaited
    assert any("Bea takes Ann's seat." in t for t in texts(bob))


def test_a_campaign_opened_by_mail_gets_its_deadlines(mailrig, tmp_path, monkeypatch):
    site = mail_site(tmp_path, mailrig)
    gil = MailPlayer(mailrig, "Gil", 9)
    path = site.config.path
    path.write_text(
        path.read_text().replace(
            "  name: Test Referee",
            f"  game_masters:\n    - address: {gil.account.address}\n"
            "      token_env: REFEREE_TEST_GM_TOKEN\n  name: Test Referee",
        )
    )
    monkeypatch.setenv("REFEREE_TEST_GM_TOKEN", "opensesame")
    site = Site(load_config(path))
    referee = site.identity.address
    write(mailrig, gil, referee, "token opensesame\nopen bus spring-cup 3 hours=48 policy=bot")
    run(site, T0)
    campaign = site.campaign("spring-cup")
    assert campaign.settings["deadlines"] == {"hours": 48.0, "policy": "bot"}
    [opened] = [m for m in gil.new_mail() if "Opened" in str(m["Subject"])]
    assert "hours=48" in " ".join(mailbot.body(opened).split())
    write(mailrig, gil, referee, "token opensesame\nopen bus autumn 3 hours=soon")
    run(site, T0)
    [refused] = [m for m in gil.new_mail() if "Not opened" in str(m["Subject"])]
    assert "hours=soon" in mailbot.body(refused)


def test_the_game_master_changes_the_deadlines_and_everyone_is_told(mailrig, tmp_path):
    site, (ann, bob, cid), gm = deadline_game(mailrig, tmp_path)
    for player in (ann, bob, cid):
        player.new_mail()
    gm_does(site, mailrig, gm, "deadlines hours=48 policy=bot")
    assert site.campaign("dl").settings["deadlines"]["hours"] == 48.0
    assert site.campaign("dl").settings["deadlines"]["policy"] == "bot"
    [text] = texts(ann)
    assert "The game master sets the deadlines: hours=48 policy=bot." in text
    assert "Due by Wed 25 Nov 2026 10:00 UTC" in text  # 48 hours from the change (issue 39)
    assert any("sets the deadlines" in t for t in texts(cid))
    gm_does(site, mailrig, gm, "deadlines hours=soon", hours=2)
    assert site.campaign("dl").settings["deadlines"]["hours"] == 48.0


def test_a_lateness_notice_goes_to_everyone_when_the_campaign_asks_for_it(mailrig, tmp_path):
    site, (ann, bob, cid), gm = deadline_game(mailrig, tmp_path, policy="bot")
    campaign = site.campaign("dl")
    campaign.settings["lateness_notice"] = True
    campaign.save()
    for player in (ann, bob, cid):
        player.new_mail()
    run(site, T0 + timedelta(hours=24, minutes=1))  # Ann's first building is late
    for player in (bob, cid):
        assert any("Ann missed a deadline: the bot decided for them" in t for t in texts(player)), (
            player.name
        )
