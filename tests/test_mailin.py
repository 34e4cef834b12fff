"""Incoming mail from a local Maildir and from the real Dovecot over IMAP: order, nothing
marked seen, processed mail moved in one command, UID tracking, resync after a UIDVALIDITY
change, and a crash between fetch and mark_processed."""

import json
import os

import pytest
from imapclient import IMAPClient
from mailrig.rig import free_port

from referee.mail.imap import ImapInbox
from referee.mail.inbox import InboxError, MaildirInbox, create_maildir
from referee.mail.read import read_mail


def sample(n: int, folder_tag: str = "bus1") -> bytes:
    return (
        f"From: alice@example.test\nTo: referee@example.test\nSubject: [{folder_tag}] orders {n}\n"
        f"Message-ID: <order-{n}@example.test>\n\nbuild {n}-{n + 1}\n"
    ).encode()


def subjects(mails) -> list[str]:
    """The subjects of fetched mails (InMail) or of raw mails (bytes)."""
    return [read_mail(getattr(m, "raw", m), "referee@example.test").subject for m in mails]


# --- Maildir ----------------------------------------------------------------------------


def deliver(maildir, name: str, raw: bytes, mtime: int) -> None:
    path = maildir / "new" / name
    path.write_bytes(raw)
    os.utime(path, (mtime, mtime))


def test_maildir_inbox_fetches_in_delivery_order_and_moves_processed_mail(tmp_path):
    maildir = create_maildir(tmp_path / "inbox")
    deliver(maildir, "1700000002.b.host", sample(2), 1_700_000_002)
    deliver(maildir, "1700000001.a.host", sample(1), 1_700_000_001)
    (maildir / "new" / "1700000003.c.host").write_bytes(sample(3))
    os.replace(
        maildir / "new" / "1700000003.c.host", maildir / "cur" / "1700000003.c.host:2,S"
    )  # read by a person
    inbox = MaildirInbox(maildir)
    mails = inbox.fetch()
    assert [m.key for m in mails] == ["1700000001.a.host", "1700000002.b.host", "1700000003.c.host"]
    assert [m.raw for m in mails] == [sample(1), sample(2), sample(3)]
    assert [m.key for m in inbox.fetch(limit=2)] == ["1700000001.a.host", "1700000002.b.host"]

    inbox.mark_processed(["1700000001.a.host", "1700000003.c.host"])
    assert [m.key for m in inbox.fetch()] == ["1700000002.b.host"]
    processed = sorted(p.name for p in (maildir / ".processed" / "cur").iterdir())
    assert processed == ["1700000001.a.host:2,", "1700000003.c.host:2,S"]  # flags kept
    assert (maildir / ".processed" / "maildirfolder").exists()
    inbox.mark_processed(["1700000001.a.host"])  # again, after a crash: nothing to do
    assert len(list((maildir / ".processed" / "cur").iterdir())) == 2


def test_maildir_inbox_after_a_crash_before_mark_processed_sees_the_same_mail(tmp_path):
    maildir = create_maildir(tmp_path / "inbox")
    deliver(maildir, "1.x.host", sample(1), 1_700_000_000)
    first = MaildirInbox(maildir).fetch()
    again = MaildirInbox(maildir).fetch()  # the tick died: a new process starts over
    assert first == again and len(first) == 1


def test_a_folder_that_is_not_a_maildir_is_a_clear_error(tmp_path):
    with pytest.raises(InboxError, match="is not a Maildir.*referee init"):
        MaildirInbox(tmp_path)


# --- IMAP -------------------------------------------------------------------------------


def imap_inbox(mailrig, account, tmp_path, **options) -> ImapInbox:
    options.setdefault("security", "none")
    options.setdefault("state_path", tmp_path / "imap-state.json")
    return ImapInbox(
        "127.0.0.1",
        options.pop("port", mailrig.imap_port),
        account.address,
        options.pop("password", account.password),
        **options,
    )


def flags(mailrig, account, folder="INBOX") -> list:
    with mailrig.imap(account.address) as client:
        client.select_folder(folder, readonly=True)
        return list(client.get_flags(client.search("ALL")).values())


def test_imap_fetch_move_and_uid_tracking(mailrig, tmp_path):
    account = mailrig.new_account("referee")
    for n in (1, 2, 3):
        mailrig.deliver(account.address, sample(n))
    with imap_inbox(mailrig, account, tmp_path) as inbox:
        mails = inbox.fetch()
        assert subjects(mails) == ["[bus1] orders 1", "[bus1] orders 2", "[bus1] orders 3"]
        assert all(m.raw.replace(b"\r\n", b"\n") == sample(n) for m, n in zip(mails, (1, 2, 3)))
        assert flags(mailrig, account) == [(), (), ()]  # BODY.PEEK: still unread for a person
        with mailrig.imap(account.address) as client:
            assert not client.folder_exists("processed")
        inbox.mark_processed([m.key for m in mails])
    state = json.loads((tmp_path / "imap-state.json").read_text())
    assert state["last_uid"] == 3 and state["mailbox"]["folder"] == "INBOX"
    assert mailrig.read_mails(account.address) == []
    assert len(mailrig.read_mails(account.address, "processed")) == 3  # created when missing

    mailrig.deliver(account.address, sample(4))
    with imap_inbox(mailrig, account, tmp_path) as inbox:  # a later tick
        assert subjects(inbox.fetch()) == ["[bus1] orders 4"]


