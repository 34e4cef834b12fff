"""A bounce that comes back after the mail server took a mail (a delivery status report,
RFC 3464, or a server's own format): a player's address that failed for good is told to the
game master once, as a mail the outbox gave up is; a report that quotes no mail the referee
sent to that address (a forgery) gives up nothing."""

from __future__ import annotations

from email.message import EmailMessage

from sites import PLAYERS, Mailboxes, make_site, run_tick, text_of

GM = "gil@example.org"


def game(tmp_path):
    site = make_site(tmp_path)
    site.new_campaign("bus", "bus1", PLAYERS, seed=1, gm=f"Gil <{GM}>")
    run_tick(site)
    boxes = Mailboxes(site)
    welcomes = {a: boxes.new(a) for a in ("ann@example.org", "bob@example.org")}
    boxes.new()
    return site, boxes, welcomes


def report(failed: str, quoted: EmailMessage, n: int = 1) -> bytes:
    """A delivery status report (RFC 3464) from the server of ``failed``, quoting the headers
    of the mail it could not deliver."""
    headers = "".join(f"{k}: {v}\n" for k, v in quoted.items())
    return f"""\
From: Mail Delivery System <MAILER-DAEMON@mx.example.org>
To: referee@example.org
Subject: Undelivered Mail Returned to Sender
Message-ID: <report{n}@mx.example.org>
Auto-Submitted: auto-replied
MIME-Version: 1.0
Content-Type: multipart/report; report-type=delivery-status; boundary="B"

--B
Content-Type: text/plain

I'm sorry to have to inform you that your message could not be delivered.

--B
Content-Type: message/delivery-status

Reporting-MTA: dns; mx.example.org

Final-Recipient: rfc822; {failed}
Action: failed
Status: 5.1.1
Diagnostic-Code: smtp; 550 5.1.1 no such mailbox

--B
Content-Type: text/rfc822-headers

{headers}
--B--
""".replace("\n", "\r\n").encode()


def exim_bounce(failed: str, quoted: EmailMessage) -> EmailMessage:
    """A bounce as Exim writes it: plain text, the mail copied below its words."""
    msg = EmailMessage()
    msg["From"] = "Mail Delivery System <Mailer-Daemon@mx.example.org>"
    msg["To"] = "referee@example.org"
    msg["Subject"] = "Mail delivery failed: returning message to sender"
    msg["Message-ID"] = "<exim1@mx.example.org>"
    copy = "".join(f"{k}: {v}\n" for k, v in quoted.items())
    msg.set_content(
        "This message was created automatically by mail delivery software.\n\n"
        "A message that you sent could not be delivered to one or more of its\n"
        "recipients. This is a permanent error. The following address(es) failed:\n\n"
        f"  {failed}\n    SMTP error from remote mail server after RCPT TO:<{failed}>:\n"
        "    550 5.1.1 User unknown\n\n"
        "------ This is a copy of the message, including all the headers. ------\n\n"
        f"{copy}\n(the text)\n"
    )
    return msg


def returned(site, boxes, *bounces) -> list[str]:
    """The notices of undelivered mail the game master gets after ``bounces`` came back."""
    for bounce in bounces:
        boxes.deliver(bounce)
    run_tick(site)
    return [  # flattened: the notice's lines are fitted to the mail's width
        " ".join(text_of(m).split())
        for m in boxes.new(GM)
        if "could not be delivered" in str(m["Subject"])
    ]


def test_a_delivery_report_after_the_server_took_the_mail_tells_the_game_master_once(tmp_path):
    site, boxes, welcomes = game(tmp_path)
    [ann_welcome] = welcomes["ann@example.org"]
    [notice] = returned(site, boxes, report("ann@example.org", ann_welcome))
    assert "ann@example.org" in notice and str(ann_welcome["Subject"]) in notice
    assert "reported undelivered for good" in notice
    # another report of the same dead address (of the same mail, or another): no more
    assert returned(site, boxes, report("ann@example.org", ann_welcome, n=2)) == []


def test_a_bounce_in_a_servers_own_words_is_read_too(tmp_path):
    site, boxes, welcomes = game(tmp_path)
    [bob_welcome] = welcomes["bob@example.org"]
    [notice] = returned(site, boxes, exim_bounce("bob@example.org", bob_welcome))
    assert "bob@example.org" in notice


def test_a_forged_report_gives_up_no_address(tmp_path):
    """A report must quote a mail the referee sent to the very address it says failed: one
    naming Bob over Ann's mail, or quoting a mail never sent, is a machine's mail, no more."""
    site, boxes, welcomes = game(tmp_path)
    [ann_welcome] = welcomes["ann@example.org"]
    invented = EmailMessage()
    invented["Message-ID"] = "<invented@example.org>"
    invented["To"] = "cid@example.org"
    forged = [report("bob@example.org", ann_welcome), report("cid@example.org", invented, n=2)]
    assert returned(site, boxes, *forged) == []
    assert not list(site.outbox.failed_dir.glob("*.eml"))
    # and the bounce of Bob's own mail, which a real report quotes, is still told
    [bob_welcome] = welcomes["bob@example.org"]
    [notice] = returned(site, boxes, report("bob@example.org", bob_welcome, n=3))
    assert "bob@example.org" in notice
