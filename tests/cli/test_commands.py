"""The commands working: games, play (bots, hot-seat, saving), replay, simulate, serve."""

from __future__ import annotations

import json
import sys
import types

import pytest

from boardlab.cli import COMMAND_MODULES
from boardlab.cli.savefile import SavedGame, replay_states
from boardlab.engine import make

from .conftest import playable_games

TIMING = {"seconds", "games_per_second", "jobs"}


def test_command_modules_list():
    assert COMMAND_MODULES[:5] == ["boardlab.cli.games", "boardlab.cli.play", "boardlab.cli.replay",
                                   "boardlab.cli.simulate", "boardlab.cli.serve"]


# -- games --------------------------------------------------------------------
def test_games_json_lists_every_game(run):
    r = run("games", "--json")
    assert r.exit_code == 0
    games = {g["id"]: g for g in json.loads(r.stdout)}
    assert {"toy", "dungeons-jewel"} <= set(games)
    toy = games["toy"]
    assert toy["players"] == "2-4" and [v["name"] for v in toy["variants"]] == ["standard", "short"]
    assert "random" in toy["agents"]


def test_games_table(run):
    r = run("games")
    assert r.exit_code == 0 and "toy" in r.stdout and "standard" in r.stdout and "2-4" in r.stdout


# -- simulate -----------------------------------------------------------------
@pytest.mark.parametrize("game", playable_games())
def test_simulate_json_keys_and_jobs_independence(run, game):
    args = ["simulate", game, "--games", "6", "--seed", "11", "--json", "--max-turns", "60"]
    one = json.loads(run(*args, "--jobs", "1").stdout)
    two = json.loads(run(*args, "--jobs", "2").stdout)
    for key in ("game", "variant", "players", "games", "seed", "agents", "wins_by_seat", "truncated", "mean_turns",
                "mean_decisions", "seconds", "games_per_second", "wins_by_side"):
        assert key in one
    assert one["game"] == game and one["games"] == 6 and one["seed"] == 11
    assert len(one["wins_by_seat"]) == one["players"] == len(one["agents"])
    assert {k: v for k, v in one.items() if k not in TIMING} == {k: v for k, v in two.items() if k not in TIMING}


def test_simulate_same_arguments_same_numbers_and_seed_matters(run):
    args = ["simulate", "toy", "--games", "30", "--json"]
    a, b = json.loads(run(*args).stdout), json.loads(run(*args).stdout)
    c = json.loads(run(*args, "--seed", "1").stdout)
    strip = lambda d: {k: v for k, v in d.items() if k not in TIMING}  # noqa: E731
    assert strip(a) == strip(b) and strip(a) != strip(c)
    assert sum(a["wins_by_seat"]) >= 30 and a["truncated"] == 0


def test_simulate_agents_per_seat_single_and_defaults(run):
    per_seat = json.loads(run("simulate", "toy", "--games", "4", "--players", "3", "--agents", "random,first,random",
                              "--json").stdout)
    assert per_seat["agents"] == ["random", "first", "random"] and per_seat["players"] == 3
    single = json.loads(run("simulate", "toy", "--games", "4", "--players", "3", "--agents", "first", "--json").stdout)
    assert single["agents"] == ["first"] * 3
    default = json.loads(run("simulate", "toy", "--games", "2", "--json").stdout)
    assert default["agents"] == ["random", "random"]  # the toy has no heuristic


def test_simulate_agent_parameters_reach_the_agent(run):
    from boardlab.agents import AGENTS, BaseAgent

    class Picky(BaseAgent):
        defaults = {"index": 0}

        def act(self, decision):
            return decision.legal[min(self.params["index"], len(decision.legal) - 1)]

    AGENTS["picky"] = Picky
    try:
        last = json.loads(run("simulate", "toy", "--games", "5", "--agents", "picky:index=9", "--json").stdout)
        first = json.loads(run("simulate", "toy", "--games", "5", "--agents", "picky:index=0", "--json").stdout)
    finally:
        del AGENTS["picky"]
    assert last["agents"] == ["picky:index=9"] * 2
    assert last["mean_decisions"] != first["mean_decisions"]  # always rolling vs always playing the lowest card


