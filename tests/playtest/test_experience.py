"""Experience metrics (issue 34 item 3) against hand-built games whose true values are known.

Each scripted game below fixes who decides in which turn, every seat's evaluation at the
start of every turn, and who wins; docs/playtest.md "Experience" gives the formulas the
expected values are computed from by hand.
"""

import json
import math

import pyarrow.parquet as pq
import pytest
from scipy.stats import t as student_t

from boardlab.engine import Game, Results, State, win_results
from boardlab.engine.registry import register
from boardlab.playtest import execute, plan_run
from boardlab.playtest import metrics as m
from boardlab.playtest.report import markdown_summary
from boardlab.playtest.simulate import RunConfig, play_row
from boardlab.playtest.store import RunDir


class ScriptState(State):
    """Turn ``k`` of ``SCRIPT`` is a list of the seats that decide in it, in order; each seat's
    evaluation at the start of turn ``k`` is ``EVALS[k]`` (0.5 for all when absent)."""

    __slots__ = ("step",)

    def _setup(self) -> None:
        self.step = 0
        self.begin_turn()

    def _steps(self) -> list[tuple[int, int]]:
        return [(k, seat) for k, seats in enumerate(self.game.SCRIPT) for seat in seats]

    def _current_seat(self) -> int:
        return self._steps()[self.step][1]

    def _legal_actions(self):
        return [("go",), ("wait",)]

    def _apply(self, action) -> None:
        steps = self._steps()
        self.step += 1
        if self.step < len(steps) and steps[self.step][0] != steps[self.step - 1][0]:
            self.begin_turn()

    def _is_over(self) -> bool:
        return self.step >= len(self._steps())

    def _results(self) -> Results:
        return win_results(self.game.players, list(self.game.WINNERS), "script")

    def _view(self, seat):
        return {"step": self.step}

    def evaluate(self, seat: int) -> float:
        evals = self.game.EVALS
        k = self.turn - 1
        return evals[k][seat] if k < len(evals) else 0.5


def scripted(name: str, players: int, script, evals=(), winners=(0,)) -> str:
    """Register a scripted game under ``exp-<name>`` and return its id."""
    game_id = f"exp-{name}"
    cls = type(f"Script_{name}", (Game,), {
        "id": game_id, "name": name, "description": "scripted experience-metric game (tests only)",
        "min_players": players, "max_players": players, "default_players": players,
        "state_class": ScriptState, "SCRIPT": [list(s) for s in script], "EVALS": [list(e) for e in evals],
        "WINNERS": tuple(winners), "default_max_turns": 1000,
    })
    register(game_id, cls)
    return game_id


def row_of(game_id: str, players: int) -> dict:
    return play_row(RunConfig(game_id, players, "", {}, ("random",) * players, 1, 0), 0)


# -- downtime -------------------------------------------------------------------------------

def test_downtime_counts_others_decisions_between_a_seats_own():
    # decisions in order: 0 | 1 | 2 | 0 2 | 1 | 2 | 0   (turns separated by |)
    # seat 0 waits 2 (1, 2) then 3 (2, 1, 2): mean 2.5, max 3; seat 1 waits 3 (2, 0, 2) once;
    # seat 2 waits 1 (0) then 1 (1); consecutive own decisions would be a wait of 0 and are not waits.
    gid = scripted("downtime", 3, [[0], [1], [2], [0, 2], [1], [2], [0]])
    r = row_of(gid, 3)
    assert r["decisions"] == 8
    assert r["downtime_mean"] == [2.5, 3.0, 1.0]
    assert r["downtime_max"] == [3, 3, 1]


def test_own_consecutive_decisions_are_not_downtime():
    # decisions 0 0 | 1 | 0 0 | 1 1 | 0: seat 0 waits 1 (seat 1) then 2 (seat 1 twice); seat 1 waits 2
    # (seat 0 twice) once; two decisions of a seat in a row are never a wait of 0.
    gid = scripted("downtime-multi", 2, [[0, 0], [1], [0, 0], [1, 1], [0]])
    r = row_of(gid, 2)
    assert r["downtime_mean"] == [1.5, 2.0] and r["downtime_max"] == [2, 2]


def test_downtime_of_a_seat_that_never_waits_between_decisions_is_zero():
    gid = scripted("downtime-once", 2, [[0], [1]])
    r = row_of(gid, 2)
    assert r["downtime_mean"] == [0.0, 0.0] and r["downtime_max"] == [0, 0]


# -- waiting while out -----------------------------------------------------------------------

