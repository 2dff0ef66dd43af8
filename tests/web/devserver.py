"""Run the web app with the test games registered (tests and local development).

    python -m tests.web.devserver --port 8765 --data-dir /tmp/bl --bot-delay 0.3
"""

from __future__ import annotations

import argparse

import uvicorn

from boardlab.engine import registry
from boardlab.web.app import create_app
from boardlab.web.server import uvicorn_config
from tests.toy import ToyGame
from tests.web.gridgame import GridGame


def register_test_games() -> None:
    registry.register("toy", ToyGame)
    registry.register("gridtest", GridGame)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--host", default="127.0.0.1")
    ap.add_argument("--port", type=int, default=8765)
    ap.add_argument("--data-dir", required=True)
    ap.add_argument("--bot-delay", type=float, default=0.0)
    args = ap.parse_args()
    register_test_games()
    app = create_app(data_dir=args.data_dir, bot_delay=args.bot_delay)
    print(f"serving on http://{args.host}:{args.port}/", flush=True)
    uvicorn.Server(uvicorn_config(app, args.host, args.port)).run()


if __name__ == "__main__":
    main()
