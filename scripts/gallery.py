"""Regenerate the screenshot gallery in ``docs/gallery/``: one PNG per game for the browser
(a 1280x900 desktop and a 390x844 phone) and one for the terminal.

    python scripts/gallery.py                 # every game, both front ends
    python scripts/gallery.py --game blackfire --only terminal

The browser shots load the game page of a fresh match (seat 1 human, the other seats random
bots, fixed seed) in Debian's chromium driven by Playwright, exactly as the browser tests do
(no ``playwright install``; nothing is downloaded).  The terminal shots draw the same kind of
position with :mod:`boardlab.render.terminal` into a recording rich console, export it as HTML
(colours inline, dark background) and photograph that page with the same chromium.

A few random moves are played first (seeded), so the boards show pieces in play.  The pages are
those of a returning player: the first-game quick start (``static/howto.js``) is marked as read.
"""

from __future__ import annotations

import argparse
import io
import random
import shutil
import socket
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

from boardlab.engine.files import atomic_write
from boardlab.games import BUILTIN

REPO = Path(__file__).resolve().parents[1]
OUT = REPO / "docs" / "gallery"
FIRST = ["blackfire", "wizards-labyrinth", "armies", "dungeons-jewel", "summoners-quest"]  # the seeds, in README order
GAMES = [*FIRST, *sorted(set(BUILTIN) - set(FIRST))]  # every built-in game: a scaffolded one too
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
        "--disable-component-update", "--disable-sync"]
SEED = 7
MOVES = 30  # seeded random moves played before each shot, so the boards show a game in progress
WIDTH = 100  # terminal columns


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _post(base: str, path: str, body: dict) -> dict:
    import json

    req = urllib.request.Request(base + path, data=json.dumps(body).encode(), method="POST",
                                 headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=10) as r:
        return json.loads(r.read())


class _Server:
    def __init__(self, data_dir: Path) -> None:
        import uvicorn

        from boardlab.web.app import create_app

        self.port = _free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        config = uvicorn.Config(create_app(data_dir=data_dir, bot_delay=0.05), host="127.0.0.1",
                                port=self.port, log_level="warning")
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    def __enter__(self) -> "_Server":
        self.thread.start()
        for _ in range(200):
            try:
                urllib.request.urlopen(self.base + "/api/games", timeout=2).read()
                return self
            except OSError:
                time.sleep(0.1)
        raise RuntimeError("the web app did not start")

    def __exit__(self, *exc) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=10)


def terminal_html(game_id: str, width: int = WIDTH) -> str:
    """The terminal drawing of seat 1's view after a few seeded random moves, as HTML."""
    from rich.console import Console
    from rich.terminal_theme import MONOKAI

    from boardlab.engine import make
    from boardlab.render.terminal import render_scene

    game = make(game_id)
    state = game.new_state(SEED)
    rng = random.Random(SEED)
    while not state.is_over() and (state.decisions < MOVES or state.current_seat() != 0) and state.decisions < 10 * MOVES:
        state.apply(rng.choice(state.legal_actions()))
    seat = state.current_seat()
    seat = 0 if seat is None else seat
    actions = state.legal_actions() if state.current_seat() == seat else ()
    scene = game.scene(state.view(seat), actions)
    console = Console(record=True, width=width, file=io.StringIO(), color_system="truecolor", force_terminal=True)
    console.print(render_scene(scene, [state.describe(a) for a in actions][:12], width))
    return console.export_html(theme=MONOKAI, inline_styles=True)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", action="append", choices=GAMES, help="only this game (repeatable)")
    ap.add_argument("--only", choices=["browser", "terminal"], help="only one front end")
    ap.add_argument("--out", type=Path, default=OUT)
    args = ap.parse_args(argv)
    games = args.game or GAMES
    chromium = shutil.which("chromium")
    if chromium is None:
        ap.error("Debian's chromium is needed (apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    args.out.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as p, tempfile.TemporaryDirectory() as tmp:
        browser = p.chromium.launch(executable_path=chromium, headless=True, args=ARGS)
        if args.only != "browser":
            for g in games:
                page = browser.new_page(viewport={"width": 900, "height": 600})
                page.set_content(terminal_html(g))
                atomic_write(args.out / f"{g}-terminal.png", page.screenshot(full_page=True), "screenshot")
                page.close()
                print(args.out / f"{g}-terminal.png")
        if args.only != "terminal":
            with _Server(Path(tmp)) as srv:
                for g in games:
                    info = _get(srv.base, f"/api/games/{g}")
                    n = info["default_players"]
                    seats = [{"kind": "human", "name": "Ada"}] + [{"kind": "bot", "agent": "random"}] * (n - 1)
                    r = _post(srv.base, "/api/matches", {"game": g, "seats": seats, "seed": SEED})
                    _play_some(srv.base, r["match"]["id"], r["seats"][0]["token"])
                    for name, size in (("browser", (1280, 900)), ("phone", (390, 844))):
                        ctx = browser.new_context(viewport={"width": size[0], "height": size[1]})
                        ctx.add_init_script(f"try {{ localStorage.setItem('boardlab.howto.{g}', '1'); }} catch (e) {{}}")
                        page = ctx.new_page()
                        page.goto(srv.base + r["seats"][0]["link"])
                        page.wait_for_selector("svg.board", timeout=15_000)
                        page.wait_for_selector('body[data-turn="mine"], body[data-turn="over"]', state="attached",
                                               timeout=15_000)
                        page.wait_for_timeout(300)
                        atomic_write(args.out / f"{g}-{name}.png", page.screenshot(), "screenshot")  # whole or not at all
                        ctx.close()
                        print(args.out / f"{g}-{name}.png")
        browser.close()
    return 0


def _play_some(base: str, match_id: str, token: str) -> None:
    """Seat 0 takes seeded random actions (the bots answer) for about :data:`MOVES` decisions."""
    import json

    rng = random.Random(SEED)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        req = urllib.request.Request(f"{base}/api/matches/{match_id}/state?seat=0",
                                     headers={"Authorization": f"Bearer {token}"})
        with urllib.request.urlopen(req, timeout=10) as r:
            snap = json.loads(r.read())
        if snap["over"] or snap["state_id"] >= MOVES and snap["acting"] == 0:
            return
        if snap["acting"] != 0 or not snap["actions"]:
            time.sleep(0.1)
            continue
        body = {"seat": 0, "index": rng.randrange(len(snap["actions"])), "state_id": snap["state_id"]}
        req = urllib.request.Request(f"{base}/api/matches/{match_id}/actions", data=json.dumps(body).encode(),
                                     method="POST", headers={"Content-Type": "application/json",
                                                             "Authorization": f"Bearer {token}"})
        urllib.request.urlopen(req, timeout=10).read()


def _get(base: str, path: str) -> dict:
    import json

    with urllib.request.urlopen(base + path, timeout=10) as r:
        return json.loads(r.read())


if __name__ == "__main__":
    raise SystemExit(main())
