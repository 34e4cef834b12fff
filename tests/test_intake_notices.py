"""What the intake decides to tell a mail's sender outside a started game, as plain values
(``notices.Notice``: recipient, kind, the template and its parameters, the mail it answers),
read without any mail server: the intake decides, the answers stage renders and queues."""

from datetime import UTC, datetime

import pytest
from sites import PLAYERS, make_site, person_mail

from referee.mail.inbox import InMail
from referee.service.intake import Intake
from referee.service.notices import Notice
from referee.service.session import Sessions
from referee.service.work import run_as_gm
from referee.settings.site import Audience
from referee.words.render import Said, spoken

T0 = datetime(2026, 11, 23, 9, 0, tzinfo=UTC)
ZED = "Zed <zed@example.net>"


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """A running Bus game `bus1` whose Cid was replaced by Dan, and a Bus Boss game `cup`
    open for sign-up."""
    site = make_site(tmp_path_factory.mktemp("notices"))
    site.new_campaign("bus", "bus1", PLAYERS, seed=1, gm="Gil <gil@example.org>")
    run_as_gm(site, "bus1", "replace Cid with Dan <dan@example.org>", T0)
    site.new_campaign("busboss", "cup", [], seats=4, gm="Gil <gil@example.org>")
    return site


def told(site, text: str, sender: str = ZED, to: str | None = None, subject="hello"):
    """The notices the intake hands to the answers stage for one mail (each taken as queued)."""
    said: list[Notice] = []
    intake = Intake(site, Sessions(site), T0, lambda notice: said.append(notice) or True)
    msg = person_mail(sender, to or site.identity.address, subject, text)
    raw = msg.as_bytes()
    intake.take(InMail(str(msg["Message-ID"]), len(raw), lambda limit: raw[:limit]))
    for notice in said:  # each says what it answers, and renders
        assert notice.answers in (None, str(msg["Message-ID"]))
        assert spoken(notice.subject) and spoken(notice.text)
    return said


def test_a_stranger_with_a_token_that_is_none_learns_nothing_of_the_game(site):
    [notice] = told(site, "build house 15", to=site.identity.plus("bus1", "0" * 12))
    assert (notice.to, notice.kind, notice.audience) == (
        "zed@example.net",
        "stranger",
        Audience.STRANGER,
    )
    assert (notice.subject, notice.text) == (Said.of("subject_stranger"), (Said.of("stranger"),))


def test_a_player_without_their_token_is_told_at_their_own_address(site):
    ann = site.campaign("bus1").players[0]
    [notice] = told(site, "build house 15", sender=PLAYERS[1], to=site.identity.plus("bus1"))
    bob = site.campaign("bus1").players[1]
    assert (notice.to, notice.kind) == (bob.address, "wrong token")
    assert notice.reply_to == site.identity.plus("bus1", bob.token) != ann.token
    assert notice.text == (
        Said.of("wrong_token", campaign_id="bus1", had_token=False, address=notice.reply_to),
    )


def test_a_game_there_is_none_of(site):
    [notice] = told(site, "build house 15", to=site.identity.plus("nope"))
    assert notice.kind == "no such game"
    assert notice.text[0] == Said.of("no_such_game", campaign_id="nope")
    assert notice.text[1].name == "not_read_outside"  # what it did not read, listed


def test_a_mail_that_names_no_game_from_a_stranger(site):
    [notice] = told(site, "Good morning")
    assert (notice.kind, notice.text[0]) == ("no game named", Said.of("no_game_named"))
    assert notice.text[1] == Said.of("not_read_outside", lines=["Good morning"])


@pytest.mark.parametrize(
    ("line", "kind", "template"),
    [
        ("list", "open games", "open_games"),
        ("help", "help", "help-outside.txt"),
        ("join bus1 as Zed", "not joined", "no_open_game"),
        ("observe", "observe usage", "observe_usage"),
    ],
)
def test_site_commands_are_answered_as_values(site, line, kind, template):
    [notice] = told(site, line)
    assert (notice.kind, notice.text[0].name, notice.to) == (kind, template, "zed@example.net")
    assert len(notice.text) == (2 if line.startswith("join") else 1)  # and the open games


def test_the_open_games_list_names_each_with_its_free_seats(site):
    [notice] = told(site, "list")
    [game] = notice.text[0].params["games"]
    assert (game["id"], game["free"], game["seats"]) == ("cup", 4, 4)


def test_a_stranger_who_asks_in_words_to_join_is_told_the_line_for_each_open_game(site):
    [notice] = told(site, "Hi, can I join your bus game?", sender="Zed Quist <zed@example.net>")
    assert (notice.kind, notice.audience) == ("join in words", Audience.STRANGER)
    intro, games = notice.text  # and nothing listed as not read: it was understood
    assert intro == Said.of("join_in_words")
    assert (games.name, games.params["name"]) == ("open_games", "Zed Quist")
    assert [g["id"] for g in games.params["games"]] == ["cup"]
    assert "join cup as Zed Quist" in spoken(notice.text)


def test_a_replaced_player_who_writes_with_their_old_token_is_told_who_has_the_seat(site):
    to = site.identity.plus("bus1", "oldtoken42")
    [notice] = told(site, "build house 15", sender=PLAYERS[2], to=to)
    assert (notice.to, notice.kind) == ("cid@example.org", "replaced")
    [text] = notice.text
    assert text.name == "replaced_writes"
    assert {k: text.params[k] for k in ("name", "new", "campaign_id")} == {
        "name": "Cid",
        "new": "Dan",
        "campaign_id": "bus1",
    }


def test_a_mail_too_large_to_read_is_answered_once_with_its_size(site):
    said: list[Notice] = []
    intake = Intake(site, Sessions(site), T0, lambda notice: said.append(notice) or True)
    raw = person_mail(ZED, site.identity.address, "photo", "list").as_bytes()
    most = site.config.inbox.max_mail_kb
    intake.take(InMail("big", (most + 1) * 1024, lambda limit: raw[:limit]))
    [notice] = said
    assert (notice.kind, notice.to, notice.subject) == (
        "not read",
        "zed@example.net",
        Said.of("subject_too_large"),
    )
    assert notice.text == (Said.of("too_large", size=most + 1, most=most),)
