"""Replies from anywhere in the world (issue 34): the corpus of reply shapes built on a real
prompt the referee mailed. Each shape is a mail program's layout (desktop, web, phone) in one
of many languages, with header labels, attribution lines, separators and phone footers in
that language, the referee's own mail below (quoted or not, wrapped again or not, as plain
text or HTML), and on top the orders as some keyboard typed them. Read by
tests/test_reply_shapes.py and bench/hostile_mail_bench.py."""

from __future__ import annotations

import itertools
import quopri
import re
import textwrap
import time
from dataclasses import dataclass
from email.message import EmailMessage
from email.utils import formatdate
from html import escape
from pathlib import Path

import yaml
from sites import bus_game, run_tick, text_of

from referee.mailbot import choices_in, reply

LANGUAGES: dict[str, dict[str, str]] = yaml.safe_load(
    (Path(__file__).parent / "fixtures" / "reply_shapes" / "languages.yaml").read_text("utf-8")
)
LABELS = ("from", "sent", "to", "subject")


def labels(lang: str) -> list[str]:
    """The labels of a quoted header in ``lang``: From, Sent, To, Subject."""
    return [LANGUAGES[lang][key] for key in LABELS]


@dataclass(frozen=True, repr=False)
class Prompt:
    """The referee's mail that every shape answers, as it went out."""

    def __repr__(self) -> str:
        return f"Prompt({self.message_id})"

    message_id: str
    sender: str  # the referee, as its From header names it
    subject: str
    reply_to: str  # the player's plus-address
    plain: str
    html: str
    date: str


def prompt_of(msg: EmailMessage) -> Prompt:
    """The prompt as a reply quotes it: its HTML, or its plain text as HTML (as a mail
    program shows a plain mail in an HTML reply: each line, then a <br>)."""
    html = msg.get_body(("html",))
    plain = text_of(msg).rstrip("\n")
    shown = "<br>\n".join(escape(line).replace("  ", "&nbsp; ") for line in plain.split("\n"))
    return Prompt(
        message_id=str(msg["Message-ID"]),
        sender=str(msg["From"]),
        subject=str(msg["Subject"]),
        reply_to=str(msg["Reply-To"]),
        plain=plain,
        html=html.get_content() if html is not None else f"<div>{shown}</div>",
        date=str(msg["Date"]),
    )


BOB = "Bob <bob@example.org>"

# the orders on top of each reply, as keyboards type them, and as the game queues them
ORDERS: list[tuple[list[str], list[str]]] = [
    (["build house 15"], ["build house 15"]),
    (["ｂｕｉｌｄ　ｈｏｕｓｅ　１５"], ["build house 15"]),  # a Japanese input method
    (["line ١٥–٢١"], ["line 15-21"]),  # Arabic-Indic digits, an en dash
    (["BUİLD PUB 21", "action vroom"], ["build pub 21", "action vroom"]),  # Turkish capitals
    (["li\u00adne 15\u221221"], ["line 15-21"]),  # a soft hyphen, the minus sign
    (["build office ۲۲"], ["build office 22"]),  # Persian digits
    (["line 15—21", "ｐａｓｓ"], ["line 15-21", "pass"]),  # an em dash, full width
    (["build house १५"], ["build house 15"]),  # Devanagari digits
    (["vroom 15 to 21", "clock stop"], ["vroom 15 to 21", "clock stop"]),
    (["action\u200b line", "Action Buses"], ["action line", "action buses"]),  # zero width
    (["passengers 11：2 26：1"], ["passengers 11:2 26:1"]),  # full-width colons
    (["build house ১৫"], ["build house 15"]),  # Bengali digits
]


def offered(prompt: Prompt) -> list[str]:
    """The orders the prompt offers under its decision."""
    return choices_in(prompt.plain)


# --- how the mail programs lay out a reply ---------------------------------------------------


