#!/usr/bin/env python
"""`make serve`: the production stack on this machine, in the foreground; Ctrl-C stops all of it.

    nginx     HOST:PORT    /ws/ → daphne, /static/ → STATIC_ROOT (long cache), the rest → gunicorn
    gunicorn  .serve/gunicorn-PORT.sock   WSGI, WEB_CONCURRENCY sync workers (default: one per core)
    daphne    127.0.0.1:PORT+2   ASGI, websockets only (config.asgi:websocket_application)

The same topology as docker-compose.yml, with the same nginx template
(deploy/nginx/sheetforge.conf.template). Before the servers start: collectstatic, migrate and
seed_demo (SEED_DEMO=false skips it).

nginx reaches gunicorn over a unix socket rather than loopback TCP: a sync worker answers one
request per connection, and a unix connection costs both sides less kernel time than a TCP one
(no handshake, no port, no TIME_WAIT), with the same reach (any local process could reach
127.0.0.1:PORT+1 before; gunicorn trusts X-Forwarded-* from a unix socket peer as it trusted
127.0.0.1). Compose's containers talk TCP (SHEETFORGE_WEB=web:8000).

Environment (README "make serve"): HOST (127.0.0.1), PORT (8000), WEB_CONCURRENCY,
ASGI_DB_POOL_MAX; DATABASE_URL and REDIS_URL default to the local Postgres and Redis when they
answer, as `make test` does (else SQLite and the in-process layer, loudly). DEBUG is false.
SECRET_KEY, when unset, is generated once into .serve/secret_key (git-ignored, mode 600). The
server speaks plain http on loopback, so the https redirect, secure cookies and HSTS are off
unless set (SECURE_SSL_REDIRECT, SESSION_COOKIE_SECURE, CSRF_COOKIE_SECURE, SECURE_HSTS_SECONDS).
nginx comes from Debian: installed with apt-get when missing and this runs as root.
"""

from __future__ import annotations

import ctypes
import os
import re
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RUN = ROOT / ".serve"
NGINX_TEMPLATE = ROOT / "deploy" / "nginx" / "sheetforge.conf.template"
NGINX_MAIN_TEMPLATE = ROOT / "deploy" / "nginx" / "serve.conf.template"
GUNICORN_CONF = ROOT / "deploy" / "gunicorn.conf.py"
LOCAL_PG = "postgres://postgres@127.0.0.1:5432/sheetforge"
LOCAL_REDIS = "redis://127.0.0.1:6379/0"
PLAIN_HTTP = {  # loopback, no TLS: see the module docstring
    "SECURE_SSL_REDIRECT": "false",
    "SESSION_COOKIE_SECURE": "false",
    "CSRF_COOKIE_SECURE": "false",
    "SECURE_HSTS_SECONDS": "0",
}
#: nginx appends the client's address to X-Forwarded-For: the sign-in limits and throttles
#: (TRUSTED_PROXY_COUNT in config/settings.py, once merged) count per client, not per proxy.
BEHIND_ONE_PROXY = {"TRUSTED_PROXY_COUNT": "1"}


def say(message: str = "") -> None:
    print(message, flush=True)


def fail(message: str) -> None:
    print(f"make serve: {message}", file=sys.stderr, flush=True)
    sys.exit(1)


# ------------------------------------------------------------------ environment


def _postgres_answers(url: str = "postgresql://postgres@127.0.0.1:5432/postgres") -> bool:
    try:
        import psycopg

        psycopg.connect(url, connect_timeout=2).close()
        return True
    except Exception:
        return False


def _redis_answers(url: str) -> bool:
    try:
        import redis

        redis.Redis.from_url(url, socket_connect_timeout=1, socket_timeout=1).ping()
        return True
    except Exception:
        return False


def ensure_database(url: str) -> None:
    """Create the Postgres database of ``url`` when the server answers but the database is missing."""
    if not url.startswith(("postgres://", "postgresql://")):
        return
    import psycopg
    from psycopg import sql

    try:
        psycopg.connect(url, connect_timeout=5).close()
        return
    except psycopg.OperationalError as exc:
        if "does not exist" not in str(exc):
            fail(f"the database at DATABASE_URL does not answer: {exc}")
    from urllib.parse import urlsplit, urlunsplit

    parts = urlsplit(url)
    name = parts.path.lstrip("/")
    with psycopg.connect(
        urlunsplit(parts._replace(path="/postgres")), autocommit=True, connect_timeout=5
    ) as conn:
        conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    say(f"Created the database {name!r}.")


