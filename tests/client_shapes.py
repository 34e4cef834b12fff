"""The corpus of client shapes (fixtures/client_shapes): each shape's raw mail, as its mail
program would send it (read by tests/test_client_shapes.py and bench/hostile_mail_bench.py)."""

import base64
import quopri
from email.utils import formatdate
from html import escape
from pathlib import Path

import yaml

SHAPES_DIR = Path(__file__).parent / "fixtures" / "client_shapes"
REPORT = (SHAPES_DIR / "report.txt").read_text(encoding="utf-8").rstrip("\n")


def shapes() -> list[dict]:
    found = []
    for path in sorted(SHAPES_DIR.glob("*.yaml")):
        found += yaml.safe_load(path.read_text(encoding="utf-8"))
    return found


def filled(text: str) -> str:
    """A shape's text with the referee's mail it quotes put in."""
    quoted = "\n".join(f"> {line}".rstrip() for line in REPORT.split("\n"))
    html = "<br>\n".join(escape(line) for line in REPORT.split("\n"))
    return (
        text.replace("{REPORT>}", quoted).replace("{REPORT_HTML}", html).replace("{REPORT}", REPORT)
    )


def part(shape: dict, subtype: str, text: str) -> bytes:
    charset, cte = shape.get("charset", "utf-8"), shape.get("cte", "8bit")
    data = filled(text).encode(charset)
    if cte == "base64":
        data = base64.encodebytes(data)
    elif cte == "quoted-printable":
        data = quopri.encodestring(data)
    flowed = "; format=flowed" if shape.get("flowed") else ""
    head = f"Content-Type: text/{subtype}; charset={charset}{flowed}\n"
    return head.encode() + f"Content-Transfer-Encoding: {cte}\n\n".encode() + data


def raw_mail(shape: dict, to: str, date: str | None = None) -> bytes:
    """Bob's reply to the referee's welcome, as the shape's mail program writes it."""
    parts = [part(shape, kind, shape[key]) for kind, key in (("plain", "text"), ("html", "html"))
             if key in shape]  # fmt: skip
    head = (
        f"From: Bob <bob@example.org>\nTo: Referee <{to}>\n"
        f"Subject: Re: [bus1] Welcome to Bus, Bob\nDate: {date or formatdate()}\n"
        f"Message-ID: <{shape['name']}@example.org>\n"
        "In-Reply-To: <bus1.welcome.1@example.org>\nMIME-Version: 1.0\n"
    ).encode()
    if len(parts) == 1:
        return head + parts[0]
    boundary = b"=-shape-boundary-="
    body = b"".join(b"--" + boundary + b"\n" + p + b"\n" for p in parts) + b"--" + boundary
    alternative = b'Content-Type: multipart/alternative; boundary="' + boundary + b'"\n\n'
    return head + alternative + body + b"--\n"
