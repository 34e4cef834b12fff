"""Every input path a user or a hand edit reaches, fuzzed: a game master's and a player's
commands in a running campaign, commands outside any campaign, the site's and a campaign's
settings files, a game master's own Bus Boss map, the log's records and the snapshot. Each
input either works or is refused with a message; none stops a mail, a campaign or a tick,
and none loses what was there."""

from __future__ import annotations

import json
import random
import re
import shutil
import string
import tempfile
from datetime import UTC, datetime, timedelta
from email.message import EmailMessage
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from sites import PLAYERS, Mailboxes, make_site, person_mail, run_tick, status_health, text_of

from referee.busboss.engine import RULES as BUS_BOSS
from referee.busboss.map import MapError
from referee.mail.outbox import OutMail, SendError
from referee.mail.queue import RESTING
from referee.records import Record, RecordError
from referee.service.commands import CAMPAIGN_VERBS, SITE_VERBS
from referee.service.site import Site
from referee.service.tick import tick
from referee.service.verify import verify
from referee.settings.site import ConfigError, load_config
from referee.store import snapshots
from referee.store.campaign import Campaign, CampaignError

pytestmark = pytest.mark.slow  # hundreds of generated sites, each ticked

T0 = datetime(2026, 11, 23, 9, 0, tzinfo=UTC)
FUZZ = settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)

# words a command's arguments are made of: the shapes the commands read (numbers, dates,
# hours, names, addresses, key=value) beside anything at all
WORDS = st.one_of(
    st.sampled_from(
        [
            "0",
            "1",
            "-1",
            "99",
            "24",
            "1e9",
            "nan",
            "2026-12-24",
            "2026-02-30",
            "all",
            "gm",
            "Ann",
            "Bob",
            "Zed",
            "with",
            "Zoe <zoe@example.org>",
            "<>",
            "hours=48",
            "policy=bot",
            "times=",
            "timezone=Mars/Olympus",
            "bus",
            "busboss",
            "g1",
            "as",
            "strong",
            '"',
        ],
    ),
    st.text(string.printable, max_size=12),
    st.text(max_size=8),
)
ARGUMENTS = st.lists(WORDS, max_size=6).map(" ".join)


def command_lines(verbs: list[str]) -> st.SearchStrategy[list[str]]:
    line = st.tuples(st.sampled_from(verbs), ARGUMENTS).map(lambda v: f"{v[0]} {v[1]}".strip())
    return st.lists(st.one_of(line, st.text(max_size=30)), min_size=1, max_size=4)


@pytest.fixture(scope="module")
def template():
    """A site with a running Bus campaign that has a game master and one order played."""
    root = Path(tempfile.mkdtemp(prefix="fuzz-site-"))
    site = make_site(root)
    site.new_campaign("bus", "g1", PLAYERS, seed=1, gm="Gil <gil@example.org>")
    run_tick(site)
    token = site.campaign("g1").players[0].token
    Mailboxes(site).deliver(
        person_mail(PLAYERS[0], site.identity.plus("g1", token), "o", "build house 15")
    )
    run_tick(site)
    yield root
    shutil.rmtree(root)


def copy_of(template: Path, tmp_path_factory) -> Site:
    root = tmp_path_factory.mktemp("site") / "s"
    shutil.copytree(template, root)
    return Site(load_config(root / "referee.yaml"))


def outcomes(site: Site) -> list[dict]:
    path = site.state_dir / "received.jsonl"
    return [json.loads(line) for line in path.read_text().splitlines()]


def mail_to(site: Site, sender: str, token: str | None, lines: list[str]) -> None:
    to = site.identity.plus("g1", token) if token else site.identity.address
    Mailboxes(site).deliver(person_mail(sender, to, "fuzz", "\n".join(lines)))


@FUZZ
@given(
    gm=command_lines(sorted(v for v, c in CAMPAIGN_VERBS.items() if c.allows(gm=True))),
    player=command_lines(sorted(v for v, c in CAMPAIGN_VERBS.items() if c.allows(gm=False))),
)
def test_any_commands_in_a_running_campaign_end_in_one_outcome_each(
    template, tmp_path_factory, gm, player
):
    site = copy_of(template, tmp_path_factory)
    campaign = site.campaign("g1")
    before = outcomes(site)
    mail_to(site, "Gil <gil@example.org>", campaign.gm.token, gm)
    mail_to(site, PLAYERS[1], campaign.players[1].token, player)
    report = tick(site, T0)
    assert not report.errors, report.errors
    assert len(outcomes(site)) == len(before) + 2  # each mail, one recorded outcome
    assert not list(Path(site.config.inbox.path, "new").iterdir())  # both taken
    assert verify(site.data_root / "g1").ok  # the log still replays to what was sent
    run_tick(site)  # and the next tick goes on


