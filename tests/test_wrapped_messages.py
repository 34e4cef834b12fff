"""A `message` goes on over the lines its writer's mail program wrapped it onto, at whatever
width, with format=flowed or without, until a blank line or a line that reads as an order or
a command: no order or command written after a message is lost in it, and no message is cut
short (issue 23, item 3)."""

import textwrap

import pytest
from sites import PLAYERS, Mailboxes, logged, make_site

from referee.service.tick import tick

# ticks at every wrapping width: left out of --fast
pytestmark = pytest.mark.slow

TEXT = (
    "Good luck everyone, may the best network of bus lines win this time round; I will be "
    "away on Friday evening so expect my orders on Saturday morning, and do tell me if the "
    "deadlines are too short for any of you"
)
WIDTHS = (40, 60, 72, 78)


def wrapped(text: str, width: int, flowed: bool) -> str:
    """As a mail program sends a paragraph: hard line breaks, or format=flowed's soft ones (a
    space before the break, RFC 3676)."""
    if not flowed:
        return "\n".join(textwrap.wrap(text, width))
    lines = textwrap.wrap(text, width - 1)
    return "\n".join([line + " " for line in lines[:-1]] + lines[-1:])


@pytest.fixture
def game(tmp_path):
    site = make_site(tmp_path)
    site.new_campaign("bus", "bus1", PLAYERS, seed=1, gm="Gil <gil@example.org>")
    assert not tick(site).errors
    return site, Mailboxes(site)


def send(site, boxes, token: str, sender: str, body: str, flowed: bool) -> dict:
    kind = 'text/plain; charset="utf-8"' + ("; format=flowed; delsp=no" if flowed else "")
    boxes.deliver(
        (
            f"From: {sender}\n"
            f"To: Referee <referee+bus1.{token}@example.org>\n"
            "Subject: Re: [bus1] Setup: your turn - first buildings\n"
            "Date: Mon, 23 Nov 2026 10:05:00 +0100\n"
            f"Message-ID: <{abs(hash((body, flowed)))}@mail.example.org>\n"
            "MIME-Version: 1.0\n"
            f"Content-Type: {kind}\n"
            "Content-Transfer-Encoding: 8bit\n\n" + body + "\n\nOn Monday, Referee wrote:\n> YOUR"
        ).encode()
    )
    assert not tick(site).errors
    return logged(site.campaign("bus1"))[-1]


def actions(record: dict, kind: str) -> list[dict]:
    return [a for a in record.get("actions", ()) if a.get("action") == kind]


@pytest.mark.parametrize("flowed", [False, True], ids=["fixed", "flowed"])
@pytest.mark.parametrize("width", WIDTHS)
def test_a_wrapped_message_is_whole_and_the_order_after_it_is_played(game, width, flowed):
    site, boxes = game
    body = wrapped("message all " + TEXT, width, flowed) + "\nbuild house 15"
    assert max(len(line) for line in body.splitlines()) <= width
    record = send(site, boxes, site.campaign("bus1").players[0].token, PLAYERS[0], body, flowed)
    assert [a["text"] for a in actions(record, "message")] == [TEXT]
    assert record["orders"] == [[0, "build house 15", "mail"]]
    assert not record.get("bad_lines") and not record.get("ignored")


@pytest.mark.parametrize("flowed", [False, True], ids=["fixed", "flowed"])
@pytest.mark.parametrize("width", WIDTHS)
def test_a_message_ends_at_a_blank_line_and_at_a_command(game, width, flowed):
    site, boxes = game
    gm = site.campaign("bus1").gm
    body = (
        wrapped("message all " + TEXT, width, flowed)
        + "\nstatus\n"
        + wrapped("message Ann " + TEXT, width, flowed)
        + "\n\nWhat a fine game this is going to be."
    )
    record = send(site, boxes, gm.token, "Gil <gil@example.org>", body, flowed)
    assert [a["text"] for a in actions(record, "message")] == [TEXT, TEXT]
    assert len(actions(record, "status")) == 1
    assert record["ignored"] == ["What a fine game this is going to be"]


@pytest.mark.parametrize("width", WIDTHS)
def test_the_orders_after_a_message_are_played_in_turn(game, width):
    """A message between orders: the orders before and after it are kept in their order,
    and a malformed order after it is told, not sent as chat."""
    site, boxes = game
    ann = site.campaign("bus1").players[0].token
    body = "build house 15\n" + wrapped("message all " + TEXT, width, False) + "\nbuild pub 16"
    record = send(site, boxes, ann, PLAYERS[0], body, False)
    assert [a["text"] for a in actions(record, "message")] == [TEXT]
    assert record["orders"] == [[0, "build house 15", "mail"], [0, "build pub 16", "mail"]]
    body = wrapped("message all " + TEXT, width, False) + "\nbuild hose 21"
    record = send(site, boxes, site.campaign("bus1").players[1].token, PLAYERS[1], body, False)
    assert [a["text"] for a in actions(record, "message")] == [TEXT]
    assert [line for line, _ in record["bad_lines"]] == ["build hose 21"]
