"""The one layout of the text maps' tables (``maps.textgrid.table``): headings over columns,
in the reader's words. The English layout is each column's English width; a longer worded
heading widens its column and the cells still line up under it; no line passes WIDTH (a
column gives way, or a row's last cell goes below or wraps); a column may fit a set of words
(the colours), whichever of them a game shows."""

from __future__ import annotations

from referee.contract import Say, Words
from referee.maps.textgrid import WIDTH, Column, table

GERMAN = {
    "Players": "Spieler",
    "Score": "Punktestand",
    "action markers left|action": "Aktion",
    "Colour": "Farbe",
    "red": "rot",
    "blue": "blau",
    "purple": "violett",
    "Run": "Fahrt",
    "From - To": "Von - Nach",
    "This round": "Diese Runde",
}


def german(words: Words) -> str:
    return GERMAN[words.text] if isinstance(words, Say) else words


COLUMNS = (
    Column(Say("Players"), 12),
    Column(Say("Score"), 6, ">"),
    Column(Say("action markers left|action"), 8, ">"),
)
ROWS: list[list[object]] = [["R Ann", 12, 3], ["U Bob", 7, 10]]


def ends(line: str) -> list[int]:
    """Where each word of a line ends."""
    return [i + 1 for i, ch in enumerate(line) if ch != " " and line[i + 1 : i + 2] in ("", " ")]


def test_the_english_table_keeps_the_english_widths():
    widths, lines = table(COLUMNS, ROWS, str)
    assert widths == [12, 6, 8]
    assert lines == [
        "Players      Score  action",  # the sense before the bar is never shown
        "R Ann           12       3",
        "U Bob            7      10",
    ]


def test_cells_line_up_under_a_longer_worded_heading():
    widths, lines = table(COLUMNS, ROWS, german)
    # "Punktestand" is 6 letters longer than "Score": its column too; "Aktion" is as long
    assert widths == [12, 12, 8]
    heading = lines[0]
    assert heading == "Spieler      Punktestand  Aktion"
    for row in lines[1:]:  # each figure ends where its heading does
        assert ends(row)[-2:] == ends(heading)[-2:], row
        assert row.startswith(("R Ann ", "U Bob "))


def test_a_longer_heading_keeps_two_of_the_blanks_it_had_for_its_cells():
    """A column wider than its English heading (room for its cells, a run's cards) grows
    only where its worded heading and two blanks need more."""
    columns = (Column(Say("Run"), 9, before="  "), Column(Say("From - To")))
    _, english = table(columns, [["10D-10H", "Ann - Bob"]], str)
    assert english == ["  Run      From - To", "  10D-10H  Ann - Bob"]
    _, worded = table(columns, [["10D-10H", "Ann - Bob"]], german)
    assert worded == ["  Fahrt    Von - Nach", "  10D-10H  Ann - Bob"]  # "Fahrt" and 4 blanks
    long = {**GERMAN, "Run": "Fahrtenkarte"}
    _, wider = table(columns, [["10D-10H", "Ann - Bob"]], lambda w: long[w.text])
    assert wider[0] == "  Fahrtenkarte  Von - Nach" and wider[1].index("Ann") == 16


def test_the_column_that_gives_way_cuts_its_cells_and_narrows_to_stay_within_width():
    columns = (Column(Say("Players"), 30), Column(Say("Score"), 40, ">"))
    rows: list[list[object]] = [["R " + "Annabel" * 5, 12]]
    widths, lines = table(columns, rows, str, gives_way=0)
    assert widths == [30, 40] and len(lines[1]) == 70
    assert lines[1].startswith("R " + ("Annabel" * 5)[:27] + "  ")  # cut: a blank after it
    words = {"Players": "Spieler", "Score": "Punktestand" * 4 + "Gesamt"}  # 50 letters
    widths, lines = table(columns, rows, lambda w: words[w.text], gives_way=0)
    # the scores' column is its heading and two blanks; the names' gives way by the 4
    # columns that took past WIDTH
    assert widths == [30 - 4, 52] and max(map(len, lines)) == WIDTH
    assert lines[1].startswith("R " + ("Annabel" * 5)[:23] + "  ")
    assert lines[1].endswith(" 12") and len(lines[1]) == len(lines[0])


def test_a_last_cell_that_would_pass_width_goes_below_ending_at_width():
    columns = (Column(Say("Players"), 60), Column(Say("This round"), before="  "))
    rows: list[list[object]] = [["R Ann", "order in"], ["U Bob", "dropped, missed 2 rounds"]]
    _, lines = table(columns, rows, german, overflow="below")
    assert lines[0] == f"{'Spieler':<60}  Diese Runde"
    assert lines[1] == f"{'R Ann':<60}  order in"
    assert lines[2] == "U Bob\n" + f"{'dropped, missed 2 rounds':>{WIDTH}}"


def test_a_last_cell_that_would_pass_width_wraps_under_its_column():
    columns = (Column(Say("Run"), 9, before="  "), Column(Say("From - To")))
    journey = " - ".join(["Aberdeen", "Birmingham", "Carlisle", "Dundee", "Edinburgh"] * 2)
    _, lines = table(columns, [["10D-10H", journey]], german, overflow="wrapped")
    row = lines[1].split("\n")
    assert len(row) > 1 and all(len(line) <= WIDTH for line in row)
    assert row[0].startswith("  10D-10H  Aberdeen")
    assert all(line[:11] == " " * 11 and line[11] != " " for line in row[1:])


def test_a_column_of_words_is_as_wide_as_the_longest_of_them_in_any_game():
    colours = (Say("red"), Say("blue"), Say("purple"))
    columns = (Column(Say("Colour"), fits=colours), Column(Say("Score"), 0, ">", "  "))
    rows: list[list[object]] = [[german(Say("red")), 7]]  # a game without purple
    widths, lines = table(columns, rows, german)
    assert widths[0] == len("violett") + 2
    assert lines == ["Farbe      Punktestand", "rot                  7"]
    widths, _ = table(columns, [["red", 7]], str)
    assert widths == [len("purple") + 2, len("Score")]


def test_a_column_fits_its_own_cells_where_they_are_its_words():
    columns = (Column(Say("Players"), fits=()), Column("a b c"))  # notation: not worded
    rows: list[list[object]] = [["Line expansion (line)", "R . ."], ["Clock (clock)", ". . ."]]
    _, lines = table(columns, rows, german)
    assert lines == [
        f"{'Spieler':<23}a b c",
        "Line expansion (line)  R . .",
        f"{'Clock (clock)':<23}. . .",
    ]