def test_imap_fetch_after_a_crash_before_mark_processed_sees_the_same_mail(mailrig, tmp_path):
    account = mailrig.new_account("referee")
    for n in (1, 2):
        mailrig.deliver(account.address, sample(n))
    crashed = imap_inbox(mailrig, account, tmp_path)
    first = crashed.fetch()
    crashed.close()  # no mark_processed: the tick died
    with imap_inbox(mailrig, account, tmp_path) as inbox:
        again = inbox.fetch()
        assert again == first and len(again) == 2
        assert [m.key for m in inbox.fetch(limit=1)] == [first[0].key]


def test_imap_processed_mail_moves_in_one_command(mailrig, tmp_path, monkeypatch):
    account = mailrig.new_account("referee")
    for n in range(20):
        mailrig.deliver(account.address, sample(n))
    moves = []
    real_move = IMAPClient.move
    monkeypatch.setattr(
        IMAPClient,
        "move",
        lambda self, uids, folder: (moves.append(list(uids)), real_move(self, uids, folder))[1],
    )
    with imap_inbox(mailrig, account, tmp_path) as inbox:
        inbox.mark_processed([m.key for m in inbox.fetch()])
    assert moves == [list(range(1, 21))]
    assert len(mailrig.read_mails(account.address, "processed")) == 20


def test_imap_without_move_copies_deletes_and_expunges(mailrig, tmp_path, monkeypatch):
    account = mailrig.new_account("referee")
    for n in (1, 2, 3):
        mailrig.deliver(account.address, sample(n))
    real = IMAPClient.has_capability
    monkeypatch.setattr(
        IMAPClient, "has_capability", lambda self, c: c.upper() != "MOVE" and real(self, c)
    )
    with imap_inbox(mailrig, account, tmp_path, processed_folder="done") as inbox:
        mails = inbox.fetch()
        inbox.mark_processed([mails[0].key, mails[2].key])
    assert subjects(mailrig.read_mails(account.address)) == ["[bus1] orders 2"]
    assert subjects(mailrig.read_mails(account.address, "done")) == [
        "[bus1] orders 1",
        "[bus1] orders 3",
    ]


def test_imap_without_move_or_uidplus_never_expunges_other_deleted_mail(
    mailrig, tmp_path, monkeypatch
):
    """A plain EXPUNGE would also remove mail someone else flagged deleted (and meant to
    keep until their own client expunges): the referee leaves its mails flagged instead."""
    account = mailrig.new_account("referee")
    for n in (1, 2, 3):
        mailrig.deliver(account.address, sample(n))
    with mailrig.imap(account.address) as client:
        client.select_folder("INBOX")
        client.delete_messages([2])  # the other user's mail, flagged but not expunged
    real = IMAPClient.has_capability
    monkeypatch.setattr(
        IMAPClient,
        "has_capability",
        lambda self, c: c.upper() not in ("MOVE", "UIDPLUS") and real(self, c),
    )
    expunged = []
    monkeypatch.setattr(IMAPClient, "expunge", lambda self, *a: expunged.append(a))
    with imap_inbox(mailrig, account, tmp_path, processed_folder="done") as inbox:
        mails = inbox.fetch()
        inbox.mark_processed([m.key for m in mails if b"orders 2" not in m.raw])
        assert inbox.fetch() == []  # the flagged ones are past the last UID: never again
    assert expunged == []
    assert subjects(mailrig.read_mails(account.address)) == [
        "[bus1] orders 1",
        "[bus1] orders 2",
        "[bus1] orders 3",
    ]  # all still there (2 flagged by its owner, 1 and 3 by the referee)
    assert subjects(mailrig.read_mails(account.address, "done")) == [
        "[bus1] orders 1",
        "[bus1] orders 3",
    ]


