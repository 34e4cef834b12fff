"""Reading one incoming mail: who sent it, which game it is for, the commands it holds, and
whether it is a machine's mail that must never be answered.

Only the stdlib ``email`` package (``policy.default``) parses; nothing here raises on bad
input: any bytes give an ``Incoming``. What the parser is slow or fragile on is refused
before it parses (a header block or one header too large, containers nested too deep): such
a mail, and one the parser fails on, is read from its few essential headers alone and comes
with ``unreadable`` saying why, so it can still be told apart from machine mail and answered.

The command text is what the person typed: quoted lines, quoted replies, signatures, mobile
footers and attachments are left out (and what was set aside is told), so a reply that
quotes a whole report only yields the lines written above or between the quotes. The marks
of the mail programs people use, in their languages, are read from ``quoting.yaml``. Mail is
the referee's own, or a machine's, by its headers alone, never by words in its body.
"""

from __future__ import annotations

import codecs
import functools
import hashlib
import re
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from email.headerregistry import BaseHeader
from email.message import EmailMessage
from email.parser import BytesParser
from email.utils import getaddresses, parseaddr
from html.parser import HTMLParser
from importlib import resources

import yaml

from .email_policy import POLICY, HeaderClasses
from .headers import plain_address

REFEREE_HEADER = "X-Referee"  # on every mail the referee sends; such mail is never answered

MAX_TEXT_BYTES = 256 * 1024
"""How much of the body part is decoded for commands. Commands are a few lines at the top (or
between quotes); a 5 MB body would only cost time in the text and HTML parsers."""

RECIPIENT_HEADERS = ("To", "Cc", "Delivered-To", "X-Original-To")


@dataclass(frozen=True)
class Incoming:
    """One mail as the referee understands it. Addresses are lowercased."""

    message_id: str  # the header's value, or "<sha256-prefix@synthetic.referee>" without one
    sender_address: str  # "" when the From header holds no usable address
    sender_name: str
    recipients: tuple[str, ...]  # To, Cc, Delivered-To, X-Original-To, in that order, unique
    reply_to: tuple[str, ...]
    subject: str
    date: datetime | None  # aware; None when missing or unreadable
    in_reply_to: str | None
    references: tuple[str, ...]
    plus_tag: str | None  # "bus1.k3j4" of referee+bus1.k3j4@host, lowercased
    subject_tags: tuple[str, ...]  # every "[tag]" in the subject, lowercased, in order
    text: str  # the command text
    truncated: bool  # the body was longer than MAX_TEXT_BYTES: only its start was read
    automatic: str | None  # why this mail must never be answered, None for a person's mail
    unreadable: str | None = None  # why only the essential headers could be read
    set_aside: tuple[SetAside, ...] = ()  # what of the text was not read for commands
    body_digest: str = ""  # of its text, what it replies to and its Date: the same mail sent anew

    @property
    def key(self) -> tuple[str, str]:
        """What identifies the mail: its Message-ID with its sender (another sender's mail
        under a Message-ID used before is another mail)."""
        return self.sender_address, self.message_id

    @property
    def subject_tag(self) -> str | None:
        """The first ``[tag]`` of the subject (a game id when it names one)."""
        return self.subject_tags[0] if self.subject_tags else None


MAX_HEADER_BLOCK = 64 * 1024  # the top-level headers together
MAX_HEADER = 8 * 1024  # one header, unfolded; the stdlib parser takes seconds on 100 KB
MAX_CONTAINERS = 50  # multipart and message/* parts: the parser recurses into each
ESSENTIAL_HEADERS = (
    "from",
    "message-id",
    "subject",
    "return-path",
    "auto-submitted",
    "precedence",
    "list-id",
    "list-unsubscribe",
    REFEREE_HEADER.lower(),
)


SentMail = Callable[[str], bytes | None]
"""The referee's own mail of a Message-ID, as it went out, or None (not its own, not kept)."""


def read_mail(raw: bytes, referee_address: str, sent: SentMail | None = None) -> Incoming:
    """Parse ``raw`` (one RFC 5322 message) for the referee whose address is
    ``referee_address``; ``sent`` finds the referee's own mail that ``raw`` answers, by its
    In-Reply-To or References, so that a quote of it is known by its words."""
    referee_address = referee_address.strip().lower()
    refusal = refuse_before_parsing(raw)
    if refusal:
        return _read_essentials(raw, referee_address, refusal)
    try:
        return _read(raw, referee_address, sent=sent)
    except Exception as err:  # the email package fails on some malformed structures
        why = f"the mail could not be parsed ({type(err).__name__}: {str(err)[:200]})"
        return _read_essentials(raw, referee_address, why)


def refuse_before_parsing(raw: bytes) -> str | None:
    """Why ``raw`` is not given to the parser at all, or None: the checks are linear scans."""
    end = min((i for i in (raw.find(b"\r\n\r\n"), raw.find(b"\n\n")) if i >= 0), default=-1)
    block = raw if end < 0 else raw[:end]
    for name, size in _header_sizes(block):
        if size > MAX_HEADER:
            return f"its {name} header is {size // 1024} KB (at most {MAX_HEADER // 1024} KB)"
    if len(block) > MAX_HEADER_BLOCK:
        return f"its headers are {len(block) // 1024} KB (at most {MAX_HEADER_BLOCK // 1024} KB)"
    for m in PART_HEADER.finditer(raw, end if end > 0 else 0):
        if len(m.group(0)) > MAX_HEADER:
            return (
                f"a part's header is {len(m.group(0)) // 1024} KB (at most {MAX_HEADER // 1024} KB)"
            )
    containers = len(CONTAINER.findall(raw))
    if containers > MAX_CONTAINERS:
        return f"it has {containers} nested parts (at most {MAX_CONTAINERS})"
    return None


