"""What players read: every mail and turn report, from `templates/` (``render``).

Nothing here decides anything: it turns a campaign's table (state, steps, queues) into text
and into mail messages. The mails are composed by ``mail.compose``.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from email.message import EmailMessage
from typing import Any

from .. import maps
from ..contract import AwaitedView, Decision, HeldOrders, ResultView, Say, View, Words
from ..mail.compose import Attachment, compose
from ..mail.routing import Identity
from ..records import Command, Drop, Message, Record, Replace
from ..settings.deadlines import Shown, parse_when, show
from ..store.campaign import Campaign, Player, Status, Step, Table
from . import language
from .render import fitted, help_text, render, say

# pieces of every report ------------------------------------------------------------------------


def decision_of(table: Table, seat: int) -> tuple[Say | None, Say | None, list[Words]]:
    """The prompt, the title and the choices, as lines of the order language, of the seat's
    decision; none while the campaign is paused (no orders are taken, no deadline runs)."""
    if table.campaign.status == Status.PAUSED:
        return None, None, []
    for due in table.awaiting:
        if due.seat == seat:
            return due.prompt, due.title, list(table.rules.prompt_lines(table.state, seat))
    return None, None, []


def asked(title: Say) -> Say:
    """What a decision asks, in a few words, for a subject that names its round already:
    its title (``Decision.title``), worded as the subject is."""
    return title


def waiting_for(table: Table) -> str:
    """Whom the game waits for, and for what, in the language being read."""
    names = [
        f"{table.campaign.players[d.seat].name} ({language.word(asked(d.title))})"
        for d in table.awaiting
    ]
    return ", ".join(names) or language.word(NOBODY)


NOBODY = Say("nobody")


def result_context(table: Table, view: View) -> dict | None:
    """The result for a report: why the game ended, its places (players tied share one),
    each seat named by everyone who held it, and whether equal scores need the game's tie
    rules told (``ties``)."""
    result = view.get("result")
    if result is None:
        return None
    holders = table.holders
    places: list[dict[str, Any]] = []
    rank = 1
    for place in result["ranking"]:
        places.append(
            {
                "rank": rank,
                "names": [holders.named(s) for s in place],
                "score": result["scores"][place[0]],
            }
        )
        rank += len(place)
    scores = [p["score"] for p in places]
    ties = any(len(p["names"]) > 1 for p in places) or len(set(scores)) < len(scores)
    return {"reason": why_over(table, result), "places": places, "ties": ties, "game": view["game"]}


def why_over(table: Table, result: ResultView) -> Words:
    """Why the game ended, as the game words it (a view keeps its English): a game ends
    once, so a view with a result is the game as it ended."""
    final = table.rules.result(table.state)
    return final.reason if final is not None else result["reason"]


def base_context(
    table: Table, seat: int | None = None, view: View | None = None, round_: int | None = None
) -> dict:
    """What every report shows: the game now, or as round ``round_`` ended (its ``view``),
    as everyone sees it, or as ``seat`` does (with what it holds that the others may not
    see); the map is the same for everyone."""
    view = view or table.view()
    awaited = table.awaiting if round_ is None else table.awaiting_after_round(round_)
    return {
        "campaign": table.campaign,
        "title": table.rules.title,
        "view": view if seat is None else table.view(seat),
        "map": maps.text_map(as_said(table, view, awaited), language.word),
        "map_key": maps.map_key(view),  # beside the PNG, in the HTML
        "result": result_context(table, view),
        "waiting_for": waiting_for(table),
    }


def as_said(table: Table, view: View, awaited: Sequence[Decision]) -> View:
    """The view with the prompts of the decisions it awaits (``awaited``, as the game made
    them when it was in that state, each known by its English) and its result's reason
    (``why_over``) as the game says them (``Say``), so that the map words them for its
    reader: a view keeps them in English."""
    said = {(d.seat, str(d.prompt)): d.prompt for d in awaited}
    awaiting: list[AwaitedView] = [
        {**a, "prompt": said.get((a["seat"], str(a["prompt"])), a["prompt"])}
        for a in view["awaiting"]
    ]
    result = view["result"]
    if result is not None:
        result = {**result, "reason": why_over(table, result)}
    return {**view, "awaiting": awaiting, "result": result}


# mails ---------------------------------------------------------------------------------------


def _mail(
    identity: Identity,
    campaign: Campaign,
    player: Player,
    subject: str,
    text: str,
    message_id: str,
    cc: Sequence[str] = (),
    in_reply_to: str | None = None,
    png: bytes | None = None,
    html: str | None = None,
    map_cid: str | None = None,
) -> EmailMessage:
    """A mail to one player. With ``png`` and ``html`` (an alternative to the plain text,
    which comes first), the map goes along once, inline in the HTML as ``cid:map_cid``;
    a plain-text client shows it as an attachment. A PNG without HTML is attached."""
    attachments = [Attachment(f"{campaign.id}-map.png", png)] if png and not html else []
    return compose(
        from_address=identity.address,
        from_name=identity.name,
        to=[(player.name, player.address)],
        cc=list(cc),
        reply_to=identity.plus(campaign.id, player.token),
        subject=f"[{campaign.id}] {subject}",
        text=fitted(text),
        message_id=message_id,
        in_reply_to=in_reply_to,
        attachments=attachments,
        html=html,
        inline_images={map_cid: png} if html and png and map_cid else None,
        language=language.current(),
    )


def message_id(identity: Identity, campaign_id: str, *parts) -> str:
    """Deterministic, so that a mail queued twice after a crash is recognised as one."""
    domain = identity.address.partition("@")[2] or "referee.invalid"
    return f"<{campaign_id}.{'.'.join(str(p) for p in parts)}@{domain}>"


def incarnate(campaign: Campaign) -> str:
    """What a campaign's Message-IDs start with: its id and its incarnation, so a campaign
    made anew under an id used before has mail of its own (its welcomes are sent)."""
    return f"{campaign.id}.{campaign.incarnation}"


def welcome(
    identity: Identity,
    table: Table,
    seat: int,
    key: str = "",
    png: bytes | None = None,
    due: Shown | None = None,
    waits_due: Shown | None = None,
) -> EmailMessage:
    """A player's first mail: their first decision (with ``due``, and the map ``png`` when
    given) or, without one, when it will come (the game waits for others, the first of
    them due ``waits_due``); then their token, the help and the seed's fingerprint."""
    campaign = table.campaign
    player = campaign.players[seat]
    prompt, title, choices = decision_of(table, seat)
    parts = dict(
        campaign=campaign,
        player=player,
        title=table.rules.title,
        reply_to=identity.plus(campaign.id, player.token),
        help=help_text(campaign.game),
        prompt=prompt,
        choices=choices,
        due=due,
        waits_due=waits_due,
        waiting_for=waiting_for(table),
        seed_hash=campaign.config.seed_hash,
        # a player who takes over a seat comes into a game under way, and a first
        # decision needs the game: show it to them
        position=base_context(table, seat) if key or choices else None,
        taking_over=bool(key),
    )
    text = render("welcome.txt", headline=True, **parts)
    subject = say(
        "subject_welcome",
        title=table.rules.title,
        name=player.name,
        round=table.round,
        decision=asked(title) if choices and title else None,
        due=due.short if due else None,
    )
    mid = message_id(identity, incarnate(campaign), "welcome", seat, *([key] if key else []))
    html = map_cid = None
    if png:
        map_cid = f"map.{mid.strip('<>')}"
        body = fitted(render("welcome.txt", headline=False, **parts))
        html = render("welcome.html", map_cid=map_cid, body=body, **parts)
    return _mail(
        identity, campaign, player, subject, text, mid, png=png, html=html, map_cid=map_cid
    )


