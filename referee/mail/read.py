"""Reading one incoming mail: who sent it, which game it is for, the commands it holds, and
whether it is a machine's mail that must never be answered.

Only the stdlib ``email`` package (``policy.default``) parses; nothing here raises on bad
input: any bytes give an ``Incoming``. What the parser is slow or fragile on is refused
before it parses (a header block or one header too large, containers nested too deep): such
a mail, and one the parser fails on, is read from its few essential headers alone and comes
with ``unreadable`` saying why, so it can still be told apart from machine mail and answered.

The command text is what the person typed: quoted lines, quoted replies, signatures, mobile
footers and attachments are left out, so a reply that quotes a whole report only yields the
lines written above or between the quotes.
"""

from __future__ import annotations

import codecs
import functools
import hashlib
import re
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from email import policy
from email.headerregistry import BaseHeader, HeaderRegistry
from email.message import EmailMessage
from email.parser import BytesParser
from email.utils import getaddresses, parseaddr
from html.parser import HTMLParser

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


def read_mail(raw: bytes, referee_address: str) -> Incoming:
    """Parse ``raw`` (one RFC 5322 message) for the referee whose address is ``referee_address``."""
    referee_address = referee_address.strip().lower()
    refusal = refuse_before_parsing(raw)
    if refusal:
        return _read_essentials(raw, referee_address, refusal)
    try:
        return _read(raw, referee_address)
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


def _read(raw: bytes, referee_address: str, original: bytes | None = None) -> Incoming:
    msg = BytesParser(policy=READING).parsebytes(raw)
    sender_name, sender_address = _first_address(msg, "From")
    recipients = _unique(a for h in RECIPIENT_HEADERS for _, a in _addresses(msg, h))
    text, truncated = _body_text(msg)
    text = command_text(text)
    subject = _header(msg, "Subject")
    return Incoming(
        message_id=_header(msg, "Message-ID").strip() or _synthetic_message_id(original or raw),
        sender_address=sender_address,
        sender_name=sender_name,
        recipients=recipients,
        reply_to=_unique(a for _, a in _addresses(msg, "Reply-To")),
        subject=subject,
        date=_date(msg),
        in_reply_to=_header(msg, "In-Reply-To").strip() or None,
        references=tuple(_header(msg, "References").split()),
        plus_tag=_plus_tag(recipients, referee_address),
        subject_tags=tuple(t.lower() for t in SUBJECT_TAG.findall(subject)),
        text=text,
        truncated=truncated,
        automatic=_why_automatic(msg, sender_address, referee_address) or why_machine_wording(text),
    )


class _ParsedOnce(HeaderRegistry):
    """policy.default's headers, each parsed once: the email package parses a header anew
    each time it is asked for, and reading one mail asks for its Content-Type a dozen times
    (and a tick reads the same few Content-Types in every mail). Parsed headers are
    immutable, so sharing them is safe."""

    @functools.lru_cache(maxsize=512)  # noqa: B019 - one registry, kept for the process
    def __call__(self, name: str, value: str) -> BaseHeader:
        return super().__call__(name, value)


