"""Local and Ray backends give identical results; the report opens in a real Chromium."""

import shutil
from pathlib import Path

import pytest

from boardlab.playtest import execute, plan_run
from boardlab.playtest.store import RunDir

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"


def test_local_and_ray_backends_give_identical_results(tmp_path):
    pytest.importorskip("ray")
    cfg = plan_run("dungeons-jewel", games=8, agents=["heuristic"], seed=2, options={"max_turns": 60})
    execute(cfg, tmp_path / "local", backend="local", jobs=2, chunk_size=3)
    execute(cfg, tmp_path / "ray", backend="ray", jobs=2, chunk_size=3)
    local = RunDir(tmp_path / "local").read_results()
    ray_rows = RunDir(tmp_path / "ray").read_results()
    assert local == ray_rows
    assert len(local) == 8


@pytest.mark.browser
def test_report_renders_in_chromium(tmp_path):
    chromium = shutil.which("chromium")
    if chromium is None:
        pytest.fail("Debian's chromium is required for browser tests (scripts/test.sh installs it)")
    from playwright.sync_api import sync_playwright

    cfg = plan_run("dungeons-jewel", games=12, agents=["heuristic"], seed=1, options={"max_turns": 120})
    execute(cfg, tmp_path / "run", jobs=1)
    report = tmp_path / "run" / "report.html"
    ARTIFACTS.mkdir(exist_ok=True)
    with sync_playwright() as p:
        browser = p.chromium.launch(
            executable_path=chromium,
            headless=True,
            args=["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
        )
        try:
            page = browser.new_page()
            requests = []
            page.on("request", lambda r: requests.append(r.url))
            page.goto(report.as_uri())
            assert "Playtest report" in page.title() or page.locator("h1").inner_text().startswith("Playtest report")
            assert page.locator("svg").count() >= 3
            assert "dungeons-jewel" in page.locator("h1").inner_text()
            # the summary is rendered (issue 19): a Verdict heading and real tables, not raw Markdown
            assert page.locator("#summary h2").first.inner_text() == "Verdict"
            assert page.locator("#summary table").count() >= 1 and "| seat |" not in page.locator("#summary").inner_text()
            page.screenshot(path=str(ARTIFACTS / "playtest-report.png"), full_page=True)
            assert all(u.startswith("file:") or u.startswith("data:") for u in requests)  # nothing from the internet
        finally:
            browser.close()
