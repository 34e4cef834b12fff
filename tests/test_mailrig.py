"""The mail rig's own promise: without Dovecot the mail tests skip on a developer's machine
but FAIL in CI, so CI can never pass with its mail tests silently skipped."""

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def run_a_mail_test_without_dovecot(ci: bool) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k != "CI"}
    env["PATH"] = "/nonexistent"  # no dovecot, no openssl
    if ci:
        env["CI"] = "true"
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            "tests/test_mailin.py::test_imap_fetch_move_and_uid_tracking",
        ],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,  # a loaded machine starts pytest slowly
    )


def test_without_dovecot_a_mail_test_fails_in_ci():
    result = run_a_mail_test_without_dovecot(ci=True)
    assert result.returncode != 0
    assert "the mail tests need dovecot" in result.stdout and "CI is set" in result.stdout


def test_without_dovecot_a_mail_test_skips_elsewhere():
    result = run_a_mail_test_without_dovecot(ci=False)
    assert result.returncode == 0 and "1 skipped" in result.stdout
