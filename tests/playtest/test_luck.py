"""Luck against skill (issue 34): the strong agent's score rate and the dice share, against hand-built games whose
true values are known (docs/playtest.md "Luck against skill").

Every game below is one decision per seat, in seat order, then the result:

* ``luck-coin``: the choice does nothing; a fair die names the winner. The heuristic scores the fair share 1/n
  against random, and the chance stream explains the whole outcome (dice share exactly 1).
* ``luck-skill``: no chance; each seat picks 0..9 and the highest pick wins (ties share the win). The heuristic
  picks 9, so it wins every game (rate exactly 1); dice share 0 by construction.
* ``luck-mix`` (two players): each seat picks bold or meek; a lone bold seat wins, otherwise a fair coin names the
  winner. The heuristic is bold; random is bold with probability 1/2. With U = "random is meek" and Z = "the coin
  names the heuristic" (independent fair coins) the heuristic wins iff U or Z: rate 3/4, variance 3/16, and
  Var E[Y|Z] = Var E[Y|U] = 1/16, so chance alone explains 1/3 of the variance, the decisions alone 1/3 and their
  interaction 1/3.
"""

from __future__ import annotations

import json

import pytest

from boardlab.agents import BaseAgent
from boardlab.agents.runner import play_game, run_batch
from boardlab.cli import main
from boardlab.engine import Game, Results, State, win_results
from boardlab.engine.registry import make, register
from boardlab.engine.rng import derive_seed
from boardlab.playtest.luck import DICE, NOT_MEASURED, SALT, dice_share, lines, measure, play_one, points, seeds
from boardlab.playtest.simulate import RunConfig


class LastAgent(BaseAgent):
    """The toy games' heuristic: always the last legal action (pick 9; bold)."""

    def act(self, decision):
        return decision.legal[-1]


class PeekingAgent(BaseAgent):
    """An agent that draws from the game's own chance generator (chance and agents are then not separable)."""

    def act(self, decision):
        decision._state.rng.next64()
        return decision.legal[-1]


class PickState(State):
    __slots__ = ("picks", "winners", "reason")

    def _setup(self) -> None:
        self.picks = []
        self.winners = []
        self.reason = ""
        self.begin_turn()

    def _current_seat(self) -> int:
        return len(self.picks)

    def _legal_actions(self):
        return self.game.CHOICES

    def _apply(self, action) -> None:
        self.picks.append(action[1])
        n = self.game.players
        if len(self.picks) < n:
            self.begin_turn()
            return
        kind = self.game.KIND
        bold = [s for s, p in enumerate(self.picks) if p == 1]
        if kind == "skill":
            best = max(self.picks)
            self.winners, self.reason = [s for s, p in enumerate(self.picks) if p == best], "highest pick"
        elif kind == "mix" and len(bold) == 1:
            self.winners, self.reason = bold, "bold"
        else:
            self.winners, self.reason = [self.rng.below(n)], "coin"

    def _is_over(self) -> bool:
        return len(self.picks) == self.game.players

    def _results(self) -> Results:
        return win_results(self.game.players, list(self.winners), self.reason)

    def _view(self, seat):
        return {"picks": list(self.picks)}


def toy(kind: str, players: tuple[int, int], choices, chance: bool, heuristic=LastAgent) -> str:
    game_id = f"luck-{kind}" + ("" if heuristic is LastAgent else "-peek")
    cls = type(f"Luck_{kind}", (Game,), {
        "id": game_id, "name": game_id, "description": "luck-against-skill toy game (tests only)",
        "min_players": players[0], "max_players": players[1], "default_players": players[0],
        "state_class": PickState, "CHOICES": tuple(choices), "KIND": kind, "chance": chance,
        "agents": {"heuristic": heuristic}, "default_max_turns": 100,
    })
    register(game_id, cls)
    return game_id


COIN = toy("coin", (2, 4), [("pick", 0), ("pick", 1)], True)
SKILL = toy("skill", (2, 4), [("pick", k) for k in range(10)], False)
MIX = toy("mix", (2, 2), [("pick", 0), ("pick", 1)], True)
PEEK = toy("mix", (2, 2), [("pick", 0), ("pick", 1)], True, heuristic=PeekingAgent)


def cfg(game_id: str, players: int = 2, seed: int = 1) -> RunConfig:
    return RunConfig(game_id, players, "", {}, ("heuristic",) * players, 1, seed)


