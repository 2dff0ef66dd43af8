"""The scene of a view (see ``boardlab/engine/scene.py``): no board, three panels.

``boards`` is empty: the terminal draws the title, the panels (a hand's cards
packed side by side), the status and the prompt; the browser draws a slim title
band and the panels beneath it in the table column.  Each panel card is clickable as
``card:<id>``; the acting seat's cards are its targets.
"""

from __future__ import annotations

from typing import Any, Sequence


def build_scene(game: Any, view: dict[str, Any], actions: Sequence[tuple] = ()) -> dict[str, Any]:
    v, seat = view["state"], view["seat"]
    panels = [{
        "title": "Table",
        "rows": [["Prize", str(v["prize"]) if v["prize"] else "-"],
                 ["Prizes to come", " ".join(map(str, v["prizes_left"])) or "-"],
                 ["Last round", _last(v["rounds"])]],
    }]
    for s in range(view["players"]):
        rows = [["Points", str(v["points"][s])]]
        if s == seat and v["my_bid"] is not None:
            rows.append(["Your bid", str(v["my_bid"])])
        elif v["bid_made"][s]:
            rows.append(["Bid", "made (secret)"])
        panels.append({
            "title": f"Player {s + 1}" + (" (you)" if s == seat else ""),
            "seat": s,
            "active": view["acting"] == s,
            "rows": rows,
            "cards": [{"id": f"p{s}-{c}", "name": str(c)} for c in v["hands"][s]],
        })
    targets = [{"action": i, "clicks": [f"card:p{seat}-{a[1]}"], "label": f"bid the {a[1]} card"}
               for i, a in enumerate(actions)]
    if view["over"]:
        status = "Game over: " + ((view["results"] or {}).get("reason") or "finished")
    else:
        status = f"Round {view['turn']}: Player {view['acting'] + 1} to bid"
    return {
        "title": "Goofspiel",
        "status": status,
        "prompt": "Choose your bid (secret until both have bid)" if actions else "",
        "boards": [],
        "panels": panels,
        "targets": targets,
    }


def _last(rounds: list[list[int]]) -> str:
    if not rounds:
        return "-"
    prize, b0, b1 = rounds[-1]
    return f"prize {prize}: {b0} vs {b1}"
