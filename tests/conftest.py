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


# --- the developers' fast loop ------------------------------------------------------------------
# `python3 -m pytest -q` runs every test (as CI does); `python3 -m pytest -q --fast` leaves out
# the tests that talk to the mail servers (the ``mailrig`` fixture) or a browser, run other
# processes, or play many games: the engines, the reading of mail and orders, the words and
# the storage are all in it. A slow test says so with ``@pytest.mark.slow`` (or its module
# with ``pytestmark = pytest.mark.slow``).


def pytest_addoption(parser):
    parser.addoption(
        "--fast",
        action="store_true",
        help="the developers' loop: leave out the tests marked slow and those that need the "
        "mail servers or a browser (CI runs them all)",
    )


def pytest_configure(config):
    config.addinivalue_line(
        "markers", "slow: left out by --fast (mail servers, a browser, subprocesses, many games)"
    )


def pytest_collection_modifyitems(config, items):
    if not config.getoption("--fast"):
        return
    kept, left = [], []
    for item in items:
        slow = item.get_closest_marker("slow") or "mailrig" in getattr(item, "fixturenames", ())
        (left if slow else kept).append(item)
    if left:
        config.hook.pytest_deselected(items=left)
        items[:] = kept
