"""playtest --skill-check (issue 34, item 4): the headline verdicts re-tested with the search agent, sequentially,
each one holding, changing or undecided at higher skill; the search's strength table decides where to re-test."""

from __future__ import annotations

import json

import pytest

from boardlab.cli import main
from boardlab.engine.errors import BoardlabError
from boardlab.playtest import execute, plan_run
from boardlab.playtest.skill import (LOOK_EVERY, MARGIN, assess, balance_items, effect_items, search_strength,
                                     skill_check, skill_folder)
from boardlab.playtest.store import RunDir
from boardlab.stats import confidence_sequence


def run(args, capsys):
    with pytest.raises(SystemExit) as exc:
        main(args)
    out = capsys.readouterr()
    return exc.value.code, out.out, out.err


def game(winner, seed=0):
    """One synthetic two-seat game row (seat 0 acts first): ``winner`` None is a draw."""
    return {"winners": [] if winner is None else [winner], "truncated": False, "roles": ["seat 0", "seat 1"],
            "winner_roles": [] if winner is None else [f"seat {winner}"], "first_seat": 0, "seed": seed, "index": seed,
            "game": "synthetic", "players": 2, "turns": 10, "decisions": 10}


def rows(wins0, n):
    """``n`` games (seeds 0..n-1) in which seat 0 wins the first ``wins0`` and seat 1 the rest."""
    return [game(0 if i < wins0 else 1, i) for i in range(n)]


def test_a_favoured_seat_holds_changes_or_is_undecided_at_higher_skill():
    base = rows(70, 100)  # seat 0 (always first) wins 70 of 100: favoured after Holm
    cases = {"holds": rows(24, 24), "changes": rows(0, 24), "undecided": rows(12, 24)}
    for expected, skill in cases.items():
        items = balance_items(base, 2, False)
        assert [it["base"]["verdict"] for it in items] == ["favoured", "disadvantaged"]  # seat 0 and the first player are one claim
        decided = assess(items, {"base": skill}, 2, "base")
        assert [it["status"] for it in items] == [expected, expected]
        assert decided is (expected != "undecided")
    # the skill interval is the anytime-valid one, Bonferroni across the two claims
    items = balance_items(base, 2, False)
    assess(items, {"base": rows(12, 24)}, 2, "base")
    assert (items[0]["skill"]["ci_low"], items[0]["skill"]["ci_high"]) == pytest.approx(confidence_sequence(12, 24, 0.025))


def test_no_edge_holds_only_once_the_interval_lies_within_the_margin():
    base = rows(50, 100)  # no edge beyond chance
    items = balance_items(base, 2, False)
    assert {it["base"]["verdict"] for it in items} == {"even"}
    assert not assess(items, {"base": rows(50, 100)}, 2, "base")  # 100 games: the interval is wider than +-10 points
    n = 2000
    assert assess(items, {"base": [game(i % 2, i) for i in range(n)]}, 2, "base")
    lo, hi = items[0]["skill"]["ci_low"], items[0]["skill"]["ci_high"]
    assert 0.5 - MARGIN <= lo < 0.5 < hi <= 0.5 + MARGIN and items[0]["status"] == "holds"
    assert assess(items, {"base": rows(40, 40)}, 2, "base") and items[0]["status"] == "changes"  # an edge appears


def test_draws_count_as_an_equal_share_as_in_the_verdict():
    items = balance_items(rows(70, 100), 2, False)
    assess(items, {"base": [game(None)] * 8}, 2, "base")
    assert items[0]["skill"]["rate"] == 0.5


def test_a_variant_effect_is_paired_by_seed():
    base = rows(50, 100)
    variant = rows(90, 100)  # seeds 50-89: seat 0 now wins where seat 1 did
    items = effect_items(base, [("v", variant)], False)
    assert [(it["label"], it["base"]["verdict"]) for it in items] == [("v: seat 0 win rate", "raises"), ("v: seat 1 win rate", "lowers")]
    # at higher skill the seats are even without the variant, and the variant wins seat 0 the twelve seeds it lost
    skill = {"base": [game(i % 2, i) for i in range(24)], "v": rows(24, 24)}
    balance = balance_items(base, 2, False)
    assert assess(balance + items, skill, 2, "base") is False  # the balance claims ("even") are still open at 24 games
    assert [it["status"] for it in balance] == ["undecided", "undecided"]
    assert [it["status"] for it in items] == ["holds", "holds"]
    assert items[0]["skill"]["b_only"] == 12 and items[0]["skill"]["a_only"] == 0
    # six sequences (two balance claims, two per effect): the direction's interval over the 12 changed seeds
    low = confidence_sequence(12, 12, 0.05 / 6)[0]
    assert items[0]["skill"]["variant_share_low"] == pytest.approx(low) and low > 0.5
    # and it changes when the variant's effect reverses
    assess(items, {"base": rows(12, 12), "v": rows(0, 12)}, 2, "base")
    assert [it["status"] for it in items] == ["changes", "changes"]
    # "no effect" is decided once at most MARGIN of the seeds can change: the effect is bounded by it
    items = effect_items(base, [("v", base)], False)
    assert [it["base"]["verdict"] for it in items] == ["no effect", "no effect"]
    assert assess(items, {"base": rows(300, 600), "v": rows(300, 600)}, 2, "base")
    assert items[0]["skill"]["changed_high"] <= MARGIN and items[0]["status"] == "holds"