def replaced_notice(
    identity: Identity, campaign: Campaign, replace: Replace, record: Record
) -> EmailMessage:
    """The player a game master replaced is told, at the address they played from."""
    text = render(
        "notice.txt",
        text=say("replaced_you", name=replace.old, new=replace.new, campaign_id=campaign.id),
        referee=identity.address,
    )
    return compose(
        from_address=identity.address,
        from_name=identity.name,
        to=[(replace.old, replace.old_address)],
        subject=f"[{campaign.id}] {say('subject_replaced_you')}",
        text=fitted(text),
        message_id=message_id(identity, incarnate(campaign), "replaced", record.n, replace.seat),
        language=language.current(),
    )


def dropped_notice(identity: Identity, table: Table, drop: Drop, n: int) -> EmailMessage:
    """The player the game master dropped is told what becomes of their seat: a bot plays it
    from now on, or the game's own rule took it out of the game (what it did)."""
    campaign = table.campaign
    player = campaign.players[drop.seat]
    text = render(
        "notice.txt",
        text=say(
            "dropped_you",
            name=player.name,
            campaign_id=campaign.id,
            events=drop.effects(),
            bot=drop.events is None,
        ),
        referee=identity.address,
    )
    return _mail(
        identity,
        campaign,
        player,
        say("subject_dropped_you", bot=drop.events is None),
        text,
        message_id(identity, incarnate(campaign), "dropped", n, drop.seat),
    )


