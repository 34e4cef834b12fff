"""A broken campaign is broken alone (issue 22, item 3): with one campaign's files broken in
any of a dozen ways, every other campaign plays on, every `status`, `list` and mail that names
no game is answered usefully, the mail sent to the broken campaign is held (not quarantined,
its sender told that the game master is looking at it), and it is applied, in the order it
came, by the first tick after the repair."""

import json
from email.utils import parseaddr

import pytest
from sites import PLAYERS, Mailboxes, make_site, person_mail, text_of

from referee.service.tick import tick

# ticks over a dozen broken campaigns, and crash kills: left out of --fast
pytestmark = pytest.mark.slow


def yaml_edit(old: str, new: str, count: int = 1):
    def edit(text: str) -> str:
        assert old in text, old
        return text.replace(old, new, count)

    return edit


def appended(line: str):
    return lambda text: text + line


# each: what is done to the broken campaign's campaign.yaml (a function of its text, or
# bytes, or None to remove it), or, for "damaged log", to its log
BREAKAGES = {
    "invalid YAML": appended("players: [unclosed\n"),
    "tabs": yaml_edit("\n  ", "\n\t", count=-1),
    "bad seed": yaml_edit("seed: 2", "seed: two"),
    "unknown game": yaml_edit("game: bus", "game: chess"),
    "unknown key": appended("colour: red\n"),
    "wrong types": yaml_edit("status: running", "status: [running]"),
    "a list, not a mapping": lambda text: "- " + text.replace("\n", "\n  "),
    "missing file": None,
    "empty file": lambda text: "",
    "binary garbage": lambda text: bytes(range(256)) * 4,
    "bad deadlines": appended("deadlines: {timezone: Mars/Olympus, hours: -3}\n"),
    "bad options": yaml_edit("options:\n", "options:\n  edition: 1066\n"),
    "damaged log": "log",
}


def mail(boxes, sender, to, text, subject="orders"):
    msg = person_mail(sender, to, subject, text)
    boxes.deliver(msg)
    return str(msg["Message-ID"])


