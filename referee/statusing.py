"""`referee status --json` as a monitoring system runs it, on a site of any size: without
click, the site's settings (YAML) or any campaign, while the site's folders are as
referee.yaml put them when a command last read it (``store.rest.folders``) and every campaign
is as the ticks left it (``store.waits``). ``cli.main`` takes this way for the command lines
it knows (``referee [--config PATH] [-v|-q] status --json``); for any other, or when a
campaign changed since the last tick (a command from the shell, an edit by hand), ``console``
tells the same ``site_status`` with those campaigns read."""

from __future__ import annotations

import os
import sys

from .settings.names import STATE_FOLDER
from .store.rest import folders
from .ticking import log_handler, options


def quick_status(args: list[str]) -> int | None:
    """The exit status of ``referee ARGS`` when they ask for the whole site's status as JSON
    and it could be told here, having printed it; None otherwise (nothing printed)."""
    asked = options(args, "status")
    if asked is None or asked[3] != ["--json"]:
        return None
    config, verbose, quiet, _ = asked
    state_dir = os.path.join(os.path.dirname(os.path.abspath(config)), STATE_FOLDER)
    kept = folders(state_dir, config)
    if kept is None or not {"data_root", "queue"} <= kept.keys():
        return None
    from datetime import UTC, datetime
    from pathlib import Path

    from .service.health import NotKept, site_status

    def not_kept(campaign_id: str) -> str:
        raise NotKept(campaign_id)

    now = datetime.now(UTC)
    with log_handler(verbose, quiet):  # a damaged state file is told as a warning
        try:
            told = site_status(
                Path(state_dir), Path(kept["queue"]), Path(kept["data_root"]), now, not_kept
            )
        except (NotKept, OSError):  # (a folder gone): console reads it and says what is wrong
            return None
    sys.stdout.write(told + "\n")
    return 0
