"""The production set-up minus containers, for tests/deploy/test_proxy.py: Debian's nginx with
``deploy/pyramid.conf.template`` in front of two app processes (``python -m app.serve`` with
ENVIRONMENT=production and the settings ``deploy/compose.yaml`` gives them), over TLS with a
throwaway certificate.

As in compose, nginx knows the two app processes by address (127.0.0.1 and 127.0.0.2, the same
port), as compose gives app1 and app2 fixed addresses. Each app process logs JSON to a file of
its own; nginx's access log is a file too, so the tests can read what each side wrote."""

from __future__ import annotations

import json
import os
import re
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx

PROJECT_DIR = Path(__file__).resolve().parents[2]
TEMPLATE = PROJECT_DIR / "deploy" / "pyramid.conf.template"
NGINX = shutil.which("nginx") or "/usr/sbin/nginx"
SECRET = "kT3vQ9-wZ2rX7pL0mN8bY4cD6fH1jS5a-proxy-test"
METRICS_TOKEN = "proxy-test-metrics-token-0123456789"
CLIENT_TIMEOUT = 2
APP_ADDRESSES = ("127.0.0.1", "127.0.0.2")
LIMITS = {"MAX_BODY_BYTES": "65536", "IMPORT_MAX_MB": "8"}
"""The body limits, given to the proxy and to the apps alike, as compose.yaml gives them (the
app's defaults: tests/deploy/test_compose_file.py checks that they are)."""


def free_port(host: str = "127.0.0.1") -> int:
    with socket.socket() as sock:
        sock.bind((host, 0))
        return sock.getsockname()[1]


def render(template: str, values: dict[str, str]) -> str:
    """Fill in ``${NAME}`` as the nginx image's envsubst does; every one must be given."""
    missing = sorted(set(re.findall(r"\$\{([A-Z0-9_]+)\}", template)) - set(values))
    assert not missing, f"the template needs {missing}"
    return re.sub(r"\$\{([A-Z0-9_]+)\}", lambda m: values[m.group(1)], template)


def wait_until(check, what: str, seconds: float = 20) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            if check():
                return
        except (httpx.HTTPError, OSError):
            pass
        time.sleep(0.05)
    raise RuntimeError(f"{what} did not happen within {seconds:g} s")


def json_lines(path: Path) -> list[dict[str, Any]]:
    """The JSON objects of a log file, one a line (other lines, if any, are skipped)."""
    if not path.exists():
        return []
    found = []
    for line in path.read_text(errors="replace").splitlines():
        try:
            found.append(json.loads(line))
        except json.JSONDecodeError:
            continue
    return found


NO_HOP = "192.0.2.1/32"
"""TRUSTED_HOP for no proxy in front of nginx (compose's default)."""


class Proxy:
    """One nginx with the template, in a folder of its own, in front of the two app
    processes ``apps`` (address:port each)."""

    def __init__(self, folder: Path, cert: Path, key: Path, apps: tuple[str, str],
                 trusted_hop: str = NO_HOP) -> None:
        self.folder, self.cert, self.key, self.apps = folder, cert, key, apps
        self.trusted_hop = trusted_hop
        folder.mkdir(parents=True, exist_ok=True)
        self.https_port, self.http_port = free_port(), free_port()
        self.base = f"https://localhost:{self.https_port}"
        self.http_base = f"http://localhost:{self.http_port}"
        self.access_log = folder / "access.log"
        self.process: subprocess.Popen | None = None
        self.write_config()

    def write_config(self) -> None:
        config = render(TEMPLATE.read_text(), {
            "PYRAMID_APP1": self.apps[0], "PYRAMID_APP2": self.apps[1],
            "COOKIE_NAME": "pyramid_player", "TRUSTED_HOP": self.trusted_hop,
            "PUBLIC_NAME": "localhost", "PUBLIC_ORIGIN": self.base,
            "HTTPS_PORT": str(self.https_port), "HTTP_PORT": str(self.http_port),
            "TLS_CERTIFICATE": str(self.cert), "TLS_CERTIFICATE_KEY": str(self.key),
            "CLIENT_TIMEOUT": f"{CLIENT_TIMEOUT}s", "ACCESS_LOG": str(self.access_log),
            **LIMITS})
        (self.folder / "pyramid.conf").write_text(config)
        temp = {name: self.folder / name for name in ("body", "proxy", "fastcgi", "uwsgi",
                                                       "scgi")}
        for path in temp.values():
            path.mkdir(exist_ok=True)
        # The main file of Debian's nginx, cut to what a test needs: our template is all of
        # the site's configuration.
        (self.folder / "nginx.conf").write_text(
            ("user root;\n" if os.geteuid() == 0 else "")
            + f"daemon off;\npid {self.folder / 'nginx.pid'};\n"
            f"error_log {self.folder / 'error.log'};\n"
            "events { worker_connections 2048; }\n"
            "http {\n"
            + "".join(f"  {name}_temp_path {temp[short]};\n" for name, short in (
                ("client_body", "body"), ("proxy", "proxy"), ("fastcgi", "fastcgi"),
                ("uwsgi", "uwsgi"), ("scgi", "scgi")))
            + f"  include {self.folder / 'pyramid.conf'};\n}}\n")

    def start(self) -> None:
        """Start nginx and wait until it accepts TLS connections (whatever the apps do)."""
        self.process = subprocess.Popen(
            [NGINX, "-p", str(self.folder), "-c", str(self.folder / "nginx.conf")],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

        def accepting() -> bool:
            if self.process is not None and self.process.poll() is not None:
                raise RuntimeError("nginx stopped: " + self.error_log())
            # A page nginx answers itself (404), over TLS: no app hears of it, so a test's
            # app is not chosen (nor left out) by the probe.
            httpx.get(self.base + "/metrics", verify=False, timeout=2)
            return True

        wait_until(accepting, "nginx accepting connections")

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=10)
        self.process = None

    def restart(self) -> None:
        self.stop()
        self.start()

    def error_log(self) -> str:
        path = self.folder / "error.log"
        return path.read_text(errors="replace") if path.exists() else ""

    def access_lines(self) -> list[dict[str, Any]]:
        return json_lines(self.access_log)

    def upstream_of(self, request_id: str) -> str:
        """The app (address:port) that answered the request with this id, by nginx's log."""
        def logged() -> bool:
            return any(line["request_id"] == request_id for line in self.access_lines())

        wait_until(logged, "the proxy's access line")
        (line,) = [line for line in self.access_lines() if line["request_id"] == request_id]
        return line["upstream"].split(", ")[-1]

    def client(self, **kwargs: Any) -> httpx.Client:
        return httpx.Client(base_url=self.base, verify=False, timeout=10, **kwargs)


