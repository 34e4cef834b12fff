"""`referee -v tick` tells on stderr what became of each mail and each campaign; a clean tick
without -v tells nothing; and no token ever reaches the log."""

import re

from click.testing import CliRunner
from sites import PLAYERS, Mailboxes, make_site, person_mail, reply_to

from referee.cli import main

STAMP = r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ"


def cli_tick(site, *options):
    result = CliRunner().invoke(main, ["--config", str(site.config.path), *options, "tick"])
    assert result.exit_code == 0, result.output
    return result


def a_site_with_mail(tmp_path):
    """A running Bus campaign with its welcomes sent, then three mails in the inbox: Ann's
    orders, a stranger's `list`, and an auto-reply. Returns the site and their Message-IDs."""
    site = make_site(tmp_path)
    site.new_campaign("bus", "bus1", PLAYERS, seed=1, gm="Gil <gil@example.org>")
    cli_tick(site)
    boxes = Mailboxes(site)
    welcome = next(m for m in boxes.new("ann@example.org") if "Welcome" in str(m["Subject"]))
    orders = reply_to(welcome, "ann@example.org", "build house 15\nbuild pub 16")
    stranger = person_mail("Zed <zed@example.org>", site.identity.address, "hello", "list")
    robot = person_mail(
        "Bob <bob@example.org>",
        site.identity.address,
        "Out of office",
        "I am away.",
        Auto_Submitted="auto-replied",
    )
    for msg in (orders, stranger, robot):
        boxes.deliver(msg)
    return site, [str(m["Message-ID"]) for m in (orders, stranger, robot)]


def test_a_verbose_tick_tells_each_mail_and_campaign_on_stderr(tmp_path):
    site, (orders, stranger, robot) = a_site_with_mail(tmp_path)
    result = cli_tick(site, "-v")
    lines = result.stderr.splitlines()
    assert lines and all(
        re.match(rf"{STAMP} (INFO|WARNING|ERROR) referee\.", line) for line in lines
    ), lines

    def line_of(message_id):
        [line] = [line for line in lines if message_id in line]
        return line

    assert line_of(orders).endswith(f"mail {orders} to campaign bus1: applied (orders applied 2)")
    assert line_of(stranger).endswith(
        f"mail {stranger} to no campaign: answered outside any campaign"
    )
    assert re.search(rf"mail {re.escape(robot)} to no campaign: ignored: ", line_of(robot))
    assert any(
        line.endswith("campaign bus1 (running): mails applied 1, orders resolved 0, mails queued 2")
        for line in lines
    ), lines
    assert "fetched 3 from" in result.stderr and "marked 3 processed" in result.stderr
    assert "fetched 3, applied 1, ignored 1" in result.stdout  # the summary stays


def test_a_clean_tick_without_v_prints_no_log_lines(tmp_path):
    site, _ = a_site_with_mail(tmp_path)
    result = cli_tick(site)
    assert result.stderr == ""
    assert result.stdout.startswith("fetched 3, applied 1")


def test_no_token_reaches_the_log(tmp_path):
    site, _ = a_site_with_mail(tmp_path)
    campaign = site.campaign("bus1")
    tokens = [p.token for p in campaign.players] + [campaign.gm.token]
    boxes = Mailboxes(site)
    # a token in a `token` line, a wrong one, and the game master's command by plus-address
    boxes.deliver(
        person_mail(
            PLAYERS[1],
            site.identity.address,
            "[bus1] orders",
            f"token {tokens[1]}\nbuild office 21",
        )
    )
    boxes.deliver(
        person_mail(
            PLAYERS[2], site.identity.plus("bus1", "not-my-token"), "orders", "build office 22"
        )
    )
    boxes.deliver(
        person_mail(
            "Gil <gil@example.org>",
            site.identity.plus("bus1", tokens[-1]),
            "press",
            "message all Good luck",
        )
    )
    result = cli_tick(site, "-vv")
    assert "DEBUG referee." in result.stderr and "to campaign bus1: applied" in result.stderr
    assert "not-my-token" not in result.stderr
    for token in tokens:
        assert token not in result.stderr
