"""Replies from anywhere in the world (issue 34, items 1, 2 and 7): the corpus of
tests/reply_shapes.py, every shape a reply to a real prompt the referee mailed Bob in a real
game, in the layouts of the mail programs people use (desktop, web, phone) and the
languages they use them in, taken by one tick through the real intake: each yields exactly
its orders, nothing passed over (the quote of the referee's mail, the headers and
attributions above it and the phone footers are set aside without a word)."""

from __future__ import annotations

import pytest
from reply_shapes import (
    LANGUAGES,
    PROGRAMS,
    Shape,
    bobs_prompt,
    labels,
    prompt_of,
    raw_mail,
    rewrapping,
    shapes,
)
from sites import PLAYERS, Mailboxes, logged, make_site, run_tick, text_of
from test_referee_by_mail import MailPlayer, mail_site

from referee.mail.read import markers, read_mail
from referee.mailbot import choices_in

pytestmark = pytest.mark.slow  # a whole game's start, and a tick of 135 mails


@pytest.fixture(scope="module")
def taken(tmp_path_factory):
    site, prompt = bobs_prompt(tmp_path_factory.mktemp("replies"))
    boxes = Mailboxes(site)
    corpus = shapes(prompt)
    for number, shape in enumerate(corpus):
        boxes.deliver(raw_mail(shape, prompt, number))
    run_tick(site)
    records = {r["message_id"]: r for r in logged(site.campaign("bus1")) if r["kind"] == "mail"}
    return site, prompt, corpus, records


def test_the_corpus_spans_the_world(taken):
    _, prompt, corpus, _ = taken
    assert len(corpus) >= 120 and len(PROGRAMS) >= 20
    assert len({s.language for s in corpus}) >= 40
    assert any("html" in s.parts and "text" not in s.parts for s in corpus)
    assert any(s.parts.get("flowed") == "yes" for s in corpus)
    assert any(s.parts.get("flowed") == "no" for s in corpus)
    # the prompt is the referee's own, with lines it offers
    assert "YOUR DECISION" in prompt.plain and choices_in(prompt.plain)


def test_each_reply_yields_exactly_its_orders_and_nothing_is_passed_over(taken):
    _, _, corpus, records = taken
    wrong = {}
    for number, shape in enumerate(corpus):
        record = records.get(f"<{shape.name}.{number}@example.org>")
        if record is None:
            wrong[shape.name] = "dropped"
            continue
        got = (record.get("queues", {}).get("1"), record.get("bad_lines"), record.get("ignored"))
        if got != (shape.orders, None, None):
            wrong[shape.name] = got
    assert not wrong, wrong


LABELLED = ("lotus-notes", "gmx", "windows-mail", "horde", "qq-mail")
"""The programs that put the referee's mail, not marked, under a block of header labels (and
no phone footer, which would cut it off anyway)."""


def test_unmarked_originals_under_labels_no_data_file_lists_are_read_by_the_referees_words(
    taken,
):
    """Every language whose header labels quoting.yaml does not hold, in every program that
    puts the original, not marked, under header labels: the reply is read exactly by what
    the referee sent, and would not be without it (the labels are not what tells)."""
    site, prompt, _, _ = taken
    known = set(markers().labels)
    unlisted = [lang for lang in LANGUAGES if not {w.lower() for w in labels(lang)} & known]
    assert len(unlisted) >= 15, unlisted
    for program in LABELLED:
        for number, lang in enumerate(unlisted):
            shape = Shape(
                f"{program}-{lang}",
                program,
                lang,
                PROGRAMS[program](lang, ["pass"], prompt),
                ["pass"],
            )
            raw = raw_mail(shape, prompt, number)
            assert read_mail(raw, "referee@example.org", site.post.sent_mail).text == "pass"
            alone = read_mail(raw, "referee@example.org")  # nothing to read it against
            assert alone.text != "pass", shape.name


