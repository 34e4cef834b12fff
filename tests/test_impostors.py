"""Nobody passes for someone else (issue 34, items 3 to 5): a name that could be taken for
another player's, the game master's or the referee's is refused wherever a name is given;
`unobserve` is confirmed from the observer's own address; a player's secret (a token, a
plus-address) never travels in press. Each case here was accepted before."""

import json
from datetime import UTC, datetime, timedelta

import yaml
from click.testing import CliRunner
from sites import (
    PLAYERS,
    Mailboxes,
    logged,
    make_site,
    person_mail,
    reload,
    text_of,
)
from test_campaign_life import deadline_game, last_text_after, run, write
from test_commands_maildir import delivered, observing
from test_identity import running

from referee import cache as disk_cache
from referee import mailbot
from referee.cli import main
from referee.service.tick import tick
from referee.settings import checks, confusables

T0 = datetime(2026, 11, 23, 9, 0, tzinfo=UTC)
GIL = "Gil <gil@example.org>"


def flat(msg) -> str:
    return " ".join(text_of(msg).split())


def open_game(tmp_path, site_name=None):
    """`cup`, a Bus game run by Gil and open for sign-up (four seats): Ann and Bob joined."""
    site = make_site(tmp_path)
    if site_name:
        path = site.config.path
        path.write_text(path.read_text().replace("name: Referee ", f"name: {site_name} "))
        site = reload(site)
    site.new_campaign("bus", "cup", [], seed=1, seats=4, gm=GIL)
    boxes = Mailboxes(site)
    for player in PLAYERS[:2]:
        name = player.partition(" ")[0]
        delivered(site, boxes, player, site.identity.address, f"join cup as {name}")
    boxes.new()
    return site, boxes


def joins(site, boxes, sender, line) -> str:
    """The answer to ``sender``'s join (flattened)."""
    delivered(site, boxes, sender, site.identity.address, line)
    [answer] = boxes.new(sender.partition("<")[2].rstrip(">"))
    return flat(answer)


def names(site, campaign_id="cup") -> list[str]:
    return [p.name for p in site.campaign(campaign_id).players]


def test_a_joiner_named_ann_with_a_cyrillic_a_beside_ann_is_refused(tmp_path):
    site, boxes = open_game(tmp_path)
    said = joins(site, boxes, "Mallory <mal@example.org>", "join cup as \u0410nn")
    assert "the name \u0410nn could be taken for Ann, who plays in cup" in said
    assert "choose a name of your own" in said
    assert names(site) == ["Ann", "Bob"]
    # in Greek capitals, in another case, spaced out: the same name to a reader
    for n, name in enumerate(("\u0391NN", "aNN", "A n n", "ａｎｎ")):
        said = joins(site, boxes, f"Mallory <mal{n}@example.org>", f'join cup as "{name}"')
        assert "could be taken for Ann, who plays in cup" in said, name
    assert names(site) == ["Ann", "Bob"]
    joins(site, boxes, "Mallory <mal@example.org>", "join cup as Mal")
    assert names(site) == ["Ann", "Bob", "Mal"]


def test_a_joiner_named_like_the_game_master_is_refused(tmp_path):
    site, boxes = open_game(tmp_path)
    # their press would have read "Message from Gil" beside the game master's own
    for n, name in enumerate(("Gil", "G\u0456l", "GIL")):
        said = joins(site, boxes, f"Mallory <mal{n}@example.org>", f"join cup as {name}")
        assert "could be taken for Gil, the game master of cup" in said, name
    assert names(site) == ["Ann", "Bob"]
    # the game master who plays in their own game may play under their own name
    joins(site, boxes, GIL, "join cup as Gil")
    assert names(site) == ["Ann", "Bob", "Gil"]


def test_a_joiner_named_referee_or_like_the_site_is_refused(tmp_path):
    site, boxes = open_game(tmp_path, site_name="Busmaster")
    words = ("Referee", "R\u0435f\u0435r\u0435\u0435", "Game Master", "GM", "postmaster")
    for n, name in enumerate((*words, "Admin", "\u0412usmaster")):
        said = joins(site, boxes, f"Mallory <mal{n}@example.org>", f'join cup as "{name}"')
        assert "which stands for the referee and those who run it" in said or (
            "is how a message is addressed to the game master" in said
        ), name
    assert names(site) == ["Ann", "Bob"]


