"""Who a mail is from and who the referee's mail belongs to (issue 22, item 8): a campaign
made anew under an id used before has mail of its own, every mail to a game master carries
their token in its Reply-To, and a game master's slips are answered as such."""

import shutil
from datetime import UTC, datetime

from sites import (
    ADDRESSES,
    PLAYERS,
    Mailboxes,
    make_site,
    person_mail,
    text_of,
    with_game_master,
)

from referee.service.tick import tick

T0 = datetime(2026, 11, 23, 9, 0, tzinfo=UTC)
GM = "Gil <gil@example.org>"


def running(tmp_path):
    site = make_site(tmp_path)
    site.new_campaign("bus", "g1", PLAYERS, seed=1, gm=GM)
    assert not tick(site, T0).errors
    boxes = Mailboxes(site)
    boxes.new()
    return site, boxes


def mail(site, boxes, sender: str, token: str, text: str) -> list:
    boxes.deliver(person_mail(sender, site.identity.plus("g1", token), "cmd", text))
    report = tick(site, T0)
    assert not report.errors, report.errors
    return boxes.new()


def said(msg) -> str:
    return " ".join(text_of(msg).split())


def test_a_campaign_made_anew_under_an_id_used_before_sends_its_welcomes(tmp_path):
    site = make_site(tmp_path / "site")
    boxes = Mailboxes(site)
    site.new_campaign("bus", "redo", PLAYERS, gm=GM)
    assert not tick(site, T0).errors
    first = boxes.new()
    assert sorted(str(m["To"]) for m in first) == sorted([GM, *PLAYERS])
    shutil.move(site.data_root / "redo", tmp_path / "redo-old")  # the game master moves it away
    site.new_campaign("bus", "redo", PLAYERS, gm=GM)
    assert not tick(site, T0).errors
    again = boxes.new()
    assert sorted(str(m["To"]) for m in again) == sorted([GM, *PLAYERS])  # welcomed anew
    tokens = [p.token for p in site.campaign("redo").players]
    assert all(t in said(m) for t, m in zip(tokens, sorted(again[1:], key=lambda m: str(m["To"]))))
    assert not {str(m["Message-ID"]) for m in first} & {str(m["Message-ID"]) for m in again}


def test_every_mail_to_a_game_master_carries_their_token_so_a_reply_works(tmp_path):
    site = make_site(tmp_path)
    campaign = site.new_campaign("bus", "g1", [], seats=3, gm=GM)
    gil = site.identity.plus("g1", campaign.gm.token)
    boxes = Mailboxes(site)
    boxes.deliver(person_mail(GM, gil, "too soon", "start"))  # an open game's answer
    boxes.deliver(person_mail(GM, site.identity.plus("g1", "wrongtok"), "x", "pause"))
    assert not tick(site, T0).errors
    to_gil = boxes.new("gil@example.org")
    assert len(to_gil) == 3  # the welcome, the answer to 'start', the wrong token's answer
    assert [str(m["Reply-To"]) for m in to_gil] == [gil] * 3, [m["Subject"] for m in to_gil]
    # the game master answers the referee's answer: the reply reaches the campaign
    boxes.deliver(person_mail(GM, str(to_gil[-1]["Reply-To"]), "Re: x", "observers off"))
    assert not tick(site, T0).errors
    (answer,) = boxes.new("gil@example.org")
    assert str(answer["Reply-To"]) == gil
    assert "observers off" in said(answer) and "could not match" not in said(answer)
    assert site.campaign("g1").config.no_observers


def test_a_game_opened_by_mail_answers_its_game_master_with_their_token(tmp_path, monkeypatch):
    monkeypatch.setenv("GM_TOKEN", "sitetoken")
    site = with_game_master(make_site(tmp_path), "gil@example.org", "GM_TOKEN")
    boxes = Mailboxes(site)
    boxes.deliver(person_mail(GM, site.identity.address, "open", "token sitetoken\nopen bus g1 3"))
    assert not tick(site, T0).errors
    gm_token = site.campaign("g1").gm.token
    opened = [m for m in boxes.new("gil@example.org") if "Opened" in str(m["Subject"])]
    assert [str(m["Reply-To"]) for m in opened] == [site.identity.plus("g1", gm_token)]


def test_message_gm_from_the_game_master_is_answered_as_their_own_slip(tmp_path):
    site, boxes = running(tmp_path)
    token = site.campaign("g1").gm.token
    (answer,) = mail(site, boxes, GM, token, "message gm are you there")
    text = said(answer)
    assert "has no game master" not in text
    assert "you are the game master" in text and "message all <text>" in text


def test_a_players_token_from_the_game_masters_address_giving_pause_is_refused(tmp_path):
    site, boxes = running(tmp_path)
    ann = site.campaign("g1").players[0].token
    sent = mail(site, boxes, GM, ann, "pause")
    (answer,) = [m for m in sent if ADDRESSES[0] in str(m["To"])]
    text = said(answer)
    assert "passed over" not in text
    assert "pause" in text and "only the game master can say this" in text
    assert str(site.campaign("g1").status) == "running"


def test_a_stopped_campaign_s_notice_to_its_game_master_carries_their_token(tmp_path):
    """A campaign the tick must skip is told to its game master and to the site's; the game
    master's copy carries their token in Reply-To, so a reply reaches the campaign (it is
    held, and applied once the file is mended); the site's game masters hold no token of it
    and get a copy without one."""
    site, boxes = running(tmp_path)
    site = with_game_master(site, "sam@example.org", "REFEREE_TEST_SAM_TOKEN")
    token = site.campaign("g1").gm.token
    path = site.data_root / "g1" / "campaign.yaml"
    path.write_text(path.read_text() + "gather_minutes: ten\n")
    tick(site, T0)
    [to_gil] = [m for m in boxes.new("gil@example.org") if "stopped" in str(m["Subject"])]
    [to_sam] = [m for m in boxes.new("sam@example.org") if "stopped" in str(m["Subject"])]
    assert str(to_gil["Reply-To"]) == site.identity.plus("g1", token)
    assert "gil@example.org" not in str(to_sam["To"]) and to_sam["Reply-To"] is None
    assert "gather_minutes" in text_of(to_gil) and "gather_minutes" in text_of(to_sam)
