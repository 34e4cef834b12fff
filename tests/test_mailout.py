"""Composing the referee's mail, queueing it on disk, and sending it to a local Maildir or
through real SMTP servers (the rig's, and ones with STARTTLS, TLS and a login)."""

import json
import os
import socket
import subprocess
import sys
from email import policy
from email.parser import BytesParser

import pytest
from aiosmtpd.controller import Controller
from aiosmtpd.smtp import AuthResult, LoginPassword
from mailrig.rig import MaildirDelivery, free_port
from sites import text_of

from referee.mail.compose import Attachment, compose
from referee.mail.outbox import MaildirSender, Outbox, SendError, SmtpSender
from referee.mail.read import read_mail

REFEREE = "referee@example.test"
PNG = b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 4


def parse(raw: bytes):
    return BytesParser(policy=policy.default).parsebytes(raw)


def report(to, subject="[bus1] Round 3", **extra):
    return compose(
        from_address=REFEREE,
        from_name="Bus Referee",
        to=to,
        subject=subject,
        text="Round 3: your decision.\nbuild 3-4\n",
        **extra,
    )


def test_a_plain_mail_has_every_header_the_referee_relies_on():
    msg = compose(
        from_address=REFEREE,
        from_name="Bus Referee",
        to=[("Zoë", "zoe@example.test")],
        cc=["gm@example.test"],
        reply_to="referee+bus1.k3j4@example.test",
        subject="[bus1] Round 3",
        text="Round 3\n",
        in_reply_to="<m1@example.test>",
        references=["<m0@example.test>"],
        marker="bus1",
    )
    raw = msg.as_bytes()
    again = parse(raw)
    assert str(again["From"]) == "Bus Referee <referee@example.test>"
    assert again["To"].addresses[0].display_name == "Zoë"
    assert str(again["Cc"]) == "gm@example.test"
    assert str(again["Reply-To"]) == "referee+bus1.k3j4@example.test"
    assert again["Message-ID"].endswith("@example.test>")
    assert again["Date"].datetime is not None
    assert str(again["In-Reply-To"]) == "<m1@example.test>"
    assert str(again["References"]) == "<m0@example.test> <m1@example.test>"
    assert str(again["Auto-Submitted"]) == "auto-replied"
    assert str(again["X-Referee"]) == "bus1"
    assert again.get_content_type() == "text/plain" and again.get_content() == "Round 3\n"


def test_html_with_an_inline_map_and_a_png_attachment():
    msg = report(
        ["alice@example.test"],
        html='<p>Round 3</p><img src="cid:map3@referee">',
        inline_images={"map3@referee": PNG},
        attachments=[Attachment("round3.png", PNG)],
    )
    again = parse(msg.as_bytes())
    structure = [part.get_content_type() for part in again.walk()]
    assert structure == [
        "multipart/mixed",
        "multipart/alternative",
        "text/plain",
        "multipart/related",
        "text/html",
        "image/png",
        "image/png",
    ]
    inline = [p for p in again.walk() if p["Content-ID"] == "<map3@referee>"]
    assert inline[0].get_content() == PNG
    attachment = next(again.iter_attachments())
    assert (attachment.get_filename(), attachment.get_content()) == ("round3.png", PNG)
    # the plain text comes first and is what the referee itself would read back
    assert (
        read_mail(msg.as_bytes(), "someone@example.test").text
        == "Round 3: your decision.\nbuild 3-4"
    )


def test_non_ascii_text_travels_as_quoted_printable():
    msg = compose(
        from_address=REFEREE,
        from_name="Referee",
        to=["a@example.test"],
        subject="Zoë’s turn",
        text="Zoë builds 3–4\n" + "=" * 100 + "\n",
    )
    raw = msg.as_bytes()
    assert raw.isascii()  # safe on any relay
    assert parse(raw).get_content() == "Zoë builds 3–4\n" + "=" * 100 + "\n"


def test_maildir_sender_delivers_the_queue_in_order(tmp_path):
    outbox = Outbox(tmp_path / "queue")
    names = [
        outbox.queue(report(["alice@example.test"], subject=f"[bus1] Round {n}")) for n in range(3)
    ]
    assert outbox.pending() == names == sorted(names)
    result = outbox.flush(MaildirSender(tmp_path / "outbox"))
    assert (result.sent, result.waiting, result.failed, result.error) == (names, [], [], None)
    assert outbox.pending() == []
    delivered = sorted((tmp_path / "outbox" / "new").iterdir())
    assert [str(parse(p.read_bytes())["Subject"]) for p in delivered] == [
        f"[bus1] Round {n}" for n in range(3)
    ]
    assert [p.read_bytes() for p in delivered] == [
        (tmp_path / "queue" / "sent" / n).read_bytes() for n in names
    ]
    assert not list((tmp_path / "outbox" / "tmp").iterdir())


