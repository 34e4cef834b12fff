"""The `referee` command (the entry point ``referee.cli:main``).

cron runs `referee tick` every minute, and most ticks find nothing to do: that command line
is run by ``ticking`` without importing click or the rest of the command line, as a
monitoring system's `referee status --json` is by ``statusing``. Any other goes to the click
group of ``console`` (imported then), as does every use of ``main`` as a click command
(``CliRunner().invoke(main, ...)`` in the tests)."""

from __future__ import annotations

import sys

from .statusing import quick_status
from .ticking import quick_tick

TYPE_CHECKING = False  # typing is not imported by a tick at rest (see ticking)
if TYPE_CHECKING:
    from typing import Any


class Referee:
    """``main``: called, the command itself; otherwise the click group it stands for."""

    name = "main"  # the group's name (a test runner's program name)

    def __call__(self) -> Any:
        status = quick_tick(sys.argv[1:])
        if status is None:
            status = quick_status(sys.argv[1:])
        if status is not None:
            sys.exit(status)
        return self.group()()

    def main(self, *args: Any, **kwargs: Any) -> Any:
        return self.group().main(*args, **kwargs)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.group(), name)

    @staticmethod
    def group() -> Any:
        from .console import main as group

        return group


main = Referee()