PART_HEADER = re.compile(rb"(?im)^content-[a-z-]{1,30}:[^\n]*(?:\n[ \t][^\n]*)*")
CONTAINER = re.compile(rb"(?im)^content-type:\s*(?:multipart|message)/")


def _header_sizes(block: bytes):
    """(name, unfolded size) of every header of a header block."""
    name, size = "", 0
    for line in block.split(b"\n"):
        if line[:1] in (b" ", b"\t") and name:
            size += len(line)
            continue
        if name:
            yield name, size
        name, size = line.partition(b":")[0][:60].decode("ascii", "replace"), len(line)
    if name:
        yield name, size


def read_head(head: bytes, referee_address: str, why: str) -> Incoming:
    """A mail not to be read whole (``why``): who sent it, its Message-ID and subject, from
    its first bytes ``head``."""
    return _read_essentials(head, referee_address.strip().lower(), why)


def _read_essentials(raw: bytes, referee_address: str, why: str) -> Incoming:
    """A mail read from its essential headers alone (each cut to MAX_HEADER), no body."""
    end = min((i for i in (raw.find(b"\r\n\r\n"), raw.find(b"\n\n")) if i >= 0), default=-1)
    kept: list[bytes] = []
    keep = False
    for line in (raw if end < 0 else raw[:end]).split(b"\n")[:10_000]:
        if line[:1] not in (b" ", b"\t"):
            keep = line.partition(b":")[0].strip().lower().decode("ascii", "replace") in (
                ESSENTIAL_HEADERS
            )
        if keep and sum(map(len, kept)) < MAX_HEADER_BLOCK:
            kept.append(line.rstrip(b"\r")[:MAX_HEADER])
    try:
        incoming = _read(b"\r\n".join(kept) + b"\r\n\r\n", referee_address, raw)
    except Exception:  # not even those headers: nobody to answer
        incoming = _nobody(raw)
    return replace(incoming, unreadable=why)


def _nobody(raw: bytes) -> Incoming:
    return Incoming(
        message_id=_synthetic_message_id(raw),
        sender_address="",
        sender_name="",
        recipients=(),
        reply_to=(),
        subject="",
        date=None,
        in_reply_to=None,
        references=(),
        plus_tag=None,
        subject_tags=(),
        text="",
        truncated=False,
        automatic=None,
    )


def _read(
    raw: bytes, referee_address: str, original: bytes | None = None, sent: SentMail | None = None
) -> Incoming:
    msg = BytesParser(policy=READING).parsebytes(raw)
    sender_name, sender_address = _first_address(msg, "From")
    recipients = _unique(a for h in RECIPIENT_HEADERS for _, a in _addresses(msg, h))
    text, truncated = _body_text(msg)
    in_reply_to = _header(msg, "In-Reply-To").strip() or None
    references = tuple(_header(msg, "References").split())
    when = _date(msg)
    digest = body_digest(text, in_reply_to, when)
    text, set_aside = read_text(text, _answered(sent, in_reply_to, references))
    subject = _header(msg, "Subject")
    return Incoming(
        message_id=_header(msg, "Message-ID").strip() or _synthetic_message_id(original or raw),
        sender_address=sender_address,
        sender_name=sender_name,
        recipients=recipients,
        reply_to=_unique(a for _, a in _addresses(msg, "Reply-To")),
        subject=subject,
        date=when,
        in_reply_to=in_reply_to,
        references=references,
        plus_tag=_plus_tag(recipients, referee_address),
        subject_tags=tuple(t.lower() for t in SUBJECT_TAG.findall(subject)),
        text=text,
        truncated=truncated,
        automatic=_why_automatic(msg, sender_address, referee_address),
        set_aside=set_aside,
        body_digest=digest,
    )


class _ParsedOnce(HeaderClasses):
    """The referee's headers (``POLICY``), each parsed once: the email package parses a header anew
    each time it is asked for, and reading one mail asks for its Content-Type a dozen times
    (and a tick reads the same few Content-Types in every mail). Parsed headers are
    immutable, so sharing them is safe."""

    @functools.lru_cache(maxsize=512)  # noqa: B019 - one registry, kept for the process
    def __call__(self, name: str, value: str) -> BaseHeader:
        return super().__call__(name, value)


READING = POLICY.clone(header_factory=_ParsedOnce())


def command_lines(text: str) -> list[str]:
    """The non-empty lines of a command text, stripped."""
    return [s for s in (line.strip() for line in text.splitlines()) if s]


# --- headers -----------------------------------------------------------------------------

SUBJECT_TAG = re.compile(r"\[([a-z0-9][a-z0-9-]{0,31})\]", re.IGNORECASE)


def _header(msg: EmailMessage, name: str) -> str:
    """A header's decoded value, "" when it is missing or cannot be decoded at all."""
    try:
        value = msg.get(name)
        return "" if value is None else _text(str(value))
    except Exception:  # the email package's header parser fails on some malformed headers
        return ""


def _text(value: str) -> str:
    """One line of valid Unicode: undecodable bytes (kept by the parser as surrogates) become
    U+FFFD, so any header can be logged, stored as JSON and written into a mail."""
    return " ".join(value.encode("utf-8", "surrogatepass").decode("utf-8", "replace").split())


def _addresses(msg: EmailMessage, name: str) -> list[tuple[str, str]]:
    """(display name, lowercased address) for every address in every ``name`` header."""
    found: list[tuple[str, str]] = []
    try:
        values = msg.get_all(name) or []
    except Exception:  # the header parser refused it (e.g. CR/LF encoded in a name): raw
        values = [v for k, v in msg.raw_items() if k.lower() == name.lower()]
    for value in values:
        try:  # Delivered-To and X-Original-To are not address headers to the email package
            pairs = [(a.display_name, a.addr_spec) for a in value.addresses]
        except Exception:  # that, or a header the structured parser gave up on
            pairs = getaddresses([str(value)])
        # a name is one line: an encoded CR/LF must never reach a header the referee writes;
        # nor is an address it could not write one back to (``plain_address``) taken
        found.extend((_text(n), a.lower()) for n, a in pairs if plain_address(a))
    return found


