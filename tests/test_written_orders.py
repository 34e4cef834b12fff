"""Orders as people write them, in mail as real clients send it: each sample applies
exactly the orders and press its writer meant, and nothing of the report it quotes.

The samples are whole mails, headers and all, in the shapes their programs give them:
Outlook's quoted header in Spanish, Czech, German, French and Dutch (HTML with a plain
alternative), Gmail's and Apple Mail's attributions, Thunderbird's format=flowed, smart
quotes, bullets, a full stop and a signature without its "-- " line."""

import pytest
from sites import PLAYERS, Mailboxes, logged, make_site, text_of

from referee.service.tick import tick

# the report the referee sent, as a quoted copy carries it (its example lines are orders)
REPORT = """\
[bus1] Setup: your turn - first buildings

YOUR DECISION: First buildings: a building on a free lot of zone A
Reply with one of these lines (copy it into your reply; you may send
several orders at once, one per line, and they are used in turn):

    build house 15
    build office 21
    message all hello"""


def outlook(lang_from: str, lang_sent: str, sent: str, lang_to: str, lang_subject: str):
    """Outlook's reply: the answer on top, then its quoted header and the report unmarked."""

    def mail(token: str, answer: str) -> bytes:
        quoted = (
            f"{lang_from}: Referee <referee@example.org>\n"
            f"{lang_sent}: {sent}\n"
            f"{lang_to}: Ann <ann@example.org>\n"
            f"{lang_subject}: [bus1] Setup: your turn - first buildings\n\n" + REPORT
        )
        html_quote = "".join(f"<p class=MsoNormal>{q}</p>" for q in quoted.splitlines())
        html_answer = "".join(f"<p class=MsoNormal>{a}<o:p></o:p></p>" for a in answer.split("\n"))
        plain = f"{answer}\n\n{quoted}\n"
        html = (
            '<html xmlns:o="urn:schemas-microsoft-com:office:office"><head>'
            '<meta http-equiv="Content-Type" content="text/html; charset=utf-8"></head>'
            f'<body lang=ES><div class=WordSection1>{html_answer}<div style="border:none;'
            f'border-top:solid #E1E1E1 1.0pt">{html_quote}</div></div></body></html>'
        )
        return _multipart(token, "Microsoft Outlook 16.0", plain, html, "RE")

    return mail


def _multipart(token, mailer, plain, html, prefix="Re") -> bytes:
    return (
        "From: Ann <ann@example.org>\n"
        f"To: Referee <referee+bus1.{token}@example.org>\n"
        f"Subject: {prefix}: [bus1] Setup: your turn - first buildings\n"
        "Date: Mon, 23 Nov 2026 10:05:00 +0100\n"
        f"Message-ID: <{abs(hash(plain))}@mail.example.org>\n"
        f"X-Mailer: {mailer}\n"
        "MIME-Version: 1.0\n"
        'Content-Type: multipart/alternative; boundary="=_b1"\n\n'
        "--=_b1\n"
        'Content-Type: text/plain; charset="utf-8"\n'
        "Content-Transfer-Encoding: 8bit\n\n"
        f"{plain}\n"
        "--=_b1\n"
        'Content-Type: text/html; charset="utf-8"\n'
        "Content-Transfer-Encoding: 8bit\n\n"
        f"{html}\n"
        "--=_b1--\n"
    ).encode()


def plain_mail(mailer: str, body: str, flowed: bool = False):
    def mail(token: str, answer: str) -> bytes:
        kind = 'text/plain; charset="utf-8"' + ("; format=flowed; delsp=no" if flowed else "")
        return (
            "From: Ann <ann@example.org>\n"
            f"To: Referee <referee+bus1.{token}@example.org>\n"
            "Subject: Re: [bus1] Setup: your turn - first buildings\n"
            "Date: Mon, 23 Nov 2026 10:05:00 +0100\n"
            f"Message-ID: <{abs(hash(answer + mailer))}@mail.example.org>\n"
            f"User-Agent: {mailer}\n"
            "MIME-Version: 1.0\n"
            f"Content-Type: {kind}\n"
            "Content-Transfer-Encoding: 8bit\n\n" + body.format(answer=answer)
        ).encode()

    return mail


QUOTED = "\n".join(f"> {line}" if line else ">" for line in REPORT.splitlines())

