"""Players' commands over real mail servers (the rig's Dovecot and SMTP): `status` from a
registered address lists every game it plays, `message gm` reaches the game master."""

from sites import confirmation_reply, person_mail, text_of
from test_referee_by_mail import mail_site

from referee import mailbot
from referee.service.tick import tick


def mails_of(rig, address: str) -> list:
    return [mailbot.parse(raw) for raw in rig.read_mails(address)]


def test_status_from_a_registered_address_lists_both_of_its_games(mailrig, tmp_path):
    site = mail_site(tmp_path, mailrig)
    ann, bob, cid = (mailrig.new_account(n) for n in ("ann", "bob", "cid"))
    trio = [f"Ann <{ann.address}>", f"Bob <{bob.address}>", f"Cid <{cid.address}>"]
    site.new_campaign("bus", "north", trio, seed=1)
    site.new_campaign("bus", "south", trio[1:] + trio[:1], seed=2)
    assert not tick(site).errors
    # a fresh mail (no reply, no token, no game named) with one word in it
    mail = person_mail(f"Ann <{ann.address}>", site.identity.address, "my games?", "games\n")
    mailrig.send(mail.as_bytes(), site.identity.address, ann.address)
    assert not tick(site).errors
    [answer] = [m for m in mails_of(mailrig, ann.address) if "Your games" in str(m["Subject"])]
    text = " ".join(text_of(answer).split())
    assert "north (Bus): running" in text and "south (Bus): running" in text
    assert "Awaited from you: First buildings" in text  # Ann starts north
    assert str(answer["To"]).endswith(f"<{ann.address}>") or ann.address in str(answer["To"])
    assert "token" not in text.lower()
    # a fresh mail with no command at all from her address: the same answer, not a refusal
    mail = person_mail(f"Ann <{ann.address}>", site.identity.address, "hello", "Hi there\n")
    mailrig.send(mail.as_bytes(), site.identity.address, ann.address)
    assert not tick(site).errors
    answers = [m for m in mails_of(mailrig, ann.address) if "Your games" in str(m["Subject"])]
    assert len(answers) == 2


def test_message_gm_reaches_the_game_master_only(mailrig, tmp_path):
    site = mail_site(tmp_path, mailrig)
    ann, bob, cid, gina = (mailrig.new_account(n) for n in ("ann", "bob", "cid", "gina"))
    site.new_campaign(
        "bus",
        "cup",
        [f"Ann <{ann.address}>", f"Bob <{bob.address}>", f"Cid <{cid.address}>"],
        seed=1,
        gm=f"Gina <{gina.address}>",
    )
    assert not tick(site).errors
    [welcome] = [m for m in mails_of(mailrig, ann.address) if "Welcome" in str(m["Subject"])]
    reply = mailbot.reply(welcome, "Ann", ann.address, ["message gm May I pause over Christmas?"])
    mailrig.send(reply.as_bytes(), str(reply["To"]), ann.address)
    assert not tick(site).errors
    [press] = [m for m in mails_of(mailrig, gina.address) if "Message from" in str(m["Subject"])]
    assert str(press["Subject"]) == "[cup] Message from Ann"
    assert "May I pause over Christmas?" in text_of(press)
    assert not [m for m in mails_of(mailrig, bob.address) if "Message" in str(m["Subject"])]
    [answer] = [m for m in mails_of(mailrig, ann.address) if "was read" in text_of(m)]
    assert "Your message goes to the game master." in text_of(answer)


def test_an_observer_gets_round_reports_and_no_token_or_private_press(mailrig, tmp_path):
    """(The result goes out as the last round's report: see test_observers_get_the_result.)"""
    from test_referee_by_mail import MailPlayer

    site = mail_site(tmp_path, mailrig)
    players = [MailPlayer(mailrig, n, s) for s, n in enumerate(["Ann", "Bob", "Cid"])]
    olga = mailrig.new_account("olga")
    site.new_campaign("bus", "open", [f"{p.name} <{p.account.address}>" for p in players], seed=1)
    referee = site.identity.address
    mail = person_mail(f"Olga <{olga.address}>", referee, "watching", "observe open\n")
    mailrig.send(mail.as_bytes(), referee, olga.address)
    assert not tick(site).errors
    # confirmed by a reply from her address (issue 22, item 4)
    confirm = confirmation_reply(mails_of(mailrig, olga.address), f"Olga <{olga.address}>")
    mailrig.send(confirm.as_bytes(), str(confirm["To"]), olga.address)
    assert not tick(site).errors
    [said] = [m for m in mails_of(mailrig, olga.address) if "Observing" in str(m["Subject"])]
    assert "You now observe open" in " ".join(text_of(said).split())
    # a private message on the way, and play on through the setup into round 1
    ann = players[0]
    [welcome] = [m for m in ann.new_mail() if "Welcome" in str(m["Subject"])]
    secret = mailbot.reply(welcome, "Ann", ann.account.address, ["message bob our secret plan"])
    mailrig.send(secret.as_bytes(), str(secret["To"]), ann.account.address)
    ann.received.remove(welcome)
    ann.last_uid = 0  # she answers her welcome with orders next
    for _ in range(80):
        for player in players:
            player.play()
        assert not tick(site).errors
        if site.campaign("open").table().round >= 1:
            break
    reports = [m for m in mails_of(mailrig, olga.address) if "for observers" in str(m["Subject"])]
    assert [str(m["Subject"]) for m in reports] == ["[open] Round 0: the report for observers"]
    assert "Standings" in text_of(reports[0]) or "Clock:" in text_of(reports[0])
    everything = "".join(m.as_string() for m in reports)
    for player in site.campaign("open").players:
        assert player.token not in everything
    assert "our secret plan" not in everything
    assert all(str(m["Reply-To"]) == referee for m in reports)