def secret_key() -> str:
    key = os.environ.get("SECRET_KEY", "")
    if key:
        if len(key) < 50:
            fail("SECRET_KEY is shorter than 50 characters; unset it to have one generated.")
        return key
    path = RUN / "secret_key"
    if path.exists():
        key = path.read_text().strip()
    if len(key) < 50:
        RUN.mkdir(exist_ok=True)
        key = secrets.token_urlsafe(50)  # 67 characters
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w") as f:
            f.write(key + "\n")
        say(
            f"Generated a SECRET_KEY into {path.relative_to(ROOT)} (git-ignored); "
            "it is kept for the next runs."
        )
    return key


def environment() -> dict[str, str]:
    env = dict(os.environ)
    env["DEBUG"] = "false"
    env["SECRET_KEY"] = secret_key()
    env.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    env.pop("SHEETFORGE_SERVER", None)  # config/asgi.py sets it in the ASGI process only
    for name, value in {**PLAIN_HTTP, **BEHIND_ONE_PROXY}.items():
        env.setdefault(name, value)
    if not env.get("DATABASE_URL"):
        if _postgres_answers():
            env["DATABASE_URL"] = LOCAL_PG
        else:
            say("!!! No Postgres answers on 127.0.0.1:5432 and DATABASE_URL is unset: serving from SQLite.")
    if not env.get("REDIS_URL"):
        if _redis_answers(LOCAL_REDIS):
            env["REDIS_URL"] = LOCAL_REDIS
        else:
            say("!!! No Redis answers on 127.0.0.1:6379 and REDIS_URL is unset: the websocket server is a")
            say("!!! process of its own, so live encounter updates made over HTTP will not reach it.")
    return env


def nginx_binary() -> str:
    found = shutil.which("nginx") or next((p for p in ("/usr/sbin/nginx",) if os.access(p, os.X_OK)), None)
    if found:
        return found
    if os.geteuid() == 0 and shutil.which("apt-get"):
        say("nginx is missing: installing Debian's package (apt-get install nginx)...")
        apt_env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
        install = ["apt-get", "install", "-y", "-qq", "--no-install-recommends", "nginx"]
        if subprocess.run(install, env=apt_env).returncode != 0:
            subprocess.run(["apt-get", "update", "-qq"], env=apt_env, check=False)
            subprocess.run(install, env=apt_env, check=False)
        found = shutil.which("nginx") or (
            "/usr/sbin/nginx" if os.access("/usr/sbin/nginx", os.X_OK) else None
        )
        if found:
            say("Installed nginx. Debian's package may also have started its own service on port 80")
            say("(`service nginx stop` stops it); make serve runs an nginx of its own.")
            return found
    fail("nginx is not installed. Install Debian's package: sudo apt-get install nginx")
    raise AssertionError  # unreachable


def render(template: Path, values: dict[str, str]) -> str:
    """Substitute ``${SHEETFORGE_…}`` as envsubst does in the official image; nginx's own ``$vars`` stay."""

    def value(match: re.Match) -> str:
        name = match.group(1)
        if name not in values:
            raise KeyError(f"{template.name}: no value for ${{{name}}}")
        return values[name]

    return re.sub(r"\$\{(SHEETFORGE_[A-Z_]+)\}", value, template.read_text())


def write_nginx_config(*, listen: str, web: str, ws: str, static_root: Path) -> Path:
    conf = RUN / "nginx"
    for sub in ("body", "proxy", "fastcgi", "uwsgi", "scgi"):
        (conf / "tmp" / sub).mkdir(parents=True, exist_ok=True)
    user = ""
    if os.geteuid() == 0:  # nginx's workers then run as nobody: let them use the temp folders
        user = "user nobody nogroup;"
        for path in (conf / "tmp", *(conf / "tmp").iterdir()):
            shutil.chown(path, user="nobody", group="nogroup")
    (conf / "sheetforge.conf").write_text(
        render(
            NGINX_TEMPLATE,
            {
                "SHEETFORGE_LISTEN": listen,
                "SHEETFORGE_WEB": web,
                "SHEETFORGE_WS": ws,
                "SHEETFORGE_STATIC_ROOT": str(static_root),
            },
        )
    )
    (conf / "nginx.conf").write_text(
        render(NGINX_MAIN_TEMPLATE, {"SHEETFORGE_RUN": str(conf), "SHEETFORGE_USER": user})
    )
    return conf / "nginx.conf"


# ------------------------------------------------------------------ processes


