"""The referee against real servers: Dovecot (IMAP) and aiosmtpd (SMTP) on loopback.

Players read their mail over IMAP and answer over SMTP, the way a mail program does."""

import os
import random
import subprocess
import sys

from aiosmtpd.controller import Controller
from mailrig.rig import MaildirDelivery, free_port
from sites import logged

from referee import mailbot
from referee.bus.engine import RULES
from referee.service.site import Site
from referee.service.tick import tick
from referee.settings.site import load_config
from referee.store.rest import TickLock


def mail_site(root, rig, smtp_port=None):
    """A site whose inbox is IMAP and whose outbox is SMTP, both on the rig."""
    referee = rig.new_account("referee")
    os.environ["REFEREE_TEST_IMAP_PASSWORD"] = referee.password
    (root / "referee.yaml").write_text(f"""\
data_root: games
referee:
  address: {referee.address}
  name: Test Referee
inbox:
  type: imap
  host: 127.0.0.1
  port: {rig.imap_port}
  security: none
  user: {referee.address}
  password_env: REFEREE_TEST_IMAP_PASSWORD
outbox:
  type: smtp
  host: 127.0.0.1
  port: {smtp_port or rig.smtp_port}
  security: none
""")
    return Site(load_config(root / "referee.yaml"))


class MailPlayer:
    """A player with a mailbox on the rig: reads new mail over IMAP, answers over SMTP."""

    def __init__(self, rig, name, seed):
        self.rig, self.name = rig, name
        self.account = rig.new_account(name.lower())
        self.rng = random.Random(seed)
        self.last_uid = 0
        self.received = []

    def new_mail(self):
        with self.rig.imap(self.account.address) as client:
            client.select_folder("INBOX", readonly=True)
            uids = [
                u for u in client.search(["UID", f"{self.last_uid + 1}:*"]) if u > self.last_uid
            ]
            data = client.fetch(uids, ["BODY.PEEK[]"]) if uids else {}
        self.last_uid = max([self.last_uid, *uids])
        mails = [mailbot.parse(data[u][b"BODY[]"]) for u in sorted(uids)]
        self.received += mails
        return mails

    def play(self) -> bool:
        answer = mailbot.answer_latest(
            self.new_mail(), self.name, self.account.address, self.rng.choice
        )
        if answer is None:
            return False
        self.rig.send(answer.as_bytes(), str(answer["To"]), self.account.address)
        return True


def game_by_mail(rig, root, game, campaign_id, seed, ticks, options=None):
    """Ann, Bob and Cid, with mailboxes on the rig, play a whole game by mail (with the
    game's ``options``): they answer their mail and the referee ticks until the game is
    over."""
    site = mail_site(root, rig)
    players = [MailPlayer(rig, name, s) for s, name in enumerate(["Ann", "Bob", "Cid"])]
    site.new_campaign(
        game,
        campaign_id,
        [f"{p.name} <{p.account.address}>" for p in players],
        seed=seed,
        options=options,
    )
    site.outbox.flush(site.config.make_sender())
    for _ in range(ticks):
        for player in players:
            player.play()
        report = tick(site)
        assert not report.errors, report.errors
        if site.campaign(campaign_id).status == "finished":
            break
    campaign = site.campaign(campaign_id)
    assert campaign.status == "finished"
    return campaign, players


def replayed(rules, seed, records, options=None):
    """The orders of a campaign's log applied straight to the engine."""
    state = rules.new_game(options or {}, ["Ann", "Bob", "Cid"], seed)
    for record in records:
        for seat, text, _how in record.get("orders", ()):
            [entry] = rules.parse(text)
            state, _ = rules.apply(state, seat, entry.alternatives[0])
    return state