def test_a_seat_knocked_out_waits_every_turn_beyond_an_ordinary_round():
    # 3 seats round robin; seat 2 is out after its first turn and the game goes on for 5 turns:
    # 2 of them it would have waited anyway (a round's other turns), so it waits 3 turns out.
    gid = scripted("out", 3, [[0], [1], [2], [0], [1], [0], [1], [0]])
    r = row_of(gid, 3)
    assert r["waiting_out"] == [0, 0, 3]


def test_a_skipped_turn_counts_and_an_ordinary_round_does_not():
    # seat 1 loses one turn (turn 4): between its decisions in turns 1 and 6 four turns pass, two beyond a round;
    # a response in another seat's turn (seat 0 in turn 2) is a decision too.
    gid = scripted("skip", 3, [[0], [1], [2, 0], [0], [2], [0], [1], [2]])
    r = row_of(gid, 3)
    assert r["waiting_out"] == [0, 2, 0]


def test_round_robin_has_no_waiting_out_at_any_length():
    for n in (2, 3, 4):
        gid = scripted(f"rr{n}", n, [[k % n] for k in range(5 * n + 1)])
        assert row_of(gid, n)["waiting_out"] == [0] * n


# -- decided early ---------------------------------------------------------------------------

def test_decided_at_is_the_share_of_turns_before_the_winner_leads_for_good():
    # leaders at the start of turns 0..4: tie, 1, 0, 0, 0; seat 0 wins: decided at turn 2 of 5 = 0.4
    evals = [[0.5, 0.5], [0.4, 0.6], [0.7, 0.3], [0.6, 0.4], [0.9, 0.1]]
    gid = scripted("decided", 2, [[0], [1], [0], [1], [0]], evals, winners=(0,))
    r = row_of(gid, 2)
    assert r["decided_at"] == pytest.approx(0.4)
    assert r["lead_changes"] == 1


def test_decided_at_extremes_and_no_winner():
    evals = [[0.6, 0.4], [0.7, 0.3], [0.2, 0.8]]
    led_throughout = scripted("dec-early", 2, [[0], [1], [0]], [[0.6, 0.4]] * 3, winners=(0,))
    last_moment = scripted("dec-late", 2, [[0], [1], [0]], evals, winners=(0,))
    nobody = scripted("dec-none", 2, [[0], [1], [0]], evals, winners=())
    assert row_of(led_throughout, 2)["decided_at"] == 0.0
    assert row_of(last_moment, 2)["decided_at"] == 1.0
    assert row_of(nobody, 2)["decided_at"] is None


# -- kingmaking ------------------------------------------------------------------------------

KING_SCRIPT = [[0], [1], [2], [0], [1]]


def test_kingmaking_counts_a_last_seats_turn_that_hands_the_lead_to_the_winner():
    # seat 1 leads until seat 2, strictly last, takes turn 2; from turn 3 seat 0 leads and wins.
    evals = [[0.5, 0.6, 0.4], [0.5, 0.7, 0.3], [0.5, 0.7, 0.2], [0.8, 0.6, 0.2], [0.8, 0.6, 0.2]]
    r = row_of(scripted("king", 3, KING_SCRIPT, evals, winners=(0,)), 3)
    assert r["kingmaking"] == 1


def test_no_kingmaking_when_the_winner_takes_the_lead_itself_or_the_mover_is_not_strictly_last():
    own = [[0.5, 0.6, 0.4], [0.5, 0.7, 0.3], [0.5, 0.7, 0.2], [0.6, 0.7, 0.2], [0.8, 0.6, 0.2]]  # seat 0's own turn 3
    tied = [[0.5, 0.6, 0.4], [0.5, 0.7, 0.3], [0.2, 0.7, 0.2], [0.8, 0.6, 0.2], [0.8, 0.6, 0.2]]  # seat 2 tied last
    assert row_of(scripted("king-own", 3, KING_SCRIPT, own, winners=(0,)), 3)["kingmaking"] == 0
    assert row_of(scripted("king-tied", 3, KING_SCRIPT, tied, winners=(0,)), 3)["kingmaking"] == 0


def test_the_last_turn_hands_the_game_to_the_winner():
    # seat 1 leads at the start of every turn; seat 2 (strictly last) takes the last turn and seat 0 wins
    evals = [[0.5, 0.6, 0.4], [0.5, 0.7, 0.3], [0.5, 0.7, 0.2]]
    assert row_of(scripted("king-end", 3, [[0], [1], [2]], evals, winners=(0,)), 3)["kingmaking"] == 1


def test_kingmaking_is_not_measured_with_two_players():
    evals = [[0.4, 0.6], [0.6, 0.4]]
    assert row_of(scripted("king-two", 2, [[0], [1]], evals, winners=(0,)), 2)["kingmaking"] is None


