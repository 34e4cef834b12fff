"""Text a person reads, rendered with Jinja2 from `templates/` (a folder per game for its
own): the environment, the short messages of templates/messages.txt, and the layout rules of
a mail's plain text (its width, long lists of choices made short).

Nothing here decides anything: it renders what it is given.
"""

from __future__ import annotations

import io
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path

import jinja2
import jinja2.bccache
import jinja2.runtime
import markupsafe

from .. import cache, registry
from ..contract import Say, ShortChoices, Words
from ..mail.compose import flowed
from ..mail.read import unflowed
from ..maps.textgrid import WIDTH, wrap
from ..records import missed_done
from . import language


def template_source(name: str) -> str:
    """A template's text. A game's own (``<game>/help.txt``) comes from a ``templates/``
    folder in the game's package when it has one, so that a game kept outside the project
    brings its own; else, as every other template, from the shared ``templates/``."""
    folder, _, file = name.partition("/")
    if file and folder in registry.names():
        own = resources.files(registry.package(folder)).joinpath("templates", file)
        if own.is_file():
            return own.read_text("utf-8")
    return resources.files("referee").joinpath("templates", name).read_text("utf-8")


class CompiledTemplates(jinja2.BytecodeCache):
    """The templates compiled to Python once, not in every tick: each tick is a fresh
    process, and compiling the templates one uses cost it about 100 ms. Kept in the
    referee's cache (``referee.cache``) by template; Jinja compiles again a template whose
    source changed, or compiled by another Jinja or Python."""

    def load_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        try:
            with open(self._path(bucket), "rb") as f:
                bucket.load_bytecode(f)
        except Exception:  # missing or damaged: compiled again
            bucket.reset()

    def dump_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        compiled = io.BytesIO()
        bucket.write_bytecode(compiled)
        cache.write(self._path(bucket), compiled.getvalue())

    @staticmethod
    def _path(bucket: jinja2.bccache.Bucket) -> Path:
        # (the folder names the environment's make: its templates compiled with gettext)
        return cache.cache_dir() / "templates-i18n" / f"{bucket.key}.jinja"


ENV = jinja2.Environment(
    loader=jinja2.FunctionLoader(template_source),
    bytecode_cache=CompiledTemplates(),
    # the words of the templates in the reader's language (``language.reading``): `{% trans
    # %}` blocks and _(), and a game's or a record's words (``contract.Say``) as they print
    extensions=["jinja2.ext.i18n"],
    finalize=language.word,
    autoescape=jinja2.select_autoescape(enabled_extensions=("html",)),
    trim_blocks=True,
    lstrip_blocks=True,
    keep_trailing_newline=True,
    undefined=jinja2.StrictUndefined,
)


MAIL_WIDTH = WIDTH  # the columns of a mail's plain text, the maps' too


SOFT = " "  # a soft line break (format=flowed): the space a line ends with


def _fill(text: str, indent: str = "", first: str | None = None, soft: str = SOFT) -> str:
    """Text in lines of at most MAIL_WIDTH columns, each starting with ``indent`` (the
    first with ``first`` when given), broken at spaces only. Each break at a space is soft
    (``soft`` ends its line): a mail program that reads format=flowed joins the lines again
    and wraps the paragraph to its screen (the indent of the lines that go on only lines
    them up under the first, and is not sent: ``mail.compose.flowed``). A game's or a
    record's words (``contract.Say``), a time, are worded in the language being read."""
    return wrap(str(language.word(text)), indent, indent if first is None else first, soft)


def _fill_lines(text: str, indent: str = "") -> str:
    """Text of several lines (a command's answer) as ``_fill`` writes a line, each line on
    its own and indented as it was, so a list stays a list."""
    return "\n".join(
        _fill(line.strip(), indent + line[: len(line) - len(line.lstrip())]) if line.strip() else ""
        for line in str(language.word(text)).splitlines()
    )


@jinja2.pass_context
def _gettext(context: jinja2.runtime.Context, message: str, /, **fields: object) -> str:
    """A template's message in the language being read, its fields worded there too (a
    time, a game's words): Jinja's newstyle gettext, which fills the fields itself."""
    text = language.gettext(message)
    if context.eval_ctx.autoescape:
        text = markupsafe.Markup(text)
    if not fields and "%" not in text:  # (most: a heading, a sentence of its own)
        return text
    return text % {key: language.word(value) for key, value in fields.items()}


@jinja2.pass_context
def _ngettext(
    context: jinja2.runtime.Context, singular: str, plural: str, num: int, /, **fields: object
) -> str:
    """As ``_gettext``, the form for ``num`` (a field of its own, ``%(num)d``)."""
    text = language.ngettext(singular, plural, num)
    if context.eval_ctx.autoescape:
        text = markupsafe.Markup(text)
    return text % {"num": num, **{key: language.word(value) for key, value in fields.items()}}


ENV.newstyle_gettext = True  # type: ignore[attr-defined]  # (what install_gettext_callables sets)
ENV.globals.update(gettext=_gettext, _=_gettext, ngettext=_ngettext, language=language.current)
ENV.policies["ext.i18n.trimmed"] = True  # a message's msgid as one line, however it is laid


def _joined(text: str) -> str:
    """Text as a mail program that knows format=flowed shows it: each paragraph that
    ``fill`` broke softly on one line again (for the HTML, which wraps it to the screen)."""
    return unflowed(flowed(str(text)))


ENV.filters["fill"] = _fill
ENV.filters["fill_lines"] = _fill_lines
ENV.filters["joined"] = _joined
ENV.filters["missed_done"] = missed_done

GROUP_FROM = 12  # a decision with more choices than this lists them grouped