@FUZZ
@given(lines=command_lines(sorted(SITE_VERBS)))
def test_any_commands_outside_a_campaign_end_in_one_outcome_and_an_answer(
    template, tmp_path_factory, lines
):
    site = copy_of(template, tmp_path_factory)
    before = outcomes(site)
    mail_to(site, "Olga <olga@example.org>", None, lines)
    report = tick(site, T0)
    assert not report.errors, report.errors
    assert len(outcomes(site)) == len(before) + 1
    assert verify(site.data_root / "g1").ok


def yaml_values(keys: list[str]) -> st.SearchStrategy:
    scalars = st.one_of(st.none(), st.booleans(), st.integers(), st.floats(), st.text(max_size=10))
    return st.recursive(
        scalars,
        lambda inner: st.one_of(
            st.lists(inner, max_size=3),
            st.dictionaries(
                st.one_of(st.sampled_from(keys), st.text(max_size=5)), inner, max_size=4
            ),
        ),
        max_leaves=12,
    )


def mutated(document: dict, keys: list[str]) -> st.SearchStrategy[dict]:
    """The document with some of its values (at any depth of its first level's sections)
    replaced by other YAML values."""

    def change(data, path, value):
        data = json.loads(json.dumps(data))
        target = data
        for key in path[:-1]:
            target = target.get(key) if isinstance(target, dict) else None
        if isinstance(target, dict):  # (an earlier change may have replaced the section)
            target[path[-1]] = value
        return data

    paths = [(k,) for k in document] + [
        (k, inner) for k, v in document.items() if isinstance(v, dict) for inner in v
    ]
    return st.lists(
        st.tuples(st.sampled_from(paths), yaml_values(keys)), min_size=1, max_size=3
    ).map(lambda changes: _apply(document, changes, change))


def _apply(document, changes, change):
    for path, value in changes:
        document = change(document, path, value)
    return document


@FUZZ
@given(data=st.data())
def test_any_site_configuration_loads_or_is_refused_with_every_problem_named(
    template, tmp_path_factory, data
):
    site = copy_of(template, tmp_path_factory)
    path = site.config.path
    document = yaml.safe_load(path.read_text())
    keys = [k for v in document.values() if isinstance(v, dict) for k in v] + list(document)
    text = data.draw(
        st.one_of(
            mutated(document, keys).map(yaml.safe_dump),
            st.text(max_size=200),
            st.binary(max_size=200).map(lambda b: b.decode("latin-1")),
        )
    )
    path.write_text(text, encoding="utf-8")
    try:
        config = load_config(path)
    except ConfigError as err:
        assert str(err).startswith(str(path))  # says which file
        return
    assert config.data_root.is_absolute()


@FUZZ
@given(data=st.data())
def test_any_campaign_settings_load_or_are_refused_and_the_tick_goes_on(
    template, tmp_path_factory, data
):
    site = copy_of(template, tmp_path_factory)
    site.new_campaign("bus", "g2", PLAYERS, seed=2)
    path = site.data_root / "g2" / "campaign.yaml"
    document = yaml.safe_load(path.read_text())
    bob = site.campaign("g2").players[1]
    keys = ["deadlines", "hours", "policy", "timezone", "observers", "no_observers", "bot"]
    text = data.draw(
        st.one_of(
            mutated(document, keys + list(document)).map(yaml.safe_dump), st.text(max_size=200)
        )
    )
    path.write_text(text, encoding="utf-8")
    try:
        Campaign.load(path.parent)
    except CampaignError as err:
        assert str(err)
    bobs_mail_is_taken_or_held(site, bob)
    assert verify(site.data_root / "g1").ok


def bobs_mail_is_taken_or_held(site: Site, bob) -> None:
    """Bob's mail to g2 with his token as it was: taken, or held with the campaign when its
    files need mending (the tick's one error then), never failed; g1 plays on."""
    Mailboxes(site).deliver(
        person_mail(f"Bob <{bob.address}>", site.identity.plus("g2", bob.token), "s", "status")
    )
    report = tick(site, T0)
    assert all(error.startswith("campaign g2:") for error in report.errors), report.errors


