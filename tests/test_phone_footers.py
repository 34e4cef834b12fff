"""The footers phone and webmail programs add below what was written (issue 34, item 7), in
the languages of tests/fixtures/reply_shapes: each is set aside as a footer, so that a mail
with orders says nothing of it (it is told only when a mail holds nothing else)."""

from pathlib import Path

import pytest
import yaml

from referee.mail.read import read_text

LANGUAGES = yaml.safe_load(
    (Path(__file__).parent / "fixtures" / "reply_shapes" / "languages.yaml").read_text("utf-8")
)
WEBMAIL = [
    "Wysłane z iPhone’a",  # iOS writes a typographic apostrophe
    "Diese Nachricht wurde von meinem Android Mobiltelefon mit GMX Mail gesendet.",
    "Отправлено из мобильной Почты Mail.ru",
    "发自网易邮箱大师",
    "Von Yahoo Mail auf Android gesendet",
]
PHONES = ("iphone", "galaxy", "outlook_android")
FOOTERS = sorted({row[key] for row in LANGUAGES.values() for key in PHONES} | set(WEBMAIL))


def test_the_footers_of_forty_languages_are_known():
    assert len(LANGUAGES) >= 40 and len(FOOTERS) >= 120


@pytest.mark.parametrize("footer", FOOTERS)
def test_a_phone_or_webmail_footer_is_set_aside_as_one(footer):
    kept, aside = read_text(f"build house 15\n\n{footer}\n")
    assert kept == "build house 15"
    assert [(a.kind, a.line) for a in aside] == [("footer", footer)]


def test_a_sentence_that_begins_like_no_footer_is_read():
    kept, aside = read_text("build house 15\nsent the wrong order, sorry")
    assert kept == "build house 15\nsent the wrong order, sorry" and not aside
