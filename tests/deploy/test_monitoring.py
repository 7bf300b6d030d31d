"""deploy/monitoring/: the Prometheus alert rules parse (``promtool check rules`` where Debian's
prometheus package is installed, as .ci/run installs it; else the same file read as YAML and
held to the rule format), and every series the rules and the Grafana dashboard name exists in
an app's /metrics. A renamed metric fails here, not silently on an operator's dashboard."""

from __future__ import annotations

import json
import re
import shutil
import subprocess

import pytest
import yaml
from fastapi.testclient import TestClient

from app.main import create_app
from tests.conftest import make_settings
from tests.deploy.containers import PROJECT_DIR

MONITORING = PROJECT_DIR / "deploy" / "monitoring"
RULES = MONITORING / "alerts.yml"
DASHBOARD = MONITORING / "grafana-dashboard.json"
TOKEN = "monitoring-test-token-0123456789"
PROMQL_WORDS = frozenset({
    "sum", "min", "max", "avg", "count", "by", "without", "rate", "irate", "increase",
    "histogram_quantile", "topk", "bottomk", "absent", "min_over_time", "max_over_time",
    "avg_over_time", "label_values", "and", "or", "unless", "on", "ignoring", "le", "bool",
    "offset"})
FROM_PROMETHEUS = frozenset({"up"})
"""Series Prometheus makes itself for each scrape target."""
SUFFIXES = {"counter": ("_total", "_created"), "histogram": ("_bucket", "_count", "_sum",
                                                             "_created"),
            "gauge": ("",), "summary": ("", "_count", "_sum", "_created")}


def rules() -> list[dict]:
    return [rule for group in yaml.safe_load(RULES.read_text())["groups"]
            for rule in group["rules"]]


def dashboard_queries() -> list[str]:
    dashboard = json.loads(DASHBOARD.read_text())
    queries = [target["expr"] for panel in dashboard["panels"]
               for target in panel.get("targets", [])]
    queries += [variable["definition"] for variable in dashboard["templating"]["list"]]
    return queries


def series_named(query: str) -> set[str]:
    """The metric names in a PromQL expression: its identifiers, less functions, keywords,
    label names (inside braces, before by/without lists) and Grafana's $variables."""
    query = re.sub(r'"(?:[^"\\]|\\.)*"', '""', query)  # strings: label values, regexes
    query = re.sub(r"\{[^}]*\}", "{}", query)  # matchers: label names
    query = re.sub(r"\b(by|without|on|ignoring)\s*\([^)]*\)", "", query)  # label lists
    query = re.sub(r"\[[^\]]*\]", "", query)  # ranges
    query = re.sub(r"\$\w+", "", query)  # Grafana's variables
    query = re.sub(r"(label_values\([^,()]*),\s*\w+\)", r"\1)", query)  # its label
    names = set(re.findall(r"(?<![\w.])([a-zA-Z_:][a-zA-Z0-9_:]*)", query))
    return names - PROMQL_WORDS


def exposed() -> set[str]:
    """Every series name an app's /metrics can carry: each family's samples by its type,
    those with no sample yet (a labelled one nothing counted) included."""
    app = create_app(make_settings("sqlite:///:memory:", metrics_token=TOKEN))
    with TestClient(app) as client:
        page = client.get("/metrics", headers={"Authorization": f"Bearer {TOKEN}"}).text
    names = set()
    for name, kind in re.findall(r"(?m)^# TYPE (\S+) (\S+)$", page):
        base = name.removesuffix("_total") if kind == "counter" else name
        names |= {base + suffix for suffix in SUFFIXES.get(kind, ("",))}
    names |= set(re.findall(r"(?m)^([a-zA-Z_:][a-zA-Z0-9_:]*)[{ ]", page))
    return names


def test_the_alert_rules_parse():
    promtool = shutil.which("promtool")
    if promtool:
        done = subprocess.run([promtool, "check", "rules", str(RULES)], capture_output=True,
                              text=True, timeout=60)
        assert done.returncode == 0, done.stdout + done.stderr
    found = rules()
    for rule in found:
        assert set(rule) <= {"alert", "expr", "for", "labels", "annotations"}, rule
        assert re.fullmatch(r"Pyramid[A-Z]\w+", rule["alert"]) and rule["expr"].strip()
        assert rule["labels"]["severity"] in {"page", "ticket"}
        assert rule["annotations"]["summary"]
        assert expression_balanced(rule["expr"]), rule["alert"]
    assert len({rule["alert"] for rule in found}) == len(found)


def expression_balanced(expr: str) -> bool:
    """Brackets close in order (promtool's first complaint, where it is not installed)."""
    pairs, stack = {")": "(", "]": "[", "}": "{"}, []
    for char in re.sub(r'"(?:[^"\\]|\\.)*"', '""', expr):
        if char in "([{":
            stack.append(char)
        elif char in pairs and (not stack or stack.pop() != pairs[char]):
            return False
    return not stack


def test_the_alerts_cover_what_an_operator_is_woken_for():
    """The site down, server errors, slow answers, the solver's queue, the database's pool."""
    text = " ".join(rule["expr"] for rule in rules())
    for wanted in ("up{", 'status="5xx"', "histogram_quantile(0.99",
                   "pyramid_solver_queue_depth", "pyramid_db_pool_connections_in_use"):
        assert wanted in text, wanted


@pytest.mark.parametrize("where", ["rules", "dashboard"])
def test_every_series_named_exists_in_the_metrics(where):
    queries = ([rule["expr"] for rule in rules()] if where == "rules"
               else dashboard_queries())
    assert queries
    named = set().union(*(series_named(query) for query in queries))
    assert any(name.startswith("pyramid_") for name in named)
    missing = sorted(named - exposed() - FROM_PROMETHEUS)
    assert not missing, f"{where} name series /metrics does not have: {missing}"


def test_the_series_reader_finds_names_and_only_names():
    assert series_named('sum by (kind) (rate(pyramid_x_total{kind="a b", le="1"}[5m])) > 0'
                        ) == {"pyramid_x_total"}
    assert series_named('label_values(up{job="pyramid"}, instance)') == {"up"}
