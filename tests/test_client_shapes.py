"""The replies of the mail programs people use (tests/fixtures/client_shapes: Gmail, Apple
Mail, Thunderbird, Outlook, GMX, web.de, Yahoo and others, in many languages, plain and
HTML, format=flowed, in the charsets those programs send), each taken by a tick through the
real intake path: every one yields exactly its orders, or its answer names what was passed
over; none is dropped."""

import pytest
from client_shapes import raw_mail, shapes
from sites import bus_game, logged, run_tick, text_of

SHAPES = shapes()


def test_the_corpus_covers_the_mail_programs_and_languages():
    assert len(SHAPES) >= 60
    names = [s["name"] for s in SHAPES]
    assert len(set(names)) == len(names)
    html = [s for s in SHAPES if "html" in s]
    assert len(html) >= 15 and any(s.get("flowed") for s in SHAPES)
    for program in ("gmail", "outlook", "gmx", "webde", "apple", "thunderbird", "yahoo"):
        assert any(n.startswith(program) for n in names), program
    for language in ("ja", "zh", "ko", "fi", "el", "ar", "he", "ru", "de", "fr", "es", "it"):
        assert any(n.split("-")[1:2] == [language] for n in names), language


@pytest.fixture(scope="module")
def taken(tmp_path_factory):
    """Every shape, from Bob (who owes no decision yet: his orders are all kept, exactly as
    read), taken in one tick; the log's record of each, and what Bob was told."""
    site, boxes = bus_game(tmp_path_factory.mktemp("shapes"))
    boxes.new()
    to_bob = site.identity.plus("bus1", site.campaign("bus1").players[1].token)
    for shape in SHAPES:
        boxes.deliver(raw_mail(shape, to_bob))
    run_tick(site)
    records = {r["message_id"]: r for r in logged(site.campaign("bus1")) if r["kind"] == "mail"}
    told = "\n".join(text_of(m) for m in boxes.new("bob@example.org"))
    return records, told


@pytest.mark.parametrize("shape", SHAPES, ids=[s["name"] for s in SHAPES])
def test_each_shape_yields_exactly_its_orders_or_says_what_was_passed_over(shape, taken):
    records, told = taken
    record = records.get(f"<{shape['name']}@example.org>")
    assert record is not None, "the mail was dropped"
    assert "bad_lines" not in record, record["bad_lines"]
    kept = record.get("queues", {}).get("1", [])
    assert kept == shape["orders"]
    for passed in shape.get("passed_over", []):
        assert any(passed in line for line in record.get("ignored", [])), record.get("ignored")
        assert " ".join(passed.split()) in " ".join(told.split())  # and the answer says so
