"""The map goes along once, inline: the image part the HTML refers to by Content-ID is
marked inline, never as an attachment, which some mail programs show a second time below
the message (issue "Players' mail that reads at a glance on a phone", item 7)."""

from __future__ import annotations

import re
from email import policy
from email.parser import BytesParser

from played import played_site

from referee.mail.compose import compose


def pictures(msg) -> list:
    return [part for part in msg.walk() if part.get_content_maintype() == "image"]


def test_an_inline_picture_is_marked_inline_and_named_by_the_html():
    msg = compose(
        from_address="referee@example.org",
        from_name="Referee",
        to=["ann@example.org"],
        subject="map",
        text="the map",
        html='<img src="cid:map.1@example.org">',
        inline_images={"map.1@example.org": b"\x89PNG\r\n\x1a\n"},
        message_id="<m.1@example.org>",
    )
    again = BytesParser(policy=policy.default).parsebytes(msg.as_bytes())
    [image] = pictures(again)
    assert image.get_content_disposition() == "inline"
    assert image["Content-ID"] == "<map.1@example.org>"
    assert image.get_filename() == "map.1.png"  # a name for the program that saves it


def test_every_mail_of_a_played_game_shows_its_map_once_inline(tmp_path):
    site = played_site(tmp_path / "site")
    sent = [
        BytesParser(policy=policy.default).parsebytes(path.read_bytes())
        for path in sorted((site.data_root / "game" / "mail" / "out").glob("*.eml"))
    ]
    with_map = [msg for msg in sent if pictures(msg)]
    assert with_map, "the game's reports carry the map"
    for msg in with_map:
        html = msg.get_body(("html",)).get_content()
        named = set(re.findall(r'src="cid:([^"]+)"', html))
        images = pictures(msg)
        assert len(images) == 1 and {images[0]["Content-ID"].strip("<>")} == named
        assert images[0].get_content_disposition() == "inline", msg["Subject"]