def _die_with_parent() -> None:
    """In the child: its own session (Ctrl-C reaches serve.py, which stops everyone in order), and
    SIGTERM when serve.py dies, however it dies (Linux's PR_SET_PDEATHSIG)."""
    os.setsid()
    try:
        ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG = 1
    except Exception:
        pass


def port_free(host: str, port: int) -> bool:
    with socket.socket() as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind((host, port))
            return True
        except OSError:
            return False


def wait_for_port(
    host: str, port: int | None, proc: subprocess.Popen, name: str, timeout: float = 60
) -> None:
    """Until ``proc`` accepts connections on host:port, or on the unix socket ``host`` when
    ``port`` is None."""
    where = host if port is None else f"{host}:{port}"
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"{name} exited with code {proc.returncode} while starting")
        try:
            if port is None:
                with socket.socket(socket.AF_UNIX) as s:
                    s.settimeout(1)
                    s.connect(host)
            else:
                socket.create_connection((host, port), timeout=1).close()
            return
        except OSError:
            time.sleep(0.2)
    raise RuntimeError(f"{name} did not listen on {where} within {timeout:.0f} s")


def web_socket_path(port: int) -> Path:
    """gunicorn's unix socket for the stack on ``port`` (one per port: two stacks of one checkout
    do not share it). A unix socket's path is limited to 107 bytes: a deeper checkout gets one in
    the temporary folder."""
    path = RUN / f"gunicorn-{port}.sock"
    if len(str(path).encode()) > 100:
        folder = Path(tempfile.gettempdir()) / f"sheetforge-{os.getuid()}"
        folder.mkdir(mode=0o755, exist_ok=True)
        path = folder / f"gunicorn-{port}.sock"
    return path


class Stack:
    """Child processes started in order, stopped in reverse order."""

    def __init__(self) -> None:
        self.procs: list[tuple[str, subprocess.Popen, int]] = []

    def start(
        self, name: str, argv: list[str], env: dict[str, str], stop_signal=signal.SIGTERM
    ) -> subprocess.Popen:
        proc = subprocess.Popen(argv, cwd=ROOT, env=env, preexec_fn=_die_with_parent)
        self.procs.append((name, proc, stop_signal))
        return proc

    def dead(self) -> list[tuple[str, int]]:
        return [(name, proc.returncode) for name, proc, _ in self.procs if proc.poll() is not None]

    def stop(self, timeout: float = 20) -> None:
        for _, proc, sig in reversed(self.procs):
            if proc.poll() is None:
                try:
                    proc.send_signal(sig)
                except ProcessLookupError:
                    pass
        deadline = time.monotonic() + timeout
        for _, proc, _ in reversed(self.procs):
            try:
                proc.wait(timeout=max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()


def manage(env: dict[str, str], *args: str) -> None:
    result = subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=env)
    if result.returncode != 0:
        fail(f"manage.py {' '.join(args)} failed (exit {result.returncode})")


def start_stack(*, host: str, port: int, env: dict[str, str], stack: Stack) -> dict:
    """Start nginx, gunicorn and daphne (port PORT, a unix socket, port PORT+2); returns what was
    started."""
    ws_port = port + 2
    for h, p in ((host, port), ("127.0.0.1", ws_port)):
        if not port_free(h, p):
            fail(f"{h}:{p} is in use: `make serve` needs PORT and PORT+2 free (PORT={port}).")
    RUN.mkdir(exist_ok=True)
    web_socket = web_socket_path(port)
    nginx = nginx_binary()
    conf = write_nginx_config(
        listen=f"{host}:{port}",
        web=f"unix:{web_socket}",
        ws=f"127.0.0.1:{ws_port}",
        static_root=ROOT / "staticfiles",
    )
    test = subprocess.run(
        [nginx, "-t", "-q", "-p", str(conf.parent), "-c", str(conf), "-e", str(conf.parent / "error.log")],
        capture_output=True,
        text=True,
    )
    if test.returncode != 0:
        fail(f"nginx refuses its configuration {conf}:\n{test.stderr}")

    bin_dir = Path(sys.executable).parent
    workers = int(env.get("WEB_CONCURRENCY") or os.cpu_count() or 1)
    pool = int(env.get("ASGI_DB_POOL_MAX") or 4)
    web = stack.start(
        "gunicorn",
        [
            str(bin_dir / "gunicorn"),
            "-c",
            str(GUNICORN_CONF),
            "--bind",
            f"unix:{web_socket}",
            "config.wsgi:application",
        ],
        env,
    )
    ws = stack.start(
        "daphne",
        [
            str(bin_dir / "daphne"),
            "--bind",
            "127.0.0.1",
            "--port",
            str(ws_port),
            "--proxy-headers",
            "config.asgi:websocket_application",
        ],
        env,
    )
    wait_for_port(str(web_socket), None, web, "gunicorn")
    wait_for_port("127.0.0.1", ws_port, ws, "daphne")
    proxy = stack.start(
        "nginx",
        [
            nginx,
            "-p",
            str(conf.parent),
            "-c",
            str(conf),
            "-e",
            str(conf.parent / "error.log"),
            "-g",
            "daemon off;",
        ],
        env,
        stop_signal=signal.SIGQUIT,
    )
    connect_host = "127.0.0.1" if host in ("0.0.0.0", "::", "") else host
    wait_for_port(connect_host, port, proxy, "nginx")
    return {
        "nginx": proxy.pid,
        "gunicorn": web.pid,
        "daphne": ws.pid,
        "workers": workers,
        "pool": pool,
        "web_socket": str(web_socket),
        "ws_port": ws_port,
        "url": f"http://{connect_host}:{port}/",
    }


