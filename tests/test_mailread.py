"""Reading mail the way people (and machines) write it.

Each sample is the raw mail a real mail program sends; the test reads it directly and, once
more, after a trip through the real SMTP and IMAP servers (which change line ends and add
trace headers), and checks what the referee understood."""

import base64
import quopri
import textwrap
from dataclasses import dataclass, field
from datetime import UTC, datetime

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.mail.compose import Attachment, compose
from referee.mail.imap import ImapInbox
from referee.mail.read import MAX_TEXT_BYTES, command_lines, read_mail

REFEREE = "referee@example.test"
REPORT = """Round 3 of bus1. It is your decision: actions.
Choose one line, for example:
build 3-4
expand 12
-- 
referee"""


def quoted(text: str) -> str:
    return "\n".join("> " + line if line else ">" for line in text.split("\n"))


def mail(
    body: bytes | str,
    headers: str = "",
    *,
    sender="Alice Example <alice@example.test>",
    to=f"Referee <{REFEREE}>",
    subject="Re: [bus1] Round 3",
    message_id="<m1@example.test>",
    content_type='text/plain; charset="utf-8"',
    cte="8bit",
) -> bytes:
    head = f"From: {sender}\nTo: {to}\nSubject: {subject}\nDate: Mon, 03 Jun 2024 10:00:00 +0200\n"
    if message_id:
        head += f"Message-ID: {message_id}\n"
    head += f"MIME-Version: 1.0\nContent-Type: {content_type}\nContent-Transfer-Encoding: {cte}\n"
    head += textwrap.dedent(headers)
    return head.encode() + b"\n" + (body.encode() if isinstance(body, str) else body)


@dataclass
class Sample:
    raw: bytes
    text: str
    expect: dict = field(default_factory=dict)


GMAIL_HTML = f"""<div dir="ltr">build 3-4&nbsp;<br>expand&nbsp;12<br><div>token k3j4</div>
<ul><li>pass</li></ul></div><br><div class="gmail_quote"><div dir="ltr" class="gmail_attr">
On Mon, Jun 3, 2024 at 9:00 AM Referee &lt;{REFEREE}&gt; wrote:<br></div>
<blockquote class="gmail_quote" style="margin:0px 0px 0px 0.8ex">{REPORT.replace(chr(10), "<br>")}
</blockquote></div>"""

OUTLOOK_HTML = """<html><head><style>p {margin:0}</style><script>var x = "build 9-9";</script></head>
<body><p>build 5-6</p><p>&nbsp;</p><div id="appendonsend"></div><hr style="display:inline-block">
<div id="divRplyFwdMsg"><font face="Calibri"><b>From:</b> Referee &lt;referee@example.test&gt;<br>
<b>Sent:</b> Monday, June 3, 2024 9:00 AM<br><b>To:</b> Alice<br><b>Subject:</b> [bus1] Round 3</font>
<div>Round 3 of bus1.<br>build 3-4</div></div></body></html>"""