def observing_ended(
    identity: Identity, campaign: Campaign, address: str, record: Record, number: int
) -> EmailMessage:
    """An observer the game master's 'observers off' dropped is told."""
    text = render(
        "notice.txt", text=say("observing_ended", campaign_id=campaign.id), referee=identity.address
    )
    return compose(
        from_address=identity.address,
        from_name=identity.name,
        to=[("", address)],
        subject=say("subject_observing", campaign_id=campaign.id),
        text=fitted(text),
        message_id=message_id(identity, incarnate(campaign), "unobserved", record.n, number),
        language=language.current(),
    )


def observer_report(
    identity: Identity, campaign: Campaign, address: str, round_: int, report: str
) -> EmailMessage:
    """A round's report (the result with the last) for someone who watches the game."""
    text = render("observer.txt", campaign=campaign, report=report)
    return compose(
        from_address=identity.address,
        from_name=identity.name,
        to=[address],
        reply_to=identity.address,
        subject=f"[{campaign.id}] {say('subject_observed', round=round_)}",
        text=fitted(text),
        message_id=message_id(identity, incarnate(campaign), "observed", round_, address),
        language=language.current(),
    )


def game_master(campaign: Campaign) -> Player:
    """The campaign's game master, for a mail only a campaign with one sends."""
    if campaign.gm is None:
        raise ValueError(f"campaign {campaign.id} has no game master")
    return campaign.gm


def gm_welcome(
    identity: Identity, campaign: Campaign, commands: Sequence[tuple[str, str]]
) -> EmailMessage:
    """The game master's first mail: their address and token, and their ``commands``
    (usage, summary)."""
    gm = game_master(campaign)
    text = render(
        "gm-welcome.txt",
        campaign=campaign,
        gm=gm,
        reply_to=identity.plus(campaign.id, gm.token),
        commands=commands,
    )
    return _mail(
        identity,
        campaign,
        gm,
        say("subject_gm_welcome", campaign_id=campaign.id),
        text,
        message_id(identity, incarnate(campaign), "gm-welcome"),
    )


def read_of(table: Table, record: Record, status: str = "") -> dict:
    """What was done with every order and command of a mail, for the answer to it: its
    orders, then what they did together (``effects``: one order's effects may come of
    another's, as a round resolves), the commands with what each said (a `status` answered
    with ``status``, the games as they are now)."""
    seat = record.seat
    step = table.steps_after(record.n - 1)[0]
    of_commands = sum(len(c.effects()) + len(c.told()) for c in record.commands)
    return {
        "subject": record.subject or "",
        "applied": [order.text for order in record.orders],
        "effects": step.events[of_commands:] if record.orders else [],
        "bad_lines": record.bad_lines,
        "ignored": record.ignored,
        "actions": [
            {"line": a.line, "reason" if a.refused else "said": a.answer(status)}
            for a in record.actions
        ],
        "refusals": [r for r in record.refused if r.seat == seat],
        "queue": record.queues.get(seat, ()) if seat is not None else (),
        "message_id": record.message_id,
    }


