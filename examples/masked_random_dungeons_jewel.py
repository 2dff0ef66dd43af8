"""Evaluate agents on The Dungeon's Jewel through the PettingZoo AEC API.

Plays a masked random policy in every seat (the classic-games convention:
choose among the indexes the ``action_mask`` allows), then a tiny learned
policy: a linear softmax over (observation, action index) trained with
REINFORCE for a few hundred games, CPU only, numpy only.  Random walkers
rarely finish a game of The Dungeon's Jewel, so games are capped and, when the
cap ends a game, the learning signal is the engine's own evaluation of the
position (``env.state.evaluate(seat)``, progress toward the jewel and home)
relative to the other seats.  Prints win rates and mean final evaluations.

    python examples/masked_random_dungeons_jewel.py --games 200
"""

from __future__ import annotations

import argparse

import numpy as np

from boardlab.envs.pettingzoo import env


def masked_random(obs, rng):
    return int(rng.choice(np.flatnonzero(obs["action_mask"])))


class LinearPolicy:
    """Scores each legal index i as w[i] . obs; softmax over legal indexes."""

    def __init__(self, n_actions: int, obs_size: int, rng: np.random.Generator) -> None:
        self.w = np.zeros((n_actions, obs_size), dtype=np.float64)
        self.rng = rng

    def probs(self, obs):
        legal = np.flatnonzero(obs["action_mask"])
        x = np.tanh(obs["observation"].astype(np.float64) / 10.0)
        logits = self.w[legal] @ x
        p = np.exp(logits - logits.max())
        return legal, p / p.sum(), x

    def act(self, obs):
        legal, p, x = self.probs(obs)
        k = int(self.rng.choice(len(legal), p=p))
        return int(legal[k]), (legal, p, x, k)

    def update(self, trace, reward, lr=0.05):
        for legal, p, x, k in trace:
            grad = -p[:, None] * x[None, :]
            grad[k] += x
            self.w[legal] += lr * reward * grad


def final_scores(e):
    """+1/-1 for a finished game; the evaluation edge over the others when the cap stopped it."""
    st = e.state
    res = st.results()
    if not res.truncated:
        return {f"player_{i}": (1.0 if i in res.winners else -1.0) for i in range(st.players)}
    ev = [st.evaluate(i) for i in range(st.players)]
    return {f"player_{i}": ev[i] - (sum(ev) - ev[i]) / (st.players - 1) for i in range(st.players)}


def play(e, seed, policies, rng, learn_seat=None):
    e.reset(seed=seed)
    trace = []
    for agent in e.agent_iter():
        obs, reward, term, trunc, _ = e.last()
        if term or trunc:
            e.step(None)
            continue
        seat = int(agent.split("_")[1])
        pol = policies[seat]
        if pol is None:
            e.step(masked_random(obs, rng))
        else:
            action, info = pol.act(obs)
            if seat == learn_seat:
                trace.append(info)
            e.step(action)
    return final_scores(e), trace


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--train", type=int, default=300)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    rng = np.random.default_rng(args.seed)
    e = env("dungeons-jewel", players=4, seed=args.seed, options={"max_turns": 120})
    n_actions = e.action_space("player_0").n
    obs_size = e.observation_space("player_0")["observation"].shape[0]

    edge = np.zeros(4)
    for g in range(args.games):
        scores, _ = play(e, args.seed + g, [None] * 4, rng)
        edge += [scores[f"player_{i}"] for i in range(4)]
    print("masked random in every seat, mean final score by seat:", np.round(edge / args.games, 3))

    policy = LinearPolicy(n_actions, obs_size, rng)
    for g in range(args.train):
        scores, trace = play(e, 10_000 + g, [policy, None, None, None], rng, learn_seat=0)
        policy.update(trace, scores["player_0"])
    total = 0.0
    for g in range(args.games):
        scores, _ = play(e, 50_000 + g, [policy, None, None, None], rng)
        total += scores["player_0"]
    print(f"linear policy in seat 0 after {args.train} training games: mean final score {total / args.games:.3f} (0 = par with random)")


if __name__ == "__main__":
    main()