# -- summary, store and report ---------------------------------------------------------------

def _t_interval(values):
    n = len(values)
    mean = sum(values) / n
    sd = math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1))
    half = student_t.ppf(0.975, n - 1) * sd / math.sqrt(n)
    return mean, mean - half, mean + half


def _row(downtime, waiting, decided, king, lead=1, close=0.5):
    return {"downtime_mean": downtime, "downtime_max": [int(2 * d) for d in downtime], "waiting_out": waiting,
            "decided_at": decided, "kingmaking": king, "lead_changes": lead, "closeness": close}


def test_summary_gives_each_metric_with_its_interval():
    rows = [_row([1.0, 3.0, 2.0], [0, 0, 3], 0.5, 1), _row([2.0, 2.0, 2.0], [0, 0, 0], None, None),
            _row([4.0, 4.0, 4.0], [6, 0, 0], 0.25, 0)]
    exp = m.experience(rows, 3)
    mean, lo, hi = _t_interval([2.0, 2.0, 4.0])
    assert exp["downtime"]["mean"] == pytest.approx(mean)
    assert (exp["downtime"]["ci_low"], exp["downtime"]["ci_high"]) == pytest.approx((lo, hi))
    assert exp["downtime_max"]["mean"] == pytest.approx((6 + 4 + 8) / 3)
    assert exp["waiting_out"]["mean"] == pytest.approx((1 + 0 + 2) / 3)
    assert exp["waiting_out_by_seat"][0]["mean"] == pytest.approx(2.0)
    assert exp["waiting_out_games"]["count"] == 2 and exp["waiting_out_games"]["n"] == 3
    assert exp["decided_at"]["n"] == 2 and exp["decided_at"]["mean"] == pytest.approx(0.375)
    king = exp["kingmaking"]
    assert (king["count"], king["n"]) == (1, 2)
    assert (king["ci_low"], king["ci_high"]) == pytest.approx(m.wilson(1, 2))
    assert m.experience(rows, 2)["kingmaking"] is None


def test_rows_without_experience_columns_still_summarise_and_report():
    old = [{"lead_changes": 2, "closeness": 0.7}, {"lead_changes": 0, "closeness": 0.9}]
    exp = m.experience(old, 2)
    assert not exp["recorded"] and exp["downtime"]["n"] == 0
    assert exp["lead_changes"]["mean"] == 1.0


def test_a_run_writes_reads_back_and_reports_the_experience(tmp_path):
    evals = [[0.5, 0.6, 0.4], [0.5, 0.7, 0.3], [0.5, 0.7, 0.2], [0.8, 0.6, 0.2], [0.8, 0.6, 0.2]]
    gid = scripted("king-run", 3, KING_SCRIPT, evals, winners=(0,))
    execute(plan_run(gid, games=4, players=3, agents=["random"], seed=2), tmp_path / "run", jobs=1)
    rows = RunDir(tmp_path / "run").read_results()
    assert [r["kingmaking"] for r in rows] == [1] * 4
    assert rows[0]["downtime_mean"] == [2.0, 2.0, 0.0] and rows[0]["waiting_out"] == [0, 0, 0]
    assert rows[0]["decided_at"] == pytest.approx(0.6)  # leaders 1, 1, 1, 0, 0: seat 0 leads from turn 3 of 5
    exp = json.loads((tmp_path / "run" / "summary.json").read_text())["experience"]
    md = (tmp_path / "run" / "summary.md").read_text()
    html = (tmp_path / "run" / "report.html").read_text()
    assert "## Experience" in md and "kingmaking" in md and "in 100.0% of games" in md
    assert "<h2>Experience</h2>" in html and "decided at" in html
    assert exp["kingmaking"]["count"] == 4 and exp["decided_at"]["mean"] == pytest.approx(0.6)


def test_an_old_run_folder_without_the_columns_loads_and_reports(tmp_path):
    execute(plan_run("toy", games=6, players=2, agents=["random"], seed=3), tmp_path / "run", jobs=1)
    path = tmp_path / "run" / "results.parquet"
    table = pq.read_table(path)
    pq.write_table(table.drop_columns(["downtime_mean", "downtime_max", "waiting_out", "decided_at", "kingmaking"]), path)
    run = RunDir(tmp_path / "run")
    rows = run.read_results()
    assert "downtime_mean" not in rows[0]
    result = m.summary(rows, 2)
    assert not result["experience"]["recorded"]
    md = markdown_summary(run.read_manifest(), result)
    assert "## Experience" in md and "not recorded" in md