@pytest.mark.parametrize("breakage", BREAKAGES)
def test_one_broken_campaign_stops_nothing_else_and_its_mail_is_applied_after_repair(
    tmp_path, breakage
):
    site = make_site(tmp_path)
    gil = "Gil <gil@example.org>"
    site.new_campaign("bus", "good", PLAYERS, seed=1, gm=gil)
    site.new_campaign("bus", "bad", PLAYERS, seed=2, gm=gil)
    site.new_campaign("bus", "signup", [], seats=3, gm=gil)
    assert not tick(site).errors
    boxes = Mailboxes(site)
    bad, good = site.campaign("bad"), site.campaign("good")
    [first] = bad.table().awaiting
    player = bad.players[first.seat]
    to_bad = site.identity.plus("bad", player.token)
    # the player wrote to the campaign before (so that its log names them too)
    mail(boxes, player.formatted(), to_bad, "history")
    assert not tick(site).errors
    boxes.new()

    settings, log = bad.root / "campaign.yaml", bad.root / "log.jsonl"
    kept = {settings: settings.read_bytes(), log: log.read_bytes()}
    change = BREAKAGES[breakage]
    if change is None:
        settings.unlink()
    elif change == "log":
        log.write_bytes(b"{not json\n" + kept[log])
    else:
        broken = change(kept[settings].decode())
        settings.write_bytes(broken if isinstance(broken, bytes) else broken.encode())

    # orders to the broken campaign, in two mails, and a stranger's mail to it
    held = [
        mail(boxes, player.formatted(), to_bad, "build house 15"),
        mail(boxes, player.formatted(), to_bad, "message all sorry for the wait"),
    ]
    mail(boxes, "Eve <eve@example.net>", site.identity.plus("bad", "guessed1"), "pass")
    # the game-less mails: a player's status, a stranger's list, a player's plain hello
    other = good.players[(first.seat + 1) % 3]  # who never wrote to the broken campaign
    mail(boxes, player.formatted(), site.identity.address, "status", subject="?")
    mail(boxes, "Zoe <zoe@example.net>", site.identity.address, "list", subject="games?")
    mail(boxes, other.formatted(), site.identity.address, "hello there", subject="hi")
    # and the other campaign plays on
    [turn] = good.table().awaiting
    mover = good.players[turn.seat]
    mail(boxes, mover.formatted(), site.identity.plus("good", mover.token), "build house 15")

    report = tick(site)
    assert report.errors and all("bad" in e for e in report.errors), report.errors
    assert not list((site.state_dir / "quarantine").glob("*")), "nothing quarantined"
    assert [o.text for r in site.campaign("good").records() for o in r.orders] == ["build house 15"]
    told = {}
    for msg in boxes.new():
        to = parseaddr(str(msg["To"]))[1].lower()
        told.setdefault(to, []).append((str(msg["Subject"]), text_of(msg)))
    # the player of the broken campaign: kept, the game master is looking at it
    to_player = [t for s, t in told[player.address] if "[bad]" in s]
    assert len(to_player) == 2 and all("game master" in t and "kept" in t for t in to_player)
    assert not any("could not be read" in s for m in told.values() for s, _ in m)
    assert not any("eve@" in to for to in told), "a stranger learns nothing of it"
    # status names the broken campaign as unavailable, and tells of the good one
    [status] = [" ".join(t.split()) for s, t in told[player.address] if s == "Your games"]
    assert "good (Bus" in status and "bad: cannot be read just now" in status
    assert "game master has been told" in status
    # (a campaign.yaml gone or emptied no longer names those who never wrote to it)
    [hello] = [t for s, t in told[other.address] if s == "Your games"]
    assert "good (Bus" in hello
    [listed] = [t for s, t in told["zoe@example.net"]]
    assert "signup" in listed
    outcomes = [json.loads(line) for line in (site.state_dir / "received.jsonl").open()]
    assert sum(o["outcome"].startswith("held:") for o in outcomes) == 3

    # still broken: still held, nobody told again
    report = tick(site)
    assert report.errors and all("bad" in e for e in report.errors)
    assert len(list((site.state_dir / "held" / "bad").glob("*.eml"))) == 3
    assert [m for m in boxes.new() if "gil@" not in str(m["To"])] == []

    for path, data in kept.items():  # mended
        path.write_bytes(data)
    report = tick(site)
    assert not report.errors, report.errors
    records = site.campaign("bad").records()
    applied = [r.message_id for r in records if r.message_id in held]
    assert applied == held  # in the order they came
    [orders] = [r for r in records if r.message_id == held[0]]
    assert [o.text for o in orders.orders] == ["build house 15"]
    assert not (site.state_dir / "held" / "bad").exists()
    told = boxes.new()
    assert any("sorry for the wait" in text_of(m) for m in told), "the message is relayed"
    assert any("eve@example.net" in str(m["To"]) for m in told), "the stranger answered now"
    assert not tick(site).errors


@pytest.mark.parametrize(
    "crash_at", [("held", 1), ("taken", 1), ("applied", 1), ("taken", 2), ("applied", 2)]
)
def test_a_tick_killed_while_holding_or_releasing_loses_nothing_and_applies_once(
    tmp_path, crash_at
):
    """Killed in the tick that holds the mail (1) or in the one that applies it (2)."""
    from test_referee_crash import tick_process

    point, which = crash_at
    site = make_site(tmp_path)
    site.new_campaign("bus", "bad", PLAYERS, seed=2)
    assert not tick(site).errors
    boxes = Mailboxes(site)
    campaign = site.campaign("bad")
    [first] = campaign.table().awaiting
    player = campaign.players[first.seat]
    settings = campaign.root / "campaign.yaml"
    kept = settings.read_bytes()
    settings.write_bytes(kept + b"colour: red\n")
    held = mail(
        boxes, player.formatted(), site.identity.plus("bad", player.token), "build house 15"
    )
    for number in (1, 2):
        if number == 2:
            settings.write_bytes(kept)
        if number == which:
            assert tick_process(tmp_path, point).returncode == 137
        tick_process(tmp_path)
    tick_process(tmp_path)
    records = [r for r in site.campaign("bad").records() if r.message_id == held]
    assert len(records) == 1 and [o.text for o in records[0].orders] == ["build house 15"]
    assert not (site.state_dir / "held" / "bad").exists()
    kept_notices = [m for m in boxes.sent() if "Your mail is kept" in str(m["Subject"])]
    assert len({str(m["Message-ID"]) for m in kept_notices}) == 1
