"""One way to read every file a person edits (referee.yaml, campaign.yaml, a Bus Boss map).

A file is described once, as frozen dataclasses whose fields say their type, their default
and what else a value must be (``setting(check=...)``); ``read`` turns the file's plain data
into those objects or, at once, every problem there is: each with its key path, what was
found and what is allowed, and the near miss of a misspelt key ("gather_minuts: unknown
setting; did you mean `gather_minutes`?"). The types it reads:

    str, int, float, bool, Literal[...], Path (relative to the file's folder), Any (as
    written), X | None, list[X], tuple[X, ...], dict[str, X], a described dataclass (a
    section), and a union of sections told apart by their ``type`` field (the first is the
    default when the section names none).

It stands below everything but the standard library and PyYAML, so that a game can describe
its own data files with it.
"""

from __future__ import annotations

import dataclasses
import math
import types
import typing
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, Literal, NamedTuple, TypeVar

import yaml

T = TypeVar("T")
SAFE_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml's, when installed
MISSING: Any = dataclasses.MISSING


def load_yaml(text: str) -> Any:
    """YAML read safely (plain data only), by libyaml where PyYAML has it: seven times as
    quick as PyYAML's own reader, which each tick's process would pay for every board and
    map it loads."""
    return yaml.load(text, Loader=SAFE_LOADER)


class _KeysOnce(SAFE_LOADER):  # type: ignore[misc,valid-type]
    """A safe loader that notes each key written twice in one section, where YAML keeps
    the last without a word: (the key, its line, the line it was first written on)."""

    def __init__(self, stream: str):
        super().__init__(stream)
        self.repeated: list[tuple[str, int, int]] = []

    def construct_mapping(self, node: Any, deep: bool = False) -> Any:
        first: dict[Any, int] = {}
        for key, _ in node.value:
            if isinstance(key, yaml.ScalarNode):
                line = key.start_mark.line + 1
                if first.setdefault(key.value, line) != line:
                    self.repeated.append((key.value, line, first[key.value]))
        return super().construct_mapping(node, deep)


def load_yaml_once(text: str) -> tuple[Any, list[tuple[str, int, int]]]:
    """``load_yaml``, and each key written twice in one section (``_KeysOnce``)."""
    loader = _KeysOnce(text)
    try:
        return loader.get_single_data(), loader.repeated
    finally:
        loader.dispose()


