#!/usr/bin/env python
"""`make serve`: the production stack on this machine, in the foreground; Ctrl-C stops all of it.

    nginx     HOST:PORT    /ws/ → daphne, /static/ → STATIC_ROOT (long cache), the rest → gunicorn
    gunicorn  .serve/PORT/gunicorn.sock   WSGI, WEB_CONCURRENCY sync workers (default: one per core)
    daphne    127.0.0.1:PORT+2   ASGI, websockets only (config.asgi:websocket_application)
    webhooks  manage.py deliver_webhooks: sends the campaigns' webhooks from the outbox

Each stack keeps its own run folder, .serve/PORT/ (nginx's configuration, pid file, error log and
temporary files, gunicorn's socket): two stacks of one checkout on two ports share none of it.

The servers are supervised (children() lists them, in start order): one that exits, or is
killed, is started again after a backoff (1, 2, 4 ... 30 s while it keeps dying within a minute
of its start), said on the console, and the others serve on meanwhile: nginx answers pages
while daphne restarts, and websocket clients reconnect by themselves.

The same topology as docker-compose.yml, with the same nginx template
(deploy/nginx/sheetforge.conf.template). Before the servers start: collectstatic, migrate and
seed_demo (SEED_DEMO=false skips it).

nginx reaches gunicorn over a unix socket rather than loopback TCP: a sync worker answers one
request per connection, and a unix connection costs both sides less kernel time than a TCP one
(no handshake, no port, no TIME_WAIT), with the same reach (any local process could reach
127.0.0.1:PORT+1 before; gunicorn trusts X-Forwarded-* from a unix socket peer as it trusted
127.0.0.1). Compose's containers talk TCP (SHEETFORGE_WEB=web:8000).

Environment (README "make serve"): HOST (127.0.0.1), PORT (8000), WEB_CONCURRENCY,
ASGI_DB_POOL_MAX, NGINX_CONN_PER_IP (128: connections in progress per client address);
DATABASE_URL and REDIS_URL default to the local Postgres and Redis when they answer, as
`make test` does (else SQLite and the in-process layer, loudly). DEBUG is false.
SECRET_KEY, when unset, is generated once into .serve/secret_key (git-ignored, mode 600). The
server speaks plain http on loopback, so the https redirect, secure cookies and HSTS are off
unless set (SECURE_SSL_REDIRECT, SESSION_COOKIE_SECURE, CSRF_COOKIE_SECURE, SECURE_HSTS_SECONDS).
nginx comes from Debian: installed with apt-get when missing and this runs as root.
"""

from __future__ import annotations

import ctypes
import os
import re
import resource
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RUN = ROOT / ".serve"
NGINX_TEMPLATE = ROOT / "deploy" / "nginx" / "sheetforge.conf.template"
NGINX_MAIN_TEMPLATE = ROOT / "deploy" / "nginx" / "serve.conf.template"
GUNICORN_CONF = ROOT / "deploy" / "gunicorn.conf.py"
LOCAL_PG = "postgres://postgres@127.0.0.1:5432/sheetforge"
LOCAL_REDIS = "redis://127.0.0.1:6379/0"
#: NGINX_CONN_PER_IP's default: a table behind one home address (8 players × 3 tabs, each a
#: websocket and a request or two in progress) with room to spare. README "One client never
#: shuts the others out".
CONN_PER_IP_DEFAULT = 128
MAX_BODY_DEFAULT = 256 * 1024  # Django's MAX_REQUEST_BODY
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


def run_dir(port: int) -> Path:
    """The run folder of the stack on ``port``: its nginx configuration, pid file, error log and
    temporary files. One per port, so two stacks of one checkout never share a pid file or a log."""
    return RUN / str(port)


def connections_per_client(env: dict[str, str]) -> int:
    """NGINX_CONN_PER_IP (README "One client never shuts the others out"): the connections one
    client address may have in progress at once (requests being answered, open websockets)."""
    raw = env.get("NGINX_CONN_PER_IP") or str(CONN_PER_IP_DEFAULT)
    try:
        value = int(raw)
    except ValueError:
        value = 0
    if not 1 <= value <= 65535:
        fail(f"NGINX_CONN_PER_IP={raw!r}: a whole number of connections from 1 to 65535 is needed.")
    return value


