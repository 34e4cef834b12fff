"""What a tick costs, beside the same work on a baseline commit measured in the same run.

    python3 bench/tick_costs_bench.py [--base 8fc4527] [--sizes 10,100,1000] [--rounds 1,4,7]
                                      [--mails 1000] [--campaigns 50] [--png-runs 7]
                                      [--per-campaign 1,2,20] [--repeats 3]
                                      [--only ...,campaigns] [--instructions]

Every figure comes from a fresh process (as cron runs the tick), once with this tree on the
Python path and once with the baseline commit checked out into a temporary worktree, on
copies of the same site; both trees compiled to bytecode first, as installed:
- one tick of 1,000 order mails over 50 campaigns: CPU ms (the program's and the kernel's)
  and fsyncs per mail, peak RSS, beside the bare read of the same mails from the Maildir
  and the engine work alone (a replay of the logs the tick wrote); the site's copy is
  written out before the tick starts, and the tick runs before the bench deletes anything
  (files deleted in the last minutes make every new file dearer on ext4 without a journal);
- an idle tick (no mail) over 10 / 100 / 1,000 campaigns, half finished and half mid-game at
  round 1 / 4 / 7: CPU ms per campaign (each tree's first tick after the sites were made
  builds its snapshots and index, and is not counted);
- the replay of a finished 4-player Bus game, and (this tree) its load from a snapshot;
- the first PNG map of a fresh process beside a warm one (the median of `--png-runs`
  processes), with and without importing Pillow and the drawing code;
- the peak RSS of a tick over a hostile corpus (huge, deep, long mails);
- (``--only campaigns``) one tick of 1, 2 and 20 order mails to each of 50 campaigns: CPU ms
  per campaign, and from the two largest the fixed cost of a campaign a tick touches and
  the cost of each further mail to it.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from base_tree import checked_out  # bench/ is the script's folder, first on the path

ROOT = Path(__file__).resolve().parents[1]
CACHES = Path(tempfile.gettempdir())  # where ``run`` keeps each tree's disk cache (``main``)
if "--worker" not in sys.argv:  # a worker runs the tree on its PYTHONPATH
    sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

FOUR = [
    "Ann <ann@example.org>",
    "Bob <bob@example.org>",
    "Cid <cid@example.org>",
    "Dee <dee@example.org>",
]
ORDERS = [
    "build house 15\nbuild pub 16",
    "build office 21\nbuild office 22",
    "action vroom\naction line",
    "line 26-27",
    "action buses\npass",
    "build pub 10\nbuild house 20",
]


# --- in a fresh process, with one tree on the path --------------------------------------------


def module(*names: str):
    """The first of ``names`` that the tree on the path has: the names of a baseline from
    before the layers moved come first (referee.site, referee.tick, referee.config), since
    an editable install of this tree would lend a baseline the modules it lacks."""
    import importlib

    for name in names:
        try:
            return importlib.import_module(name)
        except ModuleNotFoundError:
            continue
    raise ModuleNotFoundError(names[-1])


def worker(task: dict) -> dict:
    import statistics
    import time

    Site = module("referee.site", "referee.service.site").Site
    tick = module("referee.tick", "referee.service.tick").tick
    load_config = module("referee.config", "referee.settings.site").load_config
    # the tick's work, which this tree imports when a tick has some: imported before the
    # clock starts, as a baseline's tick module imports it, so that both count the work only
    with contextlib.suppress(ModuleNotFoundError):
        module("referee.service.work")

    def site_at(path: str) -> Site:
        return Site(load_config(Path(path) / "referee.yaml"))

    out: dict = {}
    kind = task["kind"]
    if kind == "idle":
        site = site_at(task["site"])
        if task["warm"]:
            tick(site)
        start = time.process_time()
        tick(site)
        out["cpu"] = time.process_time() - start
    elif kind == "mails":
        from referee.mail.outbox import MaildirSender

        fsyncs = {"tick": 0, "delivery": 0}  # delivery: the local Maildir standing for SMTP
        counted = ["tick"]
        real_fsync, real_send = os.fsync, MaildirSender.send

        def counting(fd: int) -> None:
            fsyncs[counted[-1]] += 1
            real_fsync(fd)

        def delivering(self, mail):  # type: ignore[no-untyped-def]
            counted.append("delivery")
            try:
                return real_send(self, mail)
            finally:
                counted.pop()

        os.fsync = counting
        MaildirSender.send = delivering  # type: ignore[method-assign]
        site = site_at(task["site"])
        # the copy of the site this bench just made is written out first: the tick's first
        # fsync would otherwise write it out too (the journal commits all that is pending)
        os.sync()
        if not task.get("tick", True):  # (the same process less the tick: see ``counted``)
            return {"cpu": 0.0, "fetched": 0, "errors": []}
        start, times = time.process_time(), os.times()
        report = tick(site)
        out.update(cpu=time.process_time() - start, fetched=report.fetched)
        out.update(user=os.times().user - times.user, system=os.times().system - times.system)
        out.update(fsyncs=fsyncs["tick"], delivery_fsyncs=fsyncs["delivery"])
        out["errors"] = report.errors
    elif kind == "read":
        site = site_at(task["site"])
        start = time.process_time()
        inbox = site.config.make_inbox()
        mails = inbox.fetch()
        out["bytes"] = sum(len(m.raw) for m in mails)  # (this tree reads a mail when asked)
        out["fetched"] = len(mails)
        out["cpu"] = time.process_time() - start
    elif kind == "engine":
        site = site_at(task["site"])
        start = time.process_time()
        for campaign_id in site.campaign_ids():
            site.campaign(campaign_id).table()
        out["cpu"] = time.process_time() - start
    elif kind == "replay":
        campaign = site_at(task["site"]).campaign("four")
        times = []
        for _ in range(15):
            start = time.process_time()
            campaign.table()
            times.append(time.process_time() - start)
        out["replay"] = statistics.median(times)
        try:
            snapshots = module("referee.snapshots", "referee.store.snapshots")
        except ModuleNotFoundError:
            return out
        table = campaign.table()
        snapshots.save(table, table.count)
        times = []
        for _ in range(15):
            start = time.process_time()
            loaded = snapshots.load(campaign)
            times.append(time.process_time() - start)
        assert loaded.snapshot_n == table.count
        out["snapshot"] = statistics.median(times)
    elif kind == "png":
        from referee import registry
        from referee.maps import png_map

        registry.get("bus")  # a tick has replayed a game before it draws
        view = json.loads((ROOT / "tests" / "fixtures" / "bus_view_middle.json").read_text())
        if task.get("loaded"):  # the drawing code and Pillow's PNG writer imported already
            import PIL.PngImagePlugin  # noqa: F401

            import referee.bus.png_map  # noqa: F401
        start = time.perf_counter()
        png_map(view)
        out["first"] = time.perf_counter() - start
        times = []
        for _ in range(5):
            start = time.perf_counter()
            png_map(view)
            times.append(time.perf_counter() - start)
        out["warm"] = statistics.median(times)
    out["rss_mb"] = peak_rss_mb()
    return out


def peak_rss_mb() -> float:
    """This process's peak RSS. Not getrusage's ru_maxrss: Linux carries that over from
    the parent at fork, so a worker started by a bench holding a large corpus in memory
    reported the bench's size, not its own. VmHWM is the high-water mark of this image."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    import resource  # not Linux: the portable figure

    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def run(tree: Path, task: dict, counted: bool = False) -> dict:
    """``task`` in a fresh process with ``tree`` on the path; ``counted``: under valgrind's
    callgrind, the machine instructions of the whole process in ``"instructions"``."""
    env = {**os.environ, "PYTHONPATH": str(tree), "PYTHONHASHSEED": "0"}
    # each tree its own disk cache (maps, templates): a tree that found the other's files
    # there would take them for stale and make them again at every tick
    env["REFEREE_CACHE_DIR"] = str(CACHES / ("now" if tree == ROOT else "base"))
    env.pop("REFEREE_CRASH_AT", None)
    # Python's bytecode cache on, as on a game master's server (pip compiles what it
    # installs): a machine that turns it off makes every tick compile the referee anew
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    valgrind = ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null"]
    done = subprocess.run(
        [*(valgrind if counted else []), sys.executable, __file__, "--worker", json.dumps(task)],
        capture_output=True,
        text=True,
        env=env,
        cwd=tree,
    )
    if done.returncode:
        raise SystemExit(f"worker {task['kind']} on {tree} failed:\n{done.stderr}")
    out = json.loads(done.stdout.splitlines()[-1])
    if counted:
        out["instructions"] = int(re.findall(r"Collected : (\d+)", done.stderr)[-1])
    return out


