"""A headless Chromium driven over the DevTools protocol on a pipe (--remote-debugging-pipe:
JSON messages ending in a NUL byte, commands on the browser's fd 3, answers and events on its
fd 4), so the tests read console errors, failed loads and screenshots with the standard
library alone.

Debian's `chromium` package; as root it needs --no-sandbox.
"""

from __future__ import annotations

import base64
import contextlib
import fcntl
import json
import os
import shutil
import subprocess
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, field

import pytest

FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-default-apps",
    "--hide-scrollbars",
    "--remote-debugging-pipe",
]


PHONE_SCALE = 3  # device pixels a CSS pixel on a phone's screen


def chromium_path() -> str | None:
    return shutil.which("chromium") or shutil.which("chromium-browser")


@contextlib.contextmanager
def browser_or_skip(width: int, height: int) -> Iterator[Browser]:
    """A browser for a test: where Chromium is missing, the test is skipped, but fails
    under CI (a browser test never skips there)."""
    if not chromium_path():
        message = "the browser test needs Debian's chromium: apt-get install chromium"
        if os.environ.get("CI"):
            pytest.fail(message + " (CI is set: a browser test never skips there)")
        pytest.skip(message)
    with Browser(width=width, height=height) as chromium:
        yield chromium


@dataclass
class Page:
    """What loading one page gave: its problems, its screenshot and what a script read."""

    url: str
    errors: list[str] = field(default_factory=list)
    screenshot: bytes = b""
    facts: dict = field(default_factory=dict)


class Browser:
    def __init__(self, width: int = 1200, height: int = 900, timeout: float = 30):
        self.width, self.height, self.timeout = width, height, timeout
        self.profile = tempfile.mkdtemp(prefix="chromium-")
        to_browser_r, self._to_browser = os.pipe()
        self._from_browser, from_browser_w = os.pipe()
        # bash gives the browser's ends the numbers 3 and 4; first they move above 9, so that
        # neither is itself 3 or 4 and overwritten by the other's redirection (dash, Debian's
        # sh, takes no fd above 9: hence bash).
        ends = [fcntl.fcntl(fd, fcntl.F_DUPFD, 10) for fd in (to_browser_r, from_browser_w)]
        for fd in (to_browser_r, from_browser_w):
            os.close(fd)
        self.log = os.path.join(self.profile, "chromium.log")
        with open(self.log, "wb") as log:
            self.process = subprocess.Popen(
                [
                    "bash",
                    "-c",
                    f'exec "$0" "$@" 3<&{ends[0]} 4>&{ends[1]}',
                    chromium_path(),
                    *FLAGS,
                    f"--user-data-dir={self.profile}",
                    f"--window-size={width},{height}",
                    "about:blank",
                ],
                pass_fds=ends,
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=log,
            )
        for fd in ends:
            os.close(fd)
        self._buffer = b""
        self._next_id = 0
        self.events: list[dict] = []

    def close(self) -> None:
        with contextlib.suppress(OSError, RuntimeError, TimeoutError):
            self.call("Browser.close")  # it may be gone already
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        os.close(self._to_browser)
        os.close(self._from_browser)
        shutil.rmtree(self.profile, ignore_errors=True)

    def __enter__(self) -> Browser:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    # the protocol -------------------------------------------------------------------------
    def call(self, method: str, session: str | None = None, **params) -> dict:
        self._next_id += 1
        message = {"id": self._next_id, "method": method, "params": params}
        if session:
            message["sessionId"] = session
        os.write(self._to_browser, json.dumps(message).encode() + b"\0")
        while True:
            reply = self._read()
            if reply.get("id") == self._next_id:
                if "error" in reply:
                    raise RuntimeError(f"{method}: {reply['error']}")
                return reply.get("result", {})
            self.events.append(reply)

    def _read(self) -> dict:
        deadline = time.monotonic() + self.timeout
        while b"\0" not in self._buffer:
            if time.monotonic() > deadline:
                raise TimeoutError("Chromium did not answer")
            chunk = os.read(self._from_browser, 1 << 16)
            if not chunk:
                with open(self.log, errors="replace") as log:
                    raise RuntimeError(
                        "Chromium closed the pipe; its output ends:\n" + log.read()[-2000:]
                    )
            self._buffer += chunk
        message, _, self._buffer = self._buffer.partition(b"\0")
        return json.loads(message)

    def wait_for(self, method: str, session: str) -> dict:
        while True:
            for event in self.events:
                if event.get("method") == method and event.get("sessionId") == session:
                    self.events.remove(event)
                    return event
            self.events.append(self._read())

    # pages --------------------------------------------------------------------------------
    def load(self, url: str, script: str | None = None, phone: bool = False) -> Page:
        """Open ``url`` in a new tab: the console errors, uncaught exceptions and failed
        loads it caused, a screenshot of the whole page, and what ``script`` (an expression
        giving JSON) read from it. With ``phone``, the tab is a phone's screen of the
        browser's width and height (a mobile viewport, three device pixels a CSS pixel, as
        a phone has): a desktop window is never narrower than 500 px."""
        target = self.call("Target.createTarget", url="about:blank")["targetId"]
        session = self.call("Target.attachToTarget", targetId=target, flatten=True)["sessionId"]
        for domain in ("Page", "Runtime", "Log", "Network"):
            self.call(f"{domain}.enable", session)
        if phone:
            self.call(
                "Emulation.setDeviceMetricsOverride",
                session,
                width=self.width,
                height=self.height,
                deviceScaleFactor=PHONE_SCALE,
                mobile=True,
            )
        self.call("Page.navigate", session, url=url)
        self.wait_for("Page.loadEventFired", session)
        page = Page(url)
        if script:
            found = self.call("Runtime.evaluate", session, expression=script, returnByValue=True)
            page.facts = found["result"].get("value") or {}
        size = self.call("Page.getLayoutMetrics", session)["cssContentSize"]
        shot = self.call(
            "Page.captureScreenshot",
            session,
            format="png",
            captureBeyondViewport=True,
            clip={"x": 0, "y": 0, "width": self.width, "height": size["height"], "scale": 1},
        )
        page.screenshot = base64.b64decode(shot["data"])
        self.call("Target.closeTarget", targetId=target)
        page.errors = [
            problem
            for event in self.events
            if event.get("sessionId") == session
            for problem in [problem_in(event)]
            if problem
        ]
        self.events = [e for e in self.events if e.get("sessionId") != session]
        return page


def problem_in(event: dict) -> str | None:
    """A console error or warning, an uncaught exception or a failed load, as text."""
    method, params = event.get("method"), event.get("params", {})
    if method == "Runtime.consoleAPICalled" and params["type"] in ("error", "warning", "assert"):
        return f"console.{params['type']}: " + " ".join(
            str(a.get("value", a.get("description", ""))) for a in params["args"]
        )
    if method == "Runtime.exceptionThrown":
        return f"exception: {params['exceptionDetails'].get('text')}"
    if method == "Log.entryAdded" and params["entry"]["level"] in ("error", "warning"):
        entry = params["entry"]
        return f"{entry['level']}: {entry['text']} ({entry.get('url', '')})"
    if method == "Network.loadingFailed":
        return f"load failed: {params.get('errorText')}"
    return None