def _first_address(msg: EmailMessage, name: str) -> tuple[str, str]:
    found = _addresses(msg, name)
    if found:
        return found[0]
    display, address = parseaddr(_header(msg, name))
    return display, address.lower() if plain_address(address) else ""


def _unique(items) -> tuple[str, ...]:
    return tuple(dict.fromkeys(items))


def _date(msg: EmailMessage) -> datetime | None:
    try:
        value = msg.get("Date")
        when = getattr(value, "datetime", None)
    except Exception:
        return None
    if when is not None and when.tzinfo is None:  # "-0000": the zone is unknown; take it as UTC
        when = when.replace(tzinfo=UTC)
    return when


def body_digest(text: str, in_reply_to: str | None, date: datetime | None) -> str:
    """The same for the same mail sent anew (under a new Message-ID, through other servers
    that change its line ends, wrapping and headers), different for a reply to another mail
    and for a mail written again with the same words ("pass", a round later)."""
    when = date.astimezone(UTC).isoformat() if date else ""
    words = " ".join(text.split()) + "\n" + (in_reply_to or "") + "\n" + when
    return hashlib.sha256(words.encode("utf-8", "replace")).hexdigest()[:24]


def _synthetic_message_id(raw: bytes) -> str:
    # the same bytes always give the same id, so a mail seen twice is still recognised
    return f"<{hashlib.sha256(raw).hexdigest()[:32]}@synthetic.referee>"


def _plus_tag(recipients: tuple[str, ...], referee_address: str) -> str | None:
    local, _, domain = referee_address.rpartition("@")
    for address in recipients:
        their_local, _, their_domain = address.rpartition("@")
        if their_domain == domain and their_local.startswith(local + "+"):
            tag = their_local[len(local) + 1 :]
            if tag:
                return tag
    return None


# --- mail that must never be answered ---------------------------------------------------

AUTOMATIC_SENDERS = re.compile(
    r"^(mailer-daemon|mail-daemon|postmaster|bounces?([-+.].*)?|no-?reply([-+.].*)?|"
    r"do-?not-?reply|donotreply|auto-?reply|autoresponder|notifications?)$"
)
AUTOMATIC_NAMES = re.compile(
    r"^(mail delivery (subsystem|system|service)|mailer-daemon|postmaster|"
    r"microsoft outlook|mail administrator)$",
    re.IGNORECASE,
)
AUTO_REPLY_SUBJECTS = re.compile(
    r"\b(auto(matic)?[ -]?(reply|response|answer)|autoreply|auto-?response|out of (the )?office|"
    r"abwesenheitsnotiz|abwesend|automatische antwort|r[ée]ponse automatique|"
    r"message automatique|absent du bureau|respuesta autom[áa]tica|fuera de la oficina|"
    r"risposta automatica|fuori sede|resposta autom[áa]tica|automatisch antwoord|afwezig|"
    r"automatisk svar|autosvar|automaattinen vastaus|automatyczna odpowied[zź]|"
    r"undeliverable|undelivered mail|delivery status notification|delivery failure|"
    r"mail delivery failed|returned mail|unzustellbar|nicht zustellbar|"
    r"ticket (received|created)|request received)\b|\[(#|ticket\s*#?|case\s*#?)\s*\d+\]",
    re.IGNORECASE,
)
AUTOMATIC_HEADER_PREFIXES = (
    "x-autoreply",
    "x-autorespond",
    "x-autogenerated",
    "x-mail-autoreply",
    "x-auto-response-suppress",  # Exchange sets it on its automatic replies
    "x-loop",
    "x-rt-loop-prevention",  # ticket systems: RT, OTRS, Zendesk, Freshdesk, Jira
    "rt-ticket",
    "x-otrs-loop",
    "x-zendesk-",
    "x-freshdesk-",
    "x-jira-",
    "x-ticket-id",
)


def _why_automatic(msg: EmailMessage, sender: str, referee_address: str) -> str | None:
    """Why ``msg`` is a machine's mail (answering it could start a mail loop), or None."""
    if msg.get(REFEREE_HEADER) is not None:
        return f"the referee's own mail ({REFEREE_HEADER} header)"
    if sender == referee_address:
        return "sent from the referee's own address"
    content_type = msg.get_content_type()
    if content_type == "multipart/report":
        report = str(msg.get_param("report-type") or "").lower()
        return (
            "a read receipt"
            if report == "disposition-notification"
            else f"a delivery status report (multipart/report; report-type={report or '?'})"
        )
    if content_type == "message/delivery-status":
        return "a delivery status report"
    if AUTOMATIC_SENDERS.match(sender.partition("@")[0]):
        return f"sent by {sender}, an automatic sender"
    name, _ = _first_address(msg, "From")
    if AUTOMATIC_NAMES.match(name):
        return f"sent by {name!r}, an automatic sender"
    if _header(msg, "Return-Path") == "<>":
        return "an empty Return-Path (a bounce)"
    auto_submitted = (_header(msg, "Auto-Submitted").lower().split() or [""])[0].rstrip(";")
    if auto_submitted and auto_submitted != "no":
        return f"Auto-Submitted: {auto_submitted}"
    precedence = _header(msg, "Precedence").lower()
    if precedence in ("bulk", "junk", "list", "auto_reply"):
        return f"Precedence: {precedence}"
    # a mailing list's copy: an answer would go to the whole list (or its owner)
    for name in ("List-Id", "List-Unsubscribe"):
        if msg.get(name) is not None:
            return f"mailing-list mail ({name} header)"
    for header in msg:
        if header.lower().startswith(AUTOMATIC_HEADER_PREFIXES):
            return f"an auto-reply or ticket system ({header} header)"
    subject = _header(msg, "Subject")
    if AUTO_REPLY_SUBJECTS.search(subject):
        return f"an auto-reply, a bounce or a ticket (by its subject: {subject[:80]!r})"
    return None


