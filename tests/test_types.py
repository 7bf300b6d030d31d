"""The type checks' own rules, which the checkers don't enforce (``make test`` runs mypy and tsc
themselves): every ``type: ignore`` names its error code and says why, and every page script
asks for the checker (``// @ts-check``) and is in tsconfig.json's reach."""

from __future__ import annotations

import json
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
IGNORE = re.compile(r"#\s*type:\s*ignore(?P<code>\[[a-z0-9-]+(?:,\s*[a-z0-9-]+)*\])?(?P<rest>.*)$")


def ignores() -> list[tuple[str, int, str, str]]:
    """(file, line number, the line, the line before) of every ``type: ignore`` in app/ and
    tests/."""
    found = []
    for path in sorted([*ROOT.glob("app/**/*.py"), *ROOT.glob("app/**/*.pyi"),
                        *ROOT.glob("tests/**/*.py")]):
        lines = path.read_text(encoding="utf-8").splitlines()
        for number, line in enumerate(lines, start=1):
            if "type: ignore" in line and path.name != "test_types.py":
                before = lines[number - 2] if number > 1 else ""
                found.append((str(path.relative_to(ROOT)), number, line, before))
    return found


def test_every_ignore_names_its_code_and_says_why():
    bad = []
    for name, number, line, before in ignores():
        match = IGNORE.search(line)
        said = match is not None and (re.match(r"\s+#\s*\S", match.group("rest"))
                                      or before.strip().startswith("#"))
        if match is None or not match.group("code") or not said:
            bad.append(f"{name}:{number}: {line.strip()}")
    assert not bad, "an ignore without its code, or without a reason:\n" + "\n".join(bad)


def test_the_check_tells_a_bare_ignore():
    assert IGNORE.search("x = f()  # type: ignore").group("code") is None
    match = IGNORE.search("x = f()  # type: ignore[arg-type]  # the wrong type on purpose")
    assert match.group("code") == "[arg-type]" and match.group("rest").strip()


def test_every_page_script_asks_for_the_type_checker():
    scripts = sorted((ROOT / "static" / "js").rglob("*.js"))
    assert len(scripts) > 30
    unchecked = [str(path.relative_to(ROOT)) for path in scripts
                 if not path.read_text(encoding="utf-8").startswith("// @ts-check\n")]
    assert unchecked == []
    config = json.loads((ROOT / "tsconfig.json").read_text(encoding="utf-8"))
    assert "static/js/**/*.js" in config["include"]
    assert config["compilerOptions"]["checkJs"] and config["compilerOptions"]["noEmit"]


def test_typescript_is_pinned_and_locked():
    package = json.loads((ROOT / "package.json").read_text(encoding="utf-8"))
    version = package["devDependencies"]["typescript"]
    assert re.fullmatch(r"\d+\.\d+\.\d+", version), version  # an exact version, no range
    lock = json.loads((ROOT / "package-lock.json").read_text(encoding="utf-8"))
    assert lock["packages"]["node_modules/typescript"]["version"] == version