SAMPLES = {
    "top-posted reply quoting the whole report": Sample(
        mail(
            f"build 3-4\nexpand 12\n\nOn Mon, Jun 3, 2024 at 9:00 AM Referee <{REFEREE}> wrote:\n{quoted(REPORT)}\n"
        ),
        "build 3-4\nexpand 12",
        dict(
            sender_address="alice@example.test",
            sender_name="Alice Example",
            subject_tag="bus1",
            message_id="<m1@example.test>",
            automatic=None,
            date=datetime(2024, 6, 3, 8, 0, tzinfo=UTC),
        ),
    ),
    "attribution wrapped over two lines": Sample(
        mail(
            f"build 3-4\n\nOn Mon, Jun 3, 2024 at 9:00 AM Referee <\n{REFEREE}> wrote:\n\n{quoted(REPORT)}\n"
        ),
        "build 3-4",
    ),
    "bottom-posted and inline answers below quotes": Sample(
        mail(
            "On 03/06/2024 09:00, Referee wrote:\n> Your decision: action\n>\nchoose clock | vroom\n"
            "> Then: where to build?\nbuild 3-4\n\n-- \nAlice\nphone 0123\n"
        ),
        "choose clock | vroom\nbuild 3-4",
    ),
    "several commands, a token line and a signature": Sample(
        mail(
            "game bus1\ntoken k3j4\n  build 3-4  \n\npass\n\n-- \nBob Builder\nbuild 7-8\n",
            sender="bob@example.test",
        ),
        "game bus1\ntoken k3j4\n  build 3-4\n\npass",
        dict(sender_address="bob@example.test", sender_name=""),
    ),
    "signature dash-dash without its trailing space": Sample(mail("pass\n--\nBob\n"), "pass"),
    "Outlook Original Message block": Sample(
        mail(
            f"build 5-6\n\n-----Original Message-----\nFrom: Referee <{REFEREE}>\nSent: Monday\n\n{REPORT}\n"
        ),
        "build 5-6",
    ),
    "Outlook header block after underscores": Sample(
        mail(
            f"build 5-6\n\n________________________________\nFrom: Referee <{REFEREE}>\n"
            f"Sent: Monday, June 3, 2024 9:00 AM\nTo: Alice\nSubject: [bus1] Round 3\n\n{REPORT}\n"
        ),
        "build 5-6",
    ),
    "Outlook header block alone": Sample(
        mail(
            f"build 5-6\r\n\r\nFrom: Referee <{REFEREE}>\r\nSent: Monday, June 3, 2024 9:00 AM\r\n"
            f"To: Alice\r\n\r\n{REPORT}\r\n".replace("\n", "\r\n").replace("\r\r", "\r")
        ),
        "build 5-6",
    ),
    "German Outlook header block": Sample(
        mail(
            f"bauen\n\nVon: Referee <{REFEREE}>\nGesendet: Montag, 3. Juni 2024 09:00\nAn: Alice\n\n{REPORT}\n"
        ),
        "bauen",
    ),
    "French attribution": Sample(
        mail(
            f"build 3-4\n\nLe lun. 3 juin 2024 à 09:00, Referee <{REFEREE}> a écrit :\n\n{quoted(REPORT)}\n"
        ),
        "build 3-4",
    ),
    "German attribution": Sample(
        mail(
            f"build 3-4\n\nAm 03.06.2024 um 09:00 schrieb Referee <{REFEREE}>:\n{quoted(REPORT)}\n"
        ),
        "build 3-4",
    ),
    "attribution over an unmarked quote": Sample(
        mail(f"build 3-4\n\nOn Mon, Jun 3, 2024, Referee wrote:\n\n{REPORT}\n"), "build 3-4"
    ),
    "Sent from my iPhone": Sample(
        mail(
            f"build 3-4\n\nSent from my iPhone\n\n> On 3 Jun 2024, at 09:00, Referee wrote:\n{quoted(REPORT)}\n"
        ),
        "build 3-4",
    ),
    "Von meinem iPhone gesendet": Sample(
        mail("build 3-4\n\nVon meinem iPhone gesendet\n"), "build 3-4"
    ),
    "Get Outlook for Android": Sample(
        mail("pass\n\nGet Outlook for Android<https://aka.ms/AAb9ysg>\n"), "pass"
    ),
    "HTML only (Gmail), base64": Sample(
        mail(
            base64.encodebytes(GMAIL_HTML.encode()),
            content_type='text/html; charset="UTF-8"',
            cte="base64",
        ),
        "build 3-4\nexpand 12\ntoken k3j4\npass",
    ),
    "HTML only (Outlook)": Sample(
        mail(OUTLOOK_HTML, content_type="text/html; charset=us-ascii", cte="7bit"), "build 5-6"
    ),
    "plain text preferred over its HTML alternative": Sample(
        mail(
            "--b\nContent-Type: text/plain; charset=utf-8\n\nbuild 1-2\n"
            "--b\nContent-Type: text/html; charset=utf-8\n\n<p>build 9-9</p>\n--b--\n",
            content_type='multipart/alternative; boundary="b"',
        ),
        "build 1-2",
    ),
    "multipart with attachments": Sample(
        mail(
            "--m\nContent-Type: multipart/alternative; boundary=a\n\n"
            "--a\nContent-Type: text/plain; charset=utf-8\n\nbuild 1-2\n"
            "--a\nContent-Type: text/html; charset=utf-8\n\n<p>build 1-2</p>\n--a--\n"
            "--m\nContent-Type: text/plain; name=old-orders.txt\nContent-Disposition: attachment; filename=old-orders.txt\n\nbuild 9-9\n"
            "--m\nContent-Type: image/png; name=map.png\nContent-Disposition: attachment; filename=map.png\n"
            "Content-Transfer-Encoding: base64\n\n"
            + base64.encodebytes(b"\x89PNG\r\n\x1a\n" + bytes(300)).decode()
            + "--m--\n",
            content_type='multipart/mixed; boundary="m"',
        ),
        "build 1-2",
    ),
    "latin-1 quoted-printable": Sample(
        mail(
            quopri.encodestring("Grüße von Jürgen\nbuild 3-4\n".encode("latin-1")),
            content_type="text/plain; charset=iso-8859-1",
            cte="quoted-printable",
            sender="=?iso-8859-1?q?J=FCrgen_M=FCller?= <juergen@example.test>",
        ),
        "Grüße von Jürgen\nbuild 3-4",
        dict(sender_name="Jürgen Müller", sender_address="juergen@example.test"),
    ),
    "utf-8 base64 with a subject in encoded words": Sample(
        mail(
            base64.encodebytes("Zoë builds\nbuild 3-4\n".encode()),
            cte="base64",
            subject="=?utf-8?b?UmU6IFtidXMxXSBSb3VuZCAzIOKAkyBab8Orcw==?=",
        ),
        "Zoë builds\nbuild 3-4",
        dict(subject="Re: [bus1] Round 3 – Zoës", subject_tag="bus1"),
    ),
    "windows-1252 text declared as us-ascii": Sample(
        mail(
            "It’s my turn\nbuild 3-4\n".encode("cp1252"),
            content_type="text/plain; charset=us-ascii",
        ),
        "It’s my turn\nbuild 3-4",
    ),
    "an unknown charset": Sample(
        mail("naïve\nbuild 3-4\n".encode(), content_type="text/plain; charset=x-made-up"),
        "naïve\nbuild 3-4",
    ),
    "CRLF line ends throughout": Sample(
        mail("build 3-4\r\npass\r\n\r\n-- \r\nAlice\r\n")
        .replace(b"\n", b"\r\n")
        .replace(b"\r\r", b"\r"),
        "build 3-4\npass",
        dict(message_id="<m1@example.test>"),
    ),
    "the game in a plus-address": Sample(
        mail("pass\n", to="Referee <referee+bus1.k3j4@example.test>", subject="Re: Round 3"),
        "pass",
        dict(plus_tag="bus1.k3j4", subject_tag=None),
    ),
    "a plus-address in Cc with the referee's address in other case": Sample(
        mail(
            "pass\n",
            to="bob@example.test",
            subject="orders",
            headers="Cc: REFEREE+Bus2.X9@Example.TEST\n",
        ),
        "pass",
        dict(plus_tag="bus2.x9", recipients=("bob@example.test", "referee+bus2.x9@example.test")),
    ),
    "another address's plus-tag is not the referee's": Sample(
        mail(
            "pass\n", to="someone+bus1.k3j4@example.test", subject="Re: [External] [bus1] Round 3"
        ),
        "pass",
        dict(plus_tag=None, subject_tags=("external", "bus1")),
    ),
    "Auto-Submitted: no (a person's mail, labelled)": Sample(
        mail("pass\n", headers="Auto-Submitted: no\n"), "pass", dict(automatic=None)
    ),
    "no Message-ID": Sample(mail("join bus1\n", message_id=None), "join bus1"),
}

