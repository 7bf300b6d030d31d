"""What deploy/compose.yaml, the Dockerfile and their neighbours promise, read from the files
(no container engine needed: this runs in ``make test``; ``make test-deploy`` runs them)."""

from __future__ import annotations

import re
import subprocess

import yaml

from tests.deploy.containers import PROJECT_DIR

DEPLOY = PROJECT_DIR / "deploy"


def compose() -> dict:
    return yaml.safe_load((DEPLOY / "compose.yaml").read_text())


def test_the_services_are_the_contract():
    assert set(compose()["services"]) == {"db", "migrate", "app1", "app2", "proxy"}


def condition(service: dict, on: str) -> str:
    return service["depends_on"][on]["condition"]


def test_each_service_starts_once_the_one_before_is_ready():
    services = compose()["services"]
    assert condition(services["migrate"], "db") == "service_healthy"
    for app in ("app1", "app2"):
        assert condition(services[app], "migrate") == "service_completed_successfully"
        assert services[app]["healthcheck"]["test"]  # what the proxy waits for
        assert "/healthz" in " ".join(services[app]["healthcheck"]["test"])
        assert services[app]["restart"] == "unless-stopped"
        assert services[app]["environment"]["MIGRATE_ON_START"] == "false"
    assert condition(services["proxy"], "app1") == "service_healthy"
    assert condition(services["proxy"], "app2") == "service_healthy"
    assert services["db"]["healthcheck"]["test"][1] == "pg_isready"


def test_the_proxy_knows_each_app_by_its_fixed_address():
    """No name to resolve: an upstream block's names are resolved once, at start-up, and a
    stopped container's name is gone (nginx would not start). Fixed addresses on the stack's
    own subnet instead, the same ones in the apps' network and in the proxy's upstream."""
    import ipaddress

    spec = compose()
    services = spec["services"]
    (subnet,) = [c["subnet"] for c in spec["networks"]["default"]["ipam"]["config"]]
    network = ipaddress.ip_network(subnet.split(":-")[1].rstrip("}"))
    proxy = services["proxy"]["environment"]
    for app, variable in (("app1", "PYRAMID_APP1"), ("app2", "PYRAMID_APP2")):
        address = services[app]["networks"]["default"]["ipv4_address"]
        assert proxy[variable] == f"{address}:8000"
        assert ipaddress.ip_address(address.split(":-")[1].rstrip("}")) in network
    template = (DEPLOY / "pyramid.conf.template").read_text()
    needed = set(re.findall(r"\$\{([A-Z0-9_]+)\}", template))
    given = set(services["proxy"]["environment"])
    assert needed <= given, needed - given
    assert "resolver" not in re.findall(r"(?m)^\s*(\w+)", template)


def test_a_player_stays_on_one_app_and_a_hung_app_is_left_out():
    """The upstream hashes the player cookie (its name the apps' own), and leaves an app out
    after one failure; the ordinary read timeout is short, the solver's and the transfers'
    long (test_budget.py checks which routes those are)."""
    from app.settings import Settings

    services = compose()["services"]
    assert services["proxy"]["environment"]["COOKIE_NAME"] == Settings.model_fields[
        "cookie_name"].default
    template = (DEPLOY / "pyramid.conf.template").read_text()
    upstream = template[template.index("upstream pyramid_apps {"):]
    upstream = upstream[:upstream.index("\n}")]
    assert "hash $pyramid_affinity consistent;" in upstream
    assert re.search(r"map \$cookie_\$\{COOKIE_NAME\} \$pyramid_affinity", template)
    assert upstream.count("max_fails=1 fail_timeout=10s") == 2
    server = template[template.index("listen ${HTTPS_PORT}"):]
    assert "proxy_read_timeout 5s;" in server[:server.index("\n    location ")]


def test_the_dockerfiles_version_is_the_packages():
    dockerfile = (PROJECT_DIR / "Dockerfile").read_text()
    pyproject = (PROJECT_DIR / "pyproject.toml").read_text()
    version = re.search(r'(?m)^version = "([^"]+)"', pyproject).group(1)
    assert f'ARG VERSION="{version}"' in dockerfile