def max_body(env: dict[str, str]) -> int:
    """The largest request body nginx passes on: Django's MAX_REQUEST_BODY (256 KiB by default)."""
    try:
        return int(env.get("MAX_REQUEST_BODY") or MAX_BODY_DEFAULT)
    except ValueError:
        return MAX_BODY_DEFAULT


def write_nginx_config(
    *,
    listen: str,
    web: str,
    ws: str,
    static_root: Path,
    folder: Path,
    conn_per_ip: int = CONN_PER_IP_DEFAULT,
    body_limit: int = MAX_BODY_DEFAULT,
) -> Path:
    """nginx's configuration for one stack, written into ``folder`` (run_dir(port))."""
    conf = folder
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
                "SHEETFORGE_CONN_PER_IP": str(conn_per_ip),
                "SHEETFORGE_MAX_BODY": str(body_limit),
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


def raise_open_files_limit(wanted: int = 20000) -> int:
    """Raise this process's soft limit on open files (the servers inherit it) towards ``wanted``,
    within the hard limit: nginx's 8,192 connections per worker need more than the usual 1,024
    (nginx, not root, cannot raise it itself). Returns the limit now."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
    if soft != resource.RLIM_INFINITY and soft < target:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
            soft = target
        except (ValueError, OSError):
            pass
    return soft


def port_free(host: str, port: int) -> bool:
    with socket.socket() as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind((host, port))
            return True
        except OSError:
            return False


def accepts(host: str, port: int | None) -> bool:
    """Whether something accepts connections on host:port, or on the unix socket ``host`` when
    ``port`` is None."""
    try:
        if port is None:
            with socket.socket(socket.AF_UNIX) as s:
                s.settimeout(1)
                s.connect(host)
        else:
            socket.create_connection((host, port), timeout=1).close()
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
        if accepts(host, port):
            return
        time.sleep(0.2)
    raise RuntimeError(f"{name} did not listen on {where} within {timeout:.0f} s")


def web_socket_path(port: int) -> Path:
    """gunicorn's unix socket for the stack on ``port``, in its run folder (one per port: two
    stacks of one checkout do not share it). A unix socket's path is limited to 107 bytes: a
    deeper checkout gets one in the temporary folder."""
    path = run_dir(port) / "gunicorn.sock"
    if len(str(path).encode()) > 100:
        folder = Path(tempfile.gettempdir()) / f"sheetforge-{os.getuid()}"
        folder.mkdir(mode=0o755, exist_ok=True)
        path = folder / f"gunicorn-{port}.sock"
    return path


@dataclass
class Child:
    """One supervised server: how to start it and where it listens once it serves."""

    name: str
    argv: list[str]
    #: (host, port), or (unix socket path, None); None for a worker that listens nowhere
    listens: tuple[str, int | None] | None = None
    stop_signal: int = signal.SIGTERM
    #: started once every child before it listens (nginx, so that it never answers 502 at start)
    after_the_others: bool = False


def children(
    *, nginx: str, conf: Path, web_socket: Path, ws_port: int, connect_host: str, port: int
) -> list[Child]:
    """The servers `make serve` starts and keeps running, in start order (stopped in reverse).
    A further worker is one more line here, as the webhooks' worker is (it listens nowhere)."""
    bin_dir = Path(sys.executable).parent
    return [
        Child(
            "gunicorn",
            [str(bin_dir / "gunicorn"), "-c", str(GUNICORN_CONF), "--bind", f"unix:{web_socket}"]
            + ["config.wsgi:application"],
            listens=(str(web_socket), None),
        ),
        Child(
            "daphne",
            [str(bin_dir / "daphne"), "--bind", "127.0.0.1", "--port", str(ws_port), "--proxy-headers"]
            + ["config.asgi:websocket_application"],
            listens=("127.0.0.1", ws_port),
        ),
        Child("webhooks", [sys.executable, "manage.py", "deliver_webhooks"]),
        Child(
            "nginx",
            [nginx, "-p", str(conf.parent), "-c", str(conf), "-e", str(conf.parent / "error.log")]
            + ["-g", "daemon off;"],
            listens=(connect_host, port),
            stop_signal=signal.SIGQUIT,
            after_the_others=True,
        ),
    ]


