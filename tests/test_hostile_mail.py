"""Hostile and broken mail through `referee tick`: every mail ends in exactly one recorded
outcome in the first tick that reads it, no campaign changes except by valid orders, and a
valid order sent afterwards is applied."""

import json
import mailbox
import os
import random

import pytest
from click.testing import CliRunner
from sites import PLAYERS, Mailboxes, make_site, person_mail, run_tick, text_of

from referee.cli import main
from referee.mail.read import read_mail

REFEREE = "referee@example.org"


@pytest.fixture
def game(tmp_path):
    site = make_site(tmp_path)
    site.new_campaign("bus", "bus1", PLAYERS, seed=1)  # Ann builds first
    run_tick(site)
    return site, Mailboxes(site)


def ann_address(site) -> str:
    return site.identity.plus("bus1", site.campaign("bus1").players[0].token)


def raw(headers: str, body: bytes = b"hello\n") -> bytes:
    return headers.strip().replace("\n", "\r\n").encode() + b"\r\n\r\n" + body


def nested(depth: int, text: bytes = b"build house 15") -> bytes:
    head, tail = b"", b""
    for i in range(depth):
        head += f'Content-Type: multipart/mixed; boundary="b{i}"\r\n\r\n--b{i}\r\n'.encode()
        tail = f"\r\n--b{i}--\r\n".encode() + tail
    return head + b"Content-Type: text/plain\r\n\r\n" + text + tail


def hostile_mails(site) -> dict[str, bytes]:
    """One of each kind of mail that once made reading or handling raise or hang."""
    to_ann = ann_address(site)
    person = "From: Dan <{0}@example.net>\nTo: referee@example.org\nMessage-ID: <{0}@example.net>"
    ann = "From: Ann <ann@example.org>\nTo: " + to_ann + "\nMessage-ID: <{0}@example.org>"
    mails = {
        "crlf in the display name": raw(
            "From: =?utf-8?q?Evil=0D=0ABcc=3A_x=40example=2Enet?= <dan@example.net>\n"
            "To: referee@example.org\nMessage-ID: <crlf@example.net>\nSubject: hi"
        ),
        "utf-16 without a BOM": raw(
            person.format("utf16") + "\nContent-Type: text/plain; charset=utf-16",
            "list\n".encode("utf-16-le") + b"\x00",
        ),
        "multiparts nested 1000 deep": raw(person.format("deep") + "\nMIME-Version: 1.0")[:-4]
        + b"\r\n"
        + nested(1000),
        "a 100 KB Content-Type": raw(
            person.format("ctype")
            + "\nContent-Type: multipart/mixed; "
            + "; ".join(f"a{i}=b" for i in range(10000))
        ),
        "a To of 5000 addresses": raw(
            person.format("to").replace(
                "To: referee@example.org",
                "To: " + ", ".join(f"p{i}@example.net" for i in range(5000)),
            )
        ),
        "a header the stdlib parser fails on": raw(
            person.format("badheader")
            + '\nContent-Type: multipart/mixed; boundary="\nSubject: =?utf-8?b?===?='
        ),
        "garbage from": raw("From: @@@<<>>\nTo: referee@example.org\nSubject: x"),
        "no headers at all": b"\x00\xff\xfe" * 100,
        "an order of only |": raw(ann.format("bar"), b"|\n"),
        "an empty alternative": raw(ann.format("empty-alt"), b"pass | |\n"),
        "a superscript digit": raw(ann.format("sup"), "build house ²\n".encode()),
        "a number of 5000 digits": raw(ann.format("long"), b"line 15-" + b"9" * 5000 + b"\n"),
    }
    for codec in ("base64", "hex", "rot13", "zlib", "uu", "bz2"):
        mails[f"charset {codec}"] = raw(
            person.format(codec) + f"\nContent-Type: text/plain; charset={codec}", b"list\n"
        )
    return mails


def referee_tick(site) -> int:
    done = CliRunner().invoke(main, ["--config", str(site.config.path), "tick"])
    return done.exit_code


def inbox_left(site) -> int:
    return len(mailbox.Maildir(site.config.inbox.path, create=False).keys())


def received(site) -> list[dict]:
    path = site.state_dir / "received.jsonl"
    return [json.loads(line) for line in path.read_text().splitlines()]


def bus1_orders(site) -> list:
    return [o for r in site.campaign("bus1").records() for o in r.to_json().get("orders", [])]


