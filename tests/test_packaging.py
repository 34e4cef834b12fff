"""What `pip install .` ships: every data file the code reads at run time."""

import fnmatch
import os
import re
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_every_data_file_of_the_package_is_in_package_data():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    package_data = config["tool"]["setuptools"]["package-data"]
    missing = []
    for path in sorted((ROOT / "referee").rglob("*")):
        if path.is_dir() or path.suffix in (".py", ".pyc") or "__pycache__" in path.parts:
            continue
        relative = path.relative_to(ROOT)
        covered = False
        for package, patterns in package_data.items():
            base = ROOT.joinpath(*package.split("."))
            if base in path.parents:
                inner = path.relative_to(base).as_posix()
                covered = covered or any(
                    fnmatch.fnmatch(inner, p) and inner.count("/") == p.count("/") for p in patterns
                )
        if not covered:
            missing.append(str(relative))
    assert missing == [], f"not shipped by pip install: {missing}"


def test_the_console_script_is_the_cli():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert config["project"]["scripts"] == {"referee": "referee.cli:main"}


def test_ci_installs_exactly_the_packages_that_readmes_test_command_names():
    readme = (ROOT / "README.md").read_text()
    [named] = re.findall(r"^    apt-get install (.+)$", readme, re.MULTILINE)
    installed = re.findall(r'packages="\$packages (\S+)"', (ROOT / ".ci" / "run").read_text())
    assert sorted(named.split()) == sorted(installed) and "chromium" in installed


def test_every_command_runs_on_a_system_without_a_time_zone_database(tmp_path):
    """tzdata is a dependency: with no tz database where the standard library looks for one
    (PYTHONTZPATH at an empty folder), the commands still know UTC and every named zone."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert any(d.startswith("tzdata") for d in config["project"]["dependencies"])
    empty = tmp_path / "zoneinfo"
    empty.mkdir()
    env = {**os.environ, "PYTHONTZPATH": str(empty), "PYTHONPATH": str(ROOT)}

    def referee(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run(
            [sys.executable, "-m", "referee", *args],
            capture_output=True,
            text=True,
            env=env,
            cwd=tmp_path,
            timeout=120,
        )

    assert "Commands:" in referee("--help").stdout
    made = referee("init", "site")
    assert made.returncode == 0, made.stderr
    config_file = str(tmp_path / "site" / "referee.yaml")
    players = [("--player", f"{n} <{n.lower()}@example.org>") for n in ("Ann", "Bob", "Cid")]
    new = referee(
        "--config",
        config_file,
        "new",
        "bus",
        "bus1",
        "--timezone",
        "Europe/Berlin",
        "--hours",
        "24",
        *[part for player in players for part in player],
    )
    assert new.returncode == 0, new.stderr
    for args in (("check",), ("status",), ("tick",)):
        done = referee("--config", config_file, *args)
        assert done.returncode == 0, (args, done.stderr)
        assert "ZoneInfoNotFoundError" not in done.stderr