def test_the_strength_table_gates_the_retest():
    assert search_strength("dungeons-jewel", 4)["stronger"] is False
    assert search_strength("dungeons-jewel", 2)["stronger"] is True
    assert search_strength("armies", 2)["spec"] == "ismcts:iterations=50"
    assert search_strength("wizards-labyrinth", 5)["stronger"] is None


def test_stops_at_the_first_look_where_every_claim_is_decided(tmp_path):
    cfg = plan_run("coin", games=30, agents=["random"], options={"bias": 100}, seed=3)
    folder = tmp_path / "coin"
    execute(cfg, folder, jobs=1)
    first = skill_check([cfg], [folder], spec="ismcts:iterations=2", games=4, jobs=1)  # too few games to decide
    assert not first["decided"] and first["games_played"] == 4
    assert {it["status"] for it in first["items"]} == {"undecided"}
    doc = skill_check([cfg], [folder], spec="ismcts:iterations=2", games=40, jobs=1)  # a higher cap continues the same games
    # seat 0 (always first) wins every game at both levels: one claim each for seats 0 and 1
    expected = next(n for n in range(LOOK_EVERY, 41, LOOK_EVERY) if confidence_sequence(n, n, 0.025)[0] > 0.5)
    assert doc["decided"] and doc["games_played"] == expected < 40
    assert doc["finished"] and doc["cpu_seconds"] > 0 and doc["seconds"] > 0
    assert [it["status"] for it in doc["items"]] == ["holds", "holds"]
    assert len(RunDir(skill_folder(folder)).read_parts()) == expected
    saved = json.loads((folder / "skill.json").read_text())
    assert saved["games_played"] == expected and saved["skill_agent"] == "ismcts:iterations=2"
    # running it again plays nothing more
    again = skill_check([cfg], [folder], spec="ismcts:iterations=2", games=40, jobs=1)
    assert again["games_played"] == expected and len(RunDir(skill_folder(folder)).read_parts()) == expected
    with pytest.raises(BoardlabError, match="another check"):
        skill_check([cfg], [folder], spec="ismcts:iterations=3", games=40, jobs=1)


ARGS = ["playtest", "dungeons-jewel", "--players", "2", "--games", "16", "--agents", "random", "--max-turns", "150",
        "--jobs", "1"]


def test_end_to_end_with_two_variants(tmp_path, capsys):
    args = [*ARGS, "--variant", "rulebook,concept", "--out", str(tmp_path), "--skill-check", "ismcts:iterations=2",
            "--skill-games", "4"]
    code, out, err = run([*args, "--json"], capsys)
    assert code == 0, err
    doc = json.loads(out)
    check = doc["runs"][0]["skill_check"]
    assert check["retested"] and check["games_played"] == 4 and check["skill_agent"] == "ismcts:iterations=2"
    kinds = [it["kind"] for it in check["items"]]
    assert kinds.count("effect") == 2 and kinds.count("balance") >= 2
    assert all(it["status"] in ("holds", "changes", "undecided") for it in check["items"])
    for name in ("rulebook", "concept"):
        assert len(RunDir(tmp_path / f"{name}-skill").read_parts()) == 4
        assert RunDir(tmp_path / f"{name}-skill").read_manifest()["config"]["agents"] == ["ismcts:iterations=2"] * 2
    md = (tmp_path / "rulebook" / "summary.md").read_text()
    assert "## Skill check" in md and "| claim | base level | skill level | at higher skill |" in md
    assert "concept: seat 0 win rate" in md
    assert "Skill check" in (tmp_path / "rulebook" / "report.html").read_text()
    # the same command again resumes: nothing new is played
    code, out, err = run([*args, "--quiet"], capsys)
    assert code == 0, err
    assert "## Skill check" in out and len(RunDir(tmp_path / "rulebook-skill").read_parts()) == 4


def test_four_player_dungeons_jewel_says_the_search_is_not_stronger(tmp_path, capsys):
    code, out, err = run(["playtest", "dungeons-jewel", "--games", "12", "--jobs", "1", "--out", str(tmp_path / "r"),
                          "--skill-check", "--json"], capsys)
    assert code == 0, err
    check = json.loads(out)["skill_check"]
    assert check["retested"] is False and check["games_played"] == 0
    assert "not stronger than the heuristic" in check["reason"] and "0.478" in check["reason"]
    assert not skill_folder(tmp_path / "r").exists()
    assert "Not re-tested" in (tmp_path / "r" / "summary.md").read_text()


@pytest.mark.parametrize("extra, message", [
    (["--skill-check", "nonsense"], "nonsense"),
    (["--skill-games", "5"], "--skill-games needs --skill-check"),
])
def test_bad_skill_options_are_one_line_errors_and_play_nothing(tmp_path, capsys, extra, message):
    code, out, err = run([*ARGS, "--out", str(tmp_path / "r"), *extra], capsys)
    assert code == 2 and message in err and len(err.strip().splitlines()) == 1
    assert not (tmp_path / "r").exists()


def test_an_even_verdict_needs_about_340_games_with_two_claims():
    """docs/playtest.md "Skill check": a seat winning exactly half is first known to be within MARGIN of 50% after
    about 340 games with two claims (Bonferroni), 360 with three."""
    def first(m):
        return next(n for n in range(20, 2000, 4)
                    if 0.5 - MARGIN <= confidence_sequence(n // 2, n, 0.05 / m)[0] and confidence_sequence(n // 2, n, 0.05 / m)[1] <= 0.5 + MARGIN)
    assert 330 <= first(2) <= 345 and 350 <= first(3) <= 365