def test_each_kind_of_hostile_mail_has_one_outcome_and_a_valid_order_still_counts(game):
    site, boxes = game
    mails = hostile_mails(site)
    before = bus1_orders(site)
    for data in mails.values():
        boxes.deliver(data)
    assert referee_tick(site) == 0
    assert inbox_left(site) == 0
    outcomes = received(site)
    ids = [read_mail(m, REFEREE).message_id for m in mails.values()]
    assert sorted(o["message_id"] for o in outcomes) == sorted(ids)  # one each
    by_id = {o["message_id"]: o["outcome"] for o in outcomes}
    assert by_id["<ctype@example.net>"].startswith("unreadable: its Content-Type header is")
    assert by_id["<to@example.net>"].startswith("unreadable: its To header is")
    assert by_id["<deep@example.net>"].startswith("unreadable: it has 1000 nested parts")
    assert bus1_orders(site) == before  # nothing but valid orders changes a game
    # the senders of the unreadable mails are told, once each
    for sender in ("ctype", "deep", "to"):
        [told] = boxes.new(f"{sender}@example.net")
        assert str(told["Subject"]) == "Your mail could not be read"
        assert "The game master has been told" in text_of(told)
    # Ann's bad lines are answered as bad lines, with the reason
    confirmations = "\n".join(text_of(m) for m in boxes.new("ann@example.org"))
    assert "pass | |" in confirmations and "is not a crossing number" in confirmations
    # the raw unreadable mails are kept for the game master
    assert len(list((site.state_dir / "quarantine").glob("*.eml"))) >= 3
    # and a valid order afterwards is applied
    boxes.deliver(person_mail("Ann <ann@example.org>", ann_address(site), "x", "build house 15"))
    assert referee_tick(site) == 0
    assert bus1_orders(site)[-1] == [0, "build house 15", "mail"]
    # a second tick reads none of them again
    assert len(received(site)) == len(mails) + 1


HEADER_NAMES = ["From", "To", "Cc", "Subject", "Message-ID", "Content-Type", "Date",
                "Content-Transfer-Encoding", "Reply-To", "In-Reply-To", "References",
                "Auto-Submitted", "Return-Path", "MIME-Version", "X-Spam"]  # fmt: skip
PIECES = ["", " ", "\t", "=?utf-8?q?=0D=0A?=", "=?utf-16?b?AAA=?=", "=?x-unknown?q?a?=", "<",
          ">", '"', "@", ",", ";", "\\", "(", ")", "multipart/mixed", 'boundary="', "text/html",
          "charset=hex", "charset=utf-16", "base64", "quoted-printable", "ann@example.org",
          "referee@example.org", "referee+bus1.x@example.org", "[bus1]", "\x00", "\u00e9",
          "\U0001f600", "²", "9" * 50, "=", "?", ":", "build house 15", "|"]  # fmt: skip
BODY_LINES = ["hello", "| |", "pass | |", "build house ²", "line 1-" + "9" * 5000, "",
              "--b0", "--b0--", "<html><body><blockquote>x", "=C3=A9", "\x00\x01",
              "Content-Type: multipart/mixed; boundary=b0", "join", "list", "help"]  # fmt: skip


def fuzzed_mail(rng: random.Random, n: int, to_ann: str) -> bytes:
    """A seeded random mail: real and broken headers, a random structure and body, and no
    valid order (the bodies hold none)."""
    lines = []
    for _ in range(rng.randint(0, 8)):
        name = rng.choice(HEADER_NAMES + ["X-" + rng.choice(PIECES).strip()[:5]])
        value = "".join(rng.choice(PIECES) for _ in range(rng.randint(0, 6)))
        lines.append(f"{name}: {value}")
        if rng.random() < 0.1:
            lines.append(" " + rng.choice(PIECES))  # a folded continuation
    if rng.random() < 0.7:
        lines.append(f"From: {rng.choice(['Ann <ann@example.org>', 'x@example.net', ''])}")
    if rng.random() < 0.5:
        lines.append(f"To: {rng.choice([to_ann, REFEREE, 'referee+nope@example.org'])}")
    if rng.random() < 0.8:
        lines.append(f"Message-ID: <fuzz-{n}@example.net>")
    rng.shuffle(lines)
    body = "\n".join(rng.choice(BODY_LINES) for _ in range(rng.randint(0, 6)))
    newline = rng.choice(["\r\n", "\n"])
    data = newline.join(lines).encode("utf-8", "surrogatepass") + (newline * 2).encode()
    data += body.replace("\n", newline).encode("utf-8", "surrogatepass")
    if rng.random() < 0.05:
        data += nested(rng.randint(1, 80), b"hello")
    if rng.random() < 0.1:  # a few bytes flipped anywhere
        spots = bytearray(data)
        for _ in range(rng.randint(1, 5)):
            if spots:
                spots[rng.randrange(len(spots))] = rng.randrange(256)
        data = bytes(spots)
    return data


@pytest.mark.slow
def test_a_fuzzed_corpus_of_2000_mails_each_has_one_outcome_in_one_tick(game, monkeypatch):
    site, boxes = game
    monkeypatch.setattr(os, "fsync", lambda fd: None)  # outcomes, not durability, are tested
    rng = random.Random(20261124)
    to_ann = ann_address(site)
    corpus = [fuzzed_mail(rng, n, to_ann) for n in range(2000)]
    before = bus1_orders(site)
    box = mailbox.Maildir(site.config.inbox.path, create=False)
    for data in corpus:
        box.add(data)
    assert referee_tick(site) == 0
    assert inbox_left(site) == 0
    # the same bytes twice are one; a Message-ID is a mail's together with its sender
    ids = {read_mail(m, REFEREE).key for m in corpus}
    assert sorted((o["from"], o["message_id"]) for o in received(site)) == sorted(ids)
    assert bus1_orders(site) == before
    boxes.deliver(person_mail("Ann <ann@example.org>", to_ann, "x", "build house 15"))
    assert referee_tick(site) == 0
    assert bus1_orders(site)[-1] == [0, "build house 15", "mail"]