# --- the body ----------------------------------------------------------------------------


def _body_text(msg: EmailMessage, kinds: tuple[str, ...] = ("plain", "html")) -> tuple[str, bool]:
    """The text of the body part a person wrote in (plain preferred, else HTML as text: of
    ``kinds``) and whether it was cut at MAX_TEXT_BYTES. Attachments are never read."""
    try:
        part = msg.get_body(preferencelist=kinds)
    except Exception:
        part = None
    if part is None:
        return "", False
    try:
        decoded = part.get_payload(decode=True)
    except Exception:
        decoded = None
    payload = decoded if isinstance(decoded, bytes) else b""
    truncated = len(payload) > MAX_TEXT_BYTES
    text = _decode(payload[:MAX_TEXT_BYTES], part.get_content_charset())
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    if part.get_content_subtype() == "html":
        text = html_to_text(text)
    elif str(part.get_param("format", "")).lower() == "flowed":
        text = unflowed(text, str(part.get_param("delsp", "")).lower() == "yes")
    return text, truncated


def plain_text(msg: EmailMessage) -> str:
    """The plain text of a mail as its writer wrote it (``format=flowed`` joined again),
    or "" when it has none."""
    return _body_text(msg, ("plain",))[0]


def unflowed(text: str, delsp: bool = False) -> str:
    """``format=flowed`` text (RFC 3676) as its writer typed it: a line ending in a space
    goes on in the next line of the same quote depth (its space dropped with ``delsp=yes``),
    the space that stuffs a line is taken off, and quoted lines keep one ``> `` a level."""
    lines: list[str] = []
    paragraph: list[str] = []
    depth = 0
    for line in text.split("\n"):
        level = len(line) - len(line.lstrip(">"))
        body = line[level:]
        body = body[1:] if body.startswith(" ") else body  # stuffed
        if paragraph and level != depth:  # a paragraph ends where its quote depth changes
            lines.append(_at_depth(depth, "".join(paragraph)))
            paragraph = []
        depth = level
        soft = body.endswith(" ") and body != "-- "  # the signature's line is fixed
        paragraph.append(body[:-1] if soft and delsp else body)
        if not soft:
            lines.append(_at_depth(depth, "".join(paragraph)))
            paragraph = []
    if paragraph:
        lines.append(_at_depth(depth, "".join(paragraph)))
    return "\n".join(lines)


def _at_depth(depth: int, text: str) -> str:
    return ">" * depth + " " + text if depth else text


def _decode(data: bytes, charset: str | None) -> str:
    """Bytes in the declared charset. A wrong or unknown declaration falls back to UTF-8 and
    then Windows-1252, the usual truth of mislabelled mail. A multi-byte character cut at
    the size cap is dropped rather than failing the whole text."""
    candidates = [c for c in (charset, "utf-8", "cp1252") if c and _known_charset(c)]
    for name in candidates:
        try:
            return codecs.getincrementaldecoder(name)("strict").decode(data, final=False)
        except UnicodeError:  # also utf-16 without a byte-order mark
            continue
    return data.decode("utf-8", "replace")


def _known_charset(name: str) -> bool:
    """A text codec Python knows: not a bytes-to-bytes one such as base64, hex or zlib, nor
    rot13, which codecs.lookup also finds."""
    try:
        return getattr(codecs.lookup(name), "_is_text_encoding", True)
    except (LookupError, TypeError, ValueError):
        return False


class _HtmlText(HTMLParser):
    """HTML to plain text: line breaks where the HTML breaks lines, ``> `` before every line
    inside a quote (a <blockquote>, or an element that mail programs mark as a quote, such
    as GMX's <div name="quote">: ``quoting.yaml``), and before every line after the mark
    where a quoted mail begins (Outlook's <div id="divRplyFwdMsg">); scripts and styles
    dropped."""

    BLOCKS = {
        "p",
        "div",
        "li",
        "ul",
        "ol",
        "tr",
        "table",
        "h1",
        "h2",
        "h3",
        "h4",
        "h5",
        "h6",
        "blockquote",
        "pre",
        "hr",
        "dl",
        "dt",
        "dd",
        "section",
        "article",
        "header",
        "footer",
        "address",
        "center",
        "body",
    }
    HIDDEN = {"script", "style", "head", "title", "template"}
    VOID = {"br", "hr", "img", "meta", "link", "input", "wbr", "col", "area", "base", "source"}

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.lines: list[str] = []
        self.line: list[str] = []
        self.quote_depth = self.hidden = self.pre = 0
        self.depth: dict[str, int] = {}  # how many elements of each tag are open
        self.quoting: list[tuple[str, int]] = []  # the quotes open: (tag, its depth)
        self.marks = markers()

    def break_line(self, force: bool = False) -> None:
        text = "".join(self.line)
        if text.strip() or force:
            self.lines.append("> " * self.quote_depth + text)
        self.line = []

    def quotes(self, tag: str, attrs: list[tuple[str, str | None]]) -> bool:
        """Whether the element starts a quote; one that marks where the quoted mail begins
        makes all that follows a quote."""
        quote = tag == "blockquote"
        for name, value in attrs:
            if name not in MARKED or not value:
                continue
            for word in value.lower().split() if name == "class" else [value.lower()]:
                if (name, word) in self.marks.html_cut:
                    self.quote_depth += 1  # never closed: the rest of the mail is the quoted one
                quote = quote or (name, word) in self.marks.html_quote
        return quote

    def handle_starttag(self, tag, attrs):
        if tag in self.HIDDEN:
            self.hidden += 1
        elif tag == "br":
            self.break_line(force=True)
        elif tag in self.BLOCKS:
            self.break_line()
        if tag not in self.VOID:
            self.depth[tag] = self.depth.get(tag, 0) + 1
            if (attrs or tag == "blockquote") and self.quotes(tag, attrs):
                self.break_line()
                self.quote_depth += 1
                self.quoting.append((tag, self.depth[tag]))
        if tag == "pre":
            self.pre += 1

    def handle_endtag(self, tag):
        if tag in self.HIDDEN:
            self.hidden = max(0, self.hidden - 1)
        elif tag in self.BLOCKS:
            self.break_line()
        if tag == "pre":
            self.pre = max(0, self.pre - 1)
        depth = self.depth.get(tag, 0)
        if depth:
            # a quote ends with its element, and so does any quote left open inside it
            if any(t == tag and d >= depth for t, d in self.quoting):
                while True:
                    closed, at = self.quoting.pop()
                    self.break_line()
                    self.quote_depth = max(0, self.quote_depth - 1)
                    if closed == tag and at >= depth:
                        break
            self.depth[tag] = depth - 1

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)
        if tag not in self.VOID:
            self.handle_endtag(tag)

    def handle_data(self, data):
        if self.hidden:
            return
        if self.pre:
            first, *rest = data.split("\n")
            self.line.append(first)
            for piece in rest:
                self.break_line(force=True)
                self.line.append(piece)
        else:
            self.line.append(re.sub(r"\s+", " ", data))

    def text(self) -> str:
        self.close()
        self.break_line()
        return "\n".join(self.lines)


