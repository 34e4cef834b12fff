"""The mail referee on its embedded default (local Maildirs): campaigns, routing, orders,
queues, answers, and every kind of mail people (and machines) send."""

import json

import pytest
from sites import (
    ADDRESSES,
    PLAYERS,
    bus_game,
    logged,
    person_mail,
    reply_to,
    run_tick,
    text_of,
)

from referee.mail.routing import Identity
from referee.store.campaign import CampaignError


@pytest.fixture
def game(tmp_path):
    """A 3-player Bus campaign `bus1` (seed 1: Ann starts) with its welcome mails read."""
    return bus_game(tmp_path)


def welcome_of(boxes, address):
    return next(
        m for m in boxes.sent() if address in str(m["To"]) and "Welcome" in str(m["Subject"])
    )


def log(site, campaign_id="bus1"):
    return logged(site.campaign(campaign_id))


def test_a_new_campaign_writes_its_folder_and_welcomes_every_player(game):
    site, boxes = game
    campaign = site.campaign("bus1")
    assert (campaign.root / "campaign.yaml").read_text().startswith("# Campaign bus1")
    assert [p.name for p in campaign.players] == ["Ann", "Bob", "Cid"]
    welcomes = [welcome_of(boxes, a) for a in ADDRESSES]
    for msg, player in zip(welcomes, campaign.players):
        text = text_of(msg)
        assert f"Your token is {player.token}" in text
        assert msg["Reply-To"] == f"referee+bus1.{player.token}@example.org"
        assert msg["X-Referee"] and msg["Auto-Submitted"] == "auto-replied"
    # Ann starts (seed 1): her welcome holds the first prompt, the others wait
    assert "YOUR DECISION: First buildings" in text_of(welcomes[0])
    assert "    build house 15" in text_of(welcomes[0])
    assert "The game waits for Ann (first buildings)" in text_of(welcomes[1])
    with pytest.raises(CampaignError, match="exists already"):
        site.new_campaign("bus", "bus1", PLAYERS)


def test_a_reply_with_the_report_quoted_and_a_signature_is_applied_and_confirmed(game):
    site, boxes = game
    boxes.new()
    welcome = welcome_of(boxes, "ann@example.org")
    boxes.deliver(reply_to(welcome, "ann@example.org", "build house 15\nbuild pub 16"))
    run_tick(site)
    records = log(site)
    assert records[-1]["orders"] == [[0, "build house 15", "mail"], [0, "build pub 16", "mail"]]
    ann = boxes.new("ann@example.org")
    assert [str(m["Subject"]) for m in ann] == ["[bus1] Your mail: orders used"]
    confirmation = text_of(ann[0])
    assert "+ build house 15" in confirmation and "Ann builds a pub at 16 (zone A)." in confirmation
    assert "Nothing is awaited from you now." in confirmation
    # Bob builds next: his report says what Ann did and lists his choices
    [bob] = boxes.new("bob@example.org")
    assert str(bob["Subject"]) == "[bus1] Setup: your turn - first buildings"
    assert "Ann builds a house at 15 (zone A)." in text_of(bob)
    assert "    build office: 10, 15, 16, 17, 20, 21, 22, 27\n" in text_of(bob)  # grouped
    # the map once: inline in the HTML alternative by its Content-ID, after the plain text
    assert bob.get_content_type() == "multipart/alternative"
    [png] = [p for p in bob.walk() if p.get_content_type() == "image/png"]
    html = bob.get_body(("html",)).get_content()
    assert f'src="cid:{png["Content-ID"].strip("<>")}"' in html
    assert png.get_filename().endswith(".png")
    assert boxes.new("cid@example.org") == []  # Cid is not concerned yet


def test_orders_for_later_decisions_are_kept_and_used_when_they_come(game):
    site, boxes = game
    boxes.new()
    # Bob writes before his turn: both buildings and his first line marker
    welcome = welcome_of(boxes, "bob@example.org")
    boxes.deliver(
        reply_to(welcome, "bob@example.org", "build office 21\nbuild office 22\nline 26-27")
    )
    run_tick(site)
    confirmation = text_of(boxes.new("bob@example.org")[0])
    assert "Kept for later" in confirmation and "    line 26-27" in confirmation
    welcome = welcome_of(boxes, "ann@example.org")
    boxes.deliver(reply_to(welcome, "ann@example.org", "build house 15\nbuild pub 16"))
    run_tick(site)
    orders = [o for r in log(site) for o in r.get("orders", ())]
    assert orders[2:4] == [[1, "build office 21", "queue"], [1, "build office 22", "queue"]]
    campaign = site.campaign("bus1")
    table = campaign.table()
    assert table.queues[1] == ["line 26-27"]
    assert table.rules.awaiting(table.state)[0].seat == 2  # Cid builds now