def test_the_game_master_cannot_replace_a_player_with_a_look_alike(tmp_path):
    site, boxes = open_game(tmp_path)
    joins(site, boxes, PLAYERS[2], "join cup as Cid")
    gil = site.identity.plus("cup", site.campaign("cup").gm.token)
    delivered(site, boxes, GIL, gil, "replace Cid with B\u03bfb <bob2@example.org>", "cmd")
    [answer] = [m for m in boxes.new("gil@example.org") if "Your mail" in str(m["Subject"])]
    assert "the name B\u03bfb could be taken for Bob, who plays in cup" in flat(answer)
    assert names(site) == ["Ann", "Bob", "Cid"]
    # the seat's own player, come back at another address, keeps their name
    delivered(site, boxes, GIL, gil, "replace Cid with Cid <cid2@example.org>", "cmd")
    assert site.campaign("cup").players[2].address == "cid2@example.org"


def test_a_new_game_whose_players_look_alike_is_not_made(tmp_path):
    site = make_site(tmp_path)
    base = ["--config", str(site.config.path), "new", "bus"]
    for players, like in (
        (["Ann <ann@example.org>", "\u0410nn <mal@example.org>", PLAYERS[2]], "'Ann'"),
        (["Ann <ann@example.org>", "Gil <mal@example.org>", PLAYERS[2]], "'Gil'"),
        (["Ann <ann@example.org>", "Referee <mal@example.org>", PLAYERS[2]], "'referee'"),
    ):
        args = [*base, "g1", *(a for p in players for a in ("--player", p)), "--gm", GIL]
        done = CliRunner().invoke(main, args)
        assert done.exit_code != 0
        assert "could be taken for" in done.output and like in done.output, done.output
        assert not (site.data_root / "g1").exists()


def test_a_campaign_file_whose_players_look_alike_is_refused_by_check_and_tick(tmp_path):
    site = make_site(tmp_path)
    site.new_campaign("bus", "g1", PLAYERS, seed=1, gm=GIL)
    path = site.data_root / "g1" / "campaign.yaml"
    data = yaml.safe_load(path.read_text())
    data["players"][2]["name"] = "\u0410nn"  # edited by hand
    path.write_text(yaml.safe_dump(data, allow_unicode=True))
    done = CliRunner().invoke(main, ["--config", str(site.config.path), "check"])
    assert done.exit_code != 0
    assert "players[2].name '\u0410nn' could be taken for 'Ann'" in done.output, done.output
    report = tick(site, T0)
    assert report.skipped == ["g1"] and "could be taken for 'Ann'" in report.errors[0]


def test_unobserve_from_a_forged_sender_removes_nobody_and_the_observer_is_told(tmp_path):
    site, boxes = running(tmp_path)
    olga = "Olga <olga@example.org>"
    observing(site, boxes, olga, "g1")
    boxes.new()
    assert site.campaign("g1").config.observers == ("olga@example.org",)
    # a stranger writes 'unobserve g1' under Olga's address: she stays, and is asked
    hour = timedelta(hours=1)  # a stranger's answers are a few an hour
    delivered(site, boxes, olga, site.identity.address, "unobserve g1", now=T0 + hour)
    assert site.campaign("g1").config.observers == ("olga@example.org",)
    [asked] = boxes.new("olga@example.org")
    assert "Reply to stop observing" in str(asked["Subject"])
    said = flat(asked)
    assert "Someone, we hope you, asked from this address to stop observing g1" in said
    assert "If you did not ask, do nothing: you go on observing g1" in said
    reply = str(asked["Reply-To"])
    assert reply.startswith("referee+g1.unobserve-")
    # the forger never saw the code: a reply to the game's plain address, or with another
    # code, removes nobody, and says so to the address it came from
    forged = reply.replace("unobserve-", "unobserve-x")
    delivered(site, boxes, olga, forged, "Yes", "Re: stop", T0 + 2 * hour)
    [told] = boxes.new("olga@example.org")
    assert "The code in the address you wrote to is not one that holds" in flat(told)
    assert "write 'unobserve g1' to the referee for a new one" in flat(told)
    assert site.campaign("g1").config.observers == ("olga@example.org",)
    # Olga's own reply, with the code, stops her observing, and she is told
    delivered(site, boxes, olga, reply, "Yes, please.", "Re: stop", T0 + 3 * hour)
    [told] = boxes.new("olga@example.org")
    assert "You no longer observe g1." in flat(told)
    assert site.campaign("g1").config.observers == ()
    # the code is used up: the same reply again is told so
    delivered(site, boxes, olga, reply, "Yes, please.", "Re: stop again", T0 + 4 * hour)
    assert "not one that holds" in flat(boxes.new("olga@example.org")[0])