def verdict(reads: Sequence[dict]) -> str:
    """What became of a player's mails, in a word, for the subject of the mail that answers
    them: used, partly used, refused, not used now (a paused game, a dropped seat), only
    commands answered, or nothing in them to use."""
    whole = [b for r in reads for b in r["bad_lines"] if b.line == "(all)"]
    if whole:
        return "not_now"
    done = any(r["applied"] or r["queue"] for r in reads)
    commanded = any("said" in a for r in reads for a in r["actions"])
    wrong = any(
        r["bad_lines"] or r["refusals"] or any("reason" in a for a in r["actions"]) for r in reads
    )
    if wrong:
        return "partly" if done or commanded else "refused"
    if done:
        return "used"
    return "answered" if commanded else "empty"


def confirmation(
    identity: Identity,
    table: Table,
    records: Sequence[Record],
    reads: Sequence[dict],
    due: Shown | None = None,
    history: str = "",
    commands: Sequence[tuple[str, str]] = (),
) -> EmailMessage:
    """The answer to one player's mails (or the game master's): what was done with every
    order and command in them (``reads``: ``read_of`` each of ``records``), and what is
    awaited from them now; the history and the help, with the ``commands`` the sender may
    give (usage, summary), when they asked for them. Its subject says what became of them."""
    campaign = table.campaign
    record = records[-1]
    seat = record.seat
    player = game_master(campaign) if seat is None else campaign.players[seat]
    prompt, title, choices = decision_of(table, seat) if seat is not None else (None, None, [])
    wants_help = any(r.asks_for("help") for r in records)
    full = any(r.asks_for("choices") for r in records)
    holds = table.descriptor.offers(HeldOrders)  # an answer held until everyone's is in
    kept = holds.held(table.state, seat) if holds and seat is not None else None
    text = render(
        "confirmation.txt",
        campaign=campaign,
        reads=reads,
        # a `status` in the mails shows them already, with the order held
        held=kept.notes if kept and not any(r.asks_for("status") for r in records) else (),
        kept=say("kept_orders", entries=table.queues[seat])
        if seat is not None and table.queues.get(seat)
        else None,
        due=due,
        prompt=prompt,
        choices=choices,
        gm=seat is None,
        help=help_text(campaign.game) if wants_help else "",
        commands=commands,
        history=history,
        full=full,
    )
    sender = record.sender or player.address
    cc = [sender] if sender and sender != player.address else []
    return _mail(
        identity,
        campaign,
        player,
        say(
            "subject_confirmation",
            gm=seat is None,
            verdict=verdict(reads),
            decision=asked(title) if choices and title else None,
            due=due.short if due else None,
        ),
        text,
        message_id(identity, incarnate(campaign), "confirm", record.n),
        cc=cc,
        in_reply_to=record.message_id,
    )


def press(
    identity: Identity,
    table: Table,
    record: Record,
    message: Message,
    index: int,
    seat: int | None,
) -> EmailMessage:
    """A player's (or the game master's) message, the record's action ``index``, relayed to
    another player (or, seat None, to the game master)."""
    campaign = table.campaign
    who = message.sender_name or say("the_gm")  # as the sender was named when they wrote
    text = render("press.txt", campaign=campaign, who=who, text=message.text)
    return _mail(
        identity,
        campaign,
        game_master(campaign) if seat is None else campaign.players[seat],
        say("subject_press", who=who),
        text,
        message_id(
            identity, incarnate(campaign), "press", record.n, index, "gm" if seat is None else seat
        ),
    )


def reminder(
    identity: Identity, table: Table, seat: int, stage: int, due: str, moved: bool = False
) -> EmailMessage:
    """A player's reminder of the decision they owe, or (``moved``) its new due time after
    its clock stood still: its subject reads as the prompt's did."""
    campaign = table.campaign
    prompt, title, choices = decision_of(table, seat)
    text = render(
        "reminder.txt", campaign=campaign, due=due, prompt=prompt, choices=choices, moved=moved
    )
    decision = title and asked(title)
    # each new due time is a mail of its own
    what = (
        ("moved", seat, stage, hashlib.sha256(due.encode()).hexdigest()[:12])
        if moved
        else ("reminder", seat, stage)
    )
    return _mail(
        identity,
        campaign,
        campaign.players[seat],
        say("subject_reminder", round=table.round, decision=decision, due=due, moved=moved),
        text,
        message_id(identity, incarnate(campaign), *what),
    )