READING = policy.default.clone(header_factory=_ParsedOnce())


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
REFEREE_WORDING = re.compile(
    r"^(This is an automatic (answer|summary) from the game referee|YOUR DECISION: )",
    re.MULTILINE,
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


def why_machine_wording(text: str) -> str | None:
    """The referee's own wording, unquoted, in the text a person would have written: its
    mail come back (re-sent by a list or a forwarder that dropped its headers)."""
    found = REFEREE_WORDING.search(text)
    return f"the referee's own words came back ({found.group(0).strip()!r})" if found else None


# --- the body ----------------------------------------------------------------------------


def _body_text(msg: EmailMessage) -> tuple[str, bool]:
    """The text of the body part a person wrote in (plain preferred, else HTML as text) and
    whether it was cut at MAX_TEXT_BYTES. Attachments are never read."""
    try:
        part = msg.get_body(preferencelist=("plain", "html"))
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
    return text, truncated


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
    inside a <blockquote> (how mail programs quote in HTML), scripts and styles dropped."""

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

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.lines: list[str] = []
        self.line: list[str] = []
        self.quote_depth = self.hidden = self.pre = 0

    def break_line(self, force: bool = False) -> None:
        text = "".join(self.line)
        if text.strip() or force:
            self.lines.append("> " * self.quote_depth + text)
        self.line = []

    def handle_starttag(self, tag, attrs):
        if tag in self.HIDDEN:
            self.hidden += 1
        elif tag == "br":
            self.break_line(force=True)
        elif tag in self.BLOCKS:
            self.break_line()
        if tag == "blockquote":
            self.quote_depth += 1
        elif tag == "pre":
            self.pre += 1

    def handle_endtag(self, tag):
        if tag in self.HIDDEN:
            self.hidden = max(0, self.hidden - 1)
        elif tag in self.BLOCKS:
            self.break_line()
        if tag == "blockquote":
            self.quote_depth = max(0, self.quote_depth - 1)
        elif tag == "pre":
            self.pre = max(0, self.pre - 1)

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)

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

WROTE = (
    r"wrote|writes|a [ée]crit|schrieb|escribi[óo]|ha scritto|schreef|escreveu|skrev|"
    r"kirjoitti|napisa[łl]a?|napsal|написал[аи]?|[íi]rta|έγραψε|yazd[ıi]|"
    r"写道|寫道|のメッセージ|님이 작성"
)
ATTRIBUTION = re.compile(rf"^.{{0,300}}?(?<!\w)({WROTE})(?!\w).{{0,300}}[:：]$", re.IGNORECASE)
ATTRIBUTION_OPENER = re.compile(r"^(on|le|am|el|il|op|em|den|dne|w dniu|в|el día)\s", re.IGNORECASE)
SIGNATURE = re.compile(r"^--\s*$")
SEPARATOR = re.compile(
    r"^(-{2,}\s*(original message|ursprüngliche nachricht|message d'origine|mensaje original|"
    r"messaggio originale|oorspronkelijk bericht|originalmeddelande|mensagem original|"
    r"forwarded message|weitergeleitete nachricht|message transféré|mensaje reenviado)\s*-{2,}"
    r"|begin forwarded message:|anfang der weitergeleiteten nachricht:"
    r"|début du message réexpédié\s?:|_{8,})$",
    re.IGNORECASE,
)
MOBILE_FOOTER = re.compile(
    r"^(sent from my |sent from (outlook|yahoo|mail for windows|aol)|sent with |sent via |"
    r"get outlook for |von meinem .{1,40} gesendet|gesendet von meinem |envoy[ée] (de|depuis) mon |"
    r"enviado desde mi |enviado do meu |inviato da(l mio)? |verzonden (vanaf|met) |"
    r"skickat från |sendt fra )",
    re.IGNORECASE,
)
HEADER_FROM = re.compile(
    r"^\*?(from|von|de|da|van|från|fra|od|от|kimden|feladó)\*?\s*:", re.IGNORECASE
)
# the second line of a quoted header, as Outlook writes it in each language: "Sent:",
# "Enviado el:", "Odesláno:", "Gesendet:", "Envoyé :", "Verzonden:", "Inviato:", ...
HEADER_SENT = re.compile(
    r"^\*?(sent|date|gesendet|datum|envoy[ée](\s+le)?|enviado(\s+el)?|inviato|verzonden|"
    r"skickat|sendt|wysłano|wysłane|odesláno|odeslano|отправлено|data|gönderildi|elküldve)"
    r"\*?\s*:",
    re.IGNORECASE,
)


# spaces that look like spaces, and characters that take no room: as people's mail programs
# put them in (a non-breaking space after a bullet, a zero-width space from a web page)
INVISIBLE = str.maketrans(
    {
        "\u00a0": " ",
        "\u2007": " ",
        "\u202f": " ",
        "\u2009": " ",
        "\u200b": None,
        "\u200c": None,
        "\u200d": None,
        "\u2060": None,
        "\ufeff": None,
    }
)
SMART_QUOTES = str.maketrans({"“": '"', "”": '"', "„": '"', "«": '"', "»": '"', "‘": "'", "’": "'"})
BULLET = re.compile(r"^\s*(?:[-*•·–—]|\d{1,2}[.)])\s+")
QUOTED_WHOLE = re.compile(r"""^(["'])(.*)\1$""")


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


def _attribution_lines(lines: list[str], i: int) -> int:
    """How many lines from ``i`` on form an "On <date>, <someone> wrote:" line (mail programs
    wrap a long one over two or three lines), 0 if there is none."""
    first = lines[i].strip()
    if ATTRIBUTION.match(first):
        return 1
    if ATTRIBUTION_OPENER.match(first):
        for n in (2, 3):
            if i + n <= len(lines) and ATTRIBUTION.match(
                " ".join(s.strip() for s in lines[i : i + n])
            ):
                return n
    return 0


def _header_block(lines: list[str], i: int) -> bool:
    """Outlook's quoted header: "From: ..." followed closely by "Sent: ..." (or Date:)."""
    return bool(HEADER_FROM.match(lines[i].strip())) and any(
        HEADER_SENT.match(s.strip()) for s in lines[i + 1 : i + 5]
    )


def _next_text_line(lines: list[str], i: int) -> str | None:
    return next((s for s in lines[i:] if s.strip()), None)


def command_text(text: str) -> str:
    """The lines a person wrote: quoted lines (``>``) dropped; everything from a signature
    (``-- ``), a mobile footer, a forwarded or "Original Message" block, or Outlook's quoted
    header on cut off. An "On ... wrote:" line is cut off with all that follows when the quote
    under it is not marked with ``>``; when it is, only the line goes, so answers written
    below or between the quoted lines are kept."""
    text = text.translate(INVISIBLE)
    lines = text.split("\n")
    kept: list[str] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        stripped = line.strip()
        if _quoted(line):
            i += 1
            continue
        if (
            SIGNATURE.match(line)
            or SEPARATOR.match(stripped)
            or MOBILE_FOOTER.match(stripped)
            or _header_block(lines, i)
        ):
            break
        n = _attribution_lines(lines, i) if stripped else 0
        if n:
            following = _next_text_line(lines, i + n)
            if following is None or not _quoted(following):
                break
            i += n
            continue
        kept.append(line.rstrip())
        i += 1
    return "\n".join(kept).strip("\n")