def quoted(text: str, mark: str = "> ") -> str:
    return "\n".join(
        f"{mark}{line}".rstrip() if line else mark.rstrip() for line in text.split("\n")
    )


def rewrapped(text: str, width: int) -> str:
    """The text wrapped again at ``width`` (at spaces, as mail programs do)."""
    return "\n".join(
        "\n".join(textwrap.wrap(line, width, break_on_hyphens=False, break_long_words=False))
        if len(line) > width
        else line
        for line in text.split("\n")
    )


def header(lang: str, prompt: Prompt, stacked: bool = False) -> str:
    sender, sent, to, subject = labels(lang)
    values = (prompt.sender, "03.06.2024 09:00", BOB, prompt.subject)
    if stacked:  # Lotus Notes: a label above its value, the sender without one
        return f"{prompt.sender}\n03.06.2024 09:00\n\n{to}\n{BOB}\n\n{subject}\n{prompt.subject}"
    return "\n".join(
        f"{label}: {value}" for label, value in zip((sender, sent, to, subject), values)
    )


def html_header(lang: str, prompt: Prompt) -> str:
    sender, sent, to, subject = labels(lang)
    values = (prompt.sender, "03.06.2024 09:00", BOB, prompt.subject)
    return "<br>".join(
        f"<b>{escape(label)}:</b> {escape(value)}"
        for label, value in zip((sender, sent, to, subject), values)
    )


def wrote(lang: str, p: Prompt) -> str:
    return LANGUAGES[lang]["wrote"].format(who=p.sender)


def html_of(orders: list[str]) -> str:
    return "".join(f"<div>{escape(o)}</div>" for o in orders)


def outlook(lang, orders, p):  # Outlook desktop: the original below a rule, not marked
    return {"text": "\n".join(orders) + f"\n\n{'_' * 32}\n{header(lang, p)}\n\n{p.plain}\n"}


def outlook_web(lang, orders, p):  # Outlook on the web, HTML only
    html = (
        f"<html><body>{html_of(orders)}<hr style='display:inline-block;width:98%'>"
        f"<div id='divRplyFwdMsg'><font size='2'>{html_header(lang, p)}</font></div>"
        f"<div>{p.html}</div></body></html>"
    )
    return {"html": html}


def outlook_mac(lang, orders, p):  # Outlook for Mac: a bordered header block, no quote mark
    html = (
        f"<html><body>{html_of(orders)}<div style='border:none;border-top:solid #B5C4DF 1pt'>"
        f"<p>{html_header(lang, p)}</p></div>{p.html}</body></html>"
    )
    return {"html": html, "text": outlook(lang, orders, p)["text"]}


def outlook_android(lang, orders, p):
    footer = LANGUAGES[lang]["outlook_android"]
    return {"text": "\n".join(orders) + f"\n\n{footer}\n\n{header(lang, p)}\n\n{p.plain}\n"}


def gmail(lang, orders, p):
    html = (
        f"<div dir='ltr'>{html_of(orders)}</div><br><div class='gmail_quote'>"
        f"<div dir='ltr' class='gmail_attr'>{escape(wrote(lang, p))}<br></div>"
        f"<blockquote class='gmail_quote'>{p.html}</blockquote></div>"
    )
    text = "\n".join(orders) + f"\n\n{wrote(lang, p)}\n\n{quoted(p.plain)}\n"
    return {"text": text, "html": html}


def gmail_android(lang, orders, p):  # the attribution and the quote wrapped at 76
    return {"text": "\n".join(orders) + f"\n\n{rewrapped(wrote(lang, p), 60)}\n\n"
            + rewrapped(quoted(p.plain), 76) + "\n"}  # fmt: skip


def apple_mail(lang, orders, p):  # format=flowed, delsp=yes
    return {"text": "\n".join(orders) + f"\n\n{wrote(lang, p)}\n\n{quoted(p.plain)}\n",
            "flowed": "yes"}  # fmt: skip


