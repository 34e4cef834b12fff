"""Every campaign isolated: a refused game-master command, a bad campaign.yaml or a damaged
log stops nothing but (at most) that campaign, for that tick; every other campaign plays."""

from datetime import UTC, datetime

import pytest
from sites import ADDRESSES, PLAYERS, Mailboxes, make_site, person_mail, run_tick, text_of

from referee.records import RefusedCommand
from referee.service import session, work
from referee.service.tick import tick
from referee.service.work import run_as_gm

T0 = datetime(2026, 11, 23, 9, 0, tzinfo=UTC)


@pytest.fixture
def site(tmp_path):
    site = make_site(tmp_path)
    site.new_campaign("bus", "g1", PLAYERS, seed=1, gm="Gil <gil@example.org>")  # Ann starts
    run_tick(site)
    return site


def order(site, campaign_id, seat, text):
    token = site.campaign(campaign_id).players[seat].token
    address = site.identity.plus(campaign_id, token)
    Mailboxes(site).deliver(person_mail(PLAYERS[seat], address, "orders", text))


def orders_of(site, campaign_id):
    return [o.text for r in site.campaign(campaign_id).records() for o in r.orders]


# every game-master command, refused: (the line, what the refusal says)
REFUSED = [
    ("resume", "the campaign is running, not paused"),
    ("extend 0", "between 1 hour and 14 days"),
    ("extend soon", "write 'extend 24'"),
    ("replace Zed with Zoe <zoe@example.org>", "no player 'Zed' in g1"),
    ("replace Zed by Zoe <zoe@example.org>", "write 'replace <player> with"),
    ("replace Ann with Zoe <not an address>", "address"),
    ("replace Ann with Bob <bob@example.org>", "plays in g1 already"),
    ("drop Zed", "no player 'Zed'"),
    ("rollback 5", "only 0 orders can be undone"),
    ("rollback -1", "write 'rollback 3'"),
    ("start", "it started already"),
    ("message Zed hello", "write 'message all <text>'"),
    ("pause", None),  # accepted: then the two below are refused
    ("pause", "the campaign is paused, not running"),
    ("resume", None),
]


def test_every_game_master_command_refused_is_recorded_and_later_ticks_go_on(site):
    for line, reason in REFUSED:
        [action] = run_as_gm(site, "g1", line, T0)
        if reason is None:
            assert not isinstance(action, RefusedCommand), line
        else:
            assert isinstance(action, RefusedCommand) and reason in action.reason, (line, action)
        report = tick(site, T0)
        assert not report.errors, (line, report.errors)
    order(site, "g1", 0, "build house 15")
    run_tick(site)
    assert orders_of(site, "g1") == ["build house 15"]
    site.campaign("g1").table()  # the whole log replays
    # and adjudicate, refused where nothing can be decided: a game not started
    site.new_campaign("bus", "o1", [], seats=3, gm="Gil <gil@example.org>")
    [action] = run_as_gm(site, "o1", "adjudicate", T0)
    assert isinstance(action, RefusedCommand) and "o1 has not started yet" in action.reason
    run_tick(site)


def test_a_refused_rollback_by_mail_then_more_ticks_and_play(site):
    boxes = Mailboxes(site)
    boxes.new()
    gil = site.identity.plus("g1", site.campaign("g1").gm.token)
    boxes.deliver(person_mail("Gil <gil@example.org>", gil, "gm", "rollback 5\nrollback -1"))
    run_tick(site)
    [answer] = boxes.new("gil@example.org")
    assert "only 0 orders can be undone" in text_of(answer)
    for _ in range(3):
        run_tick(site)
    order(site, "g1", 0, "build house 15\nbuild pub 16")
    run_tick(site)
    order(site, "g1", 1, "build office 21")
    run_tick(site)
    assert orders_of(site, "g1") == ["build house 15", "build pub 16", "build office 21"]
    run_as_gm(site, "g1", "rollback 1", T0)  # a rollback that is not refused still works
    run_tick(site)
    assert [r.kind.value for r in site.campaign("g1").records()][-1] == "gm"