def counted_tick(tree: Path, made: Path, label: str) -> int:
    """The machine instructions of a tick of the site ``made`` (on a copy): a process that
    ticks less the same process stopped before the tick. They count the program's work
    alone, the same however loaded the machine is; the kernel's (files made, fsyncs) is
    left out, which the CPU times count."""
    spent = []
    for ticks in (True, False):
        site = made.parent / f"{made.name}-{label}-counted-{ticks}"
        shutil.copytree(made, site)
        spent.append(run(tree, {"kind": "mails", "site": str(site), "tick": ticks}, True))
    return spent[0]["instructions"] - spent[1]["instructions"]


# --- sites, made once with this tree ------------------------------------------------------------


def readable_by_a_baseline(root: Path) -> Path:
    """Campaigns made by this tree keep options that a baseline from before them does not
    know (B15's ``line_orders``, pinned at creation); without them this tree reads those
    games as the baseline does (bots play only listed orders, which read the same either
    way), and both trees can replay them. Their snapshots, made with the option, go too."""
    for path in root.glob("games/*/campaign.yaml"):
        path.write_text(re.sub(r"^  line_orders: .*\n", "", path.read_text(), flags=re.M))
    for path in root.glob("games/*/snapshot.json"):
        path.unlink()
    return root


def template(root: Path, rounds: list[int]) -> Path:
    """A site with one finished Bus game and one at each of ``rounds``, answered and sent."""
    from played import play
    from sites import PLAYERS, make_site, run_tick

    site = make_site(root)
    site.new_campaign("bus", "done", PLAYERS, seed=3)
    play(site, site.campaign("done").table(), None, 3)
    for r in rounds:
        site.new_campaign("bus", f"mid{r}", PLAYERS, seed=3)
        play(site, site.campaign(f"mid{r}").table(), r, 3)
    run_tick(site)
    return readable_by_a_baseline(root)