MACHINE_MAIL = {
    "a bounce": (
        mail(
            "--r\nContent-Type: text/plain\n\nDelivery failed.\n"
            "--r\nContent-Type: message/delivery-status\n\nReporting-MTA: dns; mx.example.test\n\n"
            "Final-Recipient: rfc822; gone@example.org\nAction: failed\nStatus: 5.1.1\n--r--\n",
            headers="Return-Path: <>\n",
            sender="MAILER-DAEMON@example.test (Mail Delivery System)",
            subject="Undelivered Mail Returned to Sender",
            content_type='multipart/report; report-type=delivery-status; boundary="r"',
        ),
        "delivery status report",
    ),
    "a bounce without a report part": (
        mail(
            "I could not deliver your mail.\n",
            sender="Mail Delivery Subsystem <mailer-daemon@example.org>",
            subject="Returned mail",
        ),
        "mailer-daemon@example.org",
    ),
    "a postmaster's mail": (
        mail("hello\n", sender="postmaster@example.org"),
        "postmaster@example.org",
    ),
    "an empty Return-Path": (mail("x\n", headers="Return-Path: <>\n"), "empty Return-Path"),
    "a vacation auto-reply": (
        mail(
            "I am away until Monday.\n",
            headers="Auto-Submitted: auto-replied (vacation)\n",
            subject="Out of Office: Re: [bus1] Round 3",
        ),
        "Auto-Submitted: auto-replied",
    ),
    "an auto-reply with Precedence: bulk": (
        mail("away\n", headers="Precedence: bulk\n"),
        "Precedence: bulk",
    ),
    "an auto-reply with X-Autoreply": (mail("away\n", headers="X-Autoreply: yes\n"), "X-Autoreply"),
    "an Exchange auto-reply known by its subject": (
        mail("away\n", subject="Automatic reply: [bus1] Round 3"),
        "by its subject",
    ),
    "a mailing-list copy": (
        mail("build 3-4\n", headers="List-Id: <bus.lists.example.org>\n"),
        "List-Id",
    ),
    "a read receipt": (
        mail(
            "--r\nContent-Type: text/plain\n\nRead.\n--r--\n",
            content_type='multipart/report; report-type=disposition-notification; boundary="r"',
        ),
        "read receipt",
    ),
    "mail sent from the referee's own address": (mail("x\n", sender=REFEREE), "own address"),
}