@pytest.mark.parametrize(
    "damage",
    [
        lambda state: b"[]",
        lambda state: b"\xff\xfe not JSON",
        lambda state: json.dumps({**state, "last_uid": "3"}).encode(),
        lambda state: json.dumps({**state, "last_uid": -1}).encode(),
        lambda state: json.dumps({**state, "last_uid": None}).encode(),
    ],
    ids=["a list", "not JSON", "a UID in quotes", "a negative UID", "no UID"],
)
def test_a_damaged_imap_state_reads_the_folder_again_and_stops_nothing(mailrig, tmp_path, damage):
    """The state is the referee's own, but a hand or a disk may spoil it: every tick of an
    IMAP site stopped on it (AttributeError, ValueError) and no mail was read. It now counts
    as no state: the mails left in the folder are read again (the processed ones are moved
    out of it, and a campaign's log knows a mail it took)."""
    account = mailrig.new_account("referee")
    mailrig.deliver(account.address, sample(1))
    with imap_inbox(mailrig, account, tmp_path) as inbox:
        inbox.mark_processed([m.key for m in inbox.fetch()])
    path = tmp_path / "imap-state.json"
    path.write_bytes(damage(json.loads(path.read_text())))
    mailrig.deliver(account.address, sample(2))
    with imap_inbox(mailrig, account, tmp_path) as inbox:
        mails = inbox.fetch()
        assert subjects(mails) == ["[bus1] orders 2"]
        inbox.mark_processed([m.key for m in mails])
    assert json.loads(path.read_text())["last_uid"] == 2  # written whole again


def test_imap_uidvalidity_change_resyncs_from_scratch(mailrig, tmp_path):
    account = mailrig.new_account("referee")
    with mailrig.imap(account.address) as client:
        client.create_folder("orders")
        for n in (1, 2):
            client.append("orders", sample(n))
    with imap_inbox(mailrig, account, tmp_path, folder="orders") as inbox:
        old = inbox.fetch()
        inbox.mark_processed([m.key for m in old])
    before = json.loads((tmp_path / "imap-state.json").read_text())
    assert before["last_uid"] == 2

    with mailrig.imap(account.address) as client:  # the folder is recreated: UIDs start again at 1
        client.delete_folder("orders")
        client.create_folder("orders")
        for n in (3, 4, 5):
            client.append("orders", sample(n))
    with imap_inbox(mailrig, account, tmp_path, folder="orders") as inbox:
        mails = inbox.fetch()
        assert subjects(mails) == ["[bus1] orders 3", "[bus1] orders 4", "[bus1] orders 5"]
        inbox.mark_processed([old[0].key])  # a key of the old folder names another mail now
        assert len(inbox.fetch()) == 3
        inbox.mark_processed([mails[0].key])
    after = json.loads((tmp_path / "imap-state.json").read_text())
    assert after["uidvalidity"] != before["uidvalidity"] and after["last_uid"] == 1


def test_imap_state_of_another_mailbox_is_not_used(mailrig, tmp_path):
    first, second = mailrig.new_account("referee"), mailrig.new_account("referee")
    for account in (first, second):
        for n in (1, 2):
            mailrig.deliver(account.address, sample(n))
    with imap_inbox(mailrig, first, tmp_path) as inbox:
        inbox.mark_processed([m.key for m in inbox.fetch()])
    with imap_inbox(mailrig, second, tmp_path) as inbox:  # the config now names another account
        assert len(inbox.fetch()) == 2


def test_imap_login_refused(mailrig, tmp_path):
    account = mailrig.new_account("referee")
    with pytest.raises(
        InboxError, match="refused the login of 'referee-.*password in its environment variable"
    ):
        imap_inbox(mailrig, account, tmp_path, password="wrong").fetch()


def test_imap_server_unreachable(mailrig, tmp_path):
    account = mailrig.new_account("referee")
    with pytest.raises(InboxError, match="cannot reach the IMAP server 127.0.0.1"):
        imap_inbox(mailrig, account, tmp_path, port=free_port(), timeout=5).fetch()


def test_imap_missing_folder(mailrig, tmp_path):
    account = mailrig.new_account("referee")
    with pytest.raises(InboxError, match="cannot open the folder 'nowhere'"):
        imap_inbox(mailrig, account, tmp_path, folder="nowhere").fetch()


@pytest.mark.parametrize("security", ["tls", "starttls"])
def test_imap_over_tls(mailrig, tmp_path, security):
    account = mailrig.new_account("referee")
    mailrig.deliver(account.address, sample(1))
    port = mailrig.imaps_port if security == "tls" else mailrig.imap_port
    with imap_inbox(
        mailrig,
        account,
        tmp_path,
        security=security,
        port=port,
        ssl_context=mailrig.client_ssl_context(),
    ) as inbox:
        assert subjects(inbox.fetch()) == ["[bus1] orders 1"]


@pytest.mark.parametrize("security", ["tls", "starttls"])
def test_imap_untrusted_certificate_is_refused(mailrig, tmp_path, security):
    account = mailrig.new_account("referee")
    port = mailrig.imaps_port if security == "tls" else mailrig.imap_port
    with pytest.raises(InboxError, match="CERTIFICATE_VERIFY_FAILED"):
        imap_inbox(mailrig, account, tmp_path, security=security, port=port).fetch()