def test_a_three_player_game_of_bus_played_to_its_end_by_email(mailrig, tmp_path):
    campaign, players = game_by_mail(mailrig, tmp_path, "bus", "e2e", 5, 800)
    table = campaign.table()
    # every order came by mail, as a reply quoting the referee's report under a signature
    records = logged(campaign)
    mail_orders = [o for r in records if r.get("kind") == "mail" for o in r["orders"]]
    assert len(mail_orders) > 50
    raw_in = sorted((campaign.root / "mail" / "in").glob("*.eml"))
    sample = mailbot.body(mailbot.parse(raw_in[len(raw_in) // 2].read_bytes()))
    sample = sample.replace("\r\n", "\n")  # as it came through the servers
    assert "wrote:" in sample and "\n> " in sample and "\n-- \n" in sample
    # the same orders applied straight to the engine give the same final state
    state = replayed(RULES, 5, records)
    assert RULES.to_data(state) == RULES.to_data(table.state)
    assert RULES.result(state) is not None
    # everyone got the final report over IMAP
    for player in players:
        player.new_mail()
        final = [m for m in player.received if "The game is over" in str(m["Subject"])]
        assert len(final) == 1 and "THE GAME IS OVER" in mailbot.body(final[0])


def test_smtp_down_keeps_the_mail_queued_until_the_next_tick(mailrig, tmp_path):
    port = free_port()
    site = mail_site(tmp_path, mailrig, smtp_port=port)
    ann, bob, cid = (mailrig.new_account(n) for n in ("ann", "bob", "cid"))
    site.new_campaign(
        "bus",
        "down",
        [f"{n} <{a.address}>" for n, a in zip(["Ann", "Bob", "Cid"], (ann, bob, cid))],
        seed=1,
    )
    report = tick(site)
    assert report.sent == 0 and report.waiting == 3
    assert any("sending stopped" in e for e in report.errors)
    assert mailrig.read_mails(ann.address) == []
    server = Controller(MaildirDelivery(mailrig), hostname="127.0.0.1", port=port)
    server.start()
    try:
        report = tick(site)
    finally:
        server.stop()
    assert report.sent == 3 and report.waiting == 0 and not report.errors
    [welcome] = mailrig.read_mails(ann.address)
    assert b"Welcome to Bus, Ann" in welcome


def test_two_ticks_at_once_the_second_exits_at_once_with_a_clear_message(tmp_path):
    from sites import make_site

    site = make_site(tmp_path)
    with TickLock(site.state_dir / "tick.lock"):
        done = subprocess.run(
            [sys.executable, "-m", "referee", "--config", str(site.config.path), "tick"],
            capture_output=True,
            text=True,
            timeout=60,
            env={**os.environ, "PYTHONPATH": os.getcwd()},
        )
    assert done.returncode == 75
    assert "another tick" in done.stderr.lower() and str(os.getpid()) in done.stderr
    done = subprocess.run(
        [sys.executable, "-m", "referee", "--config", str(site.config.path), "tick"],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "PYTHONPATH": os.getcwd()},
    )
    assert done.returncode == 0 and "fetched 0" in done.stdout


def test_a_digest_read_back_over_imap_carries_the_map_as_png_and_inline_html(mailrig, tmp_path):
    import io

    from PIL import Image

    site = mail_site(tmp_path, mailrig)
    ann, bob = MailPlayer(mailrig, "Ann", 1), MailPlayer(mailrig, "Bob", 2)
    cid_player = MailPlayer(mailrig, "Cid", 3)
    site.new_campaign(
        "bus", "pics", [f"{p.name} <{p.account.address}>" for p in (ann, bob, cid_player)], seed=1
    )
    site.outbox.flush(site.config.make_sender())
    turns = []
    while not turns:  # Ann (the start player) builds twice
        assert ann.play()
        assert not tick(site).errors
        turns = [m for m in bob.new_mail() if "your turn" in str(m["Subject"])]
    [digest] = turns
    # the plain text comes first, then the HTML alternative with the map inline: the PNG
    # once, which a plain-text client shows as an attachment by its file name
    kinds = [p.get_content_type() for p in digest.walk()]
    assert kinds == [
        "multipart/alternative",
        "text/plain",
        "multipart/related",
        "text/html",
        "image/png",
    ]
    html = digest.get_body(("html",)).get_content()
    [inline] = [p for p in digest.walk() if p.get_content_type() == "image/png"]
    assert f'src="cid:{inline["Content-ID"].strip("<>")}"' in html
    assert inline.get_filename().endswith(".png")
    image = Image.open(io.BytesIO(inline.get_content()))
    image.verify()
    # a palette image, compressed: well under the 150 KB a mail may weigh
    assert image.format == "PNG" and image.mode == "P" and image.size[0] <= 1200  # a phone's
    assert len(inline.get_content()) < 100_000 and len(digest.as_bytes()) < 150_000
    assert "YOUR DECISION" in mailbot.body(digest) and "Your decision" in html
