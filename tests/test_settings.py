"""Every file a person edits is described once (referee.schema) and read by one loader: all
its problems at once, each with its key path, what was found and what is allowed, and the
near miss of a misspelt key; `referee check` and the tick read it the same way, and a
campaign whose file is wrong stops alone, its game master told once ("The middle,
redesigned", item 4)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Literal

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st
from sites import PLAYERS, Mailboxes, make_site, person_mail, text_of

from referee.cli import main
from referee.schema import SettingsError, at_least, read, setting
from referee.service.tick import tick
from referee.settings.campaign import CampaignFile
from referee.settings.site import DEFAULT_CONFIG, SiteFile, load_config

T0 = datetime(2026, 11, 23, 9, 0, tzinfo=UTC)


@dataclass(frozen=True)
class Leg:
    town: str
    minutes: int = setting(10, check=at_least(1, "a whole number"))


@dataclass(frozen=True)
class Bike:
    type: Literal["bike"] = "bike"
    gears: int = 3


@dataclass(frozen=True)
class Train:
    type: Literal["train"]
    line: str


@dataclass(frozen=True)
class Trip:
    name: str
    legs: tuple[Leg, ...] = ()
    by: Bike | Train = Bike()
    fast: bool = False
    notes: dict[str, Any] = setting(factory=dict)
    base: Path = Path("trips")


def problems(data: Any) -> list[str]:
    with pytest.raises(SettingsError) as caught:
        read(Trip, data, "trip.yaml", Path("/site"))
    assert caught.value.file == "trip.yaml"
    return [str(p) for p in caught.value.problems]


def test_a_described_file_is_read_into_its_types_with_paths_from_its_folder():
    trip = read(
        Trip,
        {
            "name": "Dales",
            "legs": [{"town": "Leeds", "minutes": 20}],
            "by": {"type": "train", "line": "Wharfedale"},
        },
        "trip.yaml",
        Path("/site"),
    )
    assert trip == Trip(
        "Dales", (Leg("Leeds", 20),), Train("train", "Wharfedale"), base=Path("/site/trips")
    )
    assert read(Trip, {"name": "x", "by": {"gears": 7}}, "t", Path("/s")).by == Bike(gears=7)


def test_every_problem_is_told_at_once_with_its_path_what_was_found_and_what_is_allowed():
    told = problems(
        {
            "nmae": "Dales",
            "legs": [{"town": "Leeds", "minuets": 3}, {"minutes": 0}],
            "by": {"type": "bus"},
            "fast": "yes",
            "notes": ["a"],
        }
    )
    assert told == [
        "nmae: unknown setting; did you mean `name`?",
        "name: missing; add `name: ...` to the top section",
        "legs[0].minuets: unknown setting; did you mean `minutes`?",
        "legs[1].town: missing; add `town: ...` to the legs[1] section",
        "legs[1].minutes: expected a whole number of at least 1, found 0",
        "by.type: 'bus' is not one of: bike, train",
        "fast: write true or false, not 'yes'",
        "notes: expected a section of `key: value` lines, found a list",
    ]


def test_a_value_of_the_wrong_kind_says_what_is_allowed():
    assert problems({"name": ["a"], "legs": [{"town": "x", "minutes": "ten"}]}) == [
        "name: expected a text value, found a list",
        "legs[0].minutes: expected a whole number of at least 1, found 'ten'",
    ]
    assert problems([1, 2]) == ["the file: expected a section of `key: value` lines, found a list"]


plain = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=3)
        | st.dictionaries(
            st.sampled_from(["name", "legs", "town", "minutes", "by", "type", "line", "fast", "x"]),
            inner,
            max_size=4,
        )
    ),
    max_leaves=12,
)


@settings(max_examples=300, deadline=None)
@given(data=plain)
def test_any_data_is_read_or_refused_with_its_problems_never_anything_else(data):
    try:
        trip = read(Trip, data, "trip.yaml", Path("/site"))
    except SettingsError as err:
        assert err.problems and all(str(p) for p in err.problems)
    else:
        assert isinstance(trip.name, str) and all(leg.minutes >= 1 for leg in trip.legs)


def test_the_sample_referee_yaml_and_every_example_in_it_are_settings_of_its_description(
    tmp_path,
):
    """`referee init` writes DEFAULT_CONFIG: it loads, and each commented example in it,
    put in place, is a setting SiteFile knows (only its values may need the reader's own)."""
    (tmp_path / "referee.yaml").write_text(DEFAULT_CONFIG)
    assert load_config(tmp_path / "referee.yaml").referee_name == "Referee"
    keys = set(re.findall(r"^#\s+(?:- )?([a-z_]+):", DEFAULT_CONFIG, re.M))
    known: set[str] = set()
    stack = [SiteFile]
    while stack:
        described = stack.pop()
        known |= set(described.__annotations__)
        for nested in described.__dataclass_fields__.values():
            default = nested.default
            if hasattr(default, "__dataclass_fields__"):
                stack.append(type(default))
    from referee.settings.site import GameMaster, ImapSettings, RefereeSection, SmtpSettings

    for section in (GameMaster, ImapSettings, RefereeSection, SmtpSettings):
        known |= set(section.__dataclass_fields__)
    assert keys and keys <= known, keys - known


def referee(site, *args):
    return CliRunner().invoke(main, ["--config", str(site.config.path), *args])


def break_settings(site, campaign_id: str, line: str) -> None:
    path = site.data_root / campaign_id / "campaign.yaml"
    path.write_text(path.read_text() + line + "\n")


def test_check_names_a_wrong_value_and_a_misspelt_key_in_two_campaigns(tmp_path):
    site = make_site(tmp_path)
    for campaign_id in ("one", "two", "fine"):
        site.new_campaign("bus", campaign_id, PLAYERS, seed=1, gm="Gil <gil@example.org>")
    break_settings(site, "one", "gather_minutes: ten")
    break_settings(site, "two", "gather_minuts: 5")
    done = referee(site, "check")
    assert done.exit_code == 1
    assert "one/campaign.yaml has 1 problem(s)" in done.output
    assert "gather_minutes: expected a number of minutes from 0 to 1440, found 'ten'" in done.output
    assert "gather_minuts: unknown setting; did you mean `gather_minutes`?" in done.output
    assert "campaign fine: ok" in done.output
    assert "2 problem(s) found" in done.output


def test_a_gather_time_beyond_a_day_is_refused_with_its_bounds(tmp_path):
    """A day at most: a gather time beyond the dates a tick reckons in (1.0e+300) skipped
    the campaign at every tick with 'OverflowError: Python int too large to convert to C
    int', which told its game master nothing of the setting."""
    site = make_site(tmp_path)
    site.new_campaign("bus", "one", PLAYERS, seed=1, gm="Gil <gil@example.org>")
    break_settings(site, "one", "gather_minutes: 1.0e+300")
    done = referee(site, "check")
    assert done.exit_code == 1
    assert "gather_minutes must be a number of minutes from 0 to 1440, not 1e+300" in done.output
    assert "Overflow" not in tick(site, T0).errors[0]


def test_a_token_no_mail_can_carry_is_named_and_the_others_mail_is_held_not_failed(tmp_path):
    """A token edited by hand to one with a letter beyond ASCII made every mail to the
    campaign fail (compare_digest raised TypeError at the first seat it compared), and one
    with a capital matched no mail (a mail's token is read lowercase)."""
    site = make_site(tmp_path)
    site.new_campaign("bus", "one", PLAYERS, seed=1, gm="Gil <gil@example.org>")
    tick(site, T0)
    path = site.data_root / "one" / "campaign.yaml"
    ann, bob = site.campaign("one").players[:2]
    for spoilt in ("bußgeld", "Ann2026"):
        path.write_text(path.read_text().replace(f"token: {ann.token}", f"token: {spoilt}"))
        done = referee(site, "check")
        assert done.exit_code == 1
        assert f"players[0].token: '{spoilt}' is not a token: use 1 to 64 lowercase" in done.output
        path.write_text(path.read_text().replace(f"token: {spoilt}", f"token: {ann.token}"))
    path.write_text(path.read_text().replace(f"token: {ann.token}", "token: bußgeld"))
    boxes = Mailboxes(site)
    to_bob = site.identity.plus("one", bob.token)
    boxes.deliver(person_mail(f"Bob <{bob.address}>", to_bob, "my turn", "status"))
    [error] = tick(site, T0).errors
    assert error.startswith("campaign one:") and "skipped this tick" in error
    assert site.held()  # Bob's mail waits for the campaign to be mended
    path.write_text(path.read_text().replace("token: bußgeld", f"token: {ann.token}"))
    assert not tick(site, T0).errors and not site.held()  # mended: his mail is taken


def test_a_stopped_campaigns_notice_that_cannot_be_made_stops_no_other_campaign(
    tmp_path, monkeypatch
):
    """The notice is made in the handler of the campaign's own failure: anything it raised
    (as the game master's token once did, see test_fuzz_inputs) ended the whole tick."""
    site = make_site(tmp_path)
    for campaign_id in ("one", "fine"):
        site.new_campaign("bus", campaign_id, PLAYERS, seed=1, gm="Gil <gil@example.org>")
    tick(site, T0)
    break_settings(site, "one", "gather_minutes: ten")
    ann = site.campaign("fine").players[0]
    boxes = Mailboxes(site)
    to_fine = site.identity.plus("fine", ann.token)
    boxes.deliver(person_mail(f"{ann.name} <{ann.address}>", to_fine, "my turn", "status"))

    def fails(*args, **kwargs):
        raise RuntimeError("no notice today")

    monkeypatch.setattr("referee.service.work.tell_stopped", fails)  # (the one stand-in)
    report = tick(site, T0)
    assert report.applied == 1 and report.skipped == ["one"]
    failures = (site.state_dir / "failures.jsonl").read_text()
    assert "campaign one: the notice" in failures and "no notice today" in failures


def test_the_tick_plays_on_with_the_others_and_tells_each_game_master_once(tmp_path):
    site = make_site(tmp_path)
    for campaign_id in ("one", "two", "fine"):
        site.new_campaign("bus", campaign_id, PLAYERS, seed=1, gm="Gil <gil@example.org>")
    boxes = Mailboxes(site)
    tick(site, T0)
    before = len(boxes.sent())
    break_settings(site, "one", "gather_minutes: ten")
    break_settings(site, "two", "gather_minuts: 5")
    fine = site.campaign("fine")
    ann = fine.players[0]
    boxes.deliver(
        person_mail(
            f"{ann.name} <{ann.address}>",
            site.identity.plus("fine", ann.token),
            "my turn",
            "status",
        )
    )
    report = tick(site, T0)
    assert report.applied == 1  # the campaign that can be read plays on
    assert len(report.errors) == 2 and all("skipped this tick" in e for e in report.errors)
    told = [m for m in boxes.sent()[before:] if "stopped" in str(m["Subject"])]
    assert sorted(str(m["Subject"]) for m in told) == [
        "[one] The campaign stopped: its files need mending",
        "[two] The campaign stopped: its files need mending",
    ]
    assert all(
        str(m["To"]) == "Gil <gil@example.org>" or "gil@example.org" in str(m["To"]) for m in told
    )
    assert "did you mean `gather_minutes`?" in text_of(
        next(m for m in told if "[two]" in str(m["Subject"]))
    )
    tick(site, T0)
    again = [m for m in boxes.sent()[before:] if "stopped" in str(m["Subject"])]
    assert len(again) == 2  # told once, not at every tick
    path = site.data_root / "one" / "campaign.yaml"
    path.write_text(path.read_text().replace("gather_minutes: ten\n", ""))
    assert "one" not in "".join(tick(site, T0).errors)  # mended: it plays on


def test_a_command_never_writes_a_setting_the_next_tick_would_refuse(tmp_path):
    site = make_site(tmp_path)
    campaign = site.new_campaign("bus", "g1", PLAYERS, seed=1)
    campaign.settings["gather_minutes"] = -1
    with pytest.raises(
        Exception, match="gather_minutes must be a number of minutes from 0 to 1440, not -1.0"
    ):
        campaign.save()
    assert "gather_minutes" not in (site.data_root / "g1" / "campaign.yaml").read_text()


def test_a_campaign_file_is_described_whole():
    file = read(
        CampaignFile,
        {
            "id": "g1",
            "game": "bus",
            "seed": 3,
            "players": [{"name": "Ann", "address": "ANN@example.org", "token": "t"}],
        },
        "campaign.yaml",
    )
    assert (file.id, file.players[0].address, file.deadlines.active) == (
        "g1",
        "ann@example.org",
        False,
    )


def test_check_names_a_bot_the_game_does_not_have(tmp_path):
    """The bot is the game's to know (its names and budgets): check asks it, so that a
    campaign check passes is never stopped by its bot setting when a deadline is missed."""
    site = make_site(tmp_path)
    site.new_campaign("bus", "g1", PLAYERS, seed=1)
    break_settings(site, "g1", "bot: genius")
    done = referee(site, "check")
    assert done.exit_code == 1 and "no Bus bot 'genius'" in done.output