def html_to_text(html: str) -> str:
    parser = _HtmlText()
    try:
        parser.feed(html)
        return parser.text()
    except Exception:  # HTMLParser is lenient; this is only a last guard for odd input
        return re.sub(r"<[^>]*>", " ", html)


# --- the part a person wrote -------------------------------------------------------------


@dataclass(frozen=True)
class SetAside:
    """A part of a mail's text that is not read for commands, for the answer to tell."""

    kind: str  # "quoted" (lines marked >), "quote" (a quoted or forwarded mail), "signature",
    # "footer" (a mail program's own line)
    line: str  # its first line (at most 80 characters)
    count: int  # its lines that are not blank


def _plain(text: str) -> str:
    """Lowercased, each run of spaces made one space, a typographic apostrophe plain (as
    iOS writes "iPhone’a")."""
    return " ".join(text.lower().replace("’", "'").split())


@dataclass(frozen=True)
class Markers:
    """The quote marks of the mail programs people use (quoting.yaml), as a reader looks
    them up: sets and prefixes, no pattern to compile (a tick reads them once)."""

    wrote: tuple[tuple[str, bool], ...]  # (word, whether it stands alone between letters)
    openers: tuple[str, ...]  # each with the space after it
    labels: dict[str, str]  # a quoted header's label: "from", "sent" or "other"
    separators: frozenset[str]
    footers: tuple[str, ...]
    footer_starts: tuple[str, ...]  # their first words, to pass over other lines at once
    html_quote: frozenset[tuple[str, str]]  # (attribute, value), lowercased
    html_cut: frozenset[tuple[str, str]]

    def attribution(self, line: str) -> bool:
        """An "On <date>, <someone> wrote:" line: a word for "wrote" in it (a word of a
        script without spaces, Chinese, Japanese or Korean, may stand right after a digit
        or a name), and a colon at its end."""
        if not line.endswith(COLONS) or len(line) > 700:
            return False
        low = _plain(line)
        for word, alone in self.wrote:
            at = low.find(word)
            while at >= 0:
                end = at + len(word)
                if not alone or (
                    (at == 0 or not low[at - 1].isalnum())
                    and (end == len(low) or not low[end].isalnum())
                ):
                    return True
                at = low.find(word, at + 1)
        return False

    def opener(self, line: str) -> bool:
        """The first words of an attribution line ("On", "Am", "Le" ...)."""
        return (_plain(line) + " ").startswith(self.openers)

    def label(self, line: str) -> str | None:
        """The kind of quoted-header label the line starts with ("From:", "Gesendet:",
        "差出人：", "*Subject:*"), or None."""
        colon = min((i for i in (line.find(":"), line.find("：")) if i >= 0), default=-1)
        if colon < 1 or colon > 40:
            return None
        return self.labels.get(_plain(line[:colon].strip().strip("*")))

    def separator(self, line: str) -> bool:
        """A line that starts a forwarded or original mail: its words with dashes around
        them ("-----Original Message-----") or a colon after them ("Begin forwarded
        message:"), or a line of underscores (Outlook's)."""
        if len(line) >= 8 and not line.strip("_"):
            return True
        if not (line.startswith(DASHES) or line.endswith(COLONS)):
            return False
        words = line.strip("-_=* \t").rstrip(":：").strip("-_=* \t")
        return _plain(words) in self.separators

    def footer(self, line: str) -> bool:
        """The line a phone's mail program adds ("Sent from my iPhone")."""
        low = line.lower()
        if not low.startswith(self.footer_starts):
            return False
        low = _plain(low)
        return any(
            low.startswith(f) and (len(low) == len(f) or not low[len(f)].isalnum())
            for f in self.footers
        )


def _attributes(pairs: list[str]) -> frozenset[tuple[str, str]]:
    return frozenset(tuple(p.lower().split("=", 1)) for p in pairs)  # type: ignore[misc]


