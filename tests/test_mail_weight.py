"""A mail weighs at most 150 KB (issue 23, item 8, for Bus Boss; Bus since its map is
compressed for speed): its map picture, the heaviest part, goes to every player every round,
so a whole demo game of each is played by mail and its largest mail weighed."""

import pytest

from referee.demo import mail_counts, run_demo

pytestmark = pytest.mark.slow  # a whole game by mail: left out of --fast

MOST_KB = 150


@pytest.mark.parametrize("game", ["bus", "busboss"])
def test_the_largest_mail_of_a_whole_game_is_at_most_150_kb(tmp_path, game):
    result = run_demo(tmp_path, seed=1, game=game)
    assert result.finished
    counts = mail_counts(tmp_path / "mail" / "outbox")
    assert len(counts) == 4 and all(c.mails > 12 for c in counts.values())
    largest = max(c.largest for c in counts.values())
    assert largest <= MOST_KB * 1024, f"the largest mail is {largest / 1024:.0f} KB"
    # the weight was not saved by leaving the picture out: it went with a mail every round
    outbox = [p for box in ("new", "cur") for p in (tmp_path / "mail" / "outbox" / box).iterdir()]
    pictured = [p for p in outbox if b"image/png" in p.read_bytes()]
    assert len(pictured) >= 4 * result.campaign.table().round