def iphone(lang, orders, p):
    footer = LANGUAGES[lang]["iphone"]
    text = "\n".join(orders) + f"\n\n{footer}\n\n{wrote(lang, p)}\n\n{quoted(p.plain)}\n"
    return {"text": text, "flowed": "yes"}


def samsung(lang, orders, p):  # the original not marked, below a separator in its language
    galaxy, original = LANGUAGES[lang]["galaxy"], LANGUAGES[lang]["original"]
    text = (
        "\n".join(orders)
        + f"\n\n\n{galaxy}\n\n-------- {original} --------\n{header(lang, p)}\n\n{p.plain}\n"
    )
    return {"text": text}


def thunderbird(lang, orders, p):  # format=flowed (delsp=no), the quote wrapped at 72
    return {"text": "\n".join(orders) + f"\n\n{wrote(lang, p)}\n" + rewrapped(quoted(p.plain), 72)
            + "\n", "flowed": "no"}  # fmt: skip


def rewrapping(lang, orders, p):  # format=flowed read as paragraphs, quoted, flowed at 72
    """A mail program that knows format=flowed: it shows the referee's paragraphs joined
    (``p.plain`` is the text as read), quotes each with "> " and sends its reply flowed
    again, every line longer than 72 broken softly."""
    text = "\n".join(orders) + f"\n\n{wrote(lang, p)}\n" + quoted(p.plain) + "\n"
    return {"text": text, "flowed": "no", "width": 72}


def lotus_notes(lang, orders, p):  # stacked labels, the original not marked
    return {"text": "\n".join(orders) + f"\n\n\n\n{header(lang, p, stacked=True)}\n\n{p.plain}\n"}


def yahoo(lang, orders, p):
    html = (
        f"<div class='ydp-body'>{html_of(orders)}</div><div id='ydpreplyquote'>"
        f"<div class='yahoo_quoted'>{escape(wrote(lang, p))}<br>{p.html}</div></div>"
    )
    return {"html": html}


def yahoo_android(lang, orders, p):  # the original indented, not marked
    indented = "\n".join(f"   {line}" if line else "" for line in p.plain.split("\n"))
    return {"text": "\n".join(orders) + f"\n\n\n   {wrote(lang, p)}\n\n{indented}\n"}


def k9(lang, orders, p):
    return {"text": "\n".join(orders) + f"\n\n{wrote(lang, p)}\n{quoted(p.plain)}\n"}


def mutt(lang, orders, p):
    return {"text": "\n".join(orders) + f"\n\n* {p.sender} [2024-06-03 09:00]:\n"
            + quoted(p.plain) + "\n\n-- \nBob\n"}  # fmt: skip


def roundcube(lang, orders, p):  # quoted, the quote wrapped at 76
    return {"text": "\n".join(orders) + f"\n\n{wrote(lang, p)}\n" + rewrapped(quoted(p.plain), 76)
            + "\n", "flowed": "no"}  # fmt: skip


def protonmail(lang, orders, p):
    html = (
        f"<div>{html_of(orders)}</div><div class='protonmail_quote'>{escape(wrote(lang, p))}<br>"
        f"<blockquote class='protonmail_quote' type='cite'>{p.html}</blockquote></div>"
    )
    return {"html": html}


def gmx(lang, orders, p):  # the original's header first by its date, not marked
    sender, sent, to, subject = labels(lang)
    head = f"{sent}: 03.06.2024 09:00\n{sender}: {p.sender}\n{to}: {BOB}\n{subject}: {p.subject}"
    return {"text": "\n".join(orders) + f"\n\n\n{head}\n\n{p.plain}\n"}


def qq_mail(lang, orders, p):  # HTML: a dashed separator in its language and the original
    original = LANGUAGES[lang]["original"]
    html = (
        f"<div>{html_of(orders)}</div><div>&nbsp;</div><div>------------------&nbsp;"
        f"{escape(original)}&nbsp;------------------</div><div>{html_header(lang, p)}</div>"
        f"<div>{p.html}</div>"
    )
    return {"html": html}