PLAYER_FIELDS = ["name", "address", "token", "timezone", "absence", "signup", "mail"]
# what a hand may write into a player's entry: beyond ASCII, capitals, a dot, nothing, a
# whole address where a name belongs, an international address
HAND_WRITTEN = ["bußgeld", "Ann2026", "a.b", "", " ", "Zoë <zoe@example.org>", "zoë@exämple.org"]


@FUZZ
@given(
    seat=st.integers(0, 3),  # 3: the game master
    field=st.sampled_from(PLAYER_FIELDS),
    value=st.one_of(yaml_values(PLAYER_FIELDS), st.sampled_from(HAND_WRITTEN)),
)
@example(seat=0, field="token", value="bußgeld")  # every mail to the campaign failed
@example(seat=1, field="token", value="Ann2026")  # Bob's mail matched no seat
@example(seat=3, field="token", value="bußgeld")  # the notice to the GM stopped every tick
def test_any_players_entry_in_campaign_yaml_loads_or_is_refused_and_no_mail_fails(
    template, tmp_path_factory, seat, field, value
):
    site = copy_of(template, tmp_path_factory)
    site.new_campaign("bus", "g2", PLAYERS, seed=2, gm="Gil <gil@example.org>")
    path = site.data_root / "g2" / "campaign.yaml"
    document = yaml.safe_load(path.read_text())
    bob = site.campaign("g2").players[1]
    (document["players"] + [document["gm"]])[seat][field] = value
    path.write_text(yaml.safe_dump(document), encoding="utf-8")
    try:
        Campaign.load(path.parent)
    except CampaignError as err:
        assert "campaign.yaml has" in str(err)
    bobs_mail_is_taken_or_held(site, bob)


SHIPPED_MAP = Path(__file__).parents[1] / "referee" / "busboss" / "maps" / "yorkshire.yaml"


@FUZZ
@given(data=st.data())
def test_any_map_file_of_a_game_master_plays_or_is_refused_with_every_problem_named(
    tmp_path_factory, data
):
    """A game master's own map (``map: <path>``, K1): some of the shipped map's routes, its
    values replaced at any depth, or any text. One that loads plays a whole game."""
    document = yaml.safe_load(SHIPPED_MAP.read_text())
    routes = document["routes"]
    document["routes"] = data.draw(
        st.one_of(st.just(routes), st.lists(st.sampled_from(routes), unique=True))
    )
    keys = ["cards", "places", "name", "pos", "along", "since", *document["destinations"]]
    text = data.draw(
        st.one_of(
            mutated(document, keys).map(yaml.safe_dump),
            st.just(yaml.safe_dump(document)),
            st.text(max_size=200),
        )
    )
    path = tmp_path_factory.mktemp("map") / "own.yaml"
    path.write_text(text, encoding="utf-8")
    try:
        state = BUS_BOSS.new_game({"map": str(path)}, ["Ann", "Bob", "Cid"], 1)
    except MapError as err:
        assert err.problems and str(path) in str(err)  # says which file, and what is wrong
        return
    bot, rng = BUS_BOSS.bot("random"), random.Random(1)
    while due := BUS_BOSS.awaiting(state):
        state, _ = BUS_BOSS.apply(state, due[0].seat, bot(state, due[0].seat, rng))
    assert BUS_BOSS.result(state) is not None
    assert BUS_BOSS.view(state)["map"]


JSON = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(), st.text(max_size=8)),
    lambda inner: st.one_of(
        st.lists(inner, max_size=3), st.dictionaries(st.text(max_size=8), inner, max_size=3)
    ),
    max_leaves=10,
)


@FUZZ
@given(data=st.data())
def test_any_log_record_reads_back_or_is_refused_naming_its_number(template, data):
    lines = (template / "games" / "g1" / "log.jsonl").read_text().splitlines()
    record = json.loads(data.draw(st.sampled_from(lines)))
    key = data.draw(st.sampled_from(sorted(record) + ["v", "queues", "actions", "missed"]))
    record[key] = data.draw(JSON)
    try:
        read = Record.from_json(record)
    except RecordError as err:
        assert f"record {record.get('n')}" in str(err)
        return
    assert Record.from_json(read.to_json()) == read  # what reads, reads back the same


