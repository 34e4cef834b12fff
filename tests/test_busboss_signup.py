"""Rule 6: a player names their company and gives a preference list of colours when joining
(`join boss1 as Ann company "Vale Motors" colours red,blue`); the maps and reports use them,
and a player who gives none has a company by their name in the first colour left."""

from datetime import UTC, datetime
from pathlib import Path

import yaml
from busboss_positions import english
from click.testing import CliRunner
from sites import Mailboxes, make_site, person_mail, text_of

from referee import maps
from referee.busboss.engine import RULES
from referee.busboss.game import assign_colours
from referee.cli import main
from referee.service.site import Site
from referee.service.tick import tick
from referee.settings.site import load_config

T0 = datetime(2026, 11, 23, 9, 0, tzinfo=UTC)


def flat(text: str) -> str:
    """Text with its lines joined and its spaces single: wording, whatever the wrapping."""
    return " ".join(text.split())


def open_site(tmp_path, seats=3):
    site = make_site(tmp_path)
    # these tests send many sign-up mails from one address: lift the answers' limits
    config = Path(site.config.path)
    config.write_text(
        config.read_text() + "limits: {strangers_per_hour: 99, strangers_per_day: 99}\n"
    )
    site = Site(load_config(config))
    site.new_campaign("busboss", "boss1", [], seed=4, seats=seats)
    return site, Mailboxes(site)


def join(site, boxes, who: str, line: str) -> str:
    address = f"{who.lower()}@example.org"
    boxes.deliver(person_mail(f"{who} <{address}>", site.identity.address, "join", line))
    assert not tick(site, T0).errors
    [answer] = [m for m in boxes.new(address) if "oined" in str(m["Subject"])]
    return text_of(answer)


def test_rule_6_colours_go_by_preference_in_the_order_players_joined():
    assert assign_colours([["red", "blue"], ["red", "green"], []], 3) == ("red", "green", "blue")
    assert assign_colours([[], ["red"], ["red", "blue"]], 3) == ("green", "red", "blue")
    assert assign_colours([], 4) == ("red", "blue", "green", "yellow")  # the defaults


def test_rule_6_company_and_colours_at_sign_up_reach_the_game_maps_and_reports(tmp_path):
    site, boxes = open_site(tmp_path)
    text = join(site, boxes, "Ann", 'join boss1 as Ann company "Vale Motors" colours red,blue')
    assert "Welcome, Ann: you have a seat in boss1 (Bus Boss)." in text
    assert "You chose: company Vale Motors; colours red, blue." in flat(text)
    text = join(
        site, boxes, "Bob", "join boss1 as Bob Smith company “Tyne Coaches” colours red green"
    )
    assert "Welcome, Bob Smith:" in text and "colours red, green." in text
    text = join(site, boxes, "Cid", "join boss1 as Cid")
    assert "The game is full and starts now." in flat(text) and "You chose" not in text
    assert "Until the game starts" not in text
    campaign = site.campaign("boss1")
    assert campaign.status == "running"
    saved = yaml.safe_load((campaign.root / "campaign.yaml").read_text())["players"]
    assert saved[0]["signup"] == {"company": "Vale Motors", "colours": ["red", "blue"]}
    assert saved[1]["signup"] == {"company": "Tyne Coaches", "colours": ["red", "green"]}
    assert "signup" not in saved[2]
    view = campaign.table().view()
    assert [(p["company"], p["colour"]) for p in view["players"]] == [
        ("Vale Motors", "red"),
        ("Tyne Coaches", "green"),  # red went to Ann, who joined first
        (None, "blue"),  # the first colour left
    ]
    text_map = maps.text_map(view)
    assert "\nR Vale Motors " in text_map and "\nG Tyne Coaches " in text_map
    assert "Routes: R Vale Motors (Ann)  G Tyne Coaches (Bob Smith)  U Cid " in text_map
    assert "\nU Cid " in text_map
    assert max(len(line) for line in text_map.splitlines()) <= 100
    # the order language names owners and partners by these colours
    table = campaign.table()
    state, events = RULES.apply(table.state, 1, RULES.parse("build leeds-york")[0].alternatives[0])
    assert english(events) == ["Tyne Coaches (Bob Smith, green) sent orders for round 1."]
    welcome = [m for m in boxes.sent() if "Welcome to Bus Boss" in str(m["Subject"])]
    assert welcome and "Vale Motors" in text_of(welcome[0])