def own_mail() -> bytes:
    """The referee's turn report, as it would come back (an alias that loops, a forward)."""
    return compose(
        from_address=REFEREE,
        from_name="Referee",
        to=["alice@example.test"],
        subject="[bus1] Round 3",
        text=REPORT,
        reply_to="referee+bus1.k3j4@example.test",
    ).as_bytes()


def check(incoming, sample: Sample, transported: bool = False) -> None:
    assert incoming.text == sample.text
    for name, value in sample.expect.items():
        found = getattr(incoming, name)
        if transported and name == "recipients":  # delivery adds Delivered-To and X-Original-To
            found = found[: len(value)]
        assert found == value, name


@pytest.mark.parametrize("name", SAMPLES)
def test_reading_what_people_write(name):
    check(read_mail(SAMPLES[name].raw, REFEREE), SAMPLES[name])


@pytest.mark.parametrize("name", MACHINE_MAIL)
def test_machine_mail_is_never_answered(name):
    raw, reason = MACHINE_MAIL[name]
    assert reason in (read_mail(raw, REFEREE).automatic or "")


def test_people_mail_is_answered():
    assert all(read_mail(s.raw, REFEREE).automatic is None for s in SAMPLES.values())


def test_the_referees_own_mail_looping_back_is_recognised():
    incoming = read_mail(own_mail(), "referee@example.test")
    assert incoming.automatic == "the referee's own mail (X-Referee header)"
    # even when it was forwarded from another address
    forwarded = own_mail().replace(
        b"From: Referee <referee@example.test>", b"From: alice@example.test"
    )
    assert "X-Referee" in read_mail(forwarded, REFEREE).automatic


def test_a_missing_message_id_gets_a_stable_synthetic_one():
    raw = SAMPLES["no Message-ID"].raw
    first, again = read_mail(raw, REFEREE), read_mail(raw, REFEREE)
    assert first.message_id == again.message_id
    assert first.message_id.startswith("<") and first.message_id.endswith("@synthetic.referee>")
    assert read_mail(raw + b"x\n", REFEREE).message_id != first.message_id


def test_a_5_mb_attachment_is_not_read():
    png = b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * (5 * 4096)
    raw = compose(
        from_address="alice@example.test",
        from_name="Alice",
        to=[REFEREE],
        subject="[bus1] orders",
        text="build 3-4\npass\n",
        attachments=[Attachment("huge.png", png)],
    ).as_bytes()
    assert len(raw) > 5_000_000
    incoming = read_mail(raw, REFEREE)
    assert (incoming.text, incoming.truncated, incoming.subject_tag) == (
        "build 3-4\npass",
        False,
        "bus1",
    )