def idle_site(template_root: Path, root: Path, campaigns: int, round_: int) -> Path:
    """``campaigns`` copies of the template's games: half finished, half at ``round_``."""
    shutil.copytree(template_root, root, ignore=shutil.ignore_patterns("games"))
    games = root / "games"
    games.mkdir(exist_ok=True)
    for i in range(campaigns):
        source = template_root / "games" / ("done" if i % 2 else f"mid{round_}")
        target = games / f"c{i:04d}"
        shutil.copytree(source, target, ignore=shutil.ignore_patterns("turns", "mail"))
        yaml = target / "campaign.yaml"
        yaml.write_text(yaml.read_text().replace(f"id: {source.name}\n", f"id: {target.name}\n"))
    return root


def mail_site(root: Path, campaigns: int, mails: int) -> Path:
    import mailbox
    from email.message import EmailMessage
    from email.utils import make_msgid

    from sites import make_site, run_tick

    site = make_site(root)
    for c in range(campaigns):
        site.new_campaign(
            "bus", f"c{c:02d}", [f"P{c}{s} <p{c}{s}@bench.example>" for s in "abc"], c
        )
    run_tick(site)
    box = mailbox.Maildir(site.config.inbox.path, create=False)
    for i in range(mails):
        campaign = site.campaign(f"c{i % campaigns:02d}")
        player = campaign.players[(i // campaigns) % 3]
        msg = EmailMessage()
        msg["From"] = f"{player.name} <{player.address}>"
        msg["To"] = site.identity.plus(campaign.id, player.token)
        msg["Subject"] = f"Re: [{campaign.id}] your turn"
        msg["Message-ID"] = make_msgid(domain="bench.example")
        msg.set_content(ORDERS[i % len(ORDERS)] + "\n\nOn Monday, Referee wrote:\n> ...\n")
        box.add(msg.as_bytes())
    return readable_by_a_baseline(root)


def replay_site(root: Path) -> Path:
    from played import play
    from sites import make_site

    site = make_site(root)
    site.new_campaign("bus", "four", FOUR, seed=7)
    play(site, site.campaign("four").table(), None, 7, answer=False)
    return readable_by_a_baseline(root)


def hostile_site(root: Path) -> Path:
    """Mail meant to hurt: a 20 MB attachment, 200,000 lines, a 5 MB line, MIME nested 100
    deep, 3,000 parts, an HTML-only 5 MB body; to a campaign, with a player's token."""
    import mailbox
    from email.message import EmailMessage

    from sites import PLAYERS, make_site, run_tick

    site = make_site(root)
    site.new_campaign("bus", "one", PLAYERS, seed=1)
    run_tick(site)
    player = site.campaign("one").players[0]
    to = site.identity.plus("one", player.token)

    def base(n: int) -> EmailMessage:
        msg = EmailMessage()
        msg["From"] = player.formatted()
        msg["To"] = to
        msg["Subject"] = f"hostile {n}"
        msg["Message-ID"] = f"<hostile.{n}@bench.example>"
        return msg

    raws = []
    msg = base(1)
    msg.set_content("build house 15")
    msg.add_attachment(os.urandom(20 * 2**20), "application", "octet-stream", filename="x.bin")
    raws.append(msg.as_bytes())
    msg = base(2)
    msg.set_content("pass\n" * 200_000)
    raws.append(msg.as_bytes())
    msg = base(3)
    msg.set_content("x" * 5 * 2**20)
    raws.append(msg.as_bytes())
    nested = b"Content-Type: text/plain\r\n\r\nbuild pub 16\r\n"
    for depth in range(100):
        nested = (
            f'Content-Type: multipart/mixed; boundary="b{depth}"\r\n\r\n--b{depth}\r\n'.encode()
            + nested
            + f"\r\n--b{depth}--\r\n".encode()
        )
    head = base(4)
    raws.append(
        b"".join(f"{k}: {v}\r\n".encode() for k, v in head.items())
        + b"MIME-Version: 1.0\r\n"
        + nested
    )
    msg = base(5)
    msg.set_content("pass")
    for i in range(3000):
        msg.add_attachment(b"x" * 100, "application", "octet-stream", filename=f"{i}.bin")
    raws.append(msg.as_bytes())
    msg = base(6)
    msg.set_content("<p>pass</p>" * 500_000, subtype="html")
    raws.append(msg.as_bytes())
    box = mailbox.Maildir(site.config.inbox.path, create=False)
    for raw in raws:
        box.add(raw)
    return readable_by_a_baseline(root)


# --- the run ------------------------------------------------------------------------------------


def ratio(now: float, base: float) -> str:
    return f"{now / base:.3f}x" if base else "n/a"


def per_campaign(
    trees: dict[str, Path],
    tmp_path: Path,
    campaigns: int,
    counts: str,
    repeats: int,
    instructions: bool,
) -> None:
    """One tick of k order mails to each of ``campaigns`` campaigns, for each k (the least
    of ``repeats`` ticks on fresh copies): CPU ms per campaign, and the fixed cost of a
    campaign touched and of each further mail; with ``instructions``, the same in machine
    instructions (``counted_tick``)."""
    ks = [int(k) for k in counts.split(",")]
    cost: dict[str, list[float]] = {label: [] for label in trees}
    counts_of: dict[str, list[float]] = {label: [] for label in trees}
    for k in ks:
        made = mail_site(tmp_path / f"per-{k}", campaigns, campaigns * k)
        least = {label: float("inf") for label in trees}
        for attempt in range(repeats):  # the trees in turn, the least of each counted
            for label, tree in trees.items():
                site = tmp_path / f"per-{k}-{label}-{attempt}"
                shutil.copytree(made, site)
                got = run(tree, {"kind": "mails", "site": str(site)})
                assert got["fetched"] == campaigns * k and not got["errors"], got
                least[label] = min(least[label], got["cpu"] * 1000 / campaigns)
        for label, tree in trees.items():
            cost[label].append(least[label])
            if instructions:
                counts_of[label].append(counted_tick(tree, made, label) / campaigns / 1e6)
    print(
        f"\none tick of k order mails to each of {campaigns} campaigns, CPU ms per campaign "
        f"(the least of {repeats} ticks)"
    )
    per_k_and_line(ks, cost, "ms")
    if instructions:
        print("the same in machine instructions (callgrind), millions per campaign")
        per_k_and_line(ks, counts_of, "M")


def per_k_and_line(ks: list[int], cost: dict[str, list[float]], unit: str) -> None:
    """Each k's figure, now beside the baseline, and the line through the two largest k:
    the first mails of a campaign are answered one by one, later ones gather
    (gather_minutes), so the cost is not a line through all."""
    for i, k in enumerate(ks):
        now, was = cost["now"][i], cost["base"][i]
        print(f"  k={k:3d}: {now:.2f} (baseline {was:.2f}): {ratio(now, was)}")
    line = {}
    for label, ys in cost.items():
        slope = (ys[-1] - ys[-2]) / (ks[-1] - ks[-2])
        line[label] = (ys[-2] - slope * ks[-2], slope)
    (fixed, mail), (was_fixed, was_mail) = line["now"], line["base"]
    print(
        f"  fixed cost of a campaign touched: {fixed:.2f} {unit} (baseline {was_fixed:.2f}): "
        f"{ratio(fixed, was_fixed)}; each further mail: {mail:.2f} {unit} "
        f"(baseline {was_mail:.2f}): {ratio(mail, was_mail)}"
    )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--worker")
    parser.add_argument("--base", default="8fc4527")
    parser.add_argument("--sizes", default="10,100,1000")
    parser.add_argument("--rounds", default="1,4,7")
    parser.add_argument("--campaigns", type=int, default=50)
    parser.add_argument("--mails", type=int, default=1000)
    parser.add_argument("--only", default="idle,mails,replay,png,hostile")
    parser.add_argument("--png-runs", type=int, default=7, help="fresh processes per PNG figure")
    parser.add_argument(
        "--per-campaign", default="1,2,20", help="mails to each campaign (--only campaigns)"
    )
    parser.add_argument("--repeats", type=int, default=3, help="ticks of each (--only campaigns)")
    parser.add_argument(
        "--instructions",
        action="store_true",
        help="(--only campaigns) also count machine instructions under valgrind",
    )
    args = parser.parse_args()
    if args.worker:
        print(json.dumps(worker(json.loads(args.worker))))
        return
    sizes = [int(s) for s in args.sizes.split(",")]
    rounds = [int(r) for r in args.rounds.split(",")]
    only = set(args.only.split(","))
    with tempfile.TemporaryDirectory(prefix="tick-costs-") as tmp:
        tmp_path = Path(tmp)
        global CACHES
        CACHES = tmp_path
        base = tmp_path / "base"
        with checked_out(args.base, base):
            trees = {"base": base, "now": ROOT}
            for tree in trees.values():  # compiled as an installed referee is (see run)
                subprocess.run([sys.executable, "-m", "compileall", "-q", "referee"], cwd=tree)
            print(f"baseline: {args.base}; this tree: {ROOT}")
            warm = mail_site(tmp_path / "warm", 6, 30)
            for label, tree in trees.items():  # each tree's disk cache filled, as a site's is
                run(tree, {"kind": "png"})
                shutil.copytree(warm, tmp_path / f"warm-{label}")
                run(tree, {"kind": "mails", "site": str(tmp_path / f"warm-{label}")})
            # the mail tick first, before this bench deletes anything: on a file system
            # without a journal (as on the machines this was written on), ext4 passes over
            # each inode freed in the last minutes whenever it makes a file, and the idle
            # sites' 50,000 files, deleted just before, tripled the tick's kernel time
            if "mails" in only:
                made = mail_site(tmp_path / "mails", args.campaigns, args.mails)
                got = {}
                for label, tree in trees.items():
                    site = tmp_path / f"mails-{label}"
                    shutil.copytree(made, site)
                    got[label] = run(tree, {"kind": "read", "site": str(site)})
                    got[label] |= {
                        f"tick_{k}": v
                        for k, v in run(tree, {"kind": "mails", "site": str(site)}).items()
                    }
                    got[label] |= {
                        f"engine_{k}": v
                        for k, v in run(tree, {"kind": "engine", "site": str(site)}).items()
                    }
                print(f"\none tick of {args.mails} order mails over {args.campaigns} campaigns")
                for what, key, scale in (
                    ("tick CPU ms per mail", "tick_cpu", 1000 / args.mails),
                    ("  of it in the program (user)", "tick_user", 1000 / args.mails),
                    ("  of it in the kernel (system)", "tick_system", 1000 / args.mails),
                    ("fsyncs per mail, the tick's own", "tick_fsyncs", 1 / args.mails),
                    (
                        "fsyncs per mail, delivering into the local Maildir (SMTP's job)",
                        "tick_delivery_fsyncs",
                        1 / args.mails,
                    ),
                    ("bare read CPU ms per mail", "cpu", 1000 / args.mails),
                    ("engine alone CPU ms per mail", "engine_cpu", 1000 / args.mails),
                    ("tick peak RSS MB", "tick_rss_mb", 1),
                ):
                    now, was = got["now"][key] * scale, got["base"][key] * scale
                    print(f"  {what}: {now:.3f} (baseline {was:.3f}): {ratio(now, was)}")
                for label in trees:
                    if got[label]["tick_errors"]:
                        print(f"  {label}: errors {got[label]['tick_errors'][:3]}")
            if "campaigns" in only:
                per_campaign(
                    trees,
                    tmp_path,
                    args.campaigns,
                    args.per_campaign,
                    args.repeats,
                    args.instructions,
                )
            if "idle" in only:
                made = template(tmp_path / "template", rounds)
                print("\nidle tick, CPU ms per campaign (half finished, half at the round)")
                for r in rounds:
                    for n in sizes:
                        got = {}
                        for label, tree in trees.items():
                            site = idle_site(made, tmp_path / f"idle-{label}-{r}-{n}", n, r)
                            got[label] = run(
                                tree, {"kind": "idle", "site": str(site), "warm": True}
                            )
                            shutil.rmtree(site)
                        per = {k: v["cpu"] * 1000 / n for k, v in got.items()}
                        print(
                            f"  round {r}, {n:5d} campaigns: {per['now']:.3f} ms "
                            f"(baseline {per['base']:.3f} ms): {ratio(per['now'], per['base'])}"
                        )
            if "replay" in only:
                made = replay_site(tmp_path / "replay")
                got = {
                    label: run(tree, {"kind": "replay", "site": str(made)})
                    for label, tree in trees.items()
                }
                print("\na finished 4-player Bus game, CPU ms (median of 15)")
                now, was = got["now"]["replay"] * 1000, got["base"]["replay"] * 1000
                print(f"  full replay: {now:.2f} (baseline {was:.2f}): {ratio(now, was)}")
                snap = got["now"]["snapshot"] * 1000
                print(
                    f"  load from its snapshot: {snap:.2f} "
                    f"(baseline's full replay {was:.2f}): {ratio(snap, was)}"
                )
            if "png" in only:
                print(
                    f"\nPNG map of a Bus game, ms, the median of {args.png_runs} fresh processes: "
                    "the first map of a process and a warm one;"
                    "\n'first' includes importing Pillow and the drawing code, 'first drawn'"
                    " starts with them imported"
                )
                found: dict[str, dict[str, list[float]]] = {}
                for label in trees:
                    found[label] = {"first": [], "drawn": [], "warm": [], "rss": []}
                # fresh processes in turn, the median of each figure: one process's first
                # map moved by half from one run to the next on a shared machine
                for _ in range(args.png_runs):
                    for label, tree in trees.items():
                        cold, loaded = (run(tree, {"kind": "png", "loaded": x}) for x in (0, 1))
                        got = found[label]
                        got["first"].append(cold["first"] * 1000)
                        got["drawn"].append(loaded["first"] * 1000)
                        got["warm"] += [cold["warm"] * 1000, loaded["warm"] * 1000]
                        got["rss"].append(cold["rss_mb"])
                for label, got in found.items():
                    first, drawn, warm = (
                        statistics.median(got[k]) for k in ("first", "drawn", "warm")
                    )
                    print(
                        f"  {label}: first {first:.1f} ({first / warm:.2f}x), first drawn "
                        f"{drawn:.1f} ({drawn / warm:.2f}x), warm {warm:.1f}; peak RSS "
                        f"{max(got['rss']):.0f} MB"
                    )
            if "hostile" in only:
                made = hostile_site(tmp_path / "hostile")
                print("\na tick over a hostile corpus: peak RSS MB")
                got = {}
                for label, tree in trees.items():
                    site = tmp_path / f"hostile-{label}"
                    shutil.copytree(made, site)
                    got[label] = run(tree, {"kind": "mails", "site": str(site)})
                print(
                    f"  {got['now']['rss_mb']:.0f} (baseline {got['base']['rss_mb']:.0f}): "
                    f"{ratio(got['now']['rss_mb'], got['base']['rss_mb'])}"
                )


if __name__ == "__main__":
    main()