def test_the_proxy_and_the_apps_read_the_body_limits_from_the_same_variables():
    """One fact, one variable: the proxy's client_max_body_size is what the apps take
    (MAX_BODY_BYTES, and IMPORT_MAX_MB for /stats/import), filled in from the variables the
    apps read, with the apps' own defaults. (A proxy limit under the app's refused imports of
    more than about 110 games with nginx's bare 413.)"""
    from app.settings import Settings

    services = compose()["services"]
    template = (DEPLOY / "pyramid.conf.template").read_text()
    limits = re.findall(r"(?m)^\s*client_max_body_size\s+(\S+);", template)
    assert limits == ["${MAX_BODY_BYTES}", "${IMPORT_MAX_MB}m"], limits
    imports = template[template.index("location = /stats/import {"):]
    assert imports.index("client_max_body_size ${IMPORT_MAX_MB}m;") < imports.index("}")
    for name in ("MAX_BODY_BYTES", "IMPORT_MAX_MB"):
        default = Settings.model_fields[name.lower()].default
        given = {services[service]["environment"].get(name)
                 for service in ("app1", "app2", "proxy")}
        assert given == {f"${{{name}:-{default}}}"}, (name, given)


def test_a_location_that_sets_its_own_proxy_headers_sets_the_servers_too():
    """nginx's proxy_set_header in a location replaces every one of the server's: a location
    that needs one more must say the others again, or the app would lose the client's address,
    the scheme, the request id."""
    template = (DEPLOY / "pyramid.conf.template").read_text()
    server = template[template.index("listen ${HTTPS_PORT}"):]
    first_location = server.index("\n    location ")

    def headers(block: str) -> set[str]:
        return set(re.findall(r"(?m)^\s*proxy_set_header\s+(\S+)", block))

    everywhere = headers(server[:first_location])
    assert {"X-Forwarded-For", "X-Forwarded-Proto", "X-Request-ID", "Host"} <= everywhere
    locations = re.findall(r"(?ms)^    location [^{]*\{.*?^    \}", server)
    own = [block for block in locations if headers(block)]
    assert own, "the import's refusal page sets headers of its own"
    for block in own:
        assert everywhere <= headers(block), (block.splitlines()[0], everywhere - headers(block))


def test_no_service_makes_an_anonymous_volume():
    spec = compose()
    assert set(spec["volumes"]) == {"pyramid-db"}
    for name, service in spec["services"].items():
        for mount in service.get("volumes", []):
            source = mount.split(":", 1)[0]
            assert ":" in mount and source, f"{name}: {mount}"
            assert source in spec["volumes"] or source.startswith(("./", "${")), mount
    assert not re.search(r"(?m)^VOLUME", (PROJECT_DIR / "Dockerfile").read_text())


def test_every_image_can_be_a_local_one():
    spec = compose()["services"]
    assert spec["db"]["image"] == "${POSTGRES_IMAGE:-postgres:15}"
    assert spec["proxy"]["image"] == "${NGINX_IMAGE:-nginx:1.27}"
    assert spec["migrate"]["build"]["args"]["PYTHON_IMAGE"] == "${PYTHON_IMAGE:-python:3.11-slim}"
    dockerfile = (PROJECT_DIR / "Dockerfile").read_text()
    assert dockerfile.index("ARG PYTHON_IMAGE=python:3.11-slim") < dockerfile.index("FROM")
    assert re.findall(r"(?m)^FROM (\S+)", dockerfile) == ["${PYTHON_IMAGE}", "${PYTHON_IMAGE}"]


def test_the_dockerfiles_example_sets_what_production_needs():
    example = (PROJECT_DIR / "Dockerfile").read_text().split("\n\n", 1)[0]
    run = example[example.index("docker run"):]
    assert "SECRET_KEY=" in run and "BASE_URL=" in run


def test_env_example_names_every_setting_compose_requires():
    required = set(re.findall(r"\$\{([A-Z_]+):\?", (DEPLOY / "compose.yaml").read_text()))
    example = (DEPLOY / "env.example").read_text()
    assert required == {"POSTGRES_PASSWORD", "SECRET_KEY", "PUBLIC_NAME"}
    assert all(re.search(rf"(?m)^{name}=", example) for name in required | {"METRICS_TOKEN"})


def test_the_secrets_stay_out_of_git_and_the_image():
    for path in ("deploy/.env", "deploy/certs/privkey.pem"):
        ignored = subprocess.run(["git", "check-ignore", "-q", path], cwd=PROJECT_DIR)
        assert ignored.returncode == 0, f"git would commit {path}"
    dockerignore = (PROJECT_DIR / ".dockerignore").read_text().split()
    assert "deploy/.env" in dockerignore and "deploy/certs" in dockerignore


def test_the_proxy_keeps_the_request_ids_the_apps_keep():
    """A trusted hop's X-Request-ID goes on only in the form the apps take as it is."""
    from app.web.core.observe import REQUEST_ID

    template = (DEPLOY / "pyramid.conf.template").read_text()
    kept = re.search(r'"~\^1 \(\?<kept>(.*?)\)\$"', template).group(1)
    assert kept == REQUEST_ID.pattern.decode()