def _groups(choices: Sequence[Words]) -> list[tuple[Words, list[Words]]]:
    """Choices by all but their last word, in the order met (a choice with a comment, a
    colon or a comma is a group of its own, keyed by itself; so is a comment worded for its
    reader, a ``Say``)."""
    groups: list[tuple[Words, list[Words]]] = []
    by_key: dict[str, list[Words]] = {}
    for choice in choices:
        if isinstance(choice, Say):
            groups.append((choice, [choice]))
            continue
        head, _, last = choice.rpartition(" ")
        plain = head and not any(mark in choice for mark in "#:,")
        key = head if plain else choice
        if key not in by_key:
            by_key[key] = []
            groups.append((key, by_key[key]))
        by_key[key].append(last if plain else choice)
    return groups


def grouped(choices: Sequence[Words], game: str | None = None) -> list[Words]:
    """A long list of choices made short: the game's own way (``short_choices``), or else
    orders that differ only in their last word are one line, ``build house: 15, 16, 21``
    (one order per number), a long group in lines of its own that each say it whole;
    comments and lines of their own stay as they are."""
    if len(choices) <= GROUP_FROM:
        return list(choices)
    shorten = registry.get(game).offers(ShortChoices) if game else None
    if shorten is not None:
        return shorten.shorten(list(choices))
    lines: list[Words] = []
    room = MAIL_WIDTH - 4  # a choice is indented by four spaces
    for key, items in _groups(choices):
        if len(items) == 1:
            lines.append(items[0] if items[0] == key else f"{key} {items[0]}")
            continue
        line = f"{key}: {items[0]}"
        for item in map(str, items[1:]):
            if len(line) + 2 + len(item) > room:
                lines.append(line)
                line = f"{key}: {item}"
            else:
                line += f", {item}"
        lines.append(line)
    return lines


def group_example(choices: Sequence[Words], game: str | None = None) -> tuple[str, str, str] | None:
    """(the words, a first and a second last word) of the first group ``grouped`` makes,
    for the line that explains it; None when it makes none (or the game shortens its own)."""
    if len(choices) <= GROUP_FROM or (game and registry.get(game).offers(ShortChoices)):
        return None
    for key, items in _groups(choices):
        if len(items) > 1:  # (a group of orders, text)
            return str(key), str(items[0]), str(items[1])
    return None


ENV.globals["group_example"] = group_example
ENV.globals["grouped"] = grouped


COMMENT = "   # "  # how a choice and the comment after it are set apart


def fitted(text: str) -> str:
    """A mail's plain text with every line in MAIL_WIDTH columns: the templates keep to it,
    and a line that a long name or reason makes longer is wrapped under its own indent, a
    paragraph written on one line (as the templates write prose) softly."""
    lines = []
    for line in text.splitlines():
        order, mark, comment = line.partition(COMMENT)
        if len(line) <= MAIL_WIDTH:
            lines.append(line)
        elif mark and order.strip() and not order.lstrip().startswith("#"):
            # an order with a comment: the order alone on its line, so that it is copied
            # whole, and the comment under it
            indent = " " * (len(line) - len(line.lstrip()))
            lines.append(fitted(order.rstrip()).rstrip("\n"))
            # a comment goes on as a comment, in lines of its own (no soft break: joined,
            # the "#" of each line would be read in the middle of it)
            lines.append(_fill(comment.strip(), indent + "  # ", soft=""))
        elif line.lstrip().startswith("#"):
            # a comment goes on as a comment (so that no part of it reads as an order), in
            # lines of its own, under the text of an indented one ("#    3: a-b, ...")
            indent = " " * (len(line) - len(line.lstrip()))
            after = line.lstrip()[1:]
            inner = after[: len(after) - len(after.lstrip())]
            more = indent + "#" + (inner + "   " if len(inner) > 1 else " ")
            lines.append(_fill(line.strip(), more, indent, soft=""))
        else:
            indent = " " * (len(line) - len(line.lstrip()))
            lines.append(_fill(line.strip(), indent + ("  " if indent else ""), indent))
    return "\n".join(lines) + ("\n" if text.endswith("\n") else "")


def render(template: str, **context) -> str:
    return ENV.get_template(template).render(**context)


def say(message: str, **context) -> str:
    """One of the referee's short messages (a macro of templates/messages.txt), as text."""
    return str(getattr(ENV.get_template("messages.txt").module, message)(**context)).strip()


@dataclass(frozen=True)
class Said:
    """What to say, not yet said: a message of templates/messages.txt (``name``), or a
    template file (``name`` ending in .txt), and its parameters. A parameter may itself be
    a Said, or a tuple of them (paragraphs), said first."""

    name: str
    params: Mapping[str, object] = field(default_factory=dict)

    @classmethod
    def of(cls, name: str, /, **params: object) -> Said:
        return cls(name, params)


def spoken(words: Said | Sequence[Said]) -> str:
    """The text of ``words``: paragraphs (a sequence) apart by a blank line."""
    if not isinstance(words, Said):
        return "\n\n".join(spoken(w) for w in words)
    params = {key: _spoken_param(value) for key, value in words.params.items()}
    if words.name.endswith(".txt"):
        return render(words.name, **params).rstrip()
    return say(words.name, **params)


def _spoken_param(value: object) -> object:
    if isinstance(value, Said) or (
        isinstance(value, tuple) and value and all(isinstance(v, Said) for v in value)
    ):
        return spoken(value)
    if isinstance(value, Say):  # a game's words, as they are
        return value
    if isinstance(value, (list, tuple)):
        return type(value)(_spoken_param(v) for v in value)
    return value


def help_text(game: str) -> str:
    """The game's own help (its templates folder), for players."""
    return spoken(game_help(game))


def game_help(game: str) -> Said:
    """The game's own help, to be said (``help_text``)."""
    return Said.of(f"{registry.get(game).templates}/help.txt")