def test_simulate_variant_options_and_turn_cap(run):
    short = json.loads(run("simulate", "toy", "--games", "20", "--variant", "short", "--json").stdout)
    long = json.loads(run("simulate", "toy", "--games", "20", "--option", "target=30", "--json").stdout)
    assert short["variant"] == "short" and short["mean_turns"] < long["mean_turns"]
    assert long["options"] == {"target": 30}
    capped = json.loads(run("simulate", "toy", "--games", "10", "--max-turns", "2", "--json").stdout)
    assert capped["truncated"] == 10 and sum(capped["wins_by_seat"]) == 0


def test_simulate_table_output(run):
    r = run("simulate", "toy", "--games", "5")
    assert r.exit_code == 0 and "win %" in r.stdout and "games/s" in r.stdout


# -- play ---------------------------------------------------------------------
def load(path):
    return SavedGame.load(path)


def test_play_against_a_bot_saves_a_replayable_game(run, tmp_path):
    r = run("play", "toy", "--seed", "5", "--save", "g.json", input="1\n" * 40)
    assert r.exit_code == 0, r.output
    saved = load(tmp_path / "g.json")
    assert saved.agents == ["human", "random"] and saved.seed == 5 and saved.game == "toy"
    game, states = replay_states(saved)
    assert states[-1].is_over()
    doc = json.loads((tmp_path / "g.json").read_text())
    assert doc["over"] is True and doc["results"]["winners"] == list(states[-1].results().winners)
    assert "1. " in r.stdout and "Game over" in r.stdout and "boardlab replay g.json" in r.stdout
    assert "Hand over" not in r.stdout  # one human: no hand-over screen


def test_play_shows_numbered_actions_and_rejects_bad_choices(run):
    r = run("play", "toy", "--seed", "2", "--seat", "2=first", input="0\nzz\n99\nq\n")
    assert r.exit_code == 0
    assert r.stdout.count("Please type a number from 1 to") == 3
    assert "roll a d3" in r.stdout


def test_play_default_save_goes_to_the_user_data_folder_and_quit_keeps_a_partial_game(run, tmp_path, monkeypatch):
    data = tmp_path / "data"
    monkeypatch.setenv("XDG_DATA_HOME", str(data))
    r = run("play", "toy", "--seed", "8", input="q\n")
    path = data / "boardlab" / "games" / "toy-8.json"
    assert r.exit_code == 0 and str(path) in r.stdout.replace("\n", "")
    assert not (tmp_path / "toy-8.json").exists()  # never the current folder by default
    saved = load(path)
    assert saved.actions == [] and json.loads(path.read_text())["over"] is False


def test_play_end_of_input_saves_and_stops(run, tmp_path):
    r = run("play", "toy", "--seed", "8", "--save", "x.json", input="1\n")
    assert r.exit_code == 0
    assert len(load(tmp_path / "x.json").actions) >= 1


def test_hot_seat_hands_over_and_shows_only_the_acting_seats_hand(run, tmp_path):
    game = make("toy")
    seed = next(s for s in range(100) if sorted(game.new_state(s).hands[0]) != sorted(game.new_state(s).hands[1]))
    state = game.new_state(seed)
    hand0, hand1 = state.view(0)["state"]["hand"], state.view(1)["state"]["hand"]
    roll0, roll1 = len(set(hand0)) + 1, len(set(hand1)) + 1  # "roll" is the last action
    r = run("play", "toy", "--seed", seed, "--seat", "1=human", "--seat", "2=human", "--save", "h.json",
            input=f"\n{roll0}\n\n{roll1}\n\nq\n")
    assert r.exit_code == 0, r.output
    first_screen, _, rest = r.stdout.partition("Hand over to Player 2")
    assert "Hand over to Player 1" in first_screen
    assert f"hand       {hand0}" in first_screen and f"hand       {hand1}" not in first_screen
    second_screen = rest.partition("Hand over to Player 1")[0]
    assert f"hand       {hand1}" in second_screen
    saved = load(tmp_path / "h.json")
    assert saved.agents == ["human", "human"] and saved.actions == [["roll"], ["roll"]]