def test_a_queued_order_that_became_illegal_drops_the_rest_and_says_why(game):
    site, boxes = game
    boxes.new()
    ann_welcome = welcome_of(boxes, "ann@example.org")
    bob_welcome = welcome_of(boxes, "bob@example.org")
    boxes.deliver(reply_to(bob_welcome, "bob@example.org", "build office 15\nbuild pub 16"))
    boxes.deliver(reply_to(ann_welcome, "ann@example.org", "build house 15\nbuild pub 15"))
    run_tick(site)
    # Ann filled both lots at 15 before Bob's turn came: his first order is refused and
    # the one after it is dropped, and his report says so
    table = site.campaign("bus1").table()
    assert table.queues[1] == []
    assert table.rules.awaiting(table.state)[0].seat == 1
    refused = log(site)[-1]["refused"]
    assert refused == [
        {
            "seat": 1,
            "text": "build office 15",
            "dropped": ["build pub 16"],
            "reason": "Crossing 15 has no free lot in zone A, the zone open now.",
        }
    ]
    bob = [text_of(m) for m in boxes.new("bob@example.org")]
    assert any(
        "your order 'build office 15' was refused: Crossing 15 has no free lot" in t
        and "dropped with it: build pub 16" in t
        for t in bob
    )


def test_an_illegal_order_is_refused_with_the_reason_and_the_choices(game):
    site, boxes = game
    boxes.new()
    welcome = welcome_of(boxes, "ann@example.org")
    boxes.deliver(reply_to(welcome, "ann@example.org", "build house 1"))
    run_tick(site)
    text = text_of(boxes.new("ann@example.org")[0])
    assert "Refused:\n  - build house 1\n      Crossing 1 has no free lot in zone A" in text
    assert "YOUR DECISION: First buildings" in text
    assert log(site)[-1]["orders"] == []


def test_a_malformed_order_stops_the_whole_mail_and_says_why(game):
    site, boxes = game
    boxes.new()
    welcome = welcome_of(boxes, "ann@example.org")
    boxes.deliver(reply_to(welcome, "ann@example.org", "build house 15\nbuild castle 16"))
    run_tick(site)
    text = text_of(boxes.new("ann@example.org")[0])
    assert "Not understood" in text and "? build castle 16" in text
    assert "one type (house, office, pub)" in text
    assert log(site)[-1]["orders"] == [] and log(site)[-1]["bad_lines"][0][0] == "build castle 16"


def test_greetings_and_remarks_are_reported_and_the_orders_used(game):
    site, boxes = game
    boxes.new()
    welcome = welcome_of(boxes, "ann@example.org")
    boxes.deliver(
        reply_to(
            welcome,
            "ann@example.org",
            "Hi all,\nbuild house 15\nbuild pub 16\nCheers, and good luck!",
        )
    )
    run_tick(site)
    text = text_of(boxes.new("ann@example.org")[0])
    assert "Passed over (not orders):\n    Hi all,\n    Cheers, and good luck!" in text
    assert log(site)[-1]["orders"] == [[0, "build house 15", "mail"], [0, "build pub 16", "mail"]]


def test_an_order_out_of_turn_is_kept_not_applied(game):
    site, boxes = game
    boxes.new()
    welcome = welcome_of(boxes, "cid@example.org")
    boxes.deliver(reply_to(welcome, "cid@example.org", "action vroom"))
    run_tick(site)
    text = text_of(boxes.new("cid@example.org")[0])
    assert "Kept for later" in text and "action vroom" in text
    assert log(site)[-1]["orders"] == []


def test_the_same_message_delivered_twice_is_applied_once(game):
    site, boxes = game
    boxes.new()
    mail = reply_to(welcome_of(boxes, "ann@example.org"), "ann@example.org", "build house 15")
    boxes.deliver(mail)
    boxes.deliver(mail)
    report = run_tick(site)
    assert report.applied == 1 and report.ignored == 1
    boxes.deliver(mail)  # and again in a later tick
    run_tick(site)
    applied = [o for r in log(site) for o in r.get("orders", ())]
    assert applied == [[0, "build house 15", "mail"]]
    # answered once: her next decision (the second building) with the answer to the mail
    [answer] = boxes.new("ann@example.org")
    assert text_of(answer).count("was read.") == 1 and "YOUR DECISION" in text_of(answer)