def healthz(url: str) -> str:
    try:
        with urllib.request.urlopen(url + "healthz", timeout=20) as r:
            return f"{r.status} {r.read().decode()}"
    except urllib.error.HTTPError as e:
        return f"{e.code} {e.read().decode()}"
    except Exception as e:  # noqa: BLE001
        return f"no answer ({e})"


def _relative(path: str) -> str:
    try:
        return str(Path(path).relative_to(ROOT))
    except ValueError:
        return path


def _redact(url: str) -> str:
    return re.sub(r"//([^:@/]+):[^@/]*@", r"//\1:***@", url)


def main() -> int:
    host = os.environ.get("HOST", "127.0.0.1")
    port = int(os.environ.get("PORT", "8000"))
    env = environment()
    ensure_database(env.get("DATABASE_URL", ""))
    say(
        "Collecting static files, migrating"
        + ("" if env.get("SEED_DEMO", "true") == "false" else ", loading the demo table")
        + "..."
    )
    manage(env, "collectstatic", "--noinput", "-v", "0")
    manage(env, "migrate", "--noinput", "-v", "0")
    if env.get("SEED_DEMO", "true") != "false":
        manage(env, "seed_demo")

    stopping = []
    stack = Stack()

    def on_signal(signum, frame):
        stopping.append(signum)

    signal.signal(signal.SIGINT, on_signal)
    signal.signal(signal.SIGTERM, on_signal)
    try:
        info = start_stack(host=host, port=port, env=env, stack=stack)
    except (RuntimeError, SystemExit) as exc:
        stack.stop()
        if isinstance(exc, SystemExit):
            raise
        fail(str(exc))
    say()
    say(f"Sheetforge (DEBUG=false) on {info['url']}   Ctrl-C stops every server below.")
    say(
        f"  nginx     pid {info['nginx']:<7} {host}:{port:<6}  "
        "proxy: /ws/ → daphne, /static/ → staticfiles/, the rest → gunicorn"
    )
    say(
        f"  gunicorn  pid {info['gunicorn']:<7} {_relative(info['web_socket'])}  "
        f"WSGI, {info['workers']} sync workers "
        f"(WEB_CONCURRENCY), one database connection each"
    )
    say(
        f"  daphne    pid {info['daphne']:<7} 127.0.0.1:{info['ws_port']:<6} "
        f"ASGI, websockets only, database pool ≤ {info['pool']}"
    )
    say(
        f"  database  {_redact(env.get('DATABASE_URL') or 'SQLite db.sqlite3')}   "
        f"Redis {_redact(env.get('REDIS_URL') or '(none: in-process layer)')}"
    )
    say(
        f"  Postgres connections at most {info['workers']} + {info['pool']} = "
        f"{info['workers'] + info['pool']} "
        "(README: workers × 1 + ASGI processes × ASGI_DB_POOL_MAX)"
    )
    say(f"  {info['url']}healthz → {healthz(info['url'])}")
    code = 0
    while not stopping:
        dead = stack.dead()
        if dead:
            say(f"make serve: {', '.join(f'{n} exited ({c})' for n, c in dead)}: stopping the others.")
            code = 1
            break
        time.sleep(0.5)
    say("Stopping nginx, daphne and gunicorn...")
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    stack.stop()
    say("Stopped.")
    return code


if __name__ == "__main__":
    sys.exit(main())
