"""Each outgoing mail is composed once: the bytes archived, queued and sent are the same,
and neither the site nor the outbox serialises a mail twice or parses its own mail back."""

from email import message

from sites import PLAYERS, Mailboxes, make_site, reply_to, run_tick

from referee.mail import outbox as outbox_module
from referee.mail.outbox import MaildirSender, Outbox, OutMail


def test_a_tick_serialises_each_mail_once_and_sends_the_bytes_it_archived(tmp_path, monkeypatch):
    site = make_site(tmp_path)
    site.new_campaign("bus", "one", PLAYERS, seed=1)
    run_tick(site)
    boxes = Mailboxes(site)
    welcome = boxes.new("ann@example.org")[0]
    boxes.deliver(reply_to(welcome, "ann@example.org", "build house 15"))
    serialised = []
    as_bytes = message.EmailMessage.as_bytes

    def counting(msg, *args, **kwargs):
        serialised.append(str(msg["Message-ID"]))
        return as_bytes(msg, *args, **kwargs)

    def no_parsing(*args, **kwargs):
        raise AssertionError("the outbox parsed its own mail")

    monkeypatch.setattr(message.EmailMessage, "as_bytes", counting)
    monkeypatch.setattr(outbox_module, "BytesParser", no_parsing)
    monkeypatch.setattr(outbox_module, "BytesHeaderParser", no_parsing)
    run_tick(site)
    monkeypatch.undo()
    assert serialised and len(serialised) == len(set(serialised))  # each mail once
    archived = {p.read_bytes() for p in (site.data_root / "one" / "mail" / "out").glob("*.eml")}
    sent = [p.read_bytes() for p in sorted((site.root / "mail" / "outbox" / "new").iterdir())]
    new = [raw for raw in sent if any(mid.encode() in raw for mid in serialised)]
    assert len(new) == len(serialised) and set(new) <= archived
    sent_dir = site.root / "mail" / "queue" / "sent"
    for path in (site.data_root / "one" / "mail" / "out").glob("*.eml"):
        # the archive's mail and the queue's are one file: its bytes are kept once
        assert any(path.samefile(kept) for kept in sent_dir.glob(f"*-{path.name}"))


def test_mail_queued_by_an_older_referee_is_sent_from_its_headers(tmp_path):
    outbox = Outbox(tmp_path / "queue")
    raw = (
        b"From: Referee <referee@example.test>\r\nTo: Ann <ann@example.test>\r\n"
        b"Cc: bob@example.test\r\nSubject: old\r\nMessage-ID: <old@example.test>\r\n\r\nhi\r\n"
    )
    (tmp_path / "queue" / "20260101T000000000000-oldname.eml").write_bytes(raw)
    mail = outbox.outgoing("20260101T000000000000-oldname.eml")
    assert mail == OutMail(
        raw,
        "referee@example.test",
        ("ann@example.test", "bob@example.test"),
        "<old@example.test>",
        "old",
    )
    assert outbox.flush(MaildirSender(tmp_path / "out")).sent == [
        "20260101T000000000000-oldname.eml"
    ]
    assert [p.read_bytes() for p in (tmp_path / "out" / "new").iterdir()] == [raw]
