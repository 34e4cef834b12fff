"""The mail rig's own promise: without Dovecot the mail tests skip on a developer's machine
but FAIL in CI, so CI can never pass with its mail tests silently skipped."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow  # a pytest in a pytest

ROOT = Path(__file__).resolve().parent.parent


def run_a_mail_test_without_dovecot(ci: bool, tmp_path: Path) -> subprocess.CompletedProcess:
    """A mail test in a pytest of its own, with its own temporary folder: in the shared one
    (/tmp/pytest-of-<user>) it would first delete the folders of the sessions before it,
    which took most of its time."""
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
            "--basetemp",
            str(tmp_path / "inner"),
            "tests/test_mailin.py::test_imap_fetch_move_and_uid_tracking",
        ],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,  # a loaded machine starts pytest slowly
    )


def test_without_dovecot_a_mail_test_fails_in_ci(tmp_path):
    result = run_a_mail_test_without_dovecot(ci=True, tmp_path=tmp_path)
    assert result.returncode != 0
    assert "the mail tests need dovecot" in result.stdout and "CI is set" in result.stdout


def test_without_dovecot_a_mail_test_skips_elsewhere(tmp_path):
    result = run_a_mail_test_without_dovecot(ci=False, tmp_path=tmp_path)
    assert result.returncode == 0 and "1 skipped" in result.stdout