class Site:
    """Two app processes on one database, and a proxy."""

    def __init__(self, folder: Path, database_url: str) -> None:
        self.folder = folder
        self.cert, self.key = folder / "cert.pem", folder / "key.pem"
        subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days",
                        "1", "-subj", "/CN=localhost", "-addext",
                        "subjectAltName=DNS:localhost", "-keyout", str(self.key), "-out",
                        str(self.cert)], check=True, capture_output=True)
        self.app_port = free_port()
        self.proxy = Proxy(folder / "proxy", self.cert, self.key, self.addresses())
        self.env = {
            **{k: v for k, v in os.environ.items() if k in ("PATH", "HOME", "LANG")},
            "ENVIRONMENT": "production", "SECRET_KEY": SECRET, "DATABASE_URL": database_url,
            "BASE_URL": self.proxy.base, "ALLOWED_HOSTS": "localhost",
            # As in compose.yaml: any peer's X-Forwarded-For is believed, which is safe only
            # because the proxy, the edge, sets it to the peer it sees.
            "TRUSTED_PROXIES": "*", "MIGRATE_ON_START": "false",
            "LOG_FORMAT": "json", "METRICS_TOKEN": METRICS_TOKEN, "PORT": str(self.app_port),
            **LIMITS}
        self.apps: dict[str, subprocess.Popen] = {}

    # --- the app processes -------------------------------------------------------------------
    def addresses(self) -> tuple[str, str]:
        """The two app processes as the template's PYRAMID_APP1 and PYRAMID_APP2."""
        first, second = (f"{address}:{self.app_port}" for address in APP_ADDRESSES)
        return first, second

    def app_url(self, address: str) -> str:
        return f"http://{address}:{self.app_port}"

    def app_log(self, address: str) -> Path:
        return self.folder / f"app-{address}.log"

    def start_app(self, address: str) -> None:
        """Start the app process at ``address``; return once it answers."""
        with self.app_log(address).open("ab") as log:
            self.apps[address] = subprocess.Popen(
                [sys.executable, "-m", "app.serve"], cwd=PROJECT_DIR,
                env={**self.env, "HOST": address}, stdout=log, stderr=subprocess.STDOUT)
        wait_until(lambda: httpx.get(self.app_url(address) + "/healthz").status_code == 200,
                   f"the app process at {address} answering", seconds=60)

    def stop_app(self, address: str) -> None:
        """Stop an app process: its address refuses connections from then on."""
        process = self.apps.pop(address, None)
        if process is not None:
            process.terminate()
            process.wait(timeout=10)

    def both_apps(self) -> None:
        """Both app processes running (a test before may have stopped one)."""
        for address in APP_ADDRESSES:
            if address not in self.apps or self.apps[address].poll() is not None:
                self.start_app(address)

    def app_lines(self) -> list[dict[str, Any]]:
        return [line for address in APP_ADDRESSES for line in json_lines(self.app_log(address))]

    def close(self) -> None:
        self.proxy.stop()
        for address in list(self.apps):
            self.stop_app(address)