def test_the_token_from_a_token_line_and_the_game_from_the_subject(game):
    site, boxes = game
    boxes.new()
    token = site.campaign("bus1").players[0].token
    mail = person_mail(
        "Ann <ann@example.org>",
        "referee@example.org",
        "[bus1] my move",
        f"token {token}\nbuild house 15\n",
    )
    boxes.deliver(mail)
    run_tick(site)
    assert log(site)[-1]["orders"] == [[0, "build house 15", "mail"]]
    # and the game in a `game` line, from another address: the answer goes to both
    mail = person_mail(
        "Ann at work <ann@work.example>",
        "referee@example.org",
        "Hello",
        f"game bus1\ntoken {token}\nbuild pub 16\n",
    )
    boxes.deliver(mail)
    run_tick(site)
    assert log(site)[-1]["orders"] == [[0, "build pub 16", "mail"]]
    confirmation = [m for m in boxes.new() if "Your mail:" in str(m["Subject"])][-1]
    assert "ann@example.org" in str(confirmation["To"])
    assert "ann@work.example" in str(confirmation["Cc"])


def test_a_wrong_token_from_a_player_is_refused_and_answered_only_to_them(game):
    site, boxes = game
    boxes.new()
    mail = person_mail(
        "Ann <ann@example.org>", "referee+bus1.wrong123@example.org", "move", "build house 15"
    )
    boxes.deliver(mail)
    run_tick(site)
    [answer] = boxes.new()
    assert str(answer["To"]) == "ann@example.org"
    assert "had a wrong token" in text_of(answer)
    token = site.campaign("bus1").players[0].token
    assert answer["Reply-To"] == f"referee+bus1.{token}@example.org"
    assert log(site) == []


def test_a_stranger_learns_nothing_about_the_game(game):
    site, boxes = game
    boxes.new()
    mail = person_mail(
        "Eve <eve@evil.example>", "referee+bus1@example.org", "[bus1] hello", "action vroom"
    )
    boxes.deliver(mail)
    run_tick(site)
    [answer] = boxes.new()
    assert str(answer["To"]) == "eve@evil.example"
    text = text_of(answer) + str(answer["Subject"])
    assert "could not match your mail to a player" in text
    for secret in ("bus1", "Ann", "Bob", "round", "token "):
        assert secret not in text
    assert log(site) == []


def test_an_unknown_game_and_a_game_id_with_dots(game, tmp_path):
    site, boxes = game
    boxes.new()
    boxes.deliver(
        person_mail("Ann <ann@example.org>", "referee+nope.abc@example.org", "hi", "pass")
    )
    boxes.deliver(
        person_mail(
            "Ann <ann@example.org>", "referee@example.org", "[../bus1] hi", "game ../../etc\npass"
        )
    )
    run_tick(site)
    answers = boxes.new()
    assert len(answers) == 2
    assert "There is no game nope on this referee" in text_of(answers[0])
    assert "There is no game that you named" in text_of(answers[1])
    assert not (tmp_path.parent / "etc").exists() and log(site) == []
    assert sorted(p.name for p in site.data_root.iterdir()) == ["bus1"]


def test_mail_naming_no_game_gets_help(game):
    site, boxes = game
    boxes.new()
    boxes.deliver(person_mail("Zed <zed@example.org>", "referee@example.org", "?", "help"))
    run_tick(site)
    [answer] = boxes.new()
    assert "Orders of Bus" in text_of(answer) and "vroom 15 to 21" in text_of(answer)


@pytest.mark.parametrize(
    "headers",
    [
        {"From": "MAILER-DAEMON@example.org", "Content-Type": None},
        {"Auto-Submitted": "auto-replied"},
        {"Precedence": "bulk"},
        {"X-Referee": "referee"},
    ],
)
def test_machine_mail_is_never_answered(game, headers):
    site, boxes = game
    boxes.new()
    sender = headers.pop("From", "Ann <ann@example.org>")
    headers.pop("Content-Type", None)
    mail = person_mail(
        sender,
        "referee+bus1@example.org",
        "Re: [bus1] out of office",
        "I am away until Monday.\nbuild house 15",
        **headers,
    )
    boxes.deliver(mail)
    report = run_tick(site)
    assert report.ignored == 1 and boxes.new() == [] and log(site) == []


