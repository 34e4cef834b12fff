"""The names of the referee's files live in one storage module (``store.names``): no other
module spells one in its code (a docstring or a comment may name a file to explain it), so
that a file renamed or moved is changed in one place, and only the storage layer knows
where a campaign keeps what."""

import ast
from pathlib import Path

import referee
from referee.store import names

ROOT = Path(referee.__file__).parent
FILE_NAMES = {v for k, v in vars(names).items() if k.isupper() and isinstance(v, str) and "." in v}


def docstrings(tree: ast.Module) -> set[int]:
    """The ids of the docstring nodes of a module, its classes and functions."""
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                found.add(id(body[0].value))
    return found


def spelt(path: Path) -> list[str]:
    """Where a module's code spells a file name of ``store.names``: 'line: name'."""
    tree = ast.parse(path.read_text("utf-8"))
    skip = docstrings(tree)
    return [
        f"{path.relative_to(ROOT)}:{node.lineno}: {name}"
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in skip
        for name in FILE_NAMES
        if name in node.value
    ]


def test_the_names_cover_a_campaigns_files_and_the_sites_state():
    for name in ("campaign.yaml", "log.jsonl", "snapshot.json", "deadlines.json", "mailed.json"):
        assert name in FILE_NAMES
    assert {"waits.marshal", "received.jsonl", "tick.lock", "failures.jsonl"} <= FILE_NAMES


def test_no_module_outside_the_storage_layer_spells_a_file_name():
    store = ROOT / "store"
    modules = [p for p in ROOT.rglob("*.py") if store not in p.parents]
    assert len(modules) > 50  # the whole package is read
    assert [where for path in sorted(modules) for where in spelt(path)] == []
