"""The production set-up, minus Docker: Debian's nginx with ``deploy/pyramid.conf.template``
in front of two app processes (``python -m app.serve``, ENVIRONMENT=production, the settings
``deploy/compose.yaml`` gives them), over TLS with a throwaway certificate. A game is played
through it by the API and by the pages' forms, slow clients are cut off, and the game goes on
when one app process stops.

The store is PostgreSQL when TEST_DATABASE_URL is set (as in CI and in compose.yaml), else one
SQLite file both processes share."""

from __future__ import annotations

import os
import re
import shutil
import socket
import ssl
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from app.prestart import migrate
from tests.conftest import POSTGRES_URL, _reset_postgres

PROJECT_DIR = Path(__file__).resolve().parents[2]
TEMPLATE = PROJECT_DIR / "deploy" / "pyramid.conf.template"
NGINX = shutil.which("nginx") or "/usr/sbin/nginx"
SECRET = "kT3vQ9-wZ2rX7pL0mN8bY4cD6fH1jS5a-proxy-test"
CLIENT_TIMEOUT = 2


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def render(template: str, values: dict[str, str]) -> str:
    """Fill in ``${NAME}`` as the nginx image's envsubst does; every one must be given."""
    missing = sorted(set(re.findall(r"\$\{([A-Z_]+)\}", template)) - set(values))
    assert not missing, f"the template needs {missing}"
    return re.sub(r"\$\{([A-Z_]+)\}", lambda m: values[m.group(1)], template)


def wait_until(check, what: str, seconds: float = 20) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            if check():
                return
        except (httpx.HTTPError, OSError):
            pass
        time.sleep(0.1)
    raise RuntimeError(f"{what} did not come up within {seconds:g} s")


