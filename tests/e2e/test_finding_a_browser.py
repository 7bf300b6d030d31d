"""Finding a browser for the end-to-end tests (``tests/e2e/conftest.py``): CHROMIUM, then PATH,
then Playwright's own download; without one, an install is tried once, then a one-line skip.

These tests need no browser: they run a fresh copy of the conftest against fake executables
(a fresh copy, so that the session's own look-up, kept in the conftest, is left alone)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

CONFTEST = Path(__file__).resolve().with_name("conftest.py")


def e2e_conftest():
    spec = importlib.util.spec_from_file_location("e2e_conftest_under_test", CONFTEST)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def fake_browser(folder: Path, name: str) -> str:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text("#!/bin/sh\n")
    path.chmod(0o755)
    return str(path)


def test_the_browser_is_found_in_order(tmp_path, monkeypatch):
    e2e = e2e_conftest()
    bin_dir = tmp_path / "bin"
    on_path = fake_browser(bin_dir, "chromium-browser")
    monkeypatch.setenv("PATH", str(bin_dir))
    monkeypatch.setattr(e2e, "playwright_chromium", lambda: None)
    from_env = fake_browser(tmp_path / "env", "chrome")
    monkeypatch.setenv("CHROMIUM", from_env)
    assert e2e.find_chromium() == from_env
    monkeypatch.delenv("CHROMIUM")
    assert e2e.find_chromium() == on_path
    shell = fake_browser(bin_dir, "chromium-headless-shell")  # the lighter one first
    fake_browser(bin_dir, "chromium")
    assert e2e.find_chromium() == shell
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    playwright_own = fake_browser(tmp_path / "ms-playwright", "chrome")
    monkeypatch.setattr(e2e, "playwright_chromium", lambda: playwright_own)
    assert e2e.find_chromium() == playwright_own


def test_without_a_browser_install_is_tried_once_then_a_clear_skip(tmp_path, monkeypatch):
    e2e = e2e_conftest()
    monkeypatch.delenv("CHROMIUM", raising=False)
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    monkeypatch.setattr(e2e, "playwright_chromium", lambda: None)
    tries = []
    monkeypatch.setattr(e2e, "install_playwright_chromium", lambda: tries.append(1) or False)
    path, reason = e2e.chromium_or_reason()
    assert path is None and tries == [1]
    assert "apt-get install chromium" in reason and "CHROMIUM" in reason
    assert "\n" not in reason
    assert e2e.chromium_or_reason() == (None, reason) and tries == [1]
    monkeypatch.setenv("CHROMIUM", str(tmp_path / "missing"))
    path, reason = e2e.chromium_or_reason(fresh=True)
    assert path is None and "CHROMIUM" in reason