def zoho(lang, orders, p):
    html = (
        f"<div>{html_of(orders)}</div><div><br>---- {escape(wrote(lang, p))} ----<br></div>"
        f"<div>{p.html}</div>"
    )
    return {"html": html}


def evolution(lang, orders, p):
    return {"text": "\n".join(orders) + f"\n\n{wrote(lang, p)}\n{quoted(p.plain)}\n\n-- \nBob\n"}


def windows_mail(lang, orders, p):  # its footer, then the header and the original, not marked
    return {"text": "\n".join(orders) + f"\n\n{header(lang, p)}\n\n{p.plain}\n"}


def em_client(lang, orders, p):
    original = LANGUAGES[lang]["original"]
    html = (
        f"<div>{html_of(orders)}</div><div>------ {escape(original)} ------</div>"
        f"<div>{html_header(lang, p)}</div><div><blockquote type='cite'>{p.html}</blockquote></div>"
    )
    return {"html": html}


def spark(lang, orders, p):  # the whole original, not marked, under an attribution
    return {"text": "\n".join(orders) + f"\n\n{wrote(lang, p)}\n\n{p.plain}\n"}


def bluemail(lang, orders, p):  # the quote wrapped at 60, its marks doubled
    text = "\n".join(orders) + f"\n\n{wrote(lang, p)}\n" + rewrapped(quoted(p.plain, ">> "), 60)
    return {"text": text + "\n"}


def fastmail(lang, orders, p):  # HTML only, a blockquote with no class
    html = f"<div>{html_of(orders)}</div><div>{escape(wrote(lang, p))}</div>"
    html += f"<blockquote>{p.html}</blockquote>"
    return {"html": html}


def horde(lang, orders, p):  # the original not marked, rewrapped at 70 under a separator
    original = LANGUAGES[lang]["original"]
    text = (
        "\n".join(orders)
        + f"\n\n----- {original} -----\n{header(lang, p)}\n\n"
        + rewrapped(p.plain, 70)
        + "\n"
    )
    return {"text": text}


PROGRAMS = {
    "outlook": outlook,
    "outlook-web": outlook_web,
    "outlook-mac": outlook_mac,
    "outlook-android": outlook_android,
    "gmail": gmail,
    "gmail-android": gmail_android,
    "apple-mail": apple_mail,
    "iphone": iphone,
    "samsung": samsung,
    "thunderbird": thunderbird,
    "rewrapping": rewrapping,
    "lotus-notes": lotus_notes,
    "yahoo": yahoo,
    "yahoo-android": yahoo_android,
    "k9": k9,
    "mutt": mutt,
    "roundcube": roundcube,
    "protonmail": protonmail,
    "gmx": gmx,
    "qq-mail": qq_mail,
    "zoho": zoho,
    "evolution": evolution,
    "windows-mail": windows_mail,
    "em-client": em_client,
    "spark": spark,
    "bluemail": bluemail,
    "fastmail": fastmail,
    "horde": horde,
}


@dataclass(frozen=True)
class Shape:
    name: str
    program: str
    language: str
    parts: dict  # text and/or html, flowed ("yes" for delsp=yes, "no"), its width
    orders: list[str]  # as the game queues them


def shapes(prompt: Prompt, per_program: int = 5) -> list[Shape]:
    """Every program in ``per_program`` languages (each language in turn), with the orders
    of ORDERS in turn; one shape in four with an offered line of the prompt copied on top."""
    langs = itertools.cycle(LANGUAGES)
    orders = itertools.cycle(ORDERS)
    copied = itertools.cycle(offered(prompt))
    found = []
    for n, (program, layout) in enumerate(
        (p, f) for p, f in PROGRAMS.items() for _ in range(per_program)
    ):
        lang = next(langs)
        typed, queued = next(orders)
        if n % 4 == 0:  # an offered line, copied alone out of the quote
            line = next(copied)
            typed, queued = [*typed, line], [*queued, line]
        found.append(Shape(f"{program}-{lang}", program, lang, layout(lang, typed, prompt), queued))
    return found