def test_a_5_mb_text_body_is_capped_and_says_so():
    body = "build 3-4\n" + "blah " * 1_000_000
    incoming = read_mail(mail(body), REFEREE)
    assert incoming.truncated
    assert incoming.text.startswith("build 3-4\nblah blah")
    assert len(incoming.text) <= MAX_TEXT_BYTES


def test_a_5_mb_html_body_is_capped_before_conversion():
    body = "<p>build 3-4</p>" + "<p><b>blah</b> blah</p>\n" * 250_000
    incoming = read_mail(mail(body, content_type="text/html; charset=utf-8"), REFEREE)
    assert incoming.truncated
    assert command_lines(incoming.text)[:2] == ["build 3-4", "blah blah"]
    assert len(incoming.text) <= MAX_TEXT_BYTES


def test_a_multibyte_character_cut_by_the_cap_is_dropped_not_an_error():
    body = (
        "build 3-4\n" + "é" * MAX_TEXT_BYTES
    )  # two bytes each: the cap falls mid-character or not
    incoming = read_mail(mail(body), REFEREE)
    assert incoming.truncated and set(incoming.text.split("\n")[1]) == {"é"}


def test_command_lines_are_the_stripped_nonempty_lines():
    assert command_lines("  build 3-4 \n\n\tpass\r\n \n") == ["build 3-4", "pass"]


def test_mail_without_a_body_or_sender():
    incoming = read_mail(b"Subject: [bus1]\n\n", REFEREE)
    assert (incoming.text, incoming.sender_address, incoming.date, incoming.subject_tag) == (
        "",
        "",
        None,
        "bus1",
    )


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=2000))
def test_any_bytes_give_an_incoming_with_a_stable_id(raw):
    incoming = read_mail(raw, REFEREE)
    assert incoming.message_id and read_mail(raw, REFEREE) == incoming


@settings(max_examples=100, deadline=None)
@given(
    st.lists(
        st.sampled_from(
            [
                "From: a@b",
                "To: referee+x@example.test",
                "Subject: [g] =?utf-8?q?=ZZ?=",
                "Content-Type: multipart/mixed; boundary=z",
                "Content-Type: text/html",
                "Content-Transfer-Encoding: base64",
                "--z",
                "--z--",
                "<p>hi<br>",
                "Date: Mon, 99 Foo 2024",
                "Message-ID:",
                "> quoted",
                "",
                "=C3=A9",
                "b3Jk",
            ]
        ),
        max_size=30,
    )
)
def test_odd_mime_structures_never_crash(lines):
    incoming = read_mail("\n".join(lines).encode(), REFEREE)
    assert isinstance(incoming.text, str) and incoming.message_id


def test_every_sample_reads_the_same_after_real_smtp_and_imap(mailrig, tmp_path):
    """SMTP and IMAP turn line ends into CRLF and add trace headers; nothing may change."""
    account = mailrig.new_account("reader")
    names = list(SAMPLES) + list(MACHINE_MAIL)
    for name in SAMPLES:
        mailrig.send(SAMPLES[name].raw, account.address)
    for name in MACHINE_MAIL:
        raw = MACHINE_MAIL[name][0]
        mailrig.send(
            raw,
            account.address,
            mail_from="" if b"Return-Path: <>" in raw else "tester@example.test",
        )
    with ImapInbox(
        "127.0.0.1",
        mailrig.imap_port,
        account.address,
        account.password,
        security="none",
        state_path=tmp_path / "state.json",
    ) as inbox:
        fetched = inbox.fetch()
    assert len(fetched) == len(names)
    for name, mail_in in zip(names, fetched):  # UID order is the sending order
        incoming = read_mail(mail_in.raw, REFEREE)
        if name in SAMPLES:
            check(incoming, SAMPLES[name], transported=True)
            assert incoming.automatic is None, name
        else:
            assert MACHINE_MAIL[name][1] in (incoming.automatic or ""), name