def _exit_words(code: int) -> str:
    if code < 0:
        try:
            return f"killed by {signal.Signals(-code).name}"
        except ValueError:
            return f"killed by signal {-code}"
    return f"exit code {code}"


@dataclass
class _Running:
    child: Child
    proc: subprocess.Popen | None
    started: float
    serving: bool = False
    restarts: int = 0
    quick_deaths: int = 0  # deaths in a row, each within STEADY_S of its start: the backoff's step
    restart_at: float | None = None


class Stack:
    """The supervised servers: started in order, stopped in reverse order, and while they run, a
    server that exits is started again after a backoff (RESTART_DELAYS_S; a server that had
    served STEADY_S starts the backoff again), said on the console, the others serving on."""

    RESTART_DELAYS_S = (1, 2, 4, 8, 16, 30)
    STEADY_S = 60.0

    def __init__(self) -> None:
        self.running: list[_Running] = []
        self.env: dict[str, str] = {}

    @property
    def procs(self) -> list[tuple[str, subprocess.Popen, int]]:
        return [(r.child.name, r.proc, r.child.stop_signal) for r in self.running if r.proc is not None]

    def spawn(self, child: Child, env: dict[str, str]) -> subprocess.Popen:
        """Start one server (a benchmark overrides this to send the servers' output elsewhere)."""
        return subprocess.Popen(child.argv, cwd=ROOT, env=env, preexec_fn=_die_with_parent)

    def start(self, child: Child, env: dict[str, str]) -> subprocess.Popen:
        self.env = env
        proc = self.spawn(child, env)
        self.running.append(_Running(child, proc, time.monotonic()))
        return proc

    def start_all(self, kids: list[Child], env: dict[str, str], timeout: float = 60) -> None:
        """Start ``kids`` in order; one marked after_the_others waits for those before it to listen."""
        for child in kids:
            if child.after_the_others:
                self.wait_listening(timeout)
            self.start(child, env)
        self.wait_listening(timeout)

    def wait_listening(self, timeout: float) -> None:
        for r in self.running:
            if r.child.listens and not r.serving and r.proc is not None:
                wait_for_port(*r.child.listens, r.proc, r.child.name, timeout=timeout)
                r.serving = True

    def pid(self, name: str) -> int:
        return next(r.proc.pid for r in self.running if r.child.name == name and r.proc is not None)

    def tend(self) -> None:
        """One look at every server: a dead one is cleaned up and its restart scheduled, a due
        restart is made, a restarted one that listens again is announced."""
        now = time.monotonic()
        for r in self.running:
            name = r.child.name
            if r.proc is not None and r.proc.poll() is not None:
                code, pid, ran = r.proc.returncode, r.proc.pid, now - r.started
                _kill_group(pid)  # what it leaves behind (nginx's or gunicorn's workers) goes too
                r.quick_deaths = r.quick_deaths + 1 if ran < self.STEADY_S else 1
                delay = self.RESTART_DELAYS_S[min(r.quick_deaths, len(self.RESTART_DELAYS_S)) - 1]
                r.proc, r.serving, r.restart_at = None, False, now + delay
                say(
                    f"make serve: {name} (pid {pid}) exited ({_exit_words(code)}) after {ran:.0f} s; "
                    f"restarting it in {delay} s, the other servers serve on."
                )
            elif r.proc is None and r.restart_at is not None and now >= r.restart_at:
                r.proc = self.spawn(r.child, self.env)
                r.started, r.restart_at = now, None
                r.restarts += 1
                say(f"make serve: {name} restarted (pid {r.proc.pid}, restart {r.restarts}).")
            elif r.proc is not None and not r.serving and r.child.listens and accepts(*r.child.listens):
                r.serving = True
                if r.restarts:
                    say(f"make serve: {name} serves again (pid {r.proc.pid}).")

    def supervise(self, stopping: list, tick: float = 0.2) -> None:
        """Until something is appended to ``stopping`` (a signal handler does it)."""
        while not stopping:
            self.tend()
            time.sleep(tick)

    def stop(self, timeout: float = 20) -> None:
        for r in reversed(self.running):
            r.restart_at = None
            if r.proc is not None and r.proc.poll() is None:
                try:
                    r.proc.send_signal(r.child.stop_signal)
                except ProcessLookupError:
                    pass
        deadline = time.monotonic() + timeout
        for r in reversed(self.running):
            if r.proc is None:
                continue
            try:
                r.proc.wait(timeout=max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                r.proc.kill()
                r.proc.wait()
            _kill_group(r.proc.pid)


def _kill_group(pgid: int) -> None:
    """SIGKILL whatever is left of the process group a server led (each server is its own
    session, see _die_with_parent): nginx's workers keep the port after their master is killed,
    gunicorn's workers live on for a moment after theirs."""
    try:
        os.killpg(pgid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def manage(env: dict[str, str], *args: str) -> None:
    result = subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=env)
    if result.returncode != 0:
        fail(f"manage.py {' '.join(args)} failed (exit {result.returncode})")


def start_stack(*, host: str, port: int, env: dict[str, str], stack: Stack) -> dict:
    """Start nginx, gunicorn and daphne (port PORT, a unix socket, port PORT+2) and whatever else
    children() lists; returns what was started."""
    ws_port = port + 2
    for h, p in ((host, port), ("127.0.0.1", ws_port)):
        if not port_free(h, p):
            fail(f"{h}:{p} is in use: `make serve` needs PORT and PORT+2 free (PORT={port}).")
    folder = run_dir(port)
    folder.mkdir(parents=True, exist_ok=True)
    web_socket = web_socket_path(port)
    nginx = nginx_binary()
    conn_per_ip = connections_per_client(env)
    conf = write_nginx_config(
        listen=f"{host}:{port}",
        web=f"unix:{web_socket}",
        ws=f"127.0.0.1:{ws_port}",
        static_root=ROOT / "staticfiles",
        folder=folder,
        conn_per_ip=conn_per_ip,
        body_limit=max_body(env),
    )
    test = subprocess.run(
        [nginx, "-t", "-q", "-p", str(conf.parent), "-c", str(conf), "-e", str(conf.parent / "error.log")],
        capture_output=True,
        text=True,
    )
    if test.returncode != 0:
        fail(f"nginx refuses its configuration {conf}:\n{test.stderr}")

    workers = int(env.get("WEB_CONCURRENCY") or os.cpu_count() or 1)
    pool = int(env.get("ASGI_DB_POOL_MAX") or 4)
    open_files = raise_open_files_limit()
    if open_files < 4096:
        say(f"!!! Open files are limited to {open_files} (ulimit -n): nginx takes fewer connections than it")
        say("!!! is configured for (8192 per worker). Raise the hard limit to serve more.")
    connect_host = "127.0.0.1" if host in ("0.0.0.0", "::", "") else host
    kids = children(
        nginx=nginx, conf=conf, web_socket=web_socket, ws_port=ws_port, connect_host=connect_host, port=port
    )
    stack.start_all(kids, env)
    return {
        "nginx": stack.pid("nginx"),
        "gunicorn": stack.pid("gunicorn"),
        "daphne": stack.pid("daphne"),
        "webhooks": stack.pid("webhooks"),
        "workers": workers,
        "pool": pool,
        "conn_per_ip": conn_per_ip,
        "run_dir": str(folder),
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
        f"  webhooks  pid {info['webhooks']:<7} {'':<16} manage.py deliver_webhooks: the webhooks' outbox, "
        "at most 5 database connections (1 + 4 threads)"
    )
    say(
        f"  database  {_redact(env.get('DATABASE_URL') or 'SQLite db.sqlite3')}   "
        f"Redis {_redact(env.get('REDIS_URL') or '(none: in-process layer)')}"
    )
    say(
        f"  Postgres connections at most {info['workers']} + {info['pool']} + 5 = "
        f"{info['workers'] + info['pool'] + 5} "
        "(README: workers × 1 + ASGI processes × ASGI_DB_POOL_MAX + the webhooks' worker, 1 + 4 threads)"
    )
    say(f"  {info['url']}healthz → {healthz(info['url'])}")
    say(
        f"  run folder {_relative(info['run_dir'])}/ (nginx's configuration, pid and error.log); "
        f"{info['conn_per_ip']} connections per client address (NGINX_CONN_PER_IP)"
    )
    say("  A server that exits is started again (after 1, 2, 4 ... 30 s if it keeps exiting).")
    stack.supervise(stopping)
    say("Stopping nginx, the webhooks' worker, daphne and gunicorn...")
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    stack.stop()
    say("Stopped.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
