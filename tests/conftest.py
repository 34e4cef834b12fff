"""Shared fixtures. Mail tests talk to real servers: the session's ``mailrig`` (Dovecot and
aiosmtpd on loopback, see tests/mailrig/rig.py)."""

import os
import shutil

import pytest
from mailrig.rig import MailRig


@pytest.fixture(scope="session", autouse=True)
def map_cache(tmp_path_factory):
    """The disk cache of the session (maps, compiled templates), also for the ticks run in
    subprocesses."""
    os.environ["REFEREE_CACHE_DIR"] = str(tmp_path_factory.mktemp("map-cache"))


@pytest.fixture(scope="session")
def mailrig():
    """The running rig: ``add_account``/``new_account``, ``send`` (SMTP), ``deliver`` (straight
    into a Maildir), ``imap``/``read_mails`` (IMAP), ports and the TLS certificate."""
    for tool in ("dovecot", "openssl"):
        if not shutil.which(tool):
            message = f"the mail tests need {tool}: apt-get install dovecot-imapd openssl"
            if os.environ.get("CI"):
                pytest.fail(message + " (CI is set: a mail test never skips there)")
            pytest.skip(message)
    with MailRig() as rig:
        yield rig