def test_a_token_or_plus_address_in_press_is_masked_and_the_sender_told_why(mailrig, tmp_path):
    """Over the real servers: Ann pastes her own plus-address (her token is its password)
    and Bob's token into press; neither reaches anyone, nor the game's history."""
    site, (ann, bob, cid), gm = deadline_game(mailrig, tmp_path)
    for person in (ann, bob, cid, gm):
        person.new_mail()
    campaign = site.campaign("dl")
    own = site.identity.plus("dl", campaign.players[0].token)
    bob_token = campaign.players[1].token
    lines = (
        f"message Bob write to me at {own.upper()} any time\n"
        f"message all Bob's token is {bob_token}, and mine is {campaign.players[0].token}."
    )
    write(mailrig, ann, own, lines)
    run(site, T0)
    press = [
        mailbot.body(m)
        for p in (bob, cid)
        for m in p.new_mail()
        if "Message from Ann" in str(m["Subject"])
    ]
    assert len(press) == 3  # two to Bob, one to Cid
    secrets = [campaign.players[0].token, bob_token]
    for text in press:
        assert not any(secret in text.lower() for secret in secrets), text
        assert "+dl." not in text.lower()
    assert any("write to me at [hidden] any time" in " ".join(t.split()) for t in press)
    assert any("Bob's token is [hidden], and mine is [hidden]." in t for t in press)
    answer = " ".join(last_text_after(ann, "Your mail").split())
    assert "held a token or a player's address to the referee" in answer
    assert "shown as [hidden]" in answer
    history = " ".join(str(t) for r in campaign.records() for a in r.actions for t in a.told())
    assert "Bob's token is [hidden]" in history and bob_token not in history


def test_the_look_alike_table_shipped_is_unicodes_published_one():
    """The referee reads Unicode's table (UTS #39) from a compact form made from the file
    Unicode publishes (``python3 -m referee.settings.confusables``): the two agree, and a
    Cyrillic or Greek letter is taken for its Latin look-alike by it."""
    published = confusables.PUBLISHED.read_text("utf-8-sig")
    assert confusables.SHIPPED.read_text("ascii") == confusables.shipped_text(published)
    assert len(confusables.prototypes(published)) > 6000
    assert checks.look_alike("\u0410nn", ["Ann"]) == "Ann"  # a Cyrillic A
    assert checks.look_alike("B\u03bfb", ["Bob"]) == "Bob"  # a Greek o


def test_a_tick_checks_a_campaigns_names_as_it_reads_them_and_remembers_nothing_of_them(
    tmp_path,
):
    """Names are checked each time a campaign is read (a fresh process reads the table in a
    millisecond), so nothing of them is kept in the referee's cache; a name edited by hand
    is caught at the next tick."""
    site = make_site(tmp_path)
    site.new_campaign("bus", "g1", PLAYERS, seed=1, gm=GIL)
    ann = site.campaign("g1").players[0]
    Mailboxes(site).deliver(
        person_mail(ann.formatted(), site.identity.plus("g1", ann.token), "o", "build house 15")
    )
    report = tick(site, T0)
    assert report.skipped == [] and report.applied == 1, report.errors
    assert "house" in json.dumps(logged(site.campaign("g1"))[-1])
    cached = [p.name for p in disk_cache.cache_dir().rglob("*")]
    assert not any("apart" in name for name in cached), cached

    path = site.data_root / "g1" / "campaign.yaml"
    data = yaml.safe_load(path.read_text())
    data["players"][2]["name"] = "\u0410nn"  # edited by hand
    path.write_text(yaml.safe_dump(data, allow_unicode=True))
    report = tick(site, T0 + timedelta(minutes=2))
    assert report.skipped == ["g1"] and "could be taken for 'Ann'" in report.errors[0]
