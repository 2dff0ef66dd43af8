"""What a findings run could not see (issue 33): every "not shown" states the smallest effect the run could
have detected at 80% power, and how many games a smaller one needs.

The power formulas are normal approximations; these tests check them against the exact power of the tests the
lab really runs (the score test of a share, McNemar's exact test), computed from the binomial distribution.
"""

import re
from pathlib import Path

import numpy as np
import pytest
from scipy.stats import binom, norm

from boardlab.playtest import findings, power
from boardlab.playtest.verdict import family
from boardlab.stats import mcnemar_exact, score_p

ROOT = Path(__file__).resolve().parents[2]


F = findings  # the findings writer: would_see, family_line and run_figures moved here from scripts/findings.py (issue 34)


def exact_power_share(n, fair, true, alpha):
    """P(the two-sided score test of ``fair`` rejects at ``alpha``) when the true share is ``true``."""
    k = np.arange(n + 1)
    z = (k / n - fair) / np.sqrt(fair * (1 - fair) / n)
    p = 2 * norm.sf(np.abs(z))  # the score test, vectorised (checked against the lab's score_p below)
    return float(np.sum(binom.pmf(k, n, true)[p < alpha]))


def test_the_vectorised_score_test_is_the_labs():
    for k, n, fair in ((30, 100, 0.25), (80, 300, 0.25), (52, 100, 0.5)):
        z = (k / n - fair) / np.sqrt(fair * (1 - fair) / n)
        assert 2 * norm.sf(abs(z)) == pytest.approx(score_p(k, n, fair), rel=1e-6)


def mcnemar_p(d):
    """McNemar's exact p-value for every split ``(d - b, b)`` of ``d`` discordant pairs (symmetric binomial)."""
    b = np.arange(d + 1)
    return np.minimum(1.0, 2 * np.minimum(binom.cdf(b, d, 0.5), binom.sf(b - 1, d, 0.5)))


def test_the_vectorised_mcnemar_is_the_labs():
    for d in (0, 1, 7, 40):
        assert np.allclose(mcnemar_p(d), [mcnemar_exact(d - b, b) for b in range(d + 1)])


def exact_power_mcnemar(n, psi, diff, alpha):
    """P(McNemar's exact test rejects) over ``n`` pairs, discordance ``psi``, true paired difference ``diff``."""
    up = (psi + diff) / (2 * psi)  # among discordant pairs, the share won only under the new rule
    total = 0.0
    for d in range(n + 1):
        pd = binom.pmf(d, n, psi)
        if pd < 1e-9:
            continue
        b = np.arange(d + 1)
        total += pd * float(np.sum(binom.pmf(b, d, up)[mcnemar_p(d) < alpha]))
    return total


@pytest.mark.parametrize("n,fair,alpha", [(300, 0.25, 0.05), (600, 0.5, 0.0125), (2000, 1 / 3, 0.05 / 4)])
def test_the_detectable_share_is_seen_about_80_percent_of_the_time(n, fair, alpha):
    edge = power.detectable_share(n, fair, alpha)
    assert 0.74 <= exact_power_share(n, fair, fair + edge, alpha) <= 0.86
    assert exact_power_share(n, fair, fair + edge / 2, alpha) < 0.45  # half the edge is usually missed
    # the games it takes to see a smaller edge: about 80% there too
    need = power.games_to_see_share(edge / 2, fair, alpha)
    assert 3.6 * n <= need <= 4.4 * n
    assert 0.74 <= exact_power_share(need, fair, fair + edge / 2, alpha) <= 0.86


@pytest.mark.parametrize("n,psi,alpha", [(300, 0.2, 0.05), (150, 0.4, 0.05 / 20), (300, 0.1, 0.05 / 9)])
def test_the_detectable_paired_difference_is_seen_about_80_percent_of_the_time(n, psi, alpha):
    diff = power.detectable_paired(n, psi, alpha)
    assert 0.7 <= exact_power_mcnemar(n, psi, diff, alpha) <= 0.9
    assert exact_power_mcnemar(n, psi, diff / 2, alpha) < 0.45
    need = power.games_to_see_paired(diff / 2, psi, alpha)
    assert 3.9 * n <= need <= 4.1 * n


