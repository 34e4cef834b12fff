"""Text that ends in a header: decoded once where it comes in, and written so that it parses
back as itself.

A person's text (a name, an address, a Message-ID) is decoded once when the referee takes it
(``decoded_once``) and kept as plain Unicode. The email package (``policy.default``) decodes
every encoded word (``=?utf-8?q?...?=``) it is given in a header's text, and versions before
3.11.10/3.12.5 then fold what that decoding made, line breaks and all, into the mail as it
is: so a text written into a header must hold no encoded word and no line-breaking character
(``header_text``), a Message-ID must be one (``message_id_or_none``) and an address must be
a plain one (``plain_address``).
"""

from __future__ import annotations

import contextlib
import re
import unicodedata

# what breaks a line for str.splitlines or the email package: control characters, line and
# paragraph separators, and lone surrogates (undecodable bytes)
_BREAKING = {"Cc", "Cs", "Zl", "Zp"}


def decoded_once(text: str) -> str:
    """``text`` with its encoded words (RFC 2047) decoded, once: what a name written as
    ``=?utf-8?q?Ann?=`` means. Undecodable bytes become U+FFFD; what the decoding made (a
    line break, say) stays for the check that follows."""
    if "=?" in text:
        # the email package is imported here, where a name needs it: settings.checks reads
        # the rest of this module, and a tick with nothing to do reads the settings
        from .email_policy import POLICY

        with contextlib.suppress(Exception):  # the header parser gave up: kept as written
            text = str(POLICY.header_factory("subject", text))
    return text.encode("utf-8", "surrogatepass").decode("utf-8", "replace")


def unprintable(text: str) -> str | None:
    """The first character of ``text`` that must never reach a header (a control character,
    a line or paragraph separator, a lone surrogate), or None."""
    for char in text:
        if unicodedata.category(char) in _BREAKING:
            return char
    return None


def has_encoded_word(text: str) -> bool:
    """Whether ``text`` holds the start or the end of what a mail program might take for
    an encoded word: the email package takes ``=?`` and ``?=`` around almost anything for
    one, and is thrown by either alone next to one."""
    return "=?" in text or "?=" in text


def header_text(text: str) -> str:
    """``text`` as a header can carry it and a mail program reads it back: every character
    that could break a line, and every run of spaces, one space; an encoded word's ``=?``
    and ``?=`` written ``= ?`` and ``? =`` (the email package would decode it). A text
    checked where it came in (a name) is unchanged."""
    if unprintable(text):
        text = "".join(" " if unicodedata.category(c) in _BREAKING else c for c in text)
    if has_encoded_word(text):
        text = text.replace("=?", "= ?").replace("?=", "? =")
    return " ".join(text.split())


MESSAGE_ID = re.compile(r"<[!-;=?-~]{1,250}@[!-;=?-~]{1,250}>")


def message_id_or_none(text: str | None) -> str | None:
    """A Message-ID fit for In-Reply-To and References (``<local@domain>``, printable
    ASCII, no encoded word), else None."""
    if text and MESSAGE_ID.fullmatch(text) and "=?" not in text:
        return text
    return None


# the local part as people write it (a dot may end it, as in the addresses some mobile
# carriers gave out: taro.@docomo.ne.jp), the domain as labels between single dots
ADDRESS = re.compile(
    r"(?=[^@]{1,64}@.{1,253}$)[A-Za-z0-9!#$%&'*+/=?^_`{|}~.-]+@[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*"
)


def plain_address(address: str) -> bool:
    """Whether ``address`` is one the referee writes into a header: an ASCII local part of
    the usual characters (no quotes, no encoded word, no two dots together) and an ASCII
    domain name (an international one in its xn-- form)."""
    return bool(ADDRESS.fullmatch(address)) and "=?" not in address and ".." not in address