@functools.cache
def markers() -> Markers:
    data = yaml.load(
        resources.files(__package__).joinpath("quoting.yaml").read_text(encoding="utf-8"),
        Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader),
    )
    for key, words in data.items():  # YAML reads a bare on, no or yes as true or false
        for word in words:
            if not isinstance(word, str) or not word.strip():
                raise ValueError(f"quoting.yaml: {key}: {word!r} is not a word (quote it)")
    labels = {}
    for kind in ("other", "sent", "from"):  # a label of two kinds is taken as the latter
        labels.update(dict.fromkeys(map(_plain, data[f"header_{kind}"]), kind))
    footers = tuple(sorted(set(map(_plain, data["mobile_footers"])), key=len, reverse=True))
    return Markers(
        wrote=tuple((w, ord(w[0]) < 0x2E80) for w in map(_plain, data["wrote"])),
        openers=tuple(_plain(w) + " " for w in data["openers"]),
        labels=labels,
        separators=frozenset(map(_plain, data["separators"])),
        footers=footers,
        footer_starts=tuple({f.split()[0] for f in footers}),
        html_quote=_attributes(data["html_quote"]),
        html_cut=_attributes(data["html_cut"]),
    )


MARKED = frozenset(("class", "id", "name", "type"))  # the attributes that mark a quote
SIGNATURE = re.compile(r"^--\s*$")
COLONS = (":", "：")  # how an attribution line ends
DASHES = tuple("-_=*")  # how a separator line begins, when it does not end in a colon
# a line that introduces a quote without a word for "wrote" (Gmail in Japanese, Russian or
# Hebrew: "2024年6月3日(月) 9:00 Ann <ann@example.org>:"): an address, then a colon at its end
ADDRESSED = re.compile(r"\S@\S+\.\w.{0,40}[:：]$")


# spaces that look like spaces, and characters that take no room: as people's mail programs
# put them in (a non-breaking space after a bullet, a zero-width space from a web page, the
# marks of writing direction around names in Hebrew and Arabic mail)
INVISIBLE = str.maketrans(
    {
        "\u00a0": " ",
        "\u2007": " ",
        "\u202f": " ",
        "\u2009": " ",
        **dict.fromkeys(
            "\u200b\u200c\u200d\u200e\u200f\u2060\ufeff\u202a\u202b\u202c\u202d\u202e"
            "\u2066\u2067\u2068\u2069\u061c",
            None,
        ),
    }
)
SMART_QUOTES = str.maketrans({"“": '"', "”": '"', "„": '"', "«": '"', "»": '"', "‘": "'", "’": "'"})
BULLET = re.compile(r"^\s*(?:[-*•·–—]|\d{1,2}[.)])\s+")
QUOTED_WHOLE = re.compile(r"""^(["'])(.*)\1$""")


class _Folding(dict):
    """``str.translate``'s table for ``fold``, each character's entry made the first time
    it is met (a table of every character would be built at each start, for a few)."""

    def __missing__(self, code: int) -> str:
        char = chr(code)
        kind = unicodedata.category(char)
        if kind == "Nd":  # any script's decimal digit: Arabic-Indic, Persian, Devanagari ...
            folded = str(unicodedata.decimal(char))
        elif kind == "Pd" or char == "\u2212":  # dashes (en, em, Japanese wave) and minus
            folded = "-"
        elif kind == "Cf":  # soft hyphens, zero-width characters, marks of direction
            folded = ""
        elif char == "\u0130":  # Turkish capital dotted I: casefold would leave its dot
            folded = "i"
        else:
            folded = char
        self[code] = folded
        return folded


FOLDING = _Folding()


def fold(text: str) -> str:
    """Text as the referee reads orders and commands, whatever keyboard typed it: Unicode
    NFKC (full-width letters and digits, ligatures, odd spaces made plain), every decimal
    digit its ASCII one, dashes and the minus sign ``-``, soft hyphens and zero-width
    characters taken out, and case folded."""
    if text.isascii():  # most lines: no copy of one already in lower case
        return text if text.islower() else text.lower()
    return unicodedata.normalize("NFKC", text).translate(FOLDING).casefold()


def as_written(line: str) -> str:
    """A line as its writer meant it: smart quotes made plain, a list's bullet or number
    (``-``, ``*``, ``•``, ``1.``) dropped, and quotes around the whole line taken off."""
    line = BULLET.sub("", line.translate(INVISIBLE).translate(SMART_QUOTES)).strip()
    whole = QUOTED_WHOLE.match(line)
    return whole.group(2).strip() if whole else line


def as_order(line: str) -> str:
    """A line read as an order: as written, without the full stop that ends a sentence."""
    line = as_written(line)
    return line[:-1].rstrip() if line.endswith(".") and not line.endswith("..") else line


def _quoted(line: str) -> bool:
    return line.lstrip().startswith(">")


def _attribution_lines(marks: Markers, lines: list[str], i: int) -> int:
    """How many lines from ``i`` on form an "On <date>, <someone> wrote:" line (mail programs
    wrap a long one over two or three lines), 0 if there is none."""
    first = lines[i].strip()
    if first.endswith(COLONS):
        return 1 if marks.attribution(first) else 0
    if marks.opener(first) or "@" in first:  # "Ann <ann@...>, 3 Haz 2024 ... şunu" / "yazdı:"
        for n in (2, 3):
            if (
                i + n <= len(lines)
                and lines[i + n - 1].rstrip().endswith(COLONS)
                and marks.attribution(" ".join(s.strip() for s in lines[i : i + n]))
            ):
                return n
    return 0


def _header_block(marks: Markers, lines: list[str], i: int) -> bool:
    """A quoted header: "From: ..." (or "Sent: ...", as GMX and web.de begin it) with another
    label of a quoted header ("Sent:", "To:", "Subject:" ...) among the next lines."""
    kind = marks.label(lines[i].strip())
    if kind not in ("from", "sent"):
        return False
    near = [s.strip() for s in lines[i + 1 : i + 12] if s.strip()][:4]
    return any(marks.label(s) not in (None, kind) for s in near)


def _next_text_line(lines: list[str], i: int) -> str | None:
    return next((s for s in lines[i:] if s.strip()), None)


