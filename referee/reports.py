"""What players read: every mail and turn report, rendered with Jinja2 from `templates/`.

Nothing here decides anything: it turns a campaign's table (state, steps, queues) into text
and into mail messages. The mails are composed by ``mailout.compose``.
"""
from __future__ import annotations

import hashlib
from dataclasses import dataclass
from email.message import EmailMessage
from importlib import resources

import jinja2

from . import maps
from .campaign import Campaign, Player, Table
from .mailout import Attachment, compose

_ENV = jinja2.Environment(
    loader=jinja2.FunctionLoader(
        lambda name: resources.files("referee").joinpath("templates", name).read_text("utf-8")),
    autoescape=jinja2.select_autoescape(enabled_extensions=("html",)),
    trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=True,
    undefined=jinja2.StrictUndefined,
)


def render(template: str, **context) -> str:
    return _ENV.get_template(template).render(**context)


@dataclass(frozen=True)
class Identity:
    """The referee's address, from which players' plus-addresses are made."""

    address: str
    name: str = "Referee"

    def plus(self, campaign_id: str, token: str | None = None) -> str:
        local, _, domain = self.address.partition("@")
        tag = f"{campaign_id}.{token}" if token else campaign_id
        return f"{local}+{tag}@{domain}"


# pieces of every report ------------------------------------------------------------------------

def help_text(game: str) -> str:
    return render(f"help-{game}.txt").rstrip()


def decision_of(table: Table, seat: int) -> tuple[str | None, list[str]]:
    """The prompt and the choices, as lines of the order language, of the seat's decision."""
    for due in table.rules.awaiting(table.state):
        if due.seat == seat:
            return due.prompt, table.rules.prompt_lines(table.state, seat)
    return None, []


def waiting_for(table: Table) -> str:
    names = [f"{table.campaign.players[d.seat].name} ({d.prompt.split(':')[0].lower()})"
             for d in table.rules.awaiting(table.state)]
    return ", ".join(names) or "nobody"


def awaited_lines(table: Table, seat: int) -> list[str]:
    prompt, _ = decision_of(table, seat)
    lines = [prompt] if prompt else []
    if table.queues.get(seat):
        lines.append("your kept orders wait for their decisions: "
                     + "; ".join(table.queues[seat]))
    return lines


def result_context(view: dict, names: list[str]) -> dict | None:
    result = view.get("result")
    if result is None:
        return None
    places, rank = [], 1
    for place in result["ranking"]:
        places.append({"rank": rank, "names": [names[s] for s in place],
                       "score": result["scores"][place[0]]})
        rank += len(place)
    return {"reason": result["reason"], "places": places}


def base_context(table: Table, view: dict | None = None) -> dict:
    view = view or table.view()
    return {"campaign": table.campaign, "title": table.rules.title, "view": view,
            "map": maps.text_map(view),
            "result": result_context(view, [p.name for p in table.campaign.players]),
            "waiting_for": waiting_for(table)}


# mails ---------------------------------------------------------------------------------------

def _mail(identity: Identity, campaign: Campaign, player: Player, subject: str, text: str,
          message_id: str, cc: list[str] = (), in_reply_to: str | None = None,
          png: bytes | None = None, html: str | None = None,
          map_cid: str | None = None) -> EmailMessage:
    """A mail to one player. With ``png``, the map goes along as an attachment, and inline
    in ``html`` (an alternative to the plain text, which comes first) as ``cid:map_cid``."""
    attachments = [Attachment(f"{campaign.id}-map.png", png)] if png else []
    return compose(from_address=identity.address, from_name=identity.name,
                   to=[(player.name, player.address)], cc=list(cc),
                   reply_to=identity.plus(campaign.id, player.token),
                   subject=f"[{campaign.id}] {subject}", text=text, message_id=message_id,
                   in_reply_to=in_reply_to, attachments=attachments, html=html,
                   inline_images={map_cid: png} if html and png else None)


def message_id(identity: Identity, campaign_id: str, *parts) -> str:
    """Deterministic, so that a mail queued twice after a crash is recognised as one."""
    domain = identity.address.partition("@")[2] or "referee.invalid"
    return f"<{campaign_id}.{'.'.join(str(p) for p in parts)}@{domain}>"


