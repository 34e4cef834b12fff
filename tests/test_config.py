"""The site configuration: the embedded default, every mistake reported with its fix,
secrets only from the environment, and mailboxes made from it that work with real servers."""

import re
from pathlib import Path

import pytest

from referee.mail.compose import compose
from referee.mail.imap import ImapInbox
from referee.mail.inbox import MaildirInbox
from referee.mail.outbox import MaildirSender, SmtpSender
from referee.settings.site import (
    DEFAULT_CONFIG,
    ConfigError,
    ImapSettings,
    MaildirInboxSettings,
    SmtpSettings,
    load_config,
    write_default_config,
)


def write(tmp_path, text: str):
    """A referee.yaml of ``text``, with the referee's address unless it sets one."""
    path = tmp_path / "referee.yaml"
    path.write_text(
        text if "referee:" in text else "referee: {address: referee@example.org}\n" + text
    )
    return path


def problems(tmp_path, text: str) -> str:
    with pytest.raises(ConfigError) as err:
        load_config(write(tmp_path, text))
    return str(err.value)


def with_example(section: str) -> str:
    """The default config with the commented example of ``section`` put in place of its default
    (without its ca_file line, which names a file to make)."""
    text = re.sub(
        rf"^{section}:\n(  .*\n)+",
        "",
        DEFAULT_CONFIG.replace("#   ca_file: /path/to/ca.pem", ""),
        flags=re.M,
    )
    return re.sub(
        rf"^# ({section}:\n)((#   .*\n)+)",
        lambda m: m.group(1) + re.sub(r"^# ", "", m.group(2), flags=re.M),
        text,
        flags=re.M,
    )


def test_the_default_config_runs_on_local_maildirs(tmp_path):
    path = write_default_config(tmp_path / "site")
    config = load_config(path)
    site = tmp_path / "site"
    assert (config.data_root, config.referee_address, config.referee_name) == (
        site / "games",
        "referee@localhost",
        "Referee",
    )
    assert config.inbox == MaildirInboxSettings(site / "mail" / "inbox", "processed")
    for maildir in ("inbox", "outbox"):
        assert all((site / "mail" / maildir / sub).is_dir() for sub in ("cur", "new", "tmp"))
    assert (site / "games").is_dir() and (site / "mail" / "queue" / "sent").is_dir()
    assert isinstance(config.make_inbox(), MaildirInbox) and isinstance(
        config.make_sender(), MaildirSender
    )

    outbox = config.make_outbox()
    outbox.queue(
        compose(
            from_address=config.referee_address,
            from_name=config.referee_name,
            to=["alice@localhost"],
            subject="hello",
            text="hi\n",
        )
    )
    assert len(outbox.flush(config.make_sender()).sent) == 1
    assert len(list((site / "mail" / "outbox" / "new").iterdir())) == 1


def test_the_default_config_is_commented_for_the_game_master(tmp_path):
    text = write_default_config(tmp_path).read_text()
    assert text == DEFAULT_CONFIG
    assert "password_env" in text and "Passwords and tokens are never written here" in text


def test_an_existing_config_is_never_overwritten(tmp_path):
    (tmp_path / "referee.yaml").write_text("data_root: mine\n")
    with pytest.raises(ConfigError, match="already exists"):
        write_default_config(tmp_path)
    assert (tmp_path / "referee.yaml").read_text() == "data_root: mine\n"


def test_the_commented_imap_and_smtp_examples_are_valid(tmp_path):
    config = load_config(write(tmp_path, with_example("inbox")))
    assert config.inbox == ImapSettings(
        host="imap.example.org",
        port=993,
        security="tls",
        user="referee@example.org",
        password_env="REFEREE_IMAP_PASSWORD",
        folder="INBOX",
        processed_folder="processed",
        state=tmp_path / "mail" / "imap-state.json",
        ca_file=None,
    )
    config = load_config(write(tmp_path, with_example("outbox")))
    assert config.outbox == SmtpSettings(
        host="smtp.example.org",
        port=587,
        security="starttls",
        user="referee@example.org",
        password_env="REFEREE_SMTP_PASSWORD",
        ca_file=None,
    )
    assert config.queue_dir == tmp_path / "mail" / "queue"


def test_ports_default_by_security(tmp_path):
    config = load_config(
        write(
            tmp_path,
            """
inbox: {type: imap, host: h, user: u, password_env: P, security: starttls}
outbox: {type: smtp, host: h, security: tls}
""",
        )
    )
    assert (config.inbox.port, config.outbox.port, config.outbox.user) == (143, 465, None)


