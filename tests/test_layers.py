"""Who may import whom: the layers of ``app/``, read from the source with ``ast``.

    app.engine    the rules, the solver, the analysis: pure, no I/O, nothing else of the app
    app.odds      the odds, winnable deals, the deal of the day: only the engine
    app.store     SQL lives only here: only the engine and the settings
    app.settings  nothing of the app
    app.web       routes and glue, imported by app.main alone; never the CLI
    app.cli       the ``pyramid`` command: the engine and the odds

Every import counts, at the top of a module or inside a function, absolute or relative; a name
imported from a package that is one of its modules (``from app import odds``, ``from . import
_solver``) counts as an import of that module. A broken rule names the importing module, the
line and the import.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import pytest

APP = Path(__file__).resolve().parents[1] / "app"
LONGEST_MODULE = 400
"""Lines: a module of the app longer than this is doing more than one thing. The solver's C
sources (``app/engine/*.c``, ``*.h``) are held to it too."""


@dataclass(frozen=True)
class Import:
    importer: str
    imported: str
    line: int
    source: str

    def __str__(self) -> str:
        return f"{self.importer} line {self.line}: {self.source}"


def module_name(path: Path) -> str:
    parts = path.relative_to(APP.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


@cache
def modules() -> dict[str, Path]:
    """Every Python module of the app by its dotted name."""
    return {module_name(path): path for path in sorted(APP.rglob("*.py"))}


@cache
def extension_modules() -> frozenset[str]:
    """Modules written in C (``app/engine/_solver.c`` is ``app.engine._solver``)."""
    return frozenset(module_name(path) for path in APP.rglob("*.c"))


def is_module(name: str) -> bool:
    return name in modules() or name in extension_modules()


def package_of(name: str) -> str:
    """The package a module's relative imports start from."""
    return name if modules()[name].name == "__init__.py" else name.rpartition(".")[0]


@cache
def imports_of(name: str) -> tuple[Import, ...]:
    """Every import in module ``name`` of the app, resolved to the module it names."""
    text = modules()[name].read_text()
    found: list[Import] = []
    for node in ast.walk(ast.parse(text)):
        source = ast.get_source_segment(text, node) if isinstance(
            node, ast.Import | ast.ImportFrom) else None
        if isinstance(node, ast.Import):
            for alias in node.names:
                found.append(Import(name, alias.name, node.lineno, source or ""))
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package_of(name).split(".")
                base = base[: len(base) - (node.level - 1)]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            for alias in node.names:
                submodule = f"{target}.{alias.name}"
                imported = submodule if is_module(submodule) else target
                found.append(Import(name, imported, node.lineno, source or ""))
    return tuple(sorted(set(found), key=lambda i: (i.line, i.imported)))


def within(name: str, *prefixes: str) -> bool:
    """Whether module ``name`` is one of ``prefixes`` or inside one of them."""
    return any(name == prefix or name.startswith(prefix + ".") for prefix in prefixes)


def of_the_app(name: str) -> bool:
    return within(name, "app")


def imports_from(*layers: str) -> Iterable[Import]:
    """Every import made by the modules of ``layers``."""
    for name in modules():
        if within(name, *layers):
            yield from imports_of(name)


def broken(imports: Iterable[Import]) -> str:
    return "\n".join(str(i) for i in imports)


# --- the sanity of the checker itself -----------------------------------------------------------
def test_the_checker_sees_every_kind_of_import():
    """Relative imports, a C module imported from its package, a module imported from its
    package by name, and imports inside functions: each is found and resolved."""
    assert {"app", "app.engine", "app.engine.game", "app.web.views.view",
            "app.cli"} <= set(modules())
    edges = {(i.importer, i.imported) for name in modules() for i in imports_of(name)}
    assert ("app.engine.game", "app.engine.cards") in edges          # from .cards import ...
    assert ("app.engine.solver", "app.engine._solver") in edges      # from . import _solver
    assert ("app.odds.published", "app.odds.interval") in edges      # from .interval import
    assert ("app.cli.runs", "app.odds.run") in edges                 # inside a function
    assert ("app.web.views.statsview", "app.web.views.view") in edges  # from .view import ...
    assert all(is_module(i.imported) for i in imports_from("app") if of_the_app(i.imported))


# --- the layers ---------------------------------------------------------------------------------
def test_the_engine_imports_nothing_of_the_app_outside_the_engine():
    bad = [i for i in imports_from("app.engine")
           if of_the_app(i.imported) and not within(i.imported, "app.engine")]
    assert not bad, broken(bad)


def test_the_odds_import_only_the_engine_and_themselves():
    bad = [i for i in imports_from("app.odds")
           if of_the_app(i.imported) and not within(i.imported, "app.engine", "app.odds")]
    assert not bad, broken(bad)


def test_the_store_imports_only_the_engine_the_settings_and_itself():
    bad = [i for i in imports_from("app.store") if of_the_app(i.imported)
           and not within(i.imported, "app.engine", "app.settings", "app.store")]
    assert not bad, broken(bad)


def test_the_settings_import_nothing_of_the_app():
    bad = [i for i in imports_from("app.settings") if of_the_app(i.imported)]
    assert not bad, broken(bad)


def test_the_cli_imports_only_the_engine_the_odds_and_itself():
    bad = [i for i in imports_from("app.cli") if of_the_app(i.imported)
           and not within(i.imported, "app.engine", "app.odds", "app.cli")]
    assert not bad, broken(bad)


def test_the_web_layer_never_imports_the_cli():
    bad = [i for i in imports_from("app.web") if within(i.imported, "app.cli")]
    assert not bad, broken(bad)


def test_nothing_imports_the_web_layer_but_app_main_and_the_web_layer_itself():
    bad = [i for name in modules() if not within(name, "app.main", "app.web")
           for i in imports_of(name) if within(i.imported, "app.web")]
    assert not bad, broken(bad)


def test_web_errors_imports_nothing_of_the_web_layer():
    """The error pages are what every other web module may raise into: importing one of them
    would close a circle (csrf -> errors -> templating -> csrf, once)."""
    bad = [i for i in imports_of("app.web.core.errors") if within(i.imported, "app.web")]
    assert not bad, broken(bad)


@pytest.mark.parametrize("view_model", ["app.web.views.view", "app.web.views.statsview",
                                        "app.web.views.oddsview"])
def test_the_view_models_never_touch_the_database(view_model):
    """view.py, statsview.py and oddsview.py turn games, figures and odds into template data;
    only the routes and the services (app/web/services) reach the store (nor do they use
    SQLAlchemy)."""
    bad = [i for i in imports_of(view_model)
           if within(i.imported, "app.store", "sqlalchemy")]
    assert not bad, broken(bad)


# --- the module graph ---------------------------------------------------------------------------
def import_graph() -> dict[str, dict[str, Import]]:
    """Module -> the modules of the app it imports (with the first import that does)."""
    graph: dict[str, dict[str, Import]] = {name: {} for name in modules()}
    for name in modules():
        for i in imports_of(name):
            if i.imported in modules() and i.imported != name:
                graph[name].setdefault(i.imported, i)
    return graph


def cycles(graph: dict[str, dict[str, Import]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan), each in order."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for other in graph[node]:
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in on_stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_the_modules_of_the_app_import_one_another_without_a_circle():
    graph = import_graph()
    circles = cycles(graph)
    described = [
        "circle of " + ", ".join(members) + ":\n" + "\n".join(
            f"  {graph[a][b]}" for a in members for b in members if b in graph[a])
        for members in circles
    ]
    assert not circles, "\n".join(described)


def test_the_cycle_finder_finds_a_circle():
    fake = Import("a", "b", 1, "import b")
    graph = {"a": {"b": fake}, "b": {"c": fake}, "c": {"a": fake}, "d": {"a": fake}}
    assert cycles(graph) == [["a", "b", "c"]]
    assert cycles({"a": {"b": fake}, "b": {}}) == []


# --- the size of a module -----------------------------------------------------------------------
def test_no_module_of_the_app_is_longer_than_400_lines():
    lengths = {name: len(path.read_text().splitlines()) for name, path in modules().items()}
    too_long = {name: lines for name, lines in lengths.items() if lines > LONGEST_MODULE}
    assert not too_long, ", ".join(f"{modules()[name].relative_to(APP.parent)}: {lines} lines"
                                   for name, lines in sorted(too_long.items()))


def test_no_c_source_of_the_app_is_longer_than_400_lines():
    sources = sorted([*APP.rglob("*.c"), *APP.rglob("*.h")])
    assert len(sources) >= 10  # the solver's core is found
    too_long = [f"{path.relative_to(APP.parent)}: {lines} lines" for path in sources
                if (lines := len(path.read_text().splitlines())) > LONGEST_MODULE]
    assert not too_long, ", ".join(too_long)


# --- the web layer's floors ---------------------------------------------------------------------
WEB_FOLDERS = ("core", "views", "services", "routes")
"""The web layer's folders from the ground up: each imports only from the folders below it
(and from itself); a route module imports no other route module."""
WEB_FLOORS = 7
"""Import floors of the web layer's files at most: a file stands one floor above the highest
web file it imports. A module that imports another of its own folder adds a floor; the routes
stand on top."""
LONGEST_ROUTE = 25
"""Lines of a route function at most, its signature and docstring included: a route parses,
calls and answers; anything longer is work for a service or a view."""


def web_folder(name: str) -> str | None:
    parts = name.split(".")
    return parts[2] if len(parts) > 3 and parts[:2] == ["app", "web"] else None


def test_each_web_folder_imports_only_the_folders_below_it():
    bad = [i for i in imports_from("app.web")
           if (mine := web_folder(i.importer)) and (theirs := web_folder(i.imported))
           and WEB_FOLDERS.index(theirs) > WEB_FOLDERS.index(mine)]
    assert not bad, broken(bad)


def test_no_route_module_imports_another():
    bad = [i for i in imports_from("app.web.routes")
           if within(i.imported, "app.web.routes") and i.imported != i.importer
           and i.imported != "app.web.routes"]
    assert not bad, broken(bad)


ANSWER_MAKERS = ("fastapi.responses", "starlette.responses", "app.web.views.templating")


def builds_a_response(i: Import) -> bool:
    """An import that hands a module a response to build: a response class of FastAPI or
    Starlette, their responses module, the templates, or the redirect helper."""
    if within(i.imported, *ANSWER_MAKERS):
        return True
    names = [alias.name for node in ast.walk(ast.parse(i.source))
             if isinstance(node, ast.ImportFrom) for alias in node.names]
    return (within(i.imported, "fastapi", "starlette") and any(
        name.endswith("Response") for name in names)) or (
        i.imported == "app.web.core.htmx" and "see_other" in names)


def test_no_service_builds_a_response():
    """The services return plain results (``core.notice.Answer``, records, dataclasses); the
    routes and ``views`` turn them into responses."""
    bad = [i for i in imports_from("app.web.services") if builds_a_response(i)]
    assert not bad, broken(bad)


def test_the_response_check_sees_a_response_import():
    assert builds_a_response(Import("a", "fastapi.responses", 1,
                                    "from fastapi.responses import Response"))
    assert builds_a_response(Import("a", "fastapi", 1, "from fastapi import Request, Response"))
    assert builds_a_response(Import("a", "app.web.core.htmx", 1,
                                    "from app.web.core.htmx import see_other, wants_json"))
    assert not builds_a_response(Import("a", "fastapi", 1, "from fastapi import Request"))


def web_floors() -> dict[str, int]:
    """Each file of the web layer with its floor (1: it imports no other web file)."""
    graph = import_graph()
    floors: dict[str, int] = {}

    def floor(name: str) -> int:
        if name not in floors:
            below = [other for other in graph[name]
                     if within(other, "app.web") and other != name]
            floors[name] = 1 + max((floor(other) for other in below), default=0)
        return floors[name]

    for name in modules():
        if within(name, "app.web"):
            floor(name)
    return floors


def test_the_web_layer_stands_on_at_most_7_floors():
    floors = web_floors()
    top = max(floors.values())

    def chain(name: str) -> list[str]:
        below = [m for m in import_graph()[name] if within(m, "app.web") and m != name]
        return [name, *chain(max(below, key=floors.__getitem__))] if below else [name]

    tallest = max(floors, key=floors.__getitem__)
    assert top <= WEB_FLOORS, f"{top} floors: " + " -> ".join(chain(tallest))


def route_functions() -> Iterable[tuple[str, ast.FunctionDef | ast.AsyncFunctionDef]]:
    """Every function of a route module that a router decorates (``@router.get(...)``,
    ``@api_router.post(...)``)."""
    for name, path in modules().items():
        if not within(name, "app.web.routes"):
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and any(
                    isinstance(d, ast.Call) and isinstance(d.func, ast.Attribute)
                    and isinstance(d.func.value, ast.Name) and d.func.value.id.endswith("router")
                    for d in node.decorator_list):
                yield name, node


def test_no_route_function_is_longer_than_25_lines():
    routes = list(route_functions())
    assert len(routes) >= 60  # the checker finds the routes
    long = {f"{name}.{node.name}": (node.end_lineno or 0) - node.lineno + 1
            for name, node in routes}
    assert not {k: v for k, v in long.items() if v > LONGEST_ROUTE}, sorted(
        ((v, k) for k, v in long.items() if v > LONGEST_ROUTE), reverse=True)
