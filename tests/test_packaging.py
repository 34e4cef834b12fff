"""What `pip install .` ships: every data file the code reads at run time."""

import fnmatch
import re
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