def flowed(text: str, delsp: bool, width: int = 66) -> str:
    """``text`` as format=flowed (RFC 3676): a line longer than ``width`` broken softly after
    a space (and one space more with ``delsp=yes``), quote marks on every piece, and a
    piece that begins with a space, ">" or "From " stuffed with a space."""
    out = []
    for line in text.split("\n"):
        depth = len(line) - len(line.lstrip(">"))
        marks, body = line[:depth], line[depth:]
        if marks and body.startswith(" "):
            body = body[1:]  # the quote's own space: written again as the stuffing
        while True:
            stuff = " " if marks or body.startswith((" ", ">", "From ")) else ""
            cut = body.rfind(" ", 1, width) if len(body) > width else -1
            if cut <= 0:
                out.append(marks + stuff + body)
                break
            out.append(marks + stuff + body[: cut + 1] + (" " if delsp else ""))
            body = body[cut + 1 :]
    return "\n".join(out)


def raw_mail(shape: Shape, prompt: Prompt, number: int, sender: str = BOB) -> bytes:
    """Bob's reply (or ``sender``'s) as the shape's program sends it, to the plus-address of
    the prompt, answering it (In-Reply-To and References)."""
    parts = []
    if "text" in shape.parts:
        text = shape.parts["text"]
        kind = "text/plain; charset=utf-8"
        if "flowed" in shape.parts:
            delsp = shape.parts["flowed"] == "yes"
            text = flowed(text, delsp, shape.parts.get("width", 66))
            kind += "; format=flowed" + ("; delsp=yes" if delsp else "")
        parts.append((kind, text))
    if "html" in shape.parts:
        parts.append(("text/html; charset=utf-8", shape.parts["html"]))
    head = (
        f"From: {sender}\nTo: {prompt.reply_to}\nSubject: Re: {prompt.subject}\n"
        f"Date: {formatdate(time.time() + number)}\n"
        f"Message-ID: <{shape.name}.{number}@example.org>\nIn-Reply-To: {prompt.message_id}\n"
        f"References: {prompt.message_id}\nMIME-Version: 1.0\n"
    )
    bodies = [
        f"Content-Type: {kind}\nContent-Transfer-Encoding: quoted-printable\n\n" + _qp(text)
        for kind, text in parts
    ]
    if len(bodies) == 1:
        return (head + bodies[0]).encode()
    boundary = "=-reply-shape-="
    joined = "".join(f"--{boundary}\n{b}\n" for b in bodies)
    return (
        head + f'Content-Type: multipart/alternative; boundary="{boundary}"\n\n'
        + joined + f"--{boundary}--\n"
    ).encode()  # fmt: skip


def _qp(text: str) -> str:
    return quopri.encodestring(text.encode("utf-8")).decode("ascii")


# --- the prompt, from a real game ---------------------------------------------------------


def bobs_prompt(root):
    """A game played by mail until Bob has been asked for his first buildings and has
    answered, and waits for Cid (his orders are then kept as read): the prompt he was sent."""
    site, boxes = bus_game(root)
    prompt = None
    for _ in range(8):
        for msg in boxes.new():
            to = re.search(r"<(.*)>", str(msg["To"])).group(1)
            choices = choices_in(text_of(msg))
            if choices and to != "cid@example.org":
                if to == "bob@example.org":
                    prompt = msg
                boxes.deliver(reply(msg, to.partition("@")[0].title(), to, choices[:1]))
        run_tick(site)
        if prompt is not None and _waits_for_cid(boxes):
            return site, prompt_of(prompt)
    raise AssertionError("the game never came to Cid's turn")


def _waits_for_cid(boxes) -> bool:
    return any("cid@example.org" in str(m["To"]) and choices_in(text_of(m)) for m in boxes.sent())