@FUZZ
@given(spoilt=st.one_of(st.binary(max_size=300), JSON.map(lambda v: json.dumps(v).encode())))
def test_any_snapshot_file_gives_the_state_of_a_full_replay(template, tmp_path_factory, spoilt):
    site = copy_of(template, tmp_path_factory)
    campaign = site.campaign("g1")
    (campaign.root / snapshots.SNAPSHOT).write_bytes(spoilt)
    loaded, replayed = snapshots.load(campaign), campaign.table()
    assert loaded.rules.to_data(loaded.state) == replayed.rules.to_data(replayed.state)
    assert (loaded.count, loaded.last_hash) == (replayed.count, replayed.last_hash)


STATE_FILES = [
    "games/g1/mailed.json",
    "games/g1/deadlines.json",
    "games/g1/snapshot.json",
    "state/waits.marshal",
    "state/received.jsonl",
    "state/failures-told.json",
    "state/last-tick.json",
    "state/answers.json",
]
STRANGER = "Zed <zed@example.org>"

# a time as the referee writes one into its files, and how a hand edit may spoil it: the
# file kept as it was written but for its times (a time without an offset cannot be
# compared with the clock; one that is no time at all)
TIME = re.compile(rb"(\d{4}-\d\d-\d\dT[\d:.]+)(?:[+-]\d\d:\d\d|Z)")
SPOILT_TIMES = {"no offset": rb"\1", "no time": b"yesterday"}


def spoilt(junk: bytes | str, path: Path) -> bytes:
    """``junk``, or (named by a key of SPOILT_TIMES) the file at ``path`` with its times
    spoilt so."""
    return junk if isinstance(junk, bytes) else TIME.sub(SPOILT_TIMES[junk], path.read_bytes())


DAMAGE = st.one_of(
    st.binary(max_size=200),
    JSON.map(lambda v: json.dumps(v).encode()),
    st.sampled_from([b"[]", b"null", b'{"seats": {"0": {"stage": "x"}}}', b"{}\n{bad\n{}\n"]),
    st.sampled_from(sorted(SPOILT_TIMES)),
)


@pytest.fixture(scope="module")
def timed_template():
    """A site whose campaign keeps deadlines, with every state file the referee keeps."""
    root = Path(tempfile.mkdtemp(prefix="fuzz-state-"))
    path = make_site(root).config.path  # with a game master, who is sent the failures
    text = path.read_text().replace(
        "  name: Referee",
        "  name: Referee\n  game_masters: [{address: gil@example.org, token_env: FUZZ_GM_TOKEN}]",
    )
    path.write_text(text)
    site = Site(load_config(path))
    site.new_campaign(
        "bus",
        "g1",
        PLAYERS,
        seed=1,
        gm="Gil <gil@example.org>",
        settings={"deadlines": {"hours": 24, "policy": "bot"}},
    )
    tick(site, T0)
    mail_to(site, PLAYERS[0], site.campaign("g1").players[0].token, ["build house 15"])
    mail_to(site, STRANGER, None, ["help"])  # answered within the limits: answers.json
    tick(site, T0)
    campaign = site.campaign("g1")
    snapshots.save(campaign.table(), campaign.marks.floor())  # as a tick does when a round ends
    (site.state_dir / "failures-told.json").write_text('{"count": 0, "at": null}\n')
    yield root
    shutil.rmtree(root)


def sent_ids(site: Site) -> list[str]:
    return [str(m["Message-ID"]) for m in Mailboxes(site).sent()]


@FUZZ
@given(name=st.sampled_from(STATE_FILES), damage=DAMAGE)
@example(name="games/g1/mailed.json", damage="no time")  # each file's times spoilt, always
@example(name="games/g1/mailed.json", damage="no offset")
@example(name="games/g1/deadlines.json", damage="no offset")
@example(name="state/waits.marshal", damage="no offset")
@example(name="state/last-tick.json", damage="no offset")
@example(name="state/answers.json", damage="no offset")
def test_a_damaged_state_file_is_set_aside_and_the_campaign_goes_on(
    timed_template, tmp_path_factory, name, damage
):
    site = copy_of(timed_template, tmp_path_factory)
    junk = spoilt(damage, site.root / name)
    (site.root / name).write_bytes(junk)
    assert status_health(site)["mails_waiting"] == 0  # what a monitoring system sees
    mail_to(site, PLAYERS[1], site.campaign("g1").players[1].token, ["build office 21"])
    mail_to(site, STRANGER, None, ["help"])  # counted against the answer limits
    first = tick(site, T0 + timedelta(hours=30))  # Ann's deadline has passed
    assert all(name in error for error in first.errors), first.errors
    if first.errors:  # the file that could not be read is kept for the game master
        assert (site.root / f"{name}.damaged").read_bytes() == junk
    again = tick(site, T0 + timedelta(hours=31))
    assert not again.errors, again.errors
    records = site.campaign("g1").records()
    assert [o.text for r in records for o in r.orders][0] == "build house 15"
    assert [r.sender for r in records].count("bob@example.org") == 1  # Bob's mail, once
    assert verify(site.data_root / "g1").ok
    ids = sent_ids(site)
    assert len(ids) == len(set(ids))  # no mail sent twice
    if first.errors:  # the game master's summary of failures names it
        summaries = [m for m in Mailboxes(site).sent() if "gil@example.org" in str(m["To"])]
        assert any(name in " ".join(text_of(m).split()) for m in summaries)