def test_a_maildir_outbox_where_a_file_lies_holds_the_queue_as_a_server_down_would(tmp_path):
    """It was a NotADirectoryError out of the flush: the tick that had queued the mail
    could not run, at every minute."""
    outbox = Outbox(tmp_path / "queue")
    names = [outbox.queue(report(["alice@example.test"], subject=f"[bus1] R{n}")) for n in (1, 2)]
    (tmp_path / "outbox").write_text("a file where the outbox Maildir belongs")
    held = outbox.flush(MaildirSender(tmp_path / "outbox"))
    assert held.sent == [] and [name for name, _ in held.waiting] == names
    assert held.error.startswith(f"cannot write to the outbox Maildir {tmp_path / 'outbox'}:")
    assert "Not a directory" in outbox.error_note(names[0])["error"]
    (tmp_path / "outbox").unlink()  # mended
    assert outbox.flush(MaildirSender(tmp_path / "outbox")).sent == names


def test_queued_mail_is_on_disk_before_anything_is_sent(tmp_path):
    outbox = Outbox(tmp_path / "queue")
    name = outbox.queue(report(["alice@example.test"]))
    assert parse((tmp_path / "queue" / name).read_bytes())["Subject"] == "[bus1] Round 3"
    assert Outbox(tmp_path / "queue").pending() == [name]  # a new process sees it


def closed_port() -> int:
    port = free_port()  # nothing listens there now
    with pytest.raises(OSError):
        socket.create_connection(("127.0.0.1", port), timeout=1).close()
    return port


def test_smtp_down_loses_nothing_and_the_next_flush_sends(mailrig, tmp_path):
    alice = mailrig.new_account("alice")
    outbox = Outbox(tmp_path / "queue")
    names = [outbox.queue(report([alice.address], subject=f"[bus1] Round {n}")) for n in (1, 2)]
    down = outbox.flush(SmtpSender("127.0.0.1", closed_port(), security="none", timeout=5))
    assert down.sent == [] and "cannot reach the SMTP server 127.0.0.1" in down.error
    assert [name for name, _ in down.waiting] == names
    assert outbox.pending() == names
    assert (
        outbox.error_note(names[0])["attempts"] == 1
        and "cannot reach" in outbox.error_note(names[0])["error"]
    )
    assert mailrig.read_mails(alice.address) == []

    up = outbox.flush(SmtpSender("127.0.0.1", mailrig.smtp_port, security="none"))
    assert (up.sent, up.waiting, up.error) == (names, [], None)
    assert outbox.pending() == [] and outbox.error_note(names[0]) is None
    received = [parse(raw) for raw in mailrig.read_mails(alice.address)]
    assert [str(m["Subject"]) for m in received] == ["[bus1] Round 1", "[bus1] Round 2"]
    assert all(str(m["X-Referee"]) == "referee" for m in received)


def test_smtp_sends_lines_that_start_with_from_as_they_are(mailrig, tmp_path):
    """No mbox quoting over SMTP: a line "From ..." reads as "From ...", not ">From" (it
    travels stuffed with a space, as format=flowed has it)."""
    alice = mailrig.new_account("alice")
    outbox = Outbox(tmp_path / "queue")
    text = "From 15 to 21 the line runs.\nFrom: the referee\n"
    outbox.queue(
        compose(from_address=REFEREE, from_name="R", to=[alice.address], subject="s", text=text)
    )
    sent = outbox.flush(SmtpSender("127.0.0.1", mailrig.smtp_port, security="none"))
    assert sent.error is None
    [raw] = mailrig.read_mails(alice.address)
    assert b">From" not in raw  # stuffed with a space (format=flowed), not mangled
    assert text_of(parse(raw)).splitlines()[:2] == [
        "From 15 to 21 the line runs.",
        "From: the referee",
    ]


def test_delivery_over_smtp_is_at_least_once_with_stable_message_ids(mailrig, tmp_path):
    """Killed after the server took a mail and before it moved to sent/, a flush loses
    nothing; the next one sends that mail again, with the same Message-ID."""
    alice = mailrig.new_account("alice")
    queue = tmp_path / "queue"
    outbox = Outbox(queue)
    for n in (1, 2):
        outbox.queue(report([alice.address], subject=f"[bus1] Round {n}"))
    script = (
        "import sys; from referee.mail.outbox import Outbox, SmtpSender; "
        "Outbox(sys.argv[1]).flush(SmtpSender('127.0.0.1', int(sys.argv[2]), security='none'))"
    )
    killed = subprocess.run(
        [sys.executable, "-c", script, str(queue), str(mailrig.smtp_port)],
        env={**os.environ, "PYTHONPATH": os.getcwd(), "REFEREE_CRASH_AT": "delivered"},
        timeout=60,
    )
    assert killed.returncode == 137
    assert len(outbox.pending()) == 2  # the first was sent, but the queue does not know it
    again = outbox.flush(SmtpSender("127.0.0.1", mailrig.smtp_port, security="none"))
    assert len(again.sent) == 2 and outbox.pending() == []
    received = [parse(raw) for raw in mailrig.read_mails(alice.address)]
    subjects = [str(m["Subject"]) for m in received]
    assert subjects == ["[bus1] Round 1", "[bus1] Round 1", "[bus1] Round 2"]
    assert received[0]["Message-ID"] == received[1]["Message-ID"]  # one mail, twice