def by_id(doc):
    return {m["id"]: m for m in doc["matchups"]}


def inside(stat, value):
    return stat["ci_low"] - 1e-9 <= value <= stat["ci_high"] + 1e-9


def test_score_rate_games_are_the_batch_runners_games_with_the_strong_seat_rotated():
    doc = measure(cfg(MIX), 7, search="heuristic", dice=False)
    game = make(MIX)
    pts = 0.0
    for seat in (0, 1):  # games 0, 2, 4, 6 put the heuristic in seat 0; games 1, 3, 5 in seat 1
        specs = ["heuristic" if s == seat else "random" for s in (0, 1)]
        for rec in run_batch(game, specs, 4 - seat, seed=derive_seed(1, SALT, 0, seat)):
            pts += seat in rec.winners
    hr = by_id(doc)["heuristic-random"]
    assert hr["games"] == 7 and hr["points"] == pts
    # unsynchronised, play_one is the batch runner's game from one seed
    u = seeds(1, DICE, 3)[0]
    assert play_one(game, ["heuristic", "random"], u, u)["winners"] == list(play_game(game, ["heuristic", "random"], u)[1].winners)


@pytest.mark.parametrize("players", [2, 3])
def test_pure_coin_flip_scores_the_fair_share_and_dice_explain_everything(players):
    doc = measure(cfg(COIN, players), 240, search="heuristic")
    hr = by_id(doc)["heuristic-random"]
    assert hr["fair"] == pytest.approx(1 / players) and hr["games"] == 240
    assert hr["ci_low"] <= 1 / players <= hr["ci_high"]
    dice = doc["dice"]
    assert dice["status"] == "measured" and dice["units"] == 240
    # the same chance stream gives the same winner whatever the agents do: exactly 1, interval [1, 1]
    assert dice["chance"] == {"estimate": 1.0, "ci_low": 1.0, "ci_high": 1.0}
    assert inside(dice["decisions"], 0.0) and dice["decisions"]["ci_high"] < 0.3


@pytest.mark.parametrize("players", [2, 3])
def test_pure_skill_heuristic_always_wins_and_dice_share_is_zero_by_construction(players):
    doc = measure(cfg(SKILL, players), 30, search="heuristic")
    hr = by_id(doc)["heuristic-random"]
    assert hr["rate"] == 1.0 and hr["points"] == 30 and hr["fair"] == pytest.approx(1 / players)
    # the search here is the heuristic itself: every game a shared win of the two 9s
    assert by_id(doc)["search-heuristic"]["rate"] == 1.0
    assert doc["dice"]["status"] == "none" and not doc["chance"]
    text = "\n".join(lines(doc))
    assert "0 by construction" in text and "100.0%" in text


def test_mixed_game_matches_its_known_rate_and_variance_shares():
    # A fixed seed. Each interval is a 95% one; over seeds 100..129 the chance, decisions and interaction intervals
    # covered 1/3 in 30, 29 and 29 runs, with means 0.329, 0.337 and 0.334 (sd 0.044, 0.039, 0.066).
    doc = measure(cfg(MIX), 600, search="heuristic")
    hr = by_id(doc)["heuristic-random"]
    assert hr["ci_low"] <= 0.75 <= hr["ci_high"]
    dice = doc["dice"]
    assert dice["status"] == "measured"
    for key, truth in (("chance", 1 / 3), ("decisions", 1 / 3), ("interaction", 1 / 3), ("chance_total", 2 / 3)):
        assert inside(dice[key], truth), (key, dice[key])
    # the intervals are informative: a pure-chance or pure-skill answer is excluded
    assert dice["chance"]["ci_high"] < 0.75 and dice["chance"]["ci_low"] > 0.05
    assert by_id(doc)["search-heuristic"]["games"] == 600


