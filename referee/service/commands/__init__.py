"""The referee's own commands, beside the games' orders: every one in one registry.

Each command is one class (``base.CampaignCommand`` or ``base.SiteCommand``) in the module of
those who may give it: ``everyone``, ``players``, ``game_master``, and ``site`` for a mail
that names no campaign. The help by mail, `referee gm --help` and README's list are made
from the tuples below, in their order; the same classes serve mail and the command line
(``work.run_as_gm``).

Precedence is stated, never the order of definitions: in a campaign, a command that
``runs_first`` (drop) runs before the others of its mail, one that ``runs_last`` (start)
after them, and the rest in the mail's order; in a mail for no campaign, only the first of
SITE that the mail holds runs (open before join before list ..., so that a mail quoting the
help does the one thing asked for).
"""

from __future__ import annotations

from collections.abc import Callable

from ... import registry
from ...mail.read import as_order, as_written, fold
from ...words import language
from ...words.render import Said, game_help
from ..reading import looks_like_prose
from .base import (
    CampaignCommand,
    CommandError,
    Commands,
    Line,
    Outside,
    Site,
    SiteCommand,
    Who,
)
from .everyone import (
    ChoicesCommand,
    HelpCommand,
    HistoryCommand,
    MessageCommand,
    StatusCommand,
    status_text,
)
from .game_master import (
    AdjudicateCommand,
    DeadlinesCommand,
    DropCommand,
    ExtendCommand,
    ObserversCommand,
    PauseCommand,
    ReplaceCommand,
    ResumeCommand,
    RollbackCommand,
    StartCommand,
)
from .players import (
    AbsenceCommand,
    LanguageCommand,
    LeaveCommand,
    MailCommand,
    TimeZoneCommand,
)
from .site import (
    ASKS_TO_JOIN,
    JoinCommand,
    ListCommand,
    ObserveCommand,
    OpenCommand,
    SiteHelpCommand,
    SiteStatusCommand,
    UnobserveCommand,
    asked_to_join,
    confirm_observer,
    no_such_game,
    tell_replaced,
)

__all__ = [
    "ASKS_TO_JOIN",
    "CAMPAIGN",
    "CAMPAIGN_VERBS",
    "SITE",
    "SITE_VERBS",
    "CampaignCommand",
    "CommandError",
    "Commands",
    "Outside",
    "Site",
    "Who",
    "confirm_observer",
    "help_inside",
    "help_lines",
    "help_outside",
    "no_such_game",
    "run_outside",
    "split",
    "status_text",
    "tell_replaced",
]

CAMPAIGN: tuple[CampaignCommand, ...] = (
    HelpCommand(),
    HistoryCommand(),
    MessageCommand(),
    StatusCommand(),
    ChoicesCommand(),
    AbsenceCommand(),
    TimeZoneCommand(),
    LanguageCommand(),
    MailCommand(),
    LeaveCommand(),
    PauseCommand(),
    ResumeCommand(),
    ExtendCommand(),
    DeadlinesCommand(),
    ObserversCommand(),
    ReplaceCommand(),
    DropCommand(),
    RollbackCommand(),
    AdjudicateCommand(),
    StartCommand(),
)
"""The commands inside a campaign, in the order the help lists them."""

SITE: tuple[SiteCommand, ...] = (
    OpenCommand(),
    JoinCommand(),
    ListCommand(),
    SiteStatusCommand(),
    ObserveCommand(),
    UnobserveCommand(),
    SiteHelpCommand(),
)
"""The commands of a mail that names no campaign, in order of precedence (and of the help)."""

CAMPAIGN_VERBS: dict[str, CampaignCommand] = {
    word: command for command in CAMPAIGN for word in (command.name, *command.aliases)
}
SITE_VERBS: dict[str, SiteCommand] = {
    word: command for command in SITE for word in (command.name, *command.aliases)
}


def help_lines(gm: bool) -> list[tuple[str, str]]:
    """(usage, summary) of every campaign command the sender may give, for the help, in
    the language being read."""
    return [(language.word(c.usage), language.word(c.summary)) for c in CAMPAIGN if c.allows(gm)]


def split(
    lines: list[str], gm: bool, reads_as_order: Callable[[str], bool] = lambda line: False
) -> tuple[list[Line], list[str]]:
    """The lines that are referee commands, and the rest (the game's orders). A command the
    sender may not give is one all the same, unless it reads as prose ("Start the game,
    please"), and refused for it (``Commands.run``): a player's 'pause' is not an order
    passed over. A command that ``wraps`` (a message) goes on over the lines after it, which
    its writer's mail program may have wrapped it onto at any width, until a blank line ("")
    or a line that reads as a command (not as a sentence) or, by ``reads_as_order``, as an
    order."""
    commands: list[Line] = []
    orders: list[str] = []
    wrapping: Line | None = None
    for written in lines:
        line = as_written(written)
        word, rest = verb(line)
        known = CAMPAIGN_VERBS.get(word)
        if (
            known is not None
            and (known.allows(gm) or not looks_like_prose(line))
            and not (wrapping and _wrapped_on(known, line))
        ):
            commands.append(Line(known, word, rest, line))
            wrapping = commands[-1] if known.wraps else None
        elif wrapping is not None and line and not reads_as_order(as_order(line)):
            wrapping.rest = f"{wrapping.rest} {written}".strip()
            wrapping.line = f"{wrapping.line} {written}"
        else:
            wrapping = None
            if line:
                orders.append(as_order(line))
    return commands, orders


def verb(line: str) -> tuple[str, str]:
    """A line's first word, folded as orders are (``fold``: "ＳＴＡＴＵＳ", "Hİstory"), and
    the rest of it as written."""
    word, rest = (line.split(None, 1) + ["", ""])[:2]
    return fold(word), rest.strip()


def _wrapped_on(known: CampaignCommand, line: str) -> bool:
    """A line after a message that starts with a command's name but goes on as a sentence
    ("deadlines are too short for you"): the message wrapped on, unless it is a new one."""
    return not known.wraps and looks_like_prose(line)


def run_outside(ctx: Outside, lines: list[str]) -> None:
    """The first site command of the mail (SITE's order), or the line that joins each open
    game for one who asks in words, or, for a registered player, the games they play, or
    else the notice that the mail named no game."""
    verbs = [verb(line) for line in lines]
    for command in SITE:
        for word in (command.name, *command.aliases):
            said = next(((line, v[1]) for line, v in zip(lines, verbs) if v[0] == word), None)
            if said is not None:
                command.run(ctx, said[1], said[0])
                return
    if asked_to_join(ctx, lines):
        return
    if ctx.site.campaigns_of(ctx.sender_address):
        # a registered player's fresh mail: the games they play, and how to reach each
        SiteStatusCommand().run(ctx, "", "status")
        return
    ctx.answer("no game named", Said.of("subject_no_game"), Said.of("no_game_named"))


def help_inside(game: str, gm: bool) -> tuple[Said, Said]:
    """The game's help and the commands the sender may give, for the answer to a mail to a
    game open for sign-up (a started game's answer has them from confirmation.txt)."""
    commands = Said.of("gm-commands.txt" if gm else "commands.txt", commands=help_lines(gm))
    return game_help(game), commands


def help_outside() -> Said:
    """The help for someone who plays no game yet: every game's and every command's."""
    return Said.of(
        "help-outside.txt",
        titles=[registry.get(g).title for g in registry.names()],
        games=[game_help(g) for g in registry.names()],
        site_commands=[(language.word(c.usage), language.word(c.summary)) for c in SITE],
        commands=help_lines(gm=False),
    )