class FailingFor:
    """A stand-in for an SMTP server that refuses ``down`` for now (451), as the mail rig's
    does in test_undelivered.py, fast enough for hundreds of examples; takes the rest."""

    def __init__(self, down: set[str]):
        self.down, self.took = down, []

    def __enter__(self) -> FailingFor:
        return self

    def __exit__(self, *exc) -> None:
        pass

    def send(self, mail: OutMail) -> dict[str, str]:
        refused = [a for a in mail.recipients if a in self.down]
        if refused:
            raise SendError("451 4.2.0 try again later", addresses=tuple(refused))
        self.took.append(mail.message_id)
        return {}


@pytest.fixture(scope="module")
def queue_template():
    """A site whose queue keeps every note of its own: Bob's address fails (451), so his
    mail waits with its envelope, its note of attempts, his address's note and the note
    of the mail resting; Ann's went."""
    root = Path(tempfile.mkdtemp(prefix="fuzz-queue-"))
    site = make_site(root)
    for n, person in enumerate(PLAYERS[:2]):
        msg = EmailMessage()
        msg["From"], msg["To"], msg["Subject"] = site.identity.address, person, f"mail {n}"
        msg["Message-ID"] = f"<m{n}@example.org>"
        msg.set_content("A mail the referee queued.")
        site.outbox.queue(msg, name=f"m{n}", since=T0)
    site.outbox.flush(FailingFor({"bob@example.org"}), T0)
    site.note_tick({"at": T0.isoformat(), "outcome": "ok", "skipped": []})
    yield root
    shutil.rmtree(root)


def queue_files(site: Site) -> dict[str, Path]:
    queue = site.config.queue_dir
    [waiting] = site.outbox.pending()
    return {
        "addresses": queue / "addresses.json",
        "resting": queue / RESTING,
        "envelope": queue / "names" / "m1",
        "attempts": queue / f"{waiting}.error",
        "last tick": site.state_dir / "last-tick.json",
    }


@FUZZ
@given(
    name=st.sampled_from(["addresses", "resting", "envelope", "attempts", "last tick"]),
    damage=DAMAGE,
)
@example(name="addresses", damage="no offset")
@example(name="addresses", damage=b'{"bob@example.org": {"next": "2026-11-23T09:02:00+00:00"}}')
@example(name="envelope", damage=b'{"from": "r@x", "to": [5], "message_id": "m", "subject": "s"}')
@example(name="envelope", damage=b'{"from": "r@x", "to": "x@y", "message_id": "m", "subject": "s"}')
@example(name="attempts", damage=b"")
@example(name="attempts", damage=b'{"attempts": "3", "last_attempt": 5, "error": null}')
@example(name="last tick", damage="no time")
def test_a_damaged_note_of_the_queue_stops_nothing_and_no_mail_is_lost_or_sent_twice(
    queue_template, tmp_path_factory, name, damage
):
    site = copy_of(queue_template, tmp_path_factory)
    path = queue_files(site)[name]
    path.write_bytes(spoilt(damage, path))
    health = status_health(site)
    assert (health["mails_waiting"], health["mails_failing"]) == (1, 1)
    server = FailingFor({"bob@example.org"})
    report = site.outbox.flush(server, T0 + timedelta(minutes=3))  # Bob's still refused
    assert (report.sent, len(report.waiting), report.failed) == ([], 1, [])
    assert status_health(site)["mails_failing"] == 1
    assert not tick(site, T0 + timedelta(minutes=30)).errors  # his server takes mail again
    assert site.outbox.pending() == []
    assert server.took + sent_ids(site) == ["<m1@example.org>"]  # Bob's, once (Ann's went)
    assert len(list((site.config.queue_dir / "sent").glob("*.eml"))) == 2
