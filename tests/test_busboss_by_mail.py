"""Bus Boss refereed by email against the real mail rig (Dovecot and SMTP on loopback)."""

from importlib import resources

from sites import logged
from test_referee_by_mail import game_by_mail, replayed

from referee import mailbot
from referee.busboss.engine import RULES as BUSBOSS


def test_a_three_player_game_of_bus_boss_played_to_its_end_by_email(mailrig, tmp_path):
    campaign, players = game_by_mail(mailrig, tmp_path, "busboss", "boss", 8, 60)
    records = logged(campaign)
    assert sum(1 for r in records if r.get("kind") == "mail" and r["orders"]) >= 36  # 12 x 3
    state = replayed(BUSBOSS, 8, records)
    assert BUSBOSS.to_data(state) == BUSBOSS.to_data(campaign.table().state)
    for player in players:
        player.new_mail()
        # one prompt a round (the first in the welcome), not one per order of the others
        prompts = [
            m
            for m in player.received
            if "YOUR DECISION" in mailbot.body(m) and "Your mail:" not in str(m["Subject"])
        ]
        assert len(prompts) == 12
        [final] = [m for m in player.received if "The game is over" in str(m["Subject"])]
        assert "THE GAME IS OVER" in mailbot.body(final)


def test_a_game_masters_own_map_is_played_to_its_end_by_email(mailrig, tmp_path):
    """The small example map shipped to start a map from, copied as a game master's own
    file: `referee map check` passes it, and a campaign on it plays a whole game by mail."""
    own = tmp_path / "dales.yaml"
    own.write_text(
        resources.files("referee.busboss").joinpath("maps", "example.yaml").read_text("utf-8")
    )
    options = {"map": str(own)}
    campaign, players = game_by_mail(mailrig, tmp_path, "busboss", "dales", 3, 60, options)
    state = campaign.table().state
    assert state.map.title == "The Example Dales" and BUSBOSS.result(state) is not None
    assert BUSBOSS.round(state) == 12 and campaign.options["map"] == str(own)
    records = logged(campaign)
    assert BUSBOSS.to_data(replayed(BUSBOSS, 3, records, options)) == BUSBOSS.to_data(state)
    players[0].new_mail()
    [final] = [m for m in players[0].received if "The game is over" in str(m["Subject"])]
    assert "The Example Dales" in mailbot.body(final)