def test_length_detectable_is_the_standard_error_times_the_z_sum():
    assert power.detectable_mean(2.0, 0.05) == pytest.approx(2.0 * (1.959964 + 0.841621), rel=1e-5)
    # half the effect needs four times the games (the standard error shrinks with the square root of n)
    assert power.games_to_see_mean(power.detectable_mean(2.0, 0.05) / 2, 2.0, 150, 0.05) == 600


def test_a_round_smaller_step_is_below_what_the_run_could_see():
    assert power.smaller_step(0.07, F.SHARE_STEPS) == 0.05
    assert power.smaller_step(0.016, F.SHARE_STEPS) == 0.01
    assert power.smaller_step(0.001, F.SHARE_STEPS) is None
    assert F.would_see(0.07, lambda e: 1234) == "; 1,234 games would see 5 points"
    assert F.would_see(0.016, lambda e: 9) == "; 9 games would see 1 point"


def rows(wins, players=4, first=lambda i: i % 4):
    """Rows whose seat ``winner(i)`` wins game i; the first seat rotates (so first player and seat 0 differ)."""
    return [{"winners": [w], "winner_roles": [f"seat {w}"], "roles": [f"seat {s}" for s in range(players)],
             "truncated": False, "first_seat": first(i), "seed": i, "players": players} for i, w in enumerate(wins)]


def test_an_even_run_states_what_it_could_not_see():
    even = rows([i % 4 for i in range(400)], first=lambda i: (i // 4) % 4)  # seats and first player exactly fair
    line = F.family_line(family(even, 4), "seat")
    claims = family(even, 4)
    assert not any(c["claimed"] for c in claims)
    seat_edge = max(c["detectable"] for c in claims if not c.get("first_player"))
    assert (f"no seat wins more or less than a fair 25.0% beyond chance: not shown, these games cannot see an edge smaller than "
            f"{100 * seat_edge:.1f} points either way") in line
    assert "cannot see a first-player edge smaller than" in line and "games would see 5 points" in line
    assert "**favoured**" not in line and "**disadvantaged**" not in line


def test_a_first_player_edge_is_claimed_once_and_the_other_claims_state_their_size():
    # the first player wins 45% of 800 games: claimed; the seats stay even because the first seat rotates
    wins = [(i % 4) if (i % 20) < 9 else ((i % 4) + 1 + (i % 3)) % 4 for i in range(800)]
    claims = family(rows(wins), 4)
    line = F.family_line(claims, "seat")
    first = [c for c in claims if c.get("first_player")][0]
    assert first["claimed"] and first["lo"] > 0.25
    assert "the first player (the seat that acted first) wins" in line and "**favoured**" in line
    quiet = [c for c in claims if not c["claimed"]]
    if quiet:
        assert "cannot see an edge smaller than" in line


def test_a_runs_figures_carry_the_family_line_instead_of_an_uncorrected_first_player_interval():
    even = [{**r, "agents": ["random"], "variant": "default", "turns": 10, "decisions": 20, "choice_points": 10,
             "mean_branching": 3.0, "lead_changes": 1, "closeness": 0.5, "metrics": {}}
            for r in rows([i % 4 for i in range(400)], first=lambda i: (i // 4) % 4)]
    block = "\n".join(F.run_figures("even", even))
    assert "- balance (5 claims, one Holm family" in block and "cannot see an edge smaller than" in block
    assert "400 games, agents random" in block and "first to act wins" not in block


FINDINGS = sorted((ROOT / "docs" / "findings").glob("*.md"))


@pytest.mark.parametrize("path", FINDINGS, ids=[p.name for p in FINDINGS])
def test_every_not_shown_in_the_findings_states_its_detectable_size(path):
    """A table row, list item or paragraph that says "not shown" (or no significant effect) also says what the
    run could have seen: 'could see', 'could only see', 'could have seen' or 'detect'."""
    text = path.read_text()
    chunks = [c for block in re.split(r"\n\s*\n", text) for c in (block.split("\n") if block.lstrip().startswith("|") else [block])]
    missing = [c[:120] for c in chunks
               if re.search(r"not shown|no significant effect|not significant", c, re.I)
               and not re.search(r"could (only )?(have )?(see|seen)|detect", c, re.I)]
    assert not missing, missing