def read_text(text: str, answered: Answered | None = None) -> tuple[str, tuple[SetAside, ...]]:
    """The lines a person wrote, and what was set aside: the lines that reproduce the
    referee's own mail ``answered`` (``Answered.quotes``) with the header or attribution
    above them; quoted lines (``>``) dropped; everything from a signature (``-- ``), a
    mobile footer, a forwarded or "Original Message" block, or a quoted header on cut off.
    An "On ... wrote:" line is cut off with all that follows when the quote under it is not
    marked with ``>``; when it is, only the line goes, so answers written below or between
    the quoted lines are kept."""
    marks = markers()
    lines = text.translate(INVISIBLE).split("\n")
    kept: list[str] = []
    aside: list[SetAside] = []
    quoted: list[str] = []
    own = answered.quotes(lines) if answered is not None else {}
    ends = {i: end for start, end in own.items() for i in range(start, end)}
    i = 0
    while i < len(lines):
        line = lines[i]
        stripped = line.strip()
        if i in ends:  # the referee's own mail, and what a mail program put above it
            end = ends[i]
            block = [s.strip() for s in lines[i:end] if s.strip() and not _quoted(s)]
            quoted += [s.strip().lstrip("> ") for s in lines[i:end] if _quoted(s)]
            if block:
                aside.append(SetAside("quote", block[0][:80], len(block)))
            i = end
            continue
        if _quoted(line):
            quoted.append(stripped.lstrip("> "))
            i += 1
            continue
        if stripped:
            kind = (
                "signature"
                if SIGNATURE.match(line)
                else "footer"
                if marks.footer(stripped)
                else "quote"
                if marks.separator(stripped) or _header_block(marks, lines, i)
                else None
            )
            if kind:
                rest = [s.strip() for s in lines[i:] if s.strip()]
                first = rest[1] if kind == "signature" and len(rest) > 1 else stripped
                aside.append(SetAside(kind, first[:80], len(rest)))
                break
            n = _attribution_lines(marks, lines, i)
            following = _next_text_line(lines, i + n) if n else None
            if not n and ADDRESSED.search(stripped):  # no "wrote": only over a marked quote
                following = _next_text_line(lines, i + 1)
                n = 1 if following is not None and _quoted(following) else 0
            if n:
                if following is None or not _quoted(following):
                    rest = [s.strip() for s in lines[i:] if s.strip()]
                    aside.append(SetAside("quote", stripped[:80], len(rest)))
                    break
                quoted.extend(s.strip().lstrip("> ") for s in lines[i : i + n])
                i += n
                continue
        kept.append(line.rstrip())
        i += 1
    quoted = [q for q in quoted if q]
    if quoted:
        aside.insert(0, SetAside("quoted", quoted[0][:80], len(quoted)))
    return "\n".join(kept).strip("\n"), tuple(aside)


# --- the referee's own mail, in a reply to it -------------------------------------------

ANSWERED_LOOKUPS = 3  # the mails of In-Reply-To and References looked up, newest first
ABOVE = 12  # the lines above a quote that a header or an attribution may take
LONE = 12  # the letters of the shortest line that is a quote alone, under a header
LABEL = re.compile(r"^[^\d:：]{1,40}[:：]\s*\S")  # "Gesendet: Montag ...", not "passengers 11:2"
INDENTED = "    "  # how the referee writes the lines it offers (and its text map)
DECORATION = re.compile(r"^[\W_]*$|^[-_=*]{3,}.*[-_=*]{3,}$")  # ____, --- Original ---


def _letters(line: str) -> str:
    """A line as it is compared with the referee's text: folded, every space and then its
    quote marks taken out (a mail program wraps a quote again anywhere, even in a word)."""
    return "".join(fold(line).split()).lstrip(">")


@dataclass
class _Run:
    """Lines of a reply that go on one from another through the referee's text."""

    first: int  # the reply's line index of its first line and its last
    last: int
    start: int  # where it starts in ``Answered.text``, and where it ends
    end: int
    lines: int  # its lines that are not blank
    offered: bool  # every one of them one of the referee's offered lines
    marked: bool  # its last line marked as quoted (">")