def load_file(path: Path) -> Any:
    """A YAML file's plain data; FileNotFoundError when there is none, SettingsError naming
    the file (and, for YAML that does not parse, the line and column) when it cannot be
    read."""
    try:
        return load_yaml(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise
    except (OSError, UnicodeDecodeError) as err:
        raise SettingsError(path, f"cannot read {path}: {err}") from None
    except yaml.YAMLError as err:
        mark = getattr(err, "problem_mark", None)
        where = f" at line {mark.line + 1}, column {mark.column + 1}" if mark else ""
        problem = getattr(err, "problem", None) or err
        raise SettingsError(path, f"{path} is not valid YAML{where}: {problem}") from None


def key_lines(text: str) -> dict[str, int]:
    """The line (from 1) of each key and list item of a YAML text, by its key path as
    problems name them ('destinations.Leeds.cards', 'routes[3]'); empty for a text that
    is no YAML. Read again only for a file with problems, to say where they are."""
    try:
        root = yaml.compose(text, Loader=SAFE_LOADER)
    except yaml.YAMLError:
        return {}
    lines: dict[str, int] = {}
    todo = [(root, "")] if root is not None else []
    while todo:
        node, path = todo.pop()
        if isinstance(node, yaml.MappingNode):
            for key, value in node.value:
                here = _join(path, key.value)
                lines.setdefault(here, key.start_mark.line + 1)
                todo.append((value, here))
        elif isinstance(node, yaml.SequenceNode):
            for i, item in enumerate(node.value):
                lines[f"{path}[{i}]"] = item.start_mark.line + 1
                todo.append((item, f"{path}[{i}]"))
    return lines


class Problem(NamedTuple):
    """One thing wrong in a file: where (a key path such as ``inbox.port`` or
    ``players[2].name``; empty for the whole file) and what, for the person who edits it."""

    path: str
    message: str

    def __str__(self) -> str:
        if not self.path:
            return self.message
        # a message that goes on from its key as a sentence ("hours must be ...") reads so
        joint = " " if self.message.startswith("must ") else ": "
        return f"{self.path}{joint}{self.message}"


class SettingsError(ValueError):
    """A file that cannot be used; ``problems`` are all that was found, each told once."""

    def __init__(self, file: str | Path, problems: list[Problem] | str):
        self.file = str(file)
        if isinstance(problems, str):
            self.problems = [Problem("", problems)]
            super().__init__(problems)
            return
        self.problems = list(problems)
        lines = "\n".join(f"  - {p}" for p in self.problems)
        super().__init__(f"{self.file} has {len(self.problems)} problem(s):\n{lines}")


def setting(
    default: Any = MISSING,
    *,
    check: Callable[[Any], Any] | None = None,
    factory: Callable[[], Any] | None = None,
    compare: bool = True,
) -> Any:
    """A field of a described file. ``check`` takes the value as its type read it and
    returns it (or what it stands for: a time zone for its name); a ValueError from it is
    the problem, its message what is allowed. ``compare``: whether two settings differ
    when this field does."""
    metadata = {"check": check}
    if factory is not None:
        return dataclasses.field(default_factory=factory, metadata=metadata, compare=compare)
    return dataclasses.field(default=default, metadata=metadata, compare=compare)


def read(
    described: type[T],
    data: Any,
    file: str | Path,
    base: Path | None = None,
    refuse_key: Callable[[str, str], str | None] | None = None,
    at: str = "",
) -> T:
    """``data`` (plain data, as YAML gives it) as an instance of the dataclass
    ``described``, or SettingsError naming ``file`` and every problem. ``base``: the folder
    relative paths start from (the file's own); ``refuse_key(section, key)``: a message for
    a key that must not be written at all (a password), or None; ``at``: the key path of
    ``data`` within its file, when it is one section of it."""
    reader = _Reader(base or Path("."), refuse_key)
    try:
        value = reader.section(described, data, at)
    except _Wrong:
        raise SettingsError(file, reader.problems) from None
    return value


def kind(value: Any) -> str:
    """A value as a problem names it: a section, a list, or the value itself."""
    if isinstance(value, Mapping):
        return "a section"
    if isinstance(value, list):
        return "a list"
    return repr(value)


def at_least(least: float, what: str = "a number") -> Callable[[Any], Any]:
    """A check: a number no smaller than ``least`` (a value of another type is told the
    same: what is allowed, and what was found)."""
    allowed = f"{what} of at least {least:g}"

    def check(value: Any) -> Any:
        if value < least:
            raise ValueError(f"expected {allowed}, found {value!r}")
        return value

    check.allowed = allowed  # type: ignore[attr-defined]
    return check


def within(least: float, most: float, what: str = "a whole number") -> Callable[[Any], Any]:
    """A check: a number from ``least`` to ``most``."""
    allowed = f"{what} from {least:g} to {most:g}"

    def check(value: Any) -> Any:
        if not least <= value <= most:
            raise ValueError(f"must be {allowed}, not {value!r}")
        return value

    check.allowed = allowed  # type: ignore[attr-defined]
    return check


class _Wrong(Exception):
    """A value that cannot be read; the problem has been noted."""


class _Reader:
    def __init__(self, base: Path, refuse_key: Callable[[str, str], str | None] | None):
        self.base = base
        self.refuse_key = refuse_key
        self.problems: list[Problem] = []

    def problem(self, path: str, message: str) -> None:
        self.problems.append(Problem(path, message))

    def section(self, described: type[T], data: Any, path: str) -> T:
        if data is None:
            data = {}
        if not isinstance(data, Mapping):
            self.problem(
                "",
                f"{path or 'the file'}: expected a section of `key: value` lines, found "
                f"{kind(data)}",
            )
            raise _Wrong
        fields = {f.name: f for f in dataclasses.fields(described)}  # type: ignore[arg-type]
        hints = _hints_of(described)
        known_problems = len(self.problems)
        for key in data:
            refused = self.refuse_key(path, str(key)) if self.refuse_key else None
            if refused:
                self.problem(_join(path, key), refused)
            elif key not in fields:
                import difflib  # here, not above: only a file with a mistake needs it

                near = difflib.get_close_matches(str(key), sorted(fields), n=1)
                hint = (
                    f"did you mean `{near[0]}`?"
                    if near
                    else f"known settings: {', '.join(sorted(fields))}"
                )
                self.problem(_join(path, key), f"unknown setting; {hint}")
        values: dict[str, Any] = {}
        wrong = len(self.problems) > known_problems
        for name, field in fields.items():
            where = _join(path, name)
            given = data.get(name)
            if given is None:
                if field.default is MISSING and field.default_factory is MISSING:
                    section = path or "top"
                    self.problem(where, f"missing; add `{name}: ...` to the {section} section")
                    wrong = True
                    continue
                if dataclasses.is_dataclass(field.default):
                    # a section left out is read as an empty one, so that its default paths
                    # are the file's folder's too (not the folder the referee runs in)
                    given = {}
                elif name not in _paths_of(described):
                    continue  # its default, as the description gives it
                else:
                    given = field.default
                    if given is None or given is MISSING:
                        continue
            check = field.metadata.get("check")
            try:
                value = self.value(hints[name], given, where, getattr(check, "allowed", None))
                if check is not None:
                    try:
                        value = check(value)
                    except ValueError as err:
                        self.problem(where, str(err))
                        raise _Wrong from None
                values[name] = value
            except _Wrong:
                wrong = True
        if wrong:
            raise _Wrong
        try:
            return described(**values)
        except ValueError as err:  # what only the section as a whole can tell
            self.problem(path, str(err))
            raise _Wrong from None

    def value(self, hint: Any, data: Any, path: str, allowed: str | None = None) -> Any:
        """``data`` read as ``hint``; ``allowed`` says what a scalar may be, when its
        field's check says more than its type."""
        origin = typing.get_origin(hint)
        if hint is Any:
            return data
        if origin in (typing.Union, types.UnionType):
            return self.union(typing.get_args(hint), data, path)
        if dataclasses.is_dataclass(hint):
            return self.section(hint, data, path)  # type: ignore[arg-type]
        if origin is Literal:
            choices = typing.get_args(hint)
            if (
                isinstance(data, (int, float))
                and not isinstance(data, bool)
                and str(data) in choices
            ):
                data = str(data)  # `edition: 1999` means the text "1999"
            if data not in choices:
                shown = ", ".join(str(c) for c in choices)
                self.problem(path, f"{data!r} is not one of: {shown}")
                raise _Wrong
            return data
        if origin in (list, tuple):
            if not isinstance(data, list):
                self.problem(path, f"expected a list, found {kind(data)}")
                raise _Wrong
            item = typing.get_args(hint)[0]
            items, wrong = [], False
            for i, entry in enumerate(data):
                try:
                    items.append(self.value(item, entry, f"{path}[{i}]"))
                except _Wrong:
                    wrong = True
            if wrong:
                raise _Wrong
            return items if origin is list else tuple(items)
        if origin is dict:
            if not isinstance(data, Mapping):
                self.problem(path, f"expected a section of `key: value` lines, found {kind(data)}")
                raise _Wrong
            item = typing.get_args(hint)[1]
            found, wrong = {}, False
            for key, entry in data.items():
                try:
                    found[str(key)] = self.value(item, entry, _join(path, key))
                except _Wrong:
                    wrong = True
            if wrong:
                raise _Wrong
            return found
        return self.scalar(hint, data, path, allowed)

    def union(self, members: tuple[Any, ...], data: Any, path: str) -> Any:
        if type(None) in members and (data is None or (data == "" and str not in members)):
            return None  # `key:`, or `key: ""` for a value that is no text: not set
        members = tuple(m for m in members if m is not type(None))
        sections = [m for m in members if dataclasses.is_dataclass(m)]
        if isinstance(data, Mapping) and len(sections) > 1:
            return self.tagged(sections, data, path)
        for member in members:  # the member for the kind of value written
            if isinstance(data, Mapping) == dataclasses.is_dataclass(member) and (
                isinstance(data, list) == (typing.get_origin(member) in (list, tuple))
            ):
                return self.value(member, data, path)
        return self.value(members[0], data, path)

    def tagged(self, sections: list[Any], data: Mapping, path: str) -> Any:
        """One of several kinds of section, told by its ``type`` (the first by default)."""
        types_ = {typing.get_args(_hints_of(s)["type"])[0]: s for s in sections}
        chosen = data.get("type", next(iter(types_)))
        if not isinstance(chosen, str) or chosen not in types_:
            self.problem(_join(path, "type"), f"{chosen!r} is not one of: {', '.join(types_)}")
            raise _Wrong
        return self.section(types_[chosen], data, path)

    def scalar(self, hint: Any, data: Any, path: str, allowed: str | None = None) -> Any:
        if hint is bool:
            if not isinstance(data, bool):  # "no" in quotes would be true
                self.problem(path, f"write true or false, not {data!r}")
                raise _Wrong
            return data
        if isinstance(data, (bool, Mapping, list)):
            pass  # never a text or a number
        elif hint is str and isinstance(data, (str, int, float)) and str(data).strip():
            return str(data).strip()
        elif hint is int and isinstance(data, int):
            return data
        elif hint is int and isinstance(data, str) and data.strip().isdecimal():
            return int(data)  # a game's option as the command line gives it: text
        elif hint is float and isinstance(data, (int, float)) and math.isfinite(data):
            return float(data)  # never inf or nan (YAML's .inf, a command's 1e400): no time
        elif hint is Path and isinstance(data, (str, Path)) and str(data).strip():
            return self.base / Path(str(data).strip()).expanduser()
        elif hint not in (str, int, float, Path):
            return data  # a type of the description's own: its field's check reads it
        what = {
            str: "a text value",
            int: "a whole number",
            float: "a number",
            Path: "a text value",
        }.get(hint, str(hint))
        self.problem(path, f"expected {allowed or what}, found {kind(data)}")
        raise _Wrong


_hints: dict[type, dict[str, Any]] = {}  # a description's field types, read once a process


def _hints_of(described: Any) -> dict[str, Any]:
    hints = _hints.get(described)
    if hints is None:
        hints = _hints[described] = typing.get_type_hints(described)
    return hints


_paths: dict[type, frozenset[str]] = {}  # its fields that hold a path, found once a process


def _paths_of(described: Any) -> frozenset[str]:
    """The fields of a description that hold a path (a default one is read relative to the
    file's folder too)."""
    paths = _paths.get(described)
    if paths is None:
        hints = _hints_of(described)
        paths = _paths[described] = frozenset(
            name for name, hint in hints.items() if _strip_none(hint) is Path
        )
    return paths


def _strip_none(hint: Any) -> Any:
    if typing.get_origin(hint) in (typing.Union, types.UnionType):
        members = [m for m in typing.get_args(hint) if m is not type(None)]
        return members[0] if len(members) == 1 else hint
    return hint


def _join(path: str, key: Any) -> str:
    return f"{path}.{key}" if path else str(key)
