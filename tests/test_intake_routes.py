"""Mail that names no game, or a seat given away, through the referee's real tick over
Maildir (issue 33): a player of one running game who writes afresh has it read for that
game, a player of several is told how to name one, a stranger who asks to join in words
is told the line to send, and a replaced player who writes again is told so."""

from datetime import UTC, datetime

from sites import ADDRESSES, PLAYERS, Mailboxes, logged, make_site, person_mail, text_of
from test_referee_by_mail import mail_site

from referee import mailbot
from referee.service.tick import tick
from referee.service.work import run_as_gm

T0 = datetime(2026, 11, 23, 9, 0, tzinfo=UTC)  # a Monday


def delivered(site, boxes, sender, text, to=None, subject="hello") -> list[str]:
    """``text`` from ``sender`` (to the referee's own address unless ``to``), a tick, and
    what the sender was mailed since, each mail flattened (its subject first)."""
    boxes.deliver(person_mail(sender, to or site.identity.address, subject, text))
    report = tick(site, T0)
    assert not report.errors, report.errors
    address = sender.partition("<")[2].rstrip(">")
    return [f"{m['Subject']}: " + " ".join(text_of(m).split()) for m in boxes.new(address)]


def started(tmp_path, *campaigns: str):
    """A site with a 3-player Bus game for each id (seed 1: Ann builds first), welcomed."""
    site = make_site(tmp_path)
    for campaign_id in campaigns:
        site.new_campaign("bus", campaign_id, PLAYERS, seed=1, gm="Gil <gil@example.org>")
    assert not tick(site, T0).errors
    boxes = Mailboxes(site)
    boxes.new()
    return site, boxes


def orders_of(campaign, address) -> list:
    return [o for r in logged(campaign) if r.get("from") == address for o in r.get("orders", ())]


def test_a_fresh_mail_from_the_player_of_one_running_game_is_read_for_it(tmp_path):
    site, boxes = started(tmp_path, "bus1")
    said = delivered(site, boxes, PLAYERS[0], "build house 15\nbuild pub 16", subject="my move")
    assert [text for seat, text, _how in orders_of(site.campaign("bus1"), ADDRESSES[0])] == [
        "build house 15",
        "build pub 16",
    ]
    assert said and all(s.startswith("[bus1]") for s in said)  # answered from that game
    assert not any("did not name a game" in s for s in said)


def test_a_fresh_mail_from_the_player_of_two_games_says_how_to_name_one(tmp_path):
    site, boxes = started(tmp_path, "north", "south")
    [said] = delivered(site, boxes, PLAYERS[0], "build house 15\nbuild pub 16")
    for campaign_id in ("north", "south"):
        token = site.campaign(campaign_id).players[0].token
        assert f"{campaign_id} (Bus): running" in said
        assert site.identity.plus(campaign_id, token) in said  # where to write for that game
        assert not orders_of(site.campaign(campaign_id), ADDRESSES[0])
    assert "reply to a mail of the game" in said


def test_a_stranger_who_asks_in_words_to_join_is_told_the_line_to_send(tmp_path):
    site = make_site(tmp_path)
    site.new_campaign("bus", "night", [], seats=4, gm="Gil <gil@example.org>")
    site.new_campaign("busboss", "cup", [], seats=4, gm="Gil <gil@example.org>")
    site.new_campaign("bus", "day", PLAYERS, seed=1)  # running: not one to join
    boxes = Mailboxes(site)
    [said] = delivered(site, boxes, "Zed Quist <zed@example.net>", "Hi, can I join your bus game?")
    assert "join night as Zed Quist" in said and "join cup as Zed Quist" in said
    assert "join day" not in said
    assert not site.campaign("night").players  # asked, not joined


def test_a_replaced_player_who_writes_again_is_told_by_whom_and_how_to_keep_reading(tmp_path):
    site, boxes = started(tmp_path, "bus1")
    ann = site.campaign("bus1").players[0]
    run_as_gm(site, "bus1", "replace Ann with Eve <eve@example.org>", T0)
    assert not tick(site, T0).errors
    boxes.new()
    # Ann answers an old mail: its Reply-To carries the token that was hers
    said = delivered(
        site, boxes, PLAYERS[0], "build house 15", to=site.identity.plus("bus1", ann.token)
    )
    [told] = said
    assert "could not match your mail to a player" not in told
    [at] = [r["at"] for r in logged(site.campaign("bus1")) if r.get("kind") == "gm"]
    when = datetime.fromisoformat(at.replace("Z", "+00:00")).strftime("%a %d %b %Y %H:%M UTC")
    assert f"Eve took your seat in bus1 on {when}: the game master gave it" in told
    assert "observe bus1" in told
    assert not orders_of(site.campaign("bus1"), ADDRESSES[0])


def test_a_fresh_mail_with_orders_over_imap_and_smtp_is_read_for_the_players_one_game(
    mailrig, tmp_path
):
    """The same through the real servers: Ann writes a new mail (not a reply) to the
    referee's plain address, and her game applies it and answers her."""
    site = mail_site(tmp_path, mailrig)
    ann, bob, cid = (mailrig.new_account(n) for n in ("ann", "bob", "cid"))
    trio = [f"Ann <{ann.address}>", f"Bob <{bob.address}>", f"Cid <{cid.address}>"]
    site.new_campaign("bus", "north", trio, seed=1)
    assert not tick(site).errors
    welcomed = len(mailrig.read_mails(ann.address))
    mail = person_mail(trio[0], site.identity.address, "my move", "build house 15\nbuild pub 16\n")
    mailrig.send(mail.as_bytes(), site.identity.address, ann.address)
    assert not tick(site).errors
    assert [o[1] for o in orders_of(site.campaign("north"), ann.address)] == [
        "build house 15",
        "build pub 16",
    ]
    [answer] = [mailbot.parse(raw) for raw in mailrig.read_mails(ann.address)[welcomed:]]
    assert str(answer["Subject"]).startswith("[north]")
    assert site.campaign("north").players[0].token in str(answer["Reply-To"])
