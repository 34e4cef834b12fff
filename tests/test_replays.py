"""Issue 22, items 1 and 5: a mail is the referee's own only by its headers, never by words in
its body; a Message-ID is a mail's together with its sender; a player's mail sent anew (the
same text, or dated more than a day before their last one applied) is refused, saying why."""

import copy
import json
from datetime import datetime, timedelta
from email.utils import format_datetime

from sites import bus_game, logged, person_mail, reply_to, run_tick, text_of

from referee.store import snapshots
from referee.store.snapshots import SNAPSHOT


def game(tmp_path):
    return bus_game(tmp_path)


def welcome(boxes, address):
    return next(m for m in boxes.new(address) if "Welcome" in str(m["Subject"]))


def mails_of(site, seat: int) -> list[dict]:
    return [r for r in logged(site.campaign("bus1")) if r["kind"] == "mail" and r["seat"] == seat]


def received(site) -> list[dict]:
    path = site.state_dir / "received.jsonl"
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_a_reply_whose_text_has_a_line_starting_your_decision_is_the_players(tmp_path):
    site, boxes = game(tmp_path)
    boxes.new()
    to_ann = site.identity.plus("bus1", site.campaign("bus1").players[0].token)
    # Ann copied the prompt's first line above her order, as people do
    text = "YOUR DECISION: First buildings\nbuild house 15\n\nAnn"
    boxes.deliver(person_mail("Ann <ann@example.org>", to_ann, "Re: [bus1] Welcome", text))
    run_tick(site)
    [mail] = mails_of(site, 0)
    assert mail["orders"] == [[0, "build house 15", "mail"]]
    assert [r["outcome"] for r in received(site)] == ["applied"]
    assert boxes.new("ann@example.org")  # and she is answered


def test_the_referees_own_mail_is_known_by_its_headers_not_its_words(tmp_path):
    site, boxes = game(tmp_path)
    sent = boxes.new("ann@example.org")[0]
    boxes.new()
    boxes.deliver(sent)  # come back whole: its X-Referee and Auto-Submitted headers
    run_tick(site)
    assert boxes.new() == []
    [outcome] = received(site)
    assert outcome["outcome"].startswith("ignored: the referee's own mail")


def test_a_message_id_used_by_another_sender_is_another_mail(tmp_path):
    site, boxes = game(tmp_path)
    campaign = site.campaign("bus1")
    ann = person_mail(
        "Ann <ann@example.org>", site.identity.plus("bus1", campaign.players[0].token), "o", "pass"
    )
    ann.replace_header("Message-ID", "<same@example.org>")
    bob = person_mail(
        "Bob <bob@example.org>",
        site.identity.plus("bus1", campaign.players[1].token),
        "o",
        "build house 15",
    )
    bob.replace_header("Message-ID", "<same@example.org>")
    stranger = person_mail("Eve <eve@example.net>", "referee@example.org", "hi", "list")
    stranger.replace_header("Message-ID", "<same@example.org>")
    for mail in (ann, bob, stranger):
        boxes.deliver(mail)
    boxes.new()
    run_tick(site)
    assert [(r["from"], r["message_id"]) for r in received(site)] == [
        (f"{who}@example.{tld}", "<same@example.org>")
        for who, tld in (("ann", "org"), ("bob", "org"), ("eve", "net"))
    ]
    assert mails_of(site, 0) and mails_of(site, 1)  # both players' mails applied
    assert mails_of(site, 1)[0]["queues"] == {"1": ["build house 15"]}
    assert boxes.new("eve@example.net")  # and the stranger answered
    # the same mail delivered again (to and cc) is still one mail
    boxes.deliver(bob)
    run_tick(site)
    assert len(received(site)) == 3 and len(mails_of(site, 1)) == 1


def test_a_line_of_received_written_before_senders_were_kept_still_counts(tmp_path):
    site, boxes = game(tmp_path)
    mail = person_mail("Eve <eve@example.net>", "referee@example.org", "hi", "list")
    path = site.state_dir / "received.jsonl"
    line = {"message_id": str(mail["Message-ID"]), "where": "-", "outcome": "answered"}
    path.write_text(json.dumps(line) + "\n")
    boxes.new()
    boxes.deliver(mail)
    run_tick(site)
    assert boxes.new() == [] and len(received(site)) == 1


def test_a_mail_sent_anew_with_a_new_message_id_is_refused_with_the_reason(tmp_path):
    site, boxes = game(tmp_path)
    boxes.new()
    to_bob = site.identity.plus("bus1", site.campaign("bus1").players[1].token)
    first = person_mail(
        "Bob <bob@example.org>", to_bob, "orders", "build house 15\nmessage all hello there"
    )
    boxes.deliver(first)
    run_tick(site)
    relayed = [m for m in boxes.new() if "hello there" in text_of(m) and "bob" not in str(m["To"])]
    assert len(relayed) == 2  # to Ann and Cid
    # Bob changes his kept orders
    boxes.deliver(person_mail("Bob <bob@example.org>", to_bob, "orders", "build house 21"))
    run_tick(site)
    boxes.new()
    # the first mail sent again later, under a new Message-ID
    again = copy.deepcopy(first)
    again.replace_header("Message-ID", "<again@example.org>")
    boxes.deliver(again)
    run_tick(site)
    mails = mails_of(site, 1)
    assert len(mails) == 3
    assert mails[-1]["orders"] == [] and "queues" not in mails[-1]
    [(line, reason)] = mails[-1]["bad_lines"]
    assert "This mail repeats one of yours applied" in reason
    assert site.campaign("bus1").table().queues[1] == ["build house 21"]  # not replaced
    told = boxes.new()
    assert not [m for m in told if "hello there" in text_of(m) and "bob" not in str(m["To"])]
    [answer] = [m for m in told if "bob@example.org" in str(m["To"])]
    assert "This mail repeats one of yours applied" in text_of(answer)
    assert received(site)[-1]["outcome"].startswith("refused: sent anew")