def test_a_password_in_the_file_is_refused_without_repeating_it(tmp_path):
    message = problems(tmp_path, "inbox: {type: imap, host: h, user: u, password: hunter2}\n")
    assert "inbox.password: passwords are not kept in the config file" in message
    assert "password_env: REFEREE_IMAP_PASSWORD" in message
    assert "hunter2" not in message


def test_password_env_must_name_a_variable(tmp_path):
    message = problems(
        tmp_path, "outbox: {type: smtp, host: h, user: u, password_env: 'hunter 2!'}\n"
    )
    assert "outbox.password_env: names the environment variable that holds the password" in message
    assert "hunter 2!" not in message


def test_every_problem_is_listed_with_its_fix(tmp_path):
    message = problems(
        tmp_path,
        """
data_root: [games]
referee: {address: 'not an address', nmae: X}
inbox: {type: imap, port: 99999, security: ssl, folder: INBOX}
outbox: {type: carrier-pigeon}
colour: blue
""",
    )
    expected = [
        "colour: unknown setting; known settings: data_root, inbox, language, limits, outbox, "
        "referee",
        "referee.nmae: unknown setting; did you mean `name`?",
        "referee.address: 'not an address' is not a mail address like referee@example.org",
        "inbox.security: 'ssl' is not one of: tls, starttls, none",
        "inbox.port: expected a port number from 1 to 65535, found 99999",
        "inbox.host: missing; add `host: ...` to the inbox section",
        "inbox.user: missing",
        "inbox.password_env: missing",
        "outbox.type: 'carrier-pigeon' is not one of: maildir, smtp",
        "data_root: expected a text value, found a list",
    ]
    for line in expected:
        assert line in message
    assert f"has {len(expected)} problem(s)" in message


def test_a_missing_ca_file_is_named(tmp_path):
    message = problems(tmp_path, "outbox: {type: smtp, host: h, ca_file: certs/ca.pem}\n")
    assert f"outbox.ca_file: {tmp_path / 'certs/ca.pem'} does not exist" in message


def test_a_plus_in_the_referee_address_is_refused(tmp_path):
    assert "contains '+'" in problems(tmp_path, "referee: {address: ref+games@example.org}\n")


def test_the_referees_name_is_held_to_what_a_players_name_may_be(tmp_path):
    # it is the display name on every mail the referee sends: an encoded word or a line
    # break in it would reach every header it goes into
    said = problems(tmp_path, "referee: {address: r@example.org, name: '=?utf-8?q?Ref?='}\n")
    assert "referee.name" in said and "write the name itself" in said
    said = problems(tmp_path, 'referee: {address: r@example.org, name: "Ref\\nBcc: x"}\n')
    assert "referee.name" in said and "line break" in said
    config = load_config(write(tmp_path, "referee: {address: r@example.org, name: Bus (North)}\n"))
    assert config.referee_name == "Bus (North)"


def test_not_yaml_says_where(tmp_path):
    assert re.search(
        r"is not valid YAML at line 3, column \d+",
        problems(tmp_path, "referee:\n  name: x\n   address: [\n"),
    )


def test_a_list_instead_of_sections(tmp_path):
    (tmp_path / "referee.yaml").write_text("- inbox\n")
    with pytest.raises(
        ConfigError, match="the file: expected a section of `key: value` lines, found a list"
    ):
        load_config(tmp_path / "referee.yaml")


def test_a_missing_config_says_how_to_make_one(tmp_path):
    with pytest.raises(ConfigError, match="does not exist; `referee init` writes one"):
        load_config(tmp_path / "referee.yaml")


def test_paths_are_relative_to_the_config_file(tmp_path):
    config = load_config(
        write(tmp_path, "data_root: /srv/games\ninbox: {path: ~/Maildir}\noutbox: {queue: q}\n")
    )
    assert config.data_root.as_posix() == "/srv/games"
    assert config.inbox.path == Path("~/Maildir").expanduser()
    assert config.queue_dir == tmp_path / "q"


def test_a_section_left_out_keeps_its_default_folders_beside_the_config(tmp_path, monkeypatch):
    """Without an inbox or outbox section, their default folders were relative to wherever
    the referee ran: `referee --config /srv/site/referee.yaml tick` from another folder
    queued and delivered mail there, and looked for the inbox there."""
    monkeypatch.chdir(tmp_path.parent)  # not the site's folder
    config = load_config(write(tmp_path, ""))
    assert config.inbox.path == tmp_path / "mail" / "inbox"
    assert config.outbox.path == tmp_path / "mail" / "outbox"
    assert config.queue_dir == tmp_path / "mail" / "queue"
    assert config.data_root == tmp_path / "games"