def test_a_bounce_report_is_never_answered(game):
    site, boxes = game
    boxes.new()
    bounce = (
        b"From: Mail Delivery System <MAILER-DAEMON@example.org>\r\n"
        b"To: referee@example.org\r\nSubject: Undelivered Mail Returned to Sender\r\n"
        b"Message-ID: <bounce1@example.org>\r\nMIME-Version: 1.0\r\n"
        b"Content-Type: multipart/report; report-type=delivery-status; boundary=XX\r\n"
        b"\r\n--XX\r\nContent-Type: text/plain\r\n\r\nThe mail could not be delivered.\r\n"
        b"--XX\r\nContent-Type: message/delivery-status\r\n\r\nStatus: 5.1.1\r\n--XX--\r\n"
    )
    boxes.deliver(bounce)
    run_tick(site)
    assert boxes.new() == []


def test_a_5_mb_mail_is_read_and_answered(game):
    site, boxes = game
    boxes.new()
    token = site.campaign("bus1").players[0].token
    mail = person_mail(
        "Ann <ann@example.org>",
        f"referee+bus1.{token}@example.org",
        "big",
        "build house 15\n\nmy holiday pictures are attached\n",
    )
    mail.add_attachment(
        b"\0" * (5 * 1024 * 1024),
        maintype="application",
        subtype="octet-stream",
        filename="holiday.bin",
    )
    boxes.deliver(mail)
    run_tick(site)
    assert log(site)[-1]["orders"] == [[0, "build house 15", "mail"]]


def test_html_only_latin1_and_crlf_mail(game):
    site, boxes = game
    boxes.new()
    token = site.campaign("bus1").players[0].token
    raw = (
        "From: =?iso-8859-1?q?Ann_M=FCller?= <ann@example.org>\r\n"
        f"To: referee+bus1.{token}@example.org\r\nSubject: Zug\r\n"
        "Message-ID: <html1@example.org>\r\nMIME-Version: 1.0\r\n"
        "Content-Type: text/html; charset=iso-8859-1\r\n"
        "Content-Transfer-Encoding: quoted-printable\r\n\r\n"
        "<html><body><p>build house 15</p><div>build pub 16</div>"
        "<p>clock stop | clock go</p></body></html>\r\n"
    ).encode("latin-1")
    boxes.deliver(raw)
    run_tick(site)
    record = log(site)[-1]
    assert record["orders"] == [[0, "build house 15", "mail"], [0, "build pub 16", "mail"]]
    assert record["queues"] == {"0": ["clock stop | clock go"]}
    assert record["from"] == "ann@example.org"


def test_status_json_and_replay_match_the_log(game, tmp_path):
    from click.testing import CliRunner

    from referee.cli import main

    site, boxes = game
    boxes.new()
    boxes.deliver(
        reply_to(
            welcome_of(boxes, "ann@example.org"), "ann@example.org", "build house 15\nbuild pub 16"
        )
    )
    run_tick(site)
    config = str(site.config.path)
    result = CliRunner().invoke(main, ["--config", config, "status", "bus1", "--json"])
    status = json.loads(result.output)
    assert status["id"] == "bus1" and status["game"] == "bus" and status["state"] == "running"
    assert status["round"] == 0
    assert status["awaiting"][0]["player"] == "Bob" and status["awaiting"][0]["decision"] == "build"
    assert status["scores"] == {"Ann": 0, "Bob": 0, "Cid": 0}
    result = CliRunner().invoke(main, ["--config", config, "replay", "bus1"])
    assert result.exit_code == 0 and "2 orders replayed" in result.output
    result = CliRunner().invoke(main, ["--config", config, "show", "bus1", "--player", "bob"])
    assert "YOUR DECISION: First buildings" in result.output


def test_identity_plus_addresses():
    me = Identity("referee@example.org")
    assert me.plus("bus1", "abc") == "referee+bus1.abc@example.org"
    assert me.plus("bus1") == "referee+bus1@example.org"


def test_a_mail_is_read_up_to_a_hundred_lines(game):
    site, boxes = game
    boxes.new()
    welcome = welcome_of(boxes, "ann@example.org")
    lines = ["build house 15", "build pub 16"] + [f"remark {i}" for i in range(300)]
    boxes.deliver(reply_to(welcome, "ann@example.org", "\n".join(lines)))
    run_tick(site)
    record = log(site)[-1]
    assert record["orders"] == [[0, "build house 15", "mail"], [0, "build pub 16", "mail"]]
    assert len(record["ignored"]) == 99
    assert record["ignored"][-1] == "... and 202 more lines: a mail is read up to 100 lines"