def test_a_permanent_refusal_goes_to_failed_and_does_not_block_the_queue(mailrig, tmp_path):
    bob = mailrig.new_account("bob")
    outbox = Outbox(tmp_path / "queue")
    refused = outbox.queue(report(["refuse-me@example.test", "nobody@elsewhere.test"]))
    greylisted = outbox.queue(report(["tempfail@example.test"]))
    fine = outbox.queue(report([bob.address]))
    partly = outbox.queue(report([bob.address, "refuse-too@example.test"], subject="partly"))
    result = outbox.flush(SmtpSender("127.0.0.1", mailrig.smtp_port, security="none"))
    assert result.sent == [fine, partly]
    assert [name for name, _ in result.failed] == [refused]
    assert "550 5.1.1 <refuse-me@example.test>: no such user" in result.failed[0][1]
    assert "no such domain" in (tmp_path / "queue" / "failed" / f"{refused}.reason").read_text()
    assert [name for name, _ in result.waiting] == [greylisted] and "451" in result.waiting[0][1]
    # a temporary refusal is retried by the next flush; the recipient a server refused of a
    # mail it took for others is queued again alone (its refusal then goes to failed/)
    [again] = [name for name in outbox.pending() if name != greylisted]
    assert greylisted in outbox.pending()
    assert outbox.outgoing(again).recipients == ("refuse-too@example.test",)
    assert list(result.refused[partly]) == ["refuse-too@example.test"]
    assert "refuse-too@example.test" in json.loads(
        (tmp_path / "queue" / "sent" / f"{partly}.refused").read_text()
    )
    assert [str(parse(m)["Subject"]) for m in mailrig.read_mails(bob.address)] == [
        "[bus1] Round 3",
        "partly",
    ]


def authenticator(server, session, envelope, mechanism, auth_data):
    good = isinstance(auth_data, LoginPassword) and (auth_data.login, auth_data.password) == (
        b"ref",
        b"s3cret",
    )
    return AuthResult(success=good, handled=False)  # handled=False: aiosmtpd answers 535


@pytest.fixture
def submission_server(mailrig):
    """An SMTP submission server as providers run them: STARTTLS required, then a login."""
    server = Controller(
        MaildirDelivery(mailrig),
        hostname="127.0.0.1",
        port=free_port(),
        tls_context=mailrig.server_ssl_context(),
        require_starttls=True,
        authenticator=authenticator,
        auth_required=True,
    )
    server.start()
    yield server
    server.stop()


def test_starttls_with_a_login(mailrig, submission_server, tmp_path):
    carol = mailrig.new_account("carol")
    outbox = Outbox(tmp_path / "queue")
    name = outbox.queue(report([carol.address]))
    sender = SmtpSender(
        "127.0.0.1",
        submission_server.port,
        security="starttls",
        username="ref",
        password="s3cret",
        ssl_context=mailrig.client_ssl_context(),
    )
    assert outbox.flush(sender).sent == [name]
    assert b"Round 3: your decision." in mailrig.read_mails(carol.address)[0]


def test_a_refused_login_keeps_the_mail_queued_and_says_what_to_check(
    mailrig, submission_server, tmp_path
):
    outbox = Outbox(tmp_path / "queue")
    name = outbox.queue(report(["dave@example.test"]))
    result = outbox.flush(
        SmtpSender(
            "127.0.0.1",
            submission_server.port,
            username="ref",
            password="wrong",
            ssl_context=mailrig.client_ssl_context(),
        )
    )
    assert "refused the login of 'ref'" in result.error and "password" in result.error
    assert outbox.pending() == [name]


def test_a_certificate_that_is_not_trusted_is_refused(mailrig, submission_server, tmp_path):
    with pytest.raises(SendError) as err:
        with SmtpSender("127.0.0.1", submission_server.port, username="ref", password="s3cret"):
            pass
    assert err.value.stop and "CERTIFICATE_VERIFY_FAILED" in err.value.reason


def test_tls_from_the_start(mailrig, tmp_path):
    erin = mailrig.new_account("erin")
    server = Controller(
        MaildirDelivery(mailrig),
        hostname="127.0.0.1",
        port=free_port(),
        ssl_context=mailrig.server_ssl_context(),
    )
    server.start()
    try:
        outbox = Outbox(tmp_path / "queue")
        name = outbox.queue(report([erin.address]))
        result = outbox.flush(
            SmtpSender(
                "127.0.0.1", server.port, security="tls", ssl_context=mailrig.client_ssl_context()
            )
        )
    finally:
        server.stop()
    assert result.sent == [name]
    assert len(mailrig.read_mails(erin.address)) == 1