def test_replies_through_the_real_servers_are_read_by_the_referees_words(mailrig, tmp_path):
    """Ann answers her two prompts over SMTP, the referee reads them over IMAP and sends
    over SMTP: Lotus Notes in Thai (its labels stacked, the original not marked, her order
    full-width) and Outlook for Mac in Vietnamese, HTML only; both orders are applied, and
    nothing is passed over."""
    site = mail_site(tmp_path, mailrig)
    players = [MailPlayer(mailrig, name, seed) for seed, name in enumerate(["Ann", "Bob", "Cid"])]
    ann = players[0]
    site.new_campaign("bus", "bus1", [f"{p.name} <{p.account.address}>" for p in players], seed=1)
    site.outbox.flush(site.config.make_sender())
    for number, (program, lang, html_only) in enumerate(
        [("lotus-notes", "th", False), ("outlook-mac", "vi", True)]
    ):
        [msg] = [m for m in ann.new_mail() if choices_in(text_of(m))]
        prompt = prompt_of(msg)
        order = choices_in(prompt.plain)[0]
        typed = "".join(chr(ord(c) + 0xFEE0) if "!" <= c <= "~" else "\u3000" for c in order)
        parts = PROGRAMS[program](lang, [typed], prompt)
        if html_only:
            parts = {"html": parts["html"]}
        shape = Shape(f"{program}-{lang}", program, lang, parts, [order])
        raw = raw_mail(shape, prompt, number, sender=f"Ann <{ann.account.address}>")
        mailrig.send(raw, prompt.reply_to, ann.account.address)
        run_tick(site)
        [record] = [
            r
            for r in logged(site.campaign("bus1"))
            if r.get("message_id", "").startswith(f"<{shape.name}.")
        ]
        assert [o[1] for o in record["orders"]] == [order], record
        assert "ignored" not in record and "bad_lines" not in record, (
            record.get("ignored"),
            program,
        )


def test_a_bus_boss_prompt_is_known_in_a_reply_the_same_way(tmp_path):
    """The mechanism is the games' alike: Bus Boss's first prompt, answered in every
    program's layout in Vietnamese, yields the offered order alone."""
    site = make_site(tmp_path)
    site.new_campaign("busboss", "bb1", PLAYERS, seed=1)
    run_tick(site)
    [msg, *_] = [m for m in Mailboxes(site).new() if choices_in(text_of(m))]
    prompt = prompt_of(msg)
    order = choices_in(prompt.plain)[0]
    for number, program in enumerate(PROGRAMS):
        shape = Shape(program, program, "vi", PROGRAMS[program]("vi", [order], prompt), [order])
        raw = raw_mail(shape, prompt, number)
        assert read_mail(raw, "referee@example.org", site.post.sent_mail).text == order, program


def test_a_reply_that_flows_the_prompt_again_is_read_as_the_offered_line_it_copies(
    mailrig, tmp_path
):
    """The referee's plain text is format=flowed: a mail program that knows it shows the
    paragraphs joined, quotes them with "> " and sends them flowed again at its own width
    (72). Over the real servers, Ann copies one offered line of her prompt on top of such a
    reply: it is read as that order, and the quote is set aside without a word (the Bus
    Boss test above has the program break offered lines longer than its width)."""
    site = mail_site(tmp_path, mailrig)
    players = [MailPlayer(mailrig, name, seed) for seed, name in enumerate(["Ann", "Bob", "Cid"])]
    ann = players[0]
    site.new_campaign("bus", "bus1", [f"{p.name} <{p.account.address}>" for p in players], seed=1)
    site.outbox.flush(site.config.make_sender())
    [msg] = [m for m in ann.new_mail() if choices_in(text_of(m))]
    assert msg.get_body(("plain",)).get_param("format") == "flowed"
    prompt = prompt_of(msg)
    order = choices_in(prompt.plain)[-1]
    shape = Shape("rewrapping-de", "rewrapping", "de", rewrapping("de", [order], prompt), [order])
    raw = raw_mail(shape, prompt, 0, sender=f"Ann <{ann.account.address}>")
    # the program joined the referee's paragraphs and broke them again at 72, softly
    quote = [line for line in raw.decode().splitlines() if line.startswith(">")]
    assert any(line.endswith("=20") for line in quote), quote[:10]
    mailrig.send(raw, prompt.reply_to, ann.account.address)
    run_tick(site)
    [record] = [
        r for r in logged(site.campaign("bus1")) if r.get("message_id", "").startswith("<rewr")
    ]
    assert [o[1] for o in record["orders"]] == [order], record
    assert "ignored" not in record and "bad_lines" not in record, record