def test_a_bad_campaign_yaml_beside_a_good_campaign_that_goes_on_playing(site):
    site.new_campaign("bus", "g2", PLAYERS, seed=2)
    site.new_campaign("bus", "g3", PLAYERS, seed=3)
    run_tick(site)
    boxes = Mailboxes(site)
    boxes.new()
    order(site, "g2", 0, "build house 15")  # a mail to the campaign about to break
    settings = site.data_root / "g2" / "campaign.yaml"
    settings.write_text(
        settings.read_text() + "deadlines: {timezone: Mars/Olympus, weekdays_only: 'no'}\n"
    )
    log = site.data_root / "g3" / "log.jsonl"  # and one whose log cannot be replayed
    log.write_text('{not json\n{"n": 1}\n')
    order(site, "g1", 0, "build house 15")
    report = tick(site, T0)
    assert len(report.errors) == 2  # the campaigns g2 and g3 (the mail to g2 is held)
    text = "\n".join(report.errors)
    assert "Mars/Olympus" in text and "weekdays_only" in text and "g3" in text
    # g1 plays on: Ann's order applied and confirmed, Bob is prompted
    assert orders_of(site, "g1") == ["build house 15"]
    # (her next decision is hers too: the confirmation comes in the prompt, issue 12)
    to_ann = boxes.new(ADDRESSES[0])
    assert any("was read" in text_of(m) for m in to_ann)
    # the mail to g2 is held, not quarantined (issue 22, item 3), and its sender told
    assert not (site.state_dir / "quarantine").exists()
    assert len(list((site.state_dir / "held" / "g2").glob("*.eml"))) == 1
    assert any("[g2] Your mail is kept" in str(m["Subject"]) for m in to_ann)
    failures = (site.state_dir / "failures.jsonl").read_text()
    assert "campaign g2" in failures and "campaign g3" in failures
    # mended, g2 plays again the next tick
    settings.write_text(
        settings.read_text().replace(
            "deadlines: {timezone: Mars/Olympus, weekdays_only: 'no'}\n", ""
        )
    )
    report = tick(site, T0)
    assert [e for e in report.errors if "g2" in e] == []
    assert orders_of(site, "g2") == ["build house 15"]  # the mail held is applied


def test_status_of_all_campaigns_names_a_damaged_one_and_shows_the_others(site):
    from click.testing import CliRunner

    from referee.cli import main

    site.new_campaign("bus", "g2", PLAYERS, seed=2)
    (site.data_root / "g2" / "log.jsonl").write_text('{not json\n{"n": 1}\n')
    result = CliRunner().invoke(main, ["--config", str(site.config.path), "status"])
    assert result.exit_code == 1
    lines = result.output.splitlines()
    assert lines[0].startswith("g1 ") and "round 0" in lines[0] and "waiting for: Ann" in lines[0]
    assert lines[1].startswith("g2 ") and "unreadable" in lines[1]
    assert "1 campaign(s) could not be read (g2)" in result.output
    assert "referee verify" in result.output


def test_a_failed_mail_whose_sender_cannot_be_told_is_recorded_once_and_not_taken_again(
    site, monkeypatch
):
    """The notice to the sender of a mail that failed is a mail too. When it could not be
    written (as for an address the referee could not write, taro.@docomo.ne.jp), the failed
    mail's outcome went unrecorded: the mail stayed in the inbox, failed again at every
    tick and added a failure each minute."""

    def fault(*args, **kwargs):
        raise RuntimeError("a fault")

    order(site, "g1", 0, "build house 15")
    monkeypatch.setattr(session.Sessions, "apply", fault)
    monkeypatch.setattr(work, "tell_sender", fault)  # the answers stage fails to queue it
    first = tick(site, T0)
    assert first.fetched == 1 and any("a fault" in e for e in first.errors)
    again = tick(site, T0)
    assert (again.fetched, again.errors) == (0, [])
    assert len(list((site.state_dir / "quarantine").glob("*.eml"))) == 1
    failures = (site.state_dir / "failures.jsonl").read_text().splitlines()
    assert len(failures) == 2  # the mail's, and the notice to its sender's
    assert "answer to mail" in failures[1] and "a fault" in failures[1]