CLIENTS = {
    "outlook-es": outlook(
        "De", "Enviado el", "lunes, 23 de noviembre de 2026 10:00", "Para", "Asunto"
    ),
    "outlook-cs": outlook("Od", "Odesláno", "pondělí 23. listopadu 2026 10:00", "Komu", "Předmět"),
    "outlook-de": outlook("Von", "Gesendet", "Montag, 23. November 2026 10:00", "An", "Betreff"),
    "outlook-fr": outlook("De", "Envoyé", "lundi 23 novembre 2026 10:00", "À", "Objet"),
    "outlook-nl": outlook("Van", "Verzonden", "maandag 23 november 2026 10:00", "Aan", "Onderwerp"),
    "gmail": plain_mail(
        "Gmail",
        "{answer}\n\nOn Mon, Nov 23, 2026 at 10:00 AM Referee <referee+bus1.x@example.org>\n"
        "wrote:\n\n" + QUOTED + "\n",
    ),
    "apple-mail": plain_mail(
        "Apple Mail (2.3774)",
        "{answer}\n\nSent from my iPhone\n\n> On 23 Nov 2026, at 10:00, Referee "
        "<referee@example.org> wrote:\n>\n" + QUOTED + "\n",
    ),
    "thunderbird-flowed": plain_mail(
        "Mozilla Thunderbird",
        "{answer}\n\nOn 23.11.26 10:00, Referee wrote:\n" + QUOTED + "\n",
        flowed=True,
    ),
}


@pytest.fixture
def game(tmp_path):
    site = make_site(tmp_path)
    site.new_campaign("bus", "bus1", PLAYERS, seed=1)
    tick(site)
    return site, Mailboxes(site)


def read(site, boxes, client: str, answer: str) -> dict:
    token = site.campaign("bus1").players[0].token
    boxes.deliver(CLIENTS[client](token, answer))
    assert not tick(site).errors
    return logged(site.campaign("bus1"))[-1]


def press(record: dict) -> list[str]:
    return [a["text"] for a in record.get("actions", ()) if a.get("action") == "message"]


@pytest.mark.parametrize("client", sorted(CLIENTS))
def test_each_client_applies_the_answer_and_nothing_of_the_quoted_report(game, client):
    site, boxes = game
    record = read(site, boxes, client, "build house 15")
    assert record["orders"] == [[0, "build house 15", "mail"]]
    assert press(record) == [] and not record.get("bad_lines")


@pytest.mark.parametrize(
    "written",
    [
        "“build house 15”",
        "- build house 15",
        "* build house 15",
        "1. build house 15",
        "Build house 15.",
        "BUILD\u00a0HOUSE 15",
        "build\u200b house 15",
        "• build house 15",
    ],
)
def test_an_order_as_people_write_it_is_applied(game, written):
    site, boxes = game
    record = read(site, boxes, "gmail", written)
    assert record["orders"] == [[0, "build house 15", "mail"]]
    assert not record.get("bad_lines") and not record.get("ignored")


def test_a_signature_without_its_dashes_is_passed_over(game):
    site, boxes = game
    record = read(
        site, boxes, "outlook-de", "build house 15\n\nAnn Smith\nBuild & Release Engineer, ACME"
    )
    assert record["orders"] == [[0, "build house 15", "mail"]]
    assert "Build & Release Engineer, ACME" in record["ignored"]


def test_a_near_miss_of_an_order_is_refused_with_a_suggestion(game):
    site, boxes = game
    record = read(site, boxes, "gmail", "biuld house 15")
    assert not record.get("orders")
    [[line, reason]] = record["bad_lines"]
    assert line == "biuld house 15" and "did you mean 'build house 15'?" in reason
    [answer] = boxes.new("ann@example.org")[-1:]
    assert "did you mean 'build house 15'?" in text_of(answer)


def test_press_wrapped_by_the_client_goes_on_until_a_blank_line(game):
    site, boxes = game
    wrapped = (
        "message all Good luck everyone, may the best network of bus lines win this\n"
        "time round\n"
        "build house 15"
    )
    record = read(site, boxes, "gmail", wrapped)
    assert press(record) == [
        "Good luck everyone, may the best network of bus lines win this time round"
    ]
    assert record["orders"] == [[0, "build house 15", "mail"]]


def test_press_soft_wrapped_by_format_flowed_is_one_message(game):
    site, boxes = game
    flowed = "message all See you \nall at the \npub\n\nbuild house 15"
    record = read(site, boxes, "thunderbird-flowed", flowed)
    assert press(record) == ["See you all at the pub"]
    assert record["orders"] == [[0, "build house 15", "mail"]]