def test_a_mail_dated_over_a_day_before_the_last_one_applied_is_refused(tmp_path):
    site, boxes = game(tmp_path)
    bob = site.campaign("bus1").players[1]
    to_bob = site.identity.plus("bus1", bob.token)
    boxes.deliver(person_mail("Bob <bob@example.org>", to_bob, "orders", "build house 21"))
    run_tick(site)
    [applied] = mails_of(site, 1)
    old = person_mail("Bob <bob@example.org>", to_bob, "old orders", "build house 15")
    old.replace_header("Date", "Mon, 03 Jun 2024 10:00:00 +0200")
    boxes.deliver(old)
    boxes.new()
    run_tick(site)
    refused = mails_of(site, 1)[-1]
    [(_, reason)] = refused["bad_lines"]
    assert reason.startswith("This mail is dated 2024-06-03T08:00:00Z, more than a day before")
    assert applied["date"] in reason
    assert site.campaign("bus1").table().queues[1] == ["build house 21"]
    assert "more than a day before" in text_of(boxes.new("bob@example.org")[-1])
    # a day's difference is a mail program's clock, or the mail's time on the way: applied
    then = format_datetime(datetime.fromisoformat(applied["date"]) - timedelta(hours=20))
    late = person_mail("Bob <bob@example.org>", to_bob, "orders", "build house 24")
    late.replace_header("Date", then)
    boxes.deliver(late)
    run_tick(site)
    assert site.campaign("bus1").table().queues[1] == ["build house 24"]


def test_what_knows_a_mail_sent_anew_survives_the_snapshot(tmp_path):
    site, boxes = game(tmp_path)
    to_bob = site.identity.plus("bus1", site.campaign("bus1").players[1].token)
    first = person_mail("Bob <bob@example.org>", to_bob, "orders", "build house 21")
    boxes.deliver(first)
    run_tick(site)
    campaign = site.campaign("bus1")
    snapshots.save(campaign.table(), campaign.marks.floor())  # as when a round ends
    snapshot = json.loads((site.data_root / "bus1" / SNAPSHOT).read_text())
    assert len(snapshot["bodies"]) == 1 and list(snapshot["dates"]) == ["1"]
    assert snapshots.load(campaign).snapshot_n is not None  # the next tick starts from it
    again = copy.deepcopy(first)
    again.replace_header("Message-ID", "<again@example.org>")
    boxes.deliver(again)
    run_tick(site)
    assert mails_of(site, 1)[-1]["bad_lines"][0][0] == "(all)"


def test_the_same_words_written_again_are_a_new_mail(tmp_path):
    site, boxes = game(tmp_path)
    to_bob = site.identity.plus("bus1", site.campaign("bus1").players[1].token)
    first = person_mail("Bob <bob@example.org>", to_bob, "orders", "build house 21")
    first.replace_header("Date", "Mon, 03 Jun 2024 10:00:00 +0200")
    boxes.deliver(first)
    run_tick(site)
    again = person_mail("Bob <bob@example.org>", to_bob, "orders", "build house 21")
    again.replace_header("Date", "Mon, 03 Jun 2024 10:05:00 +0200")  # written anew, later
    boxes.deliver(again)
    run_tick(site)
    assert [m.get("bad_lines") for m in mails_of(site, 1)] == [None, None]


def test_replies_to_different_mails_with_the_same_order_are_not_sent_anew(tmp_path):
    site, boxes = game(tmp_path)
    welcome_mail = welcome(boxes, "ann@example.org")
    boxes.deliver(reply_to(welcome_mail, "ann@example.org", "history"))
    run_tick(site)
    [answer] = boxes.new("ann@example.org")
    boxes.deliver(reply_to(answer, "ann@example.org", "history"))
    run_tick(site)
    assert [m.get("bad_lines") for m in mails_of(site, 0)] == [None, None]


def test_a_mail_dated_in_the_future_does_not_refuse_the_next(tmp_path):
    site, boxes = game(tmp_path)
    to_bob = site.identity.plus("bus1", site.campaign("bus1").players[1].token)
    future = person_mail("Bob <bob@example.org>", to_bob, "orders", "build house 21")
    future.replace_header("Date", "Fri, 01 Jan 2099 10:00:00 +0000")  # a wrong clock
    boxes.deliver(future)
    run_tick(site)
    [applied] = mails_of(site, 1)
    assert applied["date"] <= applied["at"]  # taken as when it came
    boxes.deliver(person_mail("Bob <bob@example.org>", to_bob, "orders", "build house 24"))
    run_tick(site)
    assert site.campaign("bus1").table().queues[1] == ["build house 24"]


def test_a_players_mail_that_names_no_game_is_told_what_was_not_read(tmp_path):
    site, boxes = game(tmp_path)
    boxes.new()
    # nothing in it reads as an order (one that does is read for his one game: see
    # test_intake_routes)
    text = "Where do we stand?\n\n-- \nBob"
    boxes.deliver(person_mail("Bob <bob@example.org>", "referee@example.org", "orders", text))
    run_tick(site)
    [answer] = boxes.new("bob@example.org")
    said = text_of(answer)
    assert "bus1" in said  # the games Bob plays, and how to reach each
    assert "Not read, as this mail named no game of yours:\n    Where do we stand?" in said
    assert 'the signature below "-- ", from "Bob" on' in said
