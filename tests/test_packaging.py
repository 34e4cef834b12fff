"""What `pip install .` ships: every data file the code reads at run time."""

import fnmatch
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tomllib
import zipfile
from pathlib import Path

import pytest

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


@pytest.mark.slow
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


@pytest.mark.slow
def test_the_sdist_and_the_wheel_carry_the_cron_and_systemd_files_the_licence_and_types(
    tmp_path,
):
    """A game master who installs a wheel got no crontab example, no systemd unit and no
    licence: they lived beside the package, and only the wrapper was a script."""
    tree = tmp_path / "tree"
    shutil.copytree(
        ROOT,
        tree,
        symlinks=True,
        ignore=shutil.ignore_patterns(".git", "tests", "bench", "*.egg-info", "__pycache__"),
    )
    out = tmp_path / "dist"
    out.mkdir()

    def built(kind: str) -> str:
        build = (
            f"import sys; from setuptools import build_meta; print(build_meta.{kind}(sys.argv[1]))"
        )
        done = subprocess.run(
            [sys.executable, "-c", build, str(out)], cwd=tree, capture_output=True, text=True
        )
        assert done.returncode == 0, done.stderr[-2000:]
        return done.stdout.split()[-1]

    sdist_name, wheel_name = built("build_sdist"), built("build_wheel")
    with tarfile.open(out / sdist_name) as sdist:
        in_sdist = {name.partition("/")[2] for name in sdist.getnames()}
    with zipfile.ZipFile(out / wheel_name) as wheel:
        in_wheel = set(wheel.namelist())
        metadata = wheel.read(next(n for n in in_wheel if n.endswith("METADATA"))).decode()
    cron = ["referee-tick", "crontab.example", "referee-tick.service", "referee-tick.timer"]
    assert {"LICENSE", "CHANGELOG.md", "referee/py.typed"} <= in_sdist
    assert {f"cron/{name}" for name in cron} <= in_sdist
    assert {f"referee/cron/{name}" for name in cron} | {"referee/py.typed"} <= in_wheel
    assert any(name.endswith(".data/scripts/referee-tick") for name in in_wheel)
    catalogues = {f"referee/{game}/locale/de/LC_MESSAGES/{game}.po" for game in ("bus", "busboss")}
    assert catalogues <= in_wheel and catalogues <= in_sdist
    assert any(name.endswith("LICENSE") for name in in_wheel)
    assert "Classifier: License :: OSI Approved :: MIT License" in metadata
    assert "Requires-Dist: tzdata" in metadata


def test_readmes_commands_install_into_a_virtualenv_as_ci_runs_them():
    """On Debian 12, README's `pip install ...` stopped with externally-managed-environment:
    every pip README gives is a virtualenv's, and .ci/run runs README's test command."""
    readme = (ROOT / "README.md").read_text()
    commands = re.findall(r"^    (\S.*)$", readme, re.MULTILINE)
    pips = [c for c in commands if re.search(r"(^|\s)(\S*/)?pip install", c)]
    assert pips and all(re.search(r"(\.venv|/venv)/bin/pip install", c) for c in pips), pips
    [test_command] = [c for c in commands if "pytest" in c]
    ci = (ROOT / ".ci" / "run").read_text()
    make_venv, install, run = test_command.split(" && ")
    assert make_venv == "python3 -m venv .venv" and make_venv in ci
    assert install.startswith(".venv/bin/pip install -c .ci/constraints.txt -e '.[test")
    assert run in ci.splitlines()


def test_referee_init_says_where_the_secrets_go_as_readme_does(tmp_path):
    """referee.yaml's comments said passwords go in the wrapper script, README said
    referee.env, and the wrapper no longer reads them."""
    from referee.settings.site import write_default_config

    config = write_default_config(tmp_path).read_text()
    readme = (ROOT / "README.md").read_text()
    assert "wrapper" not in config
    assert "set it in referee.env beside this file (KEY=value lines" in config
    assert "tokens go in `referee.env` beside `referee.yaml` (KEY=value lines" in readme
    assert (tmp_path / "referee.env").read_text().startswith("# The site's passwords and tokens")