def test_rule_6_a_bad_choice_is_explained_and_no_seat_taken(tmp_path):
    site, boxes = open_site(tmp_path)
    text = join(site, boxes, "Ann", "join boss1 as Ann colours red,pink")
    assert "colours: 'pink' is not a colour of Bus Boss; the colours are red, blue" in text
    text = join(site, boxes, "Ann", "join boss1 as Ann colours red red")
    assert "colours: red is named twice among your colours" in text
    text = join(site, boxes, "Ann", "join boss1 as Ann company")
    assert 'company: write the name after "company"' in text
    text = join(site, boxes, "Ann", 'join boss1 as Ann company "The Vale of York Motor Co"')
    assert "company: a company's name has at most 22 characters" in text
    assert site.campaign("boss1").players == []
    join(site, boxes, "Ann", 'join boss1 as Ann company "Vale Motors"')
    text = join(site, boxes, "Bob", 'join boss1 as Bob company "vale motors"')
    assert "company vale motors is taken in boss1: choose another" in text
    assert [p.name for p in site.campaign("boss1").players] == ["Ann"]


def test_rule_6_joining_again_before_the_start_changes_the_choices(tmp_path):
    site, boxes = open_site(tmp_path)
    join(site, boxes, "Ann", "join boss1 as Ann colours blue")
    assert (
        "Until the game starts you may send 'join boss1' again with: company \"Vale Motors\" "
        "for your bus company's name (rule 6)." in flat(text_of(boxes.sent()[-1]))
    )
    text = join(site, boxes, "Ann", "join boss1 colors purple,red")  # either spelling
    assert "You chose: colours purple, red." in text
    [ann] = site.campaign("boss1").players
    assert ann.name == "Ann" and ann.signup == {"colours": ["purple", "red"]}


def test_rule_6_without_choices_the_game_is_as_before(tmp_path):
    site = make_site(tmp_path)
    players = [f"{n} <{n.lower()}@example.org>" for n in ("Ann", "Bob", "Cid")]
    view = site.new_campaign("busboss", "boss2", players, seed=4).table().view()
    assert [(p["company"], p["colour"]) for p in view["players"]] == [
        (None, "red"),
        (None, "blue"),
        (None, "green"),
    ]
    assert "\nR Ann " in maps.text_map(view) and "Companies" not in maps.text_map(view)


def test_the_list_of_open_games_and_the_help_say_how_to_choose(tmp_path):
    site, boxes = open_site(tmp_path)
    boxes.deliver(person_mail("Eve <eve@example.org>", site.identity.address, "help", "help"))
    assert not tick(site, T0).errors
    text = text_of(boxes.new("eve@example.org")[-1])
    assert 'company "Vale Motors" colours red,blue,green' in flat(text)
    boxes.deliver(person_mail("Eve <eve@example.org>", site.identity.address, "list", "list"))
    assert not tick(site, T0).errors
    assert (
        "boss1: Bus Boss, 3 of 3 seats free. To join: join boss1 as YourName (and if you "
        'like: company "Vale Motors" colours red,blue,green)' in flat(text_of(boxes.new()[-1]))
    )


def test_rule_6_a_replacement_player_takes_over_the_company_and_its_colour(tmp_path):
    from referee.service.work import run_as_gm

    site = make_site(tmp_path)
    site.new_campaign("busboss", "boss1", [], seed=4, seats=3, gm="Gil <gil@example.org>")
    boxes = Mailboxes(site)
    join(site, boxes, "Ann", 'join boss1 as Ann company "Vale Motors" colours purple')
    join(site, boxes, "Bob", "join boss1 as Bob")
    join(site, boxes, "Cid", "join boss1 as Cid")
    run_as_gm(site, "boss1", "replace Ann with Dee <dee@example.org>", T0)
    campaign = site.campaign("boss1")
    assert campaign.players[0].name == "Dee"
    assert campaign.players[0].signup == {"company": "Vale Motors", "colours": ["purple"]}
    view = campaign.table().view()
    assert (view["players"][0]["company"], view["players"][0]["colour"]) == (
        "Vale Motors",
        "purple",
    )


def test_rule_6_one_description_reads_the_join_line_and_campaign_yaml(tmp_path):
    """The sign-up is described once (``SignUp.described``): a join line with two bad choices
    is told both, and a game master's edit of a player's choices in campaign.yaml is held to
    the same description by `referee check`, naming the player's key path."""
    site, boxes = open_site(tmp_path)
    text = join(site, boxes, "Ann", "join boss1 as Ann company (Vale) colours pink")
    assert "company: write the company's name without ( ) | or #" in flat(text)
    assert "colours: 'pink' is not a colour of Bus Boss" in flat(text)
    join(site, boxes, "Ann", "join boss1 as Ann colours red")
    path = site.data_root / "boss1" / "campaign.yaml"
    path.write_text(path.read_text().replace("- red", "- pink"))
    done = CliRunner().invoke(main, ["--config", str(site.config.path), "check"])
    assert done.exit_code == 1
    assert "players[0].signup.colours: 'pink' is not a colour of Bus Boss" in done.output