def test_all_bots_watch_mode(run, tmp_path):
    r = run("play", "toy", "--seed", "3", "--seat", "1=random", "--seat", "2=first", "--save", "w.json")
    assert r.exit_code == 0 and "Game over" in r.stdout and "Seat 1" in r.stdout
    assert "You draw" not in r.stdout  # a spectator sees public events only
    assert replay_states(load(tmp_path / "w.json"))[1][-1].is_over()


@pytest.mark.parametrize("game", playable_games())
def test_play_every_game_draws_its_scene(run, tmp_path, game):
    r = run("play", game, "--seed", "1", "--save", "p.json", input="1\n1\n1\nq\n")
    assert r.exit_code == 0, r.output
    assert "view" in r.stdout and "1. " in r.stdout
    assert len(load(tmp_path / "p.json").actions) >= 1


# -- replay -------------------------------------------------------------------
def make_save(run, tmp_path, seed=4):
    run("play", "toy", "--seed", seed, "--seat", "1=random", "--seat", "2=random", "--save", "r.json")
    return str(tmp_path / "r.json")


def test_replay_prints_every_step_when_not_a_terminal(run, tmp_path):
    path = make_save(run, tmp_path)
    n = len(load(path).actions)
    r = run("replay", path)
    assert r.exit_code == 0
    for k in range(1, n + 1):
        assert f"Step {k}/{n}" in r.stdout
    assert "Game over" in r.stdout


def test_replay_redacts_events_for_the_seat(run, tmp_path):
    path = make_save(run, tmp_path)
    saved = load(path)
    _, states = replay_states(saved)
    final = states[-1]
    spectator = run("replay", path).stdout
    seat0 = run("replay", path, "--seat", "1").stdout  # the first seat: counted from 1
    assert "You draw" not in spectator
    own_draws = [e["text"] for e in final.events(0) if e.get("private")]
    assert own_draws and all(t in seat0 for t in own_draws)
    others = [e["text"] for e in final.events(1) if e.get("private") and e["text"] not in own_draws]
    for text in others:
        assert seat0.count(text) <= sum(1 for t in own_draws if t == text)
    # a seat's own choices are labelled, the others' are not
    assert ": play" in seat0 or ": roll" in seat0
    assert ": play" not in spectator and ": roll" not in spectator


def test_replay_with_boards_draws_each_step(run, tmp_path):
    path = make_save(run, tmp_path)
    n = len(load(path).actions)
    r = run("replay", path, "--boards")
    assert r.stdout.count("deck ") >= n + 1


@pytest.mark.parametrize("game", playable_games())
def test_replay_of_a_bot_game(run, tmp_path, game):
    run("play", game, "--seed", "2", "--seat", "1=random", "--save", "b.json", input="")
    saved = load(tmp_path / "b.json")
    r = run("replay", str(tmp_path / "b.json"), "--seat", "1")
    assert r.exit_code == 0
    assert f"Step {len(saved.actions)}/{len(saved.actions)}" in r.stdout


# -- serve --------------------------------------------------------------------
def test_serve_calls_the_web_app(run, monkeypatch, tmp_path):
    calls = []
    fake = types.ModuleType("boardlab.web.server")
    fake.run = lambda **kw: calls.append(kw)
    monkeypatch.setitem(sys.modules, "boardlab.web.server", fake)
    assert run("serve").exit_code == 0
    assert run("serve", "--host", "0.0.0.0", "--port", "9001", "--data-dir", str(tmp_path / "d")).exit_code == 0
    limits = [c.pop("limits") for c in calls]
    assert calls == [
        {"host": "127.0.0.1", "port": 8000, "data_dir": None},
        {"host": "0.0.0.0", "port": 9001, "data_dir": str(tmp_path / "d")},
    ]
    from boardlab.web.limits import Limits

    assert all(isinstance(x, Limits) for x in limits)