def gm_notice(
    identity: Identity, campaign: Campaign, subject: str, text: str, key: str
) -> EmailMessage:
    body = render("notice.txt", text=text, referee=identity.address)
    return _mail(
        identity,
        campaign,
        game_master(campaign),
        subject,
        body,
        message_id(identity, incarnate(campaign), "gm", key),
    )


def missed_notice(
    identity: Identity, campaign: Campaign, missed: Sequence[Sequence[str]], key: str
) -> EmailMessage:
    """The game master told of missed deadlines in one mail, each (name, when it was due in
    UTC, what the campaign's policy did and chose): the times in their own."""
    gm = game_master(campaign)
    zone = campaign.config.deadlines.zone
    seats = [p.name for p in campaign.players]
    rows = [
        {"name": name, "due": show(parse_when(due), gm.timezone, zone), "done": done}
        for name, due, done in sorted(
            missed, key=lambda m: (m[1], seats.index(m[0]) if m[0] in seats else len(seats))
        )
    ]  # by due time, then in the order of the seats
    text = render("missed.txt", campaign=campaign, missed=rows)
    names = list(dict.fromkeys(row["name"] for row in rows))
    return gm_notice(identity, campaign, say("subject_missed", names=names), text, key)


def started_notice(identity: Identity, table: Table) -> EmailMessage:
    """The game master told that the game began: its players, whom it waits for first, and
    the seed's fingerprint the players were sent."""
    campaign = table.campaign
    text = say(
        "started_gm",
        campaign_id=campaign.id,
        title=table.rules.title,
        names=[p.name for p in campaign.players],
        waiting_for=waiting_for(table),
        seed_hash=campaign.config.seed_hash,
    )
    subject = say("subject_started_gm", title=table.rules.title)
    return gm_notice(identity, campaign, subject, text, "started")


def game_over_notice(identity: Identity, table: Table) -> EmailMessage:
    """The game master told that the game ended: why, the ranking, and the seed now
    published."""
    campaign = table.campaign
    context = base_context(table)
    text = render(
        "game-over.txt",
        seed=campaign.seed,
        seed_hash=campaign.config.seed_hash,
        **context,
    )
    subject = say("subject_game_over", campaign_id=campaign.id, result=context["result"])
    return gm_notice(identity, campaign, subject, text, f"over.{table.count}")


def digest(
    identity: Identity,
    table: Table,
    seat: int,
    since: int,
    png: bytes | None = None,
    due: Shown | None = None,
    reads: Sequence[dict] = (),
    history: str = "",
) -> EmailMessage:
    """The report for one player: the answers to their mails read since the last one
    (``read_of``: what their orders did is told once, with everything since record
    ``since``), the map, the scores, their decision, and the history they asked for."""
    campaign = table.campaign
    player = campaign.players[seat]
    events, notes = [], []
    for step in table.steps_after(since):
        events += step.events
        notes += [say("note_missed", done=m.done) for m in step.record.missed if m.seat == seat]
        if campaign.config.lateness_notice:  # njudge's late notice, to all
            notes += [
                say("note_late", name=table.holders.at(m.seat, step.record.n).name, done=m.done)
                for m in step.record.missed
                if m.seat != seat
            ]
        notes += [
            say("note_refused", text=r.text, reason=r.reason, dropped=r.dropped)
            for r in step.record.refused
            if r.seat == seat
        ]
    paused = campaign.status == Status.PAUSED
    if paused:
        notes.append(say("note_paused"))
    prompt, title, choices = decision_of(table, seat)
    context = base_context(table, seat)
    went = verdict(reads) if reads else None
    subject = say(
        "subject_digest",
        over=bool(context["result"]),
        winners=context["result"]["places"][0]["names"] if context["result"] else (),
        round=context["view"]["round"],
        decision=asked(title) if choices and title else None,
        due=due.short if isinstance(due, Shown) else due,
        paused=paused,
        # a report leads with the decision: what became of the mail only when it went wrong
        verdict=went if went not in ("used", "answered") else None,
    )
    reads = [{**read, "effects": []} for read in reads]  # they are among the events
    last = table.count
    mid = message_id(identity, incarnate(campaign), "digest", last, seat)
    parts = dict(
        reads=reads,
        events=events,
        notes=notes,
        prompt=prompt,
        choices=choices,
        due=due,
        paused=paused,
        seed=campaign.seed if context["result"] else None,
        seed_hash=campaign.config.seed_hash,
        history=history,
        **context,
    )
    text = render("digest.txt", **parts)
    html = map_cid = None
    if png:
        map_cid = f"map.{mid.strip('<>')}"
        html = render("digest.html", map_cid=map_cid, **parts)
    return _mail(
        identity,
        campaign,
        player,
        subject,
        text,
        mid,
        in_reply_to=reads[-1]["message_id"] if reads else None,
        png=png,
        html=html,
        map_cid=map_cid,
    )


