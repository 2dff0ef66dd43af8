"""``boardlab compare`` refuses runs of different games or player counts: exit 2, one line."""


def test_compare_refuses_runs_of_different_games(run):
    for game, out in (("armies", "a"), ("blackfire", "b")):
        r = run("playtest", game, "--games", "2", "--agents", "random", "--jobs", "1", "--quiet", "--out", out)
        assert r.exit_code == 0, r.output
    r = run("compare", "a", "b")
    assert r.exit_code == 2
    lines = [line for line in r.output.splitlines() if line.strip()]
    assert len(lines) == 1 and "different games" in lines[0], r.output
