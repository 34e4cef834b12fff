"""The layers of DESIGN.md hold in the code: imports point down only, no module imports
itself back through others, storage knows nothing of the service, and a game reaches the
shared code only through the contract.

Every `import` and `from ... import` of referee/ counts, at module level or inside a
function, behind `if TYPE_CHECKING:` or not: an import hidden in a function still ties the
two modules together.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import referee

ROOT = Path(referee.__file__).parent

# top to bottom: a module may import its own layer (without a circle) and the layers below
LAYERS = [
    (
        "command line",
        {"__main__", "cli", "console", "demo", "mailbot", "simulate", "statusing", "ticking"},
    ),
    ("service", {"service"}),
    ("words", {"words"}),
    ("storage", {"store"}),
    ("settings", {"settings"}),
    ("mail transport", {"mail"}),
    ("core", {"contract", "records", "registry", "schema", "files", "cache", "maps"}),
]
GAMES = {"bus", "busboss"}
# what a game package may import of the referee besides itself
GAME_MAY_IMPORT = {"contract", "schema", "maps"}


def modules() -> dict[str, Path]:
    """Every module of referee/, by its dotted name below the package (``service.tick``)."""
    found = {}
    for path in ROOT.rglob("*.py"):
        parts = list(path.relative_to(ROOT).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        found[".".join(parts) or "__init__"] = path
    return found


def imports(name: str, path: Path, known: dict[str, Path]) -> Iterator[tuple[str, int]]:
    """The referee modules ``name`` imports, with the line of each import."""
    package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[: len(package) - (node.level - 1)]
                target = ".".join(base + ([node.module] if node.module else []))
            elif (node.module or "").startswith("referee"):
                target = (node.module or "").removeprefix("referee").lstrip(".")
            else:
                continue
            for alias in node.names:
                whole = f"{target}.{alias.name}" if target else alias.name
                found = whole if whole in known else target
                if found in known and found != name:
                    yield found, node.lineno
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith("referee."):
                    target = alias.name.removeprefix("referee.")
                    if target in known:
                        yield target, node.lineno


def graph() -> dict[str, dict[str, int]]:
    known = modules()
    return {name: dict(imports(name, path, known)) for name, path in known.items()}


def layer_of(name: str) -> int | None:
    top = name.split(".")[0]
    return next((i for i, (_, tops) in enumerate(LAYERS) if top in tops), None)


def test_every_module_of_the_referee_has_a_layer_or_is_a_game():
    lost = [
        name
        for name in modules()
        if name != "__init__" and layer_of(name) is None and name.split(".")[0] not in GAMES
    ]
    assert lost == [], "place these in a layer of DESIGN.md (and of LAYERS above)"


def test_imports_point_down_only():
    upward = []
    for name, targets in graph().items():
        here = layer_of(name)
        for target, line in targets.items():
            there = layer_of(target)
            if here is not None and there is not None and there < here:
                upward.append(
                    f"{name} (line {line}, {LAYERS[here][0]}) imports {target} ({LAYERS[there][0]})"
                )
    assert upward == []


def test_no_module_imports_itself_back_through_others():
    edges = graph()
    circles = []
    state: dict[str, int] = {}  # 1: on the path being walked, 2: done

    def walk(name: str, path: list[str]) -> None:
        state[name] = 1
        for target in edges.get(name, {}):
            if state.get(target) == 1:
                circles.append(" -> ".join(path[path.index(target) :] + [target]))
            elif target not in state:
                walk(target, path + [target])
        state[name] = 2

    for name in sorted(edges):
        if name not in state:
            walk(name, [name])
    assert circles == []


def test_storage_knows_nothing_of_the_service_the_words_or_the_mail():
    told = {
        (name, target)
        for name, targets in graph().items()
        if name.startswith("store")
        for target in targets
        if target.split(".")[0] in {"service", "words", "mail", "cli"}
    }
    assert told == set()


def test_a_game_imports_nothing_of_the_referee_but_the_contract_and_the_map_helpers():
    for name, targets in graph().items():
        game = name.split(".")[0]
        if game not in GAMES:
            continue
        foreign = {
            target for target in targets if target.split(".")[0] not in GAME_MAY_IMPORT | {game}
        }
        assert foreign == set(), f"{name} imports {sorted(foreign)}"


def test_the_check_sees_an_import_hidden_in_a_function(tmp_path):
    """The walk above counts what a module imports inside a function too (as the issue's
    import graph does), so hiding an import there cannot dodge a circle."""
    path = tmp_path / "x.py"
    path.write_text("def f():\n    from ..store import campaign\n    import referee.words.render\n")
    found = dict(imports("service.x", path, modules() | {"service.x": path}))
    assert found == {"store.campaign": 2, "words.render": 3}