def told(
    identity: Identity,
    table: Table,
    seat: int,
    steps: Sequence[Step],
    actions: Sequence[Command],
    due: Shown | None = None,
    ask: bool = False,
) -> EmailMessage:
    """A short mail to one player of the game master's ``actions`` (in ``steps``) that did not
    move the game (a pause, an extension, a replacement ...): what changed, and what it
    means for them: their decision and its due time (its choices too when ``ask``: a
    resumed game asks again), or whom the game waits for. No map: the position is as it
    was."""
    campaign = table.campaign
    paused = campaign.status == Status.PAUSED
    prompt, title, choices = decision_of(table, seat)
    text = render(
        "told.txt",
        campaign=campaign,
        told=[e for step in steps for e in step.events],
        notes=[say("note_paused")] if paused else [],
        prompt=prompt,
        choices=choices if ask else [],
        due=due,
        paused=paused,
        waiting_for=waiting_for(table),
    )
    subject = say(
        "subject_told",
        round=table.round,
        changes=[say("told_change", a=a) for a in actions],
        decision=asked(title) if title else None,
        due=due.short if due else None,
    )
    last = steps[-1].record.n
    return _mail(
        identity,
        campaign,
        campaign.players[seat],
        subject,
        text,
        message_id(identity, incarnate(campaign), "told", last, seat),
    )


def position_text(table: Table, seat: int | None = None) -> str:
    """The game now, as a report shows it (with the seat's decision when one is given)."""
    prompt, title, choices = decision_of(table, seat) if seat is not None else (None, None, [])
    context = base_context(table, seat)
    return render(
        "digest.txt",
        reads=[],
        events=[],
        notes=[],
        prompt=prompt,
        choices=choices,
        due=None,
        paused=table.campaign.status == Status.PAUSED,
        seed=None,
        seed_hash=None,
        history="",
        **context,
    )


def turn_report(table: Table, round_: int, view: View) -> str:
    """The report of one round, for the campaign's turns/ folder; ``view`` is the game at
    the round's end."""
    events = [e for step in table.steps_of_round(round_) for e in step.events]
    context = base_context(table, view=view, round_=round_)
    return render("turn.txt", round=round_, events=events, **context)


def notice(
    identity: Identity,
    to: str,
    subject: str,
    text: str,
    in_reply_to: str | None,
    key: str,
    reply_to: str | None = None,
) -> EmailMessage:
    """A short answer outside a player's game (unknown game, unknown sender, no token)."""
    body = fitted(render("notice.txt", text=text, referee=identity.address))
    digest_of_key = hashlib.sha256(key.encode()).hexdigest()[:16]
    return compose(
        from_address=identity.address,
        from_name=identity.name,
        to=[to],
        subject=subject,
        text=body,
        in_reply_to=in_reply_to,
        reply_to=reply_to,
        message_id=message_id(identity, "notice", digest_of_key),
        language=language.current(),
    )
