"""Plain text that reflows on a phone (issue 36, point 2): every text/plain part the referee
sends is format=flowed (RFC 3676, delsp=no). Its prose is written in paragraphs broken
softly (a space ends the line), which a mail program that knows the format joins and wraps
to its screen; the offered lines, the text map and the tables are fixed lines, as they were
written; a line that begins with a space, ">" or "From " is stuffed with a space."""

from __future__ import annotations

import pytest
from played import play
from sites import PLAYERS, lines_as_sent, make_site, text_of

from referee import maps
from referee.mail.compose import compose, flowed
from referee.mail.read import unflowed
from referee.words.mails import decision_of, digest
from referee.words.render import grouped


def test_soft_breaks_go_on_their_indent_goes_and_lines_that_could_mislead_are_stuffed():
    text = (
        "  - Ann buys a long route \n"
        "    and goes on here.\n"
        "    build house 15\n"
        "From 15 to 21 the line runs.\n"
        "> not a quote\n"
        "   \n"
        "last"
    )
    sent = flowed(text)
    assert sent.split("\n") == [
        "   - Ann buys a long route ",  # stuffed: it begins with a space
        "and goes on here.",  # the indent that lined it up is not sent
        "     build house 15",
        " From 15 to 21 the line runs.",
        " > not a quote",
        "",  # spaces alone: no soft break into the next paragraph
        "last",
    ]
    assert unflowed(sent).split("\n") == [
        "  - Ann buys a long route and goes on here.",
        "    build house 15",
        "From 15 to 21 the line runs.",
        "> not a quote",
        "",
        "last",
    ]


def test_a_mail_says_it_is_flowed_and_reads_back_as_written():
    msg = compose(
        from_address="referee@example.org",
        from_name="Referee",
        to=["ann@example.org"],
        subject="s",
        text="A paragraph that goes \non.\n    pass\n",
    )
    part = msg.get_body(("plain",))
    assert part.get_param("format") == "flowed"
    assert part.get_param("delsp", "no") == "no"  # the default: a soft break's space stays
    assert text_of(msg) == "A paragraph that goes on.\n    pass\n"


@pytest.fixture(scope="module", params=["bus", "busboss"])
def game(request, tmp_path_factory):
    site = make_site(tmp_path_factory.mktemp(request.param))
    site.new_campaign(request.param, "g", PLAYERS, 3)
    table = play(site, site.campaign("g").table(), until_round=3, answer=False)
    return site, table


def test_a_report_flows_its_prose_and_keeps_its_choices_and_its_map_as_fixed_lines(game):
    site, table = game
    seat = table.awaiting[0].seat
    msg = digest(site.identity, table, seat, since=0)
    sent = msg.get_body(("plain",)).get_content().split("\n")  # as it travels
    read = text_of(msg).split("\n")  # as a mail program that knows format=flowed shows it
    assert all(len(line) <= 78 for line in lines_as_sent(msg))
    assert not any(line.startswith((">", "From ")) for line in sent)  # stuffed
    # the prose breaks softly, and reads as paragraphs longer than a line as sent
    assert any(line.endswith(" ") for line in sent)
    assert any(len(line) > 78 for line in read)
    events = [e for step in table.steps_after(0) for e in step.events]
    assert all(f"- {e}" in read for e in events)  # each event one line, however long
    # the short choices: each a fixed line, as offered (a comment longer than a line goes
    # on as a comment in lines of its own)
    *_, choices = decision_of(table, seat)
    shown = grouped(choices, table.campaign.game)
    for line in map(str, shown):  # (the reader reads English)
        assert f"    {line}" in read or line.startswith("#"), line
        assert f"     {line}" in sent or len(line) > 74, line
    # the text map last, line for line
    text_map = maps.text_map(table.view()).rstrip("\n").split("\n")
    assert "\n".join(read).rstrip("\n").endswith("\n".join(text_map))
    assert all(
        (" " + line if line.startswith((" ", ">", "From ")) else line) in sent for line in text_map
    )


@pytest.mark.parametrize("game", ["bus", "busboss"])
def test_the_help_gives_each_order_and_command_a_line_and_its_meaning_a_paragraph_under_it(
    tmp_path, game
):
    """Two columns side by side do not fit a phone: each order or command is a fixed line as
    it is written, and what it does is a paragraph under it, broken softly, which a phone's
    mail program joins and wraps to its screen."""
    from sites import Mailboxes, person_mail, run_tick

    from referee.service.commands import help_lines

    site = make_site(tmp_path)
    site.new_campaign(game, "g1", PLAYERS, seed=1)
    boxes = Mailboxes(site)
    token = site.campaign("g1").players[0].token
    boxes.deliver(person_mail(PLAYERS[0], site.identity.plus("g1", token), "help", "help"))
    run_tick(site)
    [answer] = [m for m in boxes.new() if "commands answered" in str(m["Subject"])]
    read = text_of(answer).split("\n")  # as a mail program that knows the format shows it
    for usage, summary in help_lines(gm=False):
        at = read.index(f"    {usage}")
        assert read[at + 1] == f"        {summary}", (usage, read[at + 1])
    helped = read[next(n for n, line in enumerate(read) if line.startswith("Orders of")) :]
    orders = [n for n, line in enumerate(helped) if line.startswith("    build ")]
    assert orders and all(helped[n + 1].startswith("        ") for n in orders)
    sent = lines_as_sent(answer)
    assert max(map(len, sent)) <= 78
    # a long meaning is broken softly (a space ends the line), its usage line is not
    assert any(
        line.endswith("how much mail: a daily digest (at 18:00, or 'mail digest 07:30'), ")
        for line in sent
    )
    assert "    mail digest|each|brief" in sent
