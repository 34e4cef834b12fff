"""A Bus Boss campaign recorded before rulings K9-K12 changed the engine
(tests/fixtures/old-logs/busboss-demo: a four-player demo game played to its end, its
campaign.yaml naming no map version). Its map then had no junctions: it is version 1 of the
Yorkshire map, which the map file keeps (K9 junctions are marked 'since: 2'), so the log
replays to the very state it reached. A campaign whose map version the referee cannot play is
refused, with a message naming the version."""

import json
import shutil
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner
from sites import make_site

from referee.cli import main
from referee.service.archive import players_context
from referee.store.campaign import Campaign, CampaignError

OLD_BUSBOSS = Path(__file__).parent / "fixtures" / "old-logs" / "busboss-demo"


def copy_of_old_campaign(root: Path) -> Campaign:
    shutil.copytree(OLD_BUSBOSS, root)
    return Campaign.load(root)


def test_k9_an_old_campaign_names_no_map_version_and_is_played_on_version_1(tmp_path):
    campaign = copy_of_old_campaign(tmp_path / "demo")
    assert "map_version" not in campaign.options
    assert campaign.game_options()["map_version"] == 1
    table = campaign.table()
    assert table.view()["map_version"] == 1
    assert not any(p["kind"] == "junction" for p in table.view()["places"])
    # the archive's page of players says which version of the map was played
    assert ("map_version", 1) in players_context(table)["options"]


def test_k9_an_old_log_replays_to_the_state_it_reached(tmp_path):
    table = copy_of_old_campaign(tmp_path / "demo").table()
    state = table.rules.to_data(table.state)
    expected = json.loads((OLD_BUSBOSS / "expected_state.json").read_text())
    assert len(table.steps) == 48 and table.over
    for key, value in expected.items():
        if key != "last":
            assert state[key] == value, key
    # the last round's record is the same but for the wording of its report (K10's notes,
    # one line for the runs not run)
    for key, value in expected["last"].items():
        if key != "events":
            assert state["last"][key] == value, key
    assert state["cash"] == [260, 178, 175, 187]
    # what the old state did not have: colours by seat and unnamed companies (rule 6),
    # the players in the game as the round began (K11)
    assert state["colours"] == ["red", "blue", "green", "yellow"]
    assert state["companies"] == [None] * 4 and state["round_players"] == 4


def test_k9_the_old_final_round_now_reports_the_runs_not_run_in_one_line(tmp_path):
    table = copy_of_old_campaign(tmp_path / "demo").table()
    events = table.steps[-1].events
    old = (OLD_BUSBOSS / "turns" / "round-12.txt").read_text()
    assert old.count("no run is carried out of round 12 (K3)") == 31
    [line] = [str(e) for e in events if "carried out of round 12" in str(e)]
    assert line.startswith("Not run: 31 runs; no run is carried out of round 12 (K3): 9C-3C, ")


def with_map_version(tmp_path: Path, version: int) -> Path:
    root = tmp_path / "demo"
    shutil.copytree(OLD_BUSBOSS, root)
    settings = yaml.safe_load((root / "campaign.yaml").read_text())
    settings["options"] = {"map_version": version}
    (root / "campaign.yaml").write_text(yaml.safe_dump(settings))
    return root


def test_k9_a_campaign_on_a_map_version_the_referee_lacks_is_refused_naming_it(tmp_path):
    campaign = Campaign.load(with_map_version(tmp_path, 3))
    with pytest.raises(CampaignError) as refused:
        campaign.table()
    message = str(refused.value)
    assert message.startswith("campaign demo cannot be replayed with this referee: ")
    assert "the game was started on version 3 of this map, but the file holds version 2" in message
    assert "yorkshire.yaml" in message


def test_k9_referee_replay_says_so_too(tmp_path):
    site = make_site(tmp_path / "site")
    root = with_map_version(tmp_path, 3)
    shutil.move(root, site.data_root / "demo")
    done = CliRunner().invoke(main, ["--config", str(site.config.path), "replay", "demo"])
    assert done.exit_code != 0
    assert "started on version 3 of this map" in done.output


def test_k9_a_new_campaign_keeps_the_map_version_it_starts_on(tmp_path):
    site = make_site(tmp_path / "site")
    players = [f"{n} <{n.lower()}@example.org>" for n in ("Ann", "Bob", "Cat")]
    campaign = site.new_campaign("busboss", "boss1", players, seed=3)
    assert campaign.options == {"map_version": 2, "rulings": 2}
    saved = yaml.safe_load((campaign.root / "campaign.yaml").read_text())
    assert saved["options"] == {"map_version": 2, "rulings": 2}
    assert campaign.table().view()["map_version"] == 2
    bus = site.new_campaign("bus", "bus1", players, seed=3)
    assert bus.options == {"line_orders": "name-head"}  # Bus keeps its own (B15)