def welcome(identity: Identity, table: Table, seat: int) -> EmailMessage:
    campaign = table.campaign
    player = campaign.players[seat]
    prompt, choices = decision_of(table, seat)
    text = render("welcome.txt", campaign=campaign, player=player, title=table.rules.title,
                  reply_to=identity.plus(campaign.id, player.token),
                  help=help_text(campaign.game), prompt=prompt, choices=choices,
                  waiting_for=waiting_for(table))
    return _mail(identity, campaign, player, f"Welcome to {table.rules.title}, {player.name}",
                 text, message_id(identity, campaign.id, "welcome", seat))


def confirmation(identity: Identity, table: Table, record: dict) -> EmailMessage:
    campaign = table.campaign
    seat = record["seat"]
    player = campaign.players[seat]
    step = next(s for s in table.steps if s.record["n"] == record["n"])
    applied, events = [], list(step.events)
    for _seat, text, _how in record.get("orders", ()):
        applied.append({"text": text, "events": []})
    if applied:                       # the events of a mail's orders, under its last order
        applied[-1]["events"] = events
    prompt, choices = decision_of(table, seat)
    text = render("confirmation.txt", campaign=campaign, subject=record.get("subject", ""),
                  applied=applied, bad_lines=record.get("bad_lines", []),
                  ignored=record.get("ignored", []),
                  refusals=record.get("refused", []),
                  queue=record.get("queues", {}).get(str(seat), []),
                  awaited=awaited_lines(table, seat), prompt=prompt, choices=choices)
    sender = record.get("from", player.address)
    cc = [sender] if sender != player.address else []
    return _mail(identity, campaign, player, "Orders received", text,
                 message_id(identity, campaign.id, "confirm", record["n"]), cc=cc,
                 in_reply_to=record.get("message_id"))


def digest(identity: Identity, table: Table, seat: int, since: int, png: bytes | None = None
           ) -> EmailMessage:
    """The report for one player: everything since record ``since``, the map, the scores and
    their decision."""
    campaign = table.campaign
    player = campaign.players[seat]
    events, notes = [], []
    for step in table.steps:
        if step.record["n"] > since:
            events += step.events
            for refusal in step.record.get("refused", ()):
                if refusal.get("seat", step.record.get("seat")) == seat:
                    notes.append(f"your order {refusal['text']!r} was refused: "
                                 f"{refusal['reason']}" + (
                                     f" (dropped with it: {', '.join(refusal['dropped'])})"
                                     if refusal.get("dropped") else ""))
    prompt, choices = decision_of(table, seat)
    context = base_context(table)
    if context["result"]:
        subject = "The game is over"
    else:
        when = f"Round {context['view']['round']}" if context["view"]["round"] else "Setup"
        subject = (f"{when}: your turn - {prompt.split(':')[0].lower()}" if choices
                   else f"{when}: report")
    last = table.steps[-1].record["n"] if table.steps else 0
    mid = message_id(identity, campaign.id, "digest", last, seat)
    parts = dict(events=events, notes=notes, prompt=prompt, choices=choices, **context)
    text = render("digest.txt", **parts)
    html = map_cid = None
    if png:
        map_cid = f"map.{mid.strip('<>')}"
        html = render("digest.html", subject=subject, map_cid=map_cid, **parts)
    return _mail(identity, campaign, player, subject, text, mid, png=png, html=html,
                 map_cid=map_cid)


def turn_report(table: Table, round_: int, view: dict) -> str:
    """The report of one round, for the campaign's turns/ folder; ``view`` is the game at
    the round's end."""
    events = [e for step in table.steps if step.round == round_ for e in step.events]
    context = base_context(table, view)
    return render("turn.txt", round=round_, events=events, **context)


def notice(identity: Identity, to: str, subject: str, text: str, in_reply_to: str | None,
           key: str, reply_to: str | None = None) -> EmailMessage:
    """A short answer outside a player's game (unknown game, unknown sender, no token)."""
    body = render("notice.txt", text=text, referee=identity.address)
    digest_of_key = hashlib.sha256(key.encode()).hexdigest()[:16]
    return compose(from_address=identity.address, from_name=identity.name, to=[to],
                   subject=subject, text=body, in_reply_to=in_reply_to, reply_to=reply_to,
                   message_id=message_id(identity, "notice", digest_of_key))