class Site:
    def __init__(self, base: str, http_base: str, apps: list[subprocess.Popen],
                 app_urls: list[str], cert: Path) -> None:
        self.base, self.http_base, self.apps, self.app_urls, self.cert = (
            base, http_base, apps, app_urls, cert)

    def client(self) -> httpx.Client:
        return httpx.Client(base_url=self.base, verify=False, timeout=10)


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Iterator[Site]:
    if not os.path.exists(NGINX):
        pytest.fail("nginx is not installed: `apt-get install nginx` (.ci/run does)")
    folder = tmp_path_factory.mktemp("proxy")
    cert, key = folder / "cert.pem", folder / "key.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
                    "-subj", "/CN=localhost", "-addext", "subjectAltName=DNS:localhost",
                    "-keyout", str(key), "-out", str(cert)], check=True, capture_output=True)
    if POSTGRES_URL:
        _reset_postgres(POSTGRES_URL)
        database_url = POSTGRES_URL
    else:
        database_url = f"sqlite:///{folder / 'pyramid.db'}"
        migrate(database_url)
    https_port, http_port = free_port(), free_port()
    public = f"https://localhost:{https_port}"
    app_ports = [free_port(), free_port()]
    env = {**{k: v for k, v in os.environ.items() if k in ("PATH", "HOME", "LANG")},
           "ENVIRONMENT": "production", "SECRET_KEY": SECRET, "DATABASE_URL": database_url,
           "BASE_URL": public, "ALLOWED_HOSTS": "localhost", "TRUSTED_PROXIES": "127.0.0.1",
           "MIGRATE_ON_START": "false", "HOST": "127.0.0.1"}
    apps = [subprocess.Popen([sys.executable, "-m", "app.serve"], cwd=PROJECT_DIR,
                             env={**env, "PORT": str(port)}, stdout=subprocess.DEVNULL,
                             stderr=subprocess.DEVNULL)
            for port in app_ports]
    app_urls = [f"http://127.0.0.1:{port}" for port in app_ports]
    config = render(TEMPLATE.read_text(), {
        "PYRAMID_SERVERS": " ".join(f"server 127.0.0.1:{port};" for port in app_ports),
        "PUBLIC_NAME": "localhost", "PUBLIC_ORIGIN": public,
        "HTTPS_PORT": str(https_port), "HTTP_PORT": str(http_port),
        "TLS_CERTIFICATE": str(cert), "TLS_CERTIFICATE_KEY": str(key),
        "CLIENT_TIMEOUT": f"{CLIENT_TIMEOUT}s"})
    (folder / "pyramid.conf").write_text(config)
    temp = {name: folder / name for name in ("body", "proxy", "fastcgi", "uwsgi", "scgi")}
    for path in temp.values():
        path.mkdir()
    # The main file of Debian's nginx, cut to what a test needs: our template is all of the
    # site's configuration.
    (folder / "nginx.conf").write_text(
        ("user root;\n" if os.geteuid() == 0 else "")
        + f"daemon off;\npid {folder / 'nginx.pid'};\nerror_log {folder / 'error.log'};\n"
        "events { worker_connections 1024; }\n"
        "http {\n  access_log off;\n"
        + "".join(f"  {name}_temp_path {path};\n" for name, path in (
            ("client_body", temp["body"]), ("proxy", temp["proxy"]),
            ("fastcgi", temp["fastcgi"]), ("uwsgi", temp["uwsgi"]), ("scgi", temp["scgi"])))
        + f"  include {folder / 'pyramid.conf'};\n}}\n")
    nginx = subprocess.Popen([NGINX, "-p", str(folder), "-c", str(folder / "nginx.conf")],
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        for url in app_urls:
            wait_until(lambda url=url: httpx.get(url + "/healthz").status_code == 200,
                       "an app process")
        wait_until(lambda: httpx.get(public + "/healthz", verify=False).status_code == 200,
                   f"nginx ({(folder / 'error.log').read_text() if nginx.poll() else ''})")
        yield Site(public, f"http://localhost:{http_port}", apps, app_urls, cert)
    finally:
        nginx.terminate()
        for app in apps:
            app.terminate()
        nginx.wait(timeout=10)
        for app in apps:
            app.wait(timeout=10)


def test_plain_http_only_redirects_to_https(site):
    answer = httpx.get(site.http_base + "/odds", follow_redirects=False)
    assert answer.status_code == 308 and answer.headers["location"] == site.base + "/odds"


def test_a_game_through_the_api_over_tls(site):
    with site.client() as client:
        created = client.post("/api/games", json={"deal": 617, "goal": "wholedeck"})
        assert created.status_code == 201
        assert "secure" in created.headers["set-cookie"].lower()
        game = created.json()
        version = created.headers["etag"]
        for move in ({"op": "remove", "cards": ["KD"]}, {"op": "draw"}):
            answer = client.post(f"/api/games/{game['id']}/moves", json=move,
                                 headers={"If-Match": version})
            assert answer.status_code == 200, answer.text
            version = answer.headers["etag"]
        state = client.get(f"/api/games/{game['id']}").json()
        assert state["moves"] == [{"op": "remove", "cards": ["KD"]}, {"op": "draw"}]
        # Share links carry the public origin, from BASE_URL behind the proxy.
        page = client.get(f"/games/{game['id']}").text
        assert f'href="{site.base}/deal/617?goal=wholedeck' in page
        assert client.get("/healthz").headers.get("strict-transport-security")


def test_the_pages_forms_work_through_the_proxy(site):
    """A browser's post: Origin is the public https origin, which the app can only accept
    because BASE_URL says so (it speaks plain HTTP to the proxy)."""
    with site.client() as client:
        home = client.get("/")
        token = re.search(r'name="csrf-token" content="([0-9a-f]+)"', home.text).group(1)
        started = client.post("/games", data={"deal": "5", "goal": "standard", "passes": "3",
                                              "csrf_token": token},
                              headers={"Origin": site.base, "Sec-Fetch-Site": "same-origin"},
                              follow_redirects=False)
        assert started.status_code == 303, started.text
        board = client.get(started.headers["location"])
        assert board.status_code == 200 and 'data-status="playing"' in board.text
        forged = client.post("/games", data={"deal": "6", "csrf_token": token},
                             headers={"Origin": "https://evil.example"})
        assert forged.status_code == 403


def tls_socket(site: Site) -> ssl.SSLSocket:
    context = ssl.create_default_context()
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE
    host, port = "localhost", int(site.base.rsplit(":", 1)[1])
    return context.wrap_socket(socket.create_connection((host, port)), server_hostname=host)


def closes_within(sock: socket.socket, seconds: float, trickle: bytes = b"") -> float:
    """Send ``trickle`` now and then until the other side closes; how long that took."""
    began = time.monotonic()
    sock.settimeout(0.25)
    while time.monotonic() - began < seconds:
        try:
            if trickle:
                sock.sendall(trickle)
            if not sock.recv(4096):
                return time.monotonic() - began
        except (TimeoutError, ssl.SSLWantReadError):
            continue
        except (OSError, ssl.SSLError):
            return time.monotonic() - began
    raise AssertionError(f"the connection was still open after {seconds} s")


def test_stalled_clients_are_cut_off_while_players_play(site):
    """nginx's timeouts run between two reads: a head or a body that stalls for
    CLIENT_TIMEOUT is cut off. One that trickles on is held by nginx alone (it reads a whole
    body before passing it on), so it costs the app processes nothing."""
    sockets = [tls_socket(site) for _ in range(40)]
    try:
        for sock in sockets[:15]:
            sock.sendall(b"GET / HTTP/1.1\r\nHost: local")  # a head that never ends
        for sock in sockets[15:]:
            sock.sendall(b"POST /api/games HTTP/1.1\r\nHost: localhost\r\nContent-Type: "
                         b"application/json\r\nContent-Length: 500\r\n\r\n{")  # a body
        began = time.monotonic()
        with site.client() as client:  # meanwhile, players are answered at once
            for _ in range(5):
                made = client.post("/api/games", json={"deal": 9})
                assert made.status_code == 201
            # Trickling bodies never reach an app process: it answers as if they were not.
            for url in site.app_urls:
                assert httpx.get(url + "/healthz", timeout=2).status_code == 200
        assert time.monotonic() - began < CLIENT_TIMEOUT
        for sock in (sockets[0], sockets[14], sockets[20], sockets[39]):
            assert closes_within(sock, CLIENT_TIMEOUT + 4) <= CLIENT_TIMEOUT + 3
        trickling = tls_socket(site)
        trickling.sendall(b"POST /api/games HTTP/1.1\r\nHost: localhost\r\n"
                          b"Content-Type: application/json\r\nContent-Length: 5000\r\n\r\n")
        with pytest.raises(AssertionError, match="still open"):
            closes_within(trickling, CLIENT_TIMEOUT + 1, trickle=b" ")
        trickling.close()
    finally:
        for sock in sockets:
            sock.close()


def test_the_game_goes_on_when_one_app_process_stops(site):
    with site.client() as client:
        game = client.post("/api/games", json={"deal": 11}).json()
        site.apps[0].terminate()
        site.apps[0].wait(timeout=10)
        for _ in range(4):  # whichever process nginx picks, the game is there
            read = client.get(f"/api/games/{game['id']}")
            assert read.status_code == 200 and read.json()["id"] == game["id"]
        moved = client.post(f"/api/games/{game['id']}/moves", json={"op": "draw"})
        assert moved.status_code == 200 and moved.json()["waste"]["count"] == 1