@pytest.mark.parametrize(
    "settings, said",
    [
        ("outbox: {path: mail/inbox}\n", "outbox.path must not be the same folder as inbox.path"),
        (
            "outbox: {queue: mail/outbox}\n",
            "outbox.path must not be the same folder as outbox.queue",
        ),
        ("data_root: state\n", "state must not be the same folder as data_root"),
        ("data_root: mail/inbox\n", "inbox.path must not be the same folder as data_root"),
    ],
)
def test_two_folders_of_the_site_that_are_one_are_refused(tmp_path, settings, said):
    """With the outbox Maildir the inbox's, the referee took its own mail as come in, and
    moved it to the processed folder: the players never got any (a local mail program reads
    the outbox). The other pairs mixed what each keeps. 'referee check' said ok to all."""
    text = problems(tmp_path, settings)
    assert said in text and "give each its own" in text
    folders = "data_root: games\ninbox: {path: mail/inbox}\noutbox: {path: mail/outbox}\n"
    assert load_config(write(tmp_path, folders)).queue_dir == tmp_path / "mail" / "queue"


def test_a_missing_secret_is_named_when_the_mailbox_is_opened(tmp_path, monkeypatch):
    monkeypatch.delenv("REFEREE_TEST_PW", raising=False)
    config = load_config(
        write(tmp_path, "inbox: {type: imap, host: h, user: u, password_env: REFEREE_TEST_PW}\n")
    )
    with pytest.raises(ConfigError) as err:
        config.make_inbox()
    assert "variable REFEREE_TEST_PW (named by inbox.password_env in" in str(err.value)
    assert f"add the line REFEREE_TEST_PW=<the password> to {tmp_path / 'referee.env'}" in str(
        err.value
    )


def test_referee_env_is_read_as_written_for_passwords_and_tokens_alike(tmp_path, monkeypatch):
    """referee.env is KEY=value, read by the referee and by no shell: a shell read
    'open sesame' as the command 'sesame' (the token unset) and 'ab$cd%x' as 'ab%x'."""
    for name in ("REFEREE_TEST_PW", "REFEREE_TEST_GM", "REFEREE_TEST_QUOTED", "REFEREE_TEST_NO"):
        monkeypatch.delenv(name, raising=False)
    config = load_config(
        write(
            tmp_path,
            "referee:\n  address: referee@example.org\n"
            "  game_masters: [{address: gil@example.org, token_env: REFEREE_TEST_GM}]\n"
            "inbox: {type: imap, host: h, user: u, password_env: REFEREE_TEST_PW}\n",
        )
    )
    (tmp_path / "referee.env").write_text(
        "# the site's secrets\n"
        "REFEREE_TEST_PW=ab$cd%x\n"
        "export REFEREE_TEST_GM=open sesame\n"
        "REFEREE_TEST_QUOTED=' two  spaces '\n"
        "REFEREE_TEST_NO=\n"
        "not a line of the form\n"
    )
    assert config.secret("REFEREE_TEST_PW") == "ab$cd%x"
    assert config.game_master_token("gil@example.org") == "open sesame"
    assert config.secret("REFEREE_TEST_QUOTED") == " two  spaces "
    assert config.secret("REFEREE_TEST_NO") is None
    monkeypatch.setenv("REFEREE_TEST_PW", "from the environment")  # a one-off run's own
    assert config.secret("REFEREE_TEST_PW") == "from the environment"


def test_imap_and_smtp_from_the_config_work_with_the_real_servers(mailrig, tmp_path, monkeypatch):
    referee = mailrig.new_account("referee")
    ca = tmp_path / "ca.pem"
    ca.write_bytes(mailrig.cert_file.read_bytes())
    path = write(
        tmp_path,
        f"""
referee: {{address: {referee.address}, name: The Referee}}
inbox:
  type: imap
  host: 127.0.0.1
  port: {mailrig.imaps_port}
  security: tls
  user: {referee.address}
  password_env: REFEREE_IMAP_PASSWORD
  ca_file: ca.pem
outbox:
  type: smtp
  host: 127.0.0.1
  port: {mailrig.smtp_port}
  security: none
""",
    )
    monkeypatch.setenv("REFEREE_IMAP_PASSWORD", referee.password)
    config = load_config(path)
    sender = config.make_sender()
    assert isinstance(sender, SmtpSender) and sender.username is None
    outbox = config.make_outbox()
    outbox.queue(
        compose(
            from_address="alice@example.test",
            from_name="Alice",
            to=[referee.address],
            subject="[bus1] orders",
            text="build 3-4\n",
        )
    )
    assert len(outbox.flush(sender).sent) == 1
    with config.make_inbox() as inbox:
        assert isinstance(inbox, ImapInbox)
        mails = inbox.fetch()
        assert len(mails) == 1 and b"build 3-4" in mails[0].raw
        inbox.mark_processed([mails[0].key])
    assert (tmp_path / "mail" / "imap-state.json").exists()