def test_dice_share_estimator_on_known_units():
    # Y = Z: the chance-sharing partner always agrees, the agent-sharing one is independent
    units = [(i % 2, float(i % 3 == 0), float(i % 3 == 0), float(i % 5 == 0)) for i in range(60)]
    share = dice_share(units)
    assert share["chance"]["estimate"] == 1.0 and share["chance"]["ci_low"] == 1.0
    # Y determined by the agents: the agent-sharing partner agrees
    units = [(0, float(i % 2), float(i % 7 == 0), float(i % 2)) for i in range(60)]
    share = dice_share(units)
    assert share["decisions"]["estimate"] == 1.0 and share["chance"]["estimate"] < 0.3
    # no variance, or almost none (one odd game in 300: the interval does not exist): not measurable
    assert not dice_share([(0, 1.0, 1.0, 1.0)] * 10)["measurable"]
    rare = dice_share([(i % 2, float(i != 5), 1.0, 1.0) for i in range(100)])
    assert not rare["measurable"] and "1 of 300 games" in rare["reason"]


def test_an_agent_drawing_from_the_games_generator_makes_the_dice_share_not_measurable():
    doc = measure(cfg(PEEK), 20, search="heuristic")
    assert doc["dice"]["status"] == "not measurable" and "own chance generator" in doc["dice"]["reason"]
    assert "not measurable" in "\n".join(lines(doc))


def test_sides_score_the_strong_seats_side():
    # three seats, two of them one side: the side wins together
    r = {"roles": ["wizard", "hero", "hero"], "winners": [1, 2], "truncated": False}
    assert points(r, 2) == (1.0, 0.5) and points(r, 0) == (0.0, 0.5)
    draw = {"roles": ["a", "b", "c"], "winners": [], "truncated": False}
    assert points(draw, 1) == (pytest.approx(1 / 3), pytest.approx(1 / 3))
    assert points({**draw, "truncated": True}, 1)[0] == 0.0


def run(args, capsys):
    with pytest.raises(SystemExit) as exc:
        main(args)
    out = capsys.readouterr()
    return exc.value.code, out.out, out.err


def test_cli_reports_luck_against_skill_in_the_experience_section(tmp_path, capsys):
    out = tmp_path / "r"
    args = ["playtest", MIX, "--games", "10", "--jobs", "1", "--quiet", "--out", str(out)]
    code, _, err = run(args, capsys)
    assert code == 0, err
    assert NOT_MEASURED in (out / "summary.md").read_text()
    code, _, err = run([*args, "--luck-games", "12", "--luck-search-games", "4", "--json"], capsys)
    assert code == 0, err
    summary = (out / "summary.md").read_text()
    experience = summary[summary.index("## Experience"):]
    assert "heuristic against random" in experience and "search (`strong`) against the heuristic" in experience
    assert "dice share of outcomes" in experience
    assert "heuristic against random" in (out / "report.html").read_text()
    saved = json.loads((out / "luck.json").read_text())
    assert saved["games"] == 12 and saved["search_games"] == 4 and by_id(saved)["search-heuristic"]["games"] == 4
    assert json.loads((out / "summary.json").read_text())["luck"] == saved
    # the same command again reuses luck.json
    (out / "luck.json").write_text(json.dumps({**saved, "marker": 1}))
    code, _, err = run([*args, "--luck-games", "12", "--luck-search-games", "4", "--json"], capsys)
    assert code == 0 and json.loads((out / "luck.json").read_text())["marker"] == 1
    # without --luck-games, a report rewritten later still shows the measurement
    code, _, err = run(args, capsys)
    assert code == 0 and "heuristic against random" in (out / "summary.md").read_text()


@pytest.mark.parametrize("extra, name", [
    (["--luck-games", "0"], "--luck-games"), (["--luck-games", "-3"], "--luck-games"),
    (["--luck-games", "many"], "--luck-games"), (["--luck-games", "100001"], "--luck-games"),
    (["--luck-games", "5", "--luck-search-games", "-1"], "--luck-search-games"),
    (["--luck-search-games", "3"], "--luck-search-games needs --luck-games"),
])
def test_bad_luck_options_are_one_line_errors_and_play_nothing(tmp_path, capsys, extra, name):
    code, _, err = run(["playtest", MIX, "--games", "4", "--out", str(tmp_path / "r"), *extra], capsys)
    assert code == 2 and name in err and len(err.strip().splitlines()) == 1
    assert not (tmp_path / "r").exists()


def test_search_games_zero_plays_no_search_games():
    doc = measure(cfg(COIN), 10, search_games=0)
    assert by_id(doc)["search-heuristic"]["games"] == 0 and by_id(doc)["heuristic-random"]["games"] == 10
    assert "search (`strong`) against the heuristic: not played" in "\n".join(lines(doc))
