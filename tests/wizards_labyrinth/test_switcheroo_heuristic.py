"""The heuristic wizard uses Switcheroo against the heroes (issue 19): it never carries a hero closer to the
tower, and never onto a face-down room (which would explore it for him), when another swap is legal."""

import boardlab
from boardlab.agents import make_agent
from boardlab.agents.base import Decision
from boardlab.games.wizards_labyrinth.agents import Board


def test_switcheroo_sends_heroes_away_from_the_tower_and_never_explores_for_them():
    game = boardlab.make("wizards-labyrinth", players=4)
    swaps = 0
    for seed in range(12):
        state = game.new_state(seed)
        agents = [make_agent("heuristic", game, s, seed * 10 + s) for s in range(4)]
        steps = 0
        while state.current_seat() is not None and steps < 4000:
            seat = state.current_seat()
            decision = Decision(state, seat)
            action = agents[seat].act(decision)
            st = decision.view["state"]
            if (st.get("prompt") or {}).get("kind") == "switch_token" and len(decision.legal) > 1:
                swaps += 1
                b = Board(st, game.grid)
                ring = [c for c in b.nbrs(st["tower"]) if b.open(c)]
                dist = [b.dist(c) for c in ring]
                def to_tower(c):
                    return min((d.get(c, 99) for d in dist), default=0)
                hero = next(h for h in st["heroes"] if h["seat"] == st["prompt"]["hero"])
                options = {a[1] for a in decision.legal}
                if st["entrance_cell"] is None:
                    if any(to_tower(c) >= to_tower(hero["pos"]) and st["tiles"][c]["state"] != "down" for c in options):
                        assert to_tower(action[1]) >= to_tower(hero["pos"]), (seed, action)
                if any(st["tiles"][c]["state"] != "down" for c in options):
                    assert st["tiles"][action[1]]["state"] != "down", (seed, action)
            state.apply(action)
            steps += 1
    assert swaps >= 3  # the check saw the card in use


def _together(spec: str, games: int = 6) -> float:
    """Share of hero turns on which a hero stands with another living hero."""
    game = boardlab.make("wizards-labyrinth", players=4)
    together = total = 0
    for seed in range(games):
        state = game.new_state(seed)
        agents = [make_agent("heuristic" if s == 0 else spec, game, s, seed * 10 + s) for s in range(4)]
        steps = 0
        while state.current_seat() is not None and steps < 3000:
            seat = state.current_seat()
            decision = Decision(state, seat)
            if seat != 0:
                st = decision.view["state"]
                living = [h for h in st["heroes"] if h["alive"]]
                me = next((h for h in living if h["seat"] == seat), None)
                if me is not None:
                    total += 1
                    together += any(h["pos"] == me["pos"] for h in living if h["seat"] != seat)
            state.apply(agents[seat].act(decision))
            steps += 1
    return together / max(1, total)


def test_grouping_heroes_keep_together_more_than_the_default():
    assert _together("heuristic:group=1") > _together("heuristic") + 0.1
