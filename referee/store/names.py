"""The names of the files and folders the referee keeps, in one place: no module outside
the storage layer spells one (tests/test_file_names.py holds them to it); the site's
settings file and state folder are named with the settings (``settings.names``), which a
tick at rest reads.

A campaign's folder (``games/<id>/``):"""

from ..settings.names import STATE_FOLDER

SETTINGS_FILE = "campaign.yaml"  # the settings, players and tokens (a game master edits it)
LOG = "log.jsonl"  # the hash-chained log of records: the source of truth
SNAPSHOT = "snapshot.json"  # the table at a record of the log: a cache, never trusted over it
BOOK = "deadlines.json"  # the deadline book (derived)
MARKS = "mailed.json"  # how far the answers were queued (derived)
TURNS = "turns"  # per round over: the report, the text map and the PNG map
TURN_HASHES = "hashes.json"  # in turns/: each file's hash as the referee wrote it
MAIL_IN = ("mail", "in")  # the raw mails the campaign took
MAIL_OUT = ("mail", "out")  # a copy of each mail it sent
CAMPAIGN_FILES = (SETTINGS_FILE, LOG)  # what makes a folder a campaign's

# the site's state folder (``state/``)
STATE = STATE_FOLDER
RECEIVED = "received.jsonl"  # each mail taken lately, and what came of it
RECEIVED_OLD = "received-old.jsonl"  # those taken before, moved out of the way
LAST_TICK = "last-tick.json"  # what came of the last tick
WAITS = "waits.marshal"  # what each campaign waits for (``store.waits``)
ANSWERS = "answers.json"  # how many answers each address had
OBSERVE_CODES = "observe-codes.json"  # the codes mailed to would-be observers
FAILURES = "failures.jsonl"  # what failed, for the game masters
FAILURES_TOLD = "failures-told.json"  # how far the game masters were told of them
TICK_LOCK = "tick.lock"  # held by the tick that runs
QUARANTINE = "quarantine"  # mails that failed, kept for `referee retry`
UNROUTED = "unrouted"  # mails for no campaign, and machine mail
HELD = "held"  # mails held for a campaign that cannot be read