@dataclass(frozen=True)
class Answered:
    """The referee's own mail that a reply answers, as the reply is read against it: its
    text folded and without spaces (its plain text, then its HTML's), so that its lines are
    known in the reply whatever the reply's mail program made of them (quoted or not,
    wrapped again, under header labels of any language)."""

    text: str
    offered: bytes  # 1 at each character of its offered (indented) lines
    starts: frozenset[int]  # where its lines start in text
    marks: tuple[str, ...]  # folded: its address, the address to answer, its subject's start
    name: str  # folded: the name it comes from

    def find(self, letters: str, then: str) -> int:
        """Where a line stands in the referee's text (where it stands followed by the lines
        ``then`` after it, if it does somewhere), or -1."""
        at = self.text.find(letters + then) if then else -1
        return at if at >= 0 else self.text.find(letters)

    def quotes(self, lines: list[str]) -> dict[int, int]:
        """The parts of a reply (first line index: the index after the last) that are the
        referee's mail: a run of lines that go on one from another through its text, two
        lines at least and not only the lines it offers (one of those copied alone is an
        order), with the lines above it that name the referee's mail (a header block, an
        attribution, in any language: by the referee's address, name or subject) and the
        separator above those."""
        said = [_letters(line) for line in lines]
        runs: list[_Run] = []
        previous = -1  # the last line with letters
        for i, letters in enumerate(said):
            if not letters:
                continue
            marked = _quoted(lines[i])
            run = runs[-1] if runs and runs[-1].last == previous else None
            previous = i
            # a line not marked under marked ones goes on with them when it is the rest of
            # a quoted line wrapped again, not when it is a whole line (an answer below)
            if (
                run
                and self.text.startswith(letters, run.end)
                and (marked or not run.marked or run.end not in self.starts)
            ):
                run.last, run.end, run.lines = i, run.end + len(letters), run.lines + 1
                run.offered = run.offered and self._offered(run.end - len(letters), run.end)
                run.marked = marked
                continue
            at = self.find(letters, "".join(said[i + 1 : i + 3]))
            if at >= 0:
                end = at + len(letters)
                runs.append(_Run(i, i, at, end, 1, self._offered(at, end), marked))
        found: dict[int, int] = {}
        floor = 0  # a header above a quote is not looked for in the quote before it
        for run in _merged(runs, said):
            alone = run.lines == 1
            if run.offered or (alone and run.end - run.start < LONE):
                continue
            start = self._header_above(lines, said, run.first, floor)
            if not alone or start < run.first:
                found[start] = run.last + 1
                floor = run.last + 1
        return found

    def _offered(self, start: int, end: int) -> bool:
        return self.offered.find(0, start, end) < 0

    def _header_above(self, lines: list[str], said: list[str], first: int, floor: int) -> int:
        """Where a quote that begins at ``first`` begins with what names the referee's mail
        above it (a header block, stacked or not, or an attribution) and the separators
        above that: the topmost such line of the ABOVE lines above it."""
        start, seen, i = first, 0, first - 1
        while i >= floor and seen < ABOVE:
            if said[i]:
                seen += 1
                if self.names_it(lines[i]):
                    start = i
            i -= 1
        # the lines of the same block above it: labels ("Gesendet: ..." above "Von: ..."),
        # the start of an attribution wrapped before the referee's address
        while start < first and start > floor and said[start - 1]:
            above = lines[start - 1].strip()
            if not (LABEL.match(above) or self._named(" ".join(fold(above).split()))):
                break
            start -= 1
        while start > floor and (not said[start - 1] or DECORATION.match(lines[start - 1].strip())):
            start -= 1
        while start < first and not said[start]:
            start += 1
        return start

    def names_it(self, line: str) -> bool:
        """A line that names the referee's mail: its address, the address to answer or its
        subject in it; its name as a header's value ("Từ: Referee"), or in a line that ends
        in a colon ("Referee đã viết:")."""
        low = " ".join(fold(line).split())
        if any(mark in low for mark in self.marks):
            return True
        if not self.name or self.name not in low:
            return False
        head, colon, value = low.partition(":")
        if colon and len(head) <= 40 and value.strip(" \"'*").startswith(self.name):
            return True
        return low.endswith(":") and self._named(low)

    def _named(self, low: str) -> bool:
        """The referee's name, as a word, in a folded line."""
        alone = rf"(?<!\w){re.escape(self.name)}(?!\w)"
        return bool(self.name) and re.search(alone, low) is not None


def _previous(said: list[str], i: int) -> int:
    """The index of the last line with words before ``i``, or -1."""
    i -= 1
    while i >= 0 and not said[i]:
        i -= 1
    return i


def _merged(runs: list[_Run], said: list[str]) -> list[_Run]:
    """Runs that follow one another with no line between and go on later in the referee's
    text (the reply skips a part, or goes on in the referee's HTML) made one; but a run of
    offered lines alone, or one line after the last run, is the player's: an order copied
    below a quote, or one the referee's mail repeats ("Accepted: action vroom")."""
    merged: list[_Run] = []
    for n, run in enumerate(runs):
        last = merged[-1] if merged else None
        after = runs[n + 1] if n + 1 < len(runs) else None
        joins = (
            last is not None
            and _goes_on(last, run, said)
            and (
                run.lines >= 2
                or (after is not None and run.marked == last.marked and _goes_on(run, after, said))
            )
        )
        if last is not None and joins:
            last.last, last.end, last.lines = run.last, run.end, last.lines + run.lines
        else:
            merged.append(run)
    return merged


def _goes_on(run: _Run, after: _Run, said: list[str]) -> bool:
    """``after`` follows ``run`` with no line between, later in the referee's text, and
    neither is offered lines alone."""
    return (
        not run.offered
        and not after.offered
        and run.last == _previous(said, after.first)
        and after.start >= run.end
    )


@functools.lru_cache(maxsize=16)
def answered_mail(raw: bytes) -> Answered:
    """The referee's mail ``raw`` as replies to it are read against it."""
    msg = BytesParser(policy=READING).parsebytes(raw)
    text: list[str] = []
    offered = bytearray()
    offered_lines: set[str] = set()
    starts: set[int] = set()
    for kind in ("plain", "html"):
        for line in _body_text(msg, (kind,))[0].split("\n"):
            letters = _letters(line)
            is_offered = line.startswith(INDENTED) if kind == "plain" else letters in offered_lines
            if letters and is_offered:
                offered_lines.add(letters)
            starts.add(len(offered))
            text.append(letters)
            offered += bytes([is_offered]) * len(letters)
        text.append("\x00")  # no line goes on from one text into the other
        offered.append(0)
    name, address = _first_address(msg, "From")
    marks = [address, *(a for _, a in _addresses(msg, "Reply-To"))]
    subject = " ".join(fold(_header(msg, "Subject")).split())[:24]
    return Answered(
        text="".join(text),
        offered=bytes(offered),
        starts=frozenset(starts),
        marks=tuple(m for m in [*marks, subject] if len(m) >= 6),
        name=" ".join(fold(name).split()),
    )


def _answered(sent: SentMail | None, in_reply_to: str | None, references: tuple[str, ...]):
    """The referee's own mail a reply answers: the first of its In-Reply-To and its
    References (newest first) that the referee sent and keeps."""
    if sent is None:
        return None
    ids = list(dict.fromkeys(i for i in (in_reply_to, *reversed(references)) if i))
    for message_id in ids[:ANSWERED_LOOKUPS]:
        raw = sent(message_id)
        if raw is not None:
            return answered_mail(raw)
    return None


def command_text(text: str) -> str:
    """The lines a person wrote (``read_text``), without what was set aside."""
    return read_text(text)[0]
