"""The production stack's configuration: the nginx template (shared by make serve and compose)
renders to a configuration nginx accepts, and docker-compose.yml runs the topology make serve runs."""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from deploy import serve
from tests.waiting import poll

ROOT = Path(__file__).resolve().parents[2]
VALUES = {
    "SHEETFORGE_LISTEN": "127.0.0.1:8299",
    "SHEETFORGE_WEB": "127.0.0.1:8298",
    "SHEETFORGE_WS": "127.0.0.1:8297",
    "SHEETFORGE_STATIC_ROOT": "/srv/static",
    "SHEETFORGE_CONN_PER_IP": "128",
    "SHEETFORGE_MAX_BODY": "262144",
}


def test_the_template_renders_our_values_and_leaves_nginx_variables():
    conf = serve.render(serve.NGINX_TEMPLATE, VALUES)
    assert "${SHEETFORGE_" not in conf
    assert "listen 127.0.0.1:8299;" in conf
    assert "server 127.0.0.1:8298 max_fails=0;" in conf and "server 127.0.0.1:8297;" in conf
    assert "alias /srv/static/$sheetforge_static;" in conf and "alias /srv/static/;" in conf
    assert 'add_header Cache-Control "public, max-age=31536000, immutable";' in conf
    assert "proxy_set_header X-Forwarded-Proto $sheetforge_proto;" in conf
    assert "proxy_set_header X-Forwarded-Host $http_host;" in conf
    assert "proxy_set_header Upgrade $http_upgrade;" in conf


def test_a_missing_value_is_an_error_not_an_empty_address():
    with pytest.raises(KeyError, match=r"no value for \$\{SHEETFORGE_WS\}"):
        serve.render(serve.NGINX_TEMPLATE, {k: v for k, v in VALUES.items() if k != "SHEETFORGE_WS"})


def test_nginx_accepts_the_rendered_configuration(tmp_path, monkeypatch):
    nginx = shutil.which("nginx") or ("/usr/sbin/nginx" if Path("/usr/sbin/nginx").exists() else None)
    if nginx is None:
        pytest.skip("nginx is not installed (apt-get install nginx)")
    monkeypatch.setattr(serve, "RUN", tmp_path)
    conf = serve.write_nginx_config(
        listen="127.0.0.1:8299",
        web="127.0.0.1:8298",
        ws="127.0.0.1:8297",
        static_root=ROOT / "staticfiles",
        folder=serve.run_dir(8299),
    )
    result = subprocess.run(
        [nginx, "-t", "-p", str(conf.parent), "-c", str(conf), "-e", str(conf.parent / "error.log")],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    assert "test is successful" in result.stderr


def test_compose_runs_the_topology_of_make_serve():
    compose = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    services = compose["services"]
    assert set(services) == {"proxy", "web", "ws", "webhooks", "migrate", "db", "redis"}
    # the proxy renders the same template as make serve
    proxy = services["proxy"]
    assert proxy["image"].startswith("nginx:")
    assert (
        "./deploy/nginx/sheetforge.conf.template:/etc/nginx/templates/default.conf.template:ro"
        in proxy["volumes"]
    )
    assert set(proxy["environment"]) == set(VALUES)
    # the same servers and entry points as deploy/serve.py
    assert services["web"]["command"][:3] == ["gunicorn", "-c", "deploy/gunicorn.conf.py"]
    assert services["web"]["command"][-1] == "config.wsgi:application"
    assert services["ws"]["command"][0] == "daphne"
    assert services["ws"]["command"][-1] == "config.asgi:websocket_application"
    source = (ROOT / "deploy" / "serve.py").read_text()
    assert '"config.wsgi:application"' in source and '"config.asgi:websocket_application"' in source
    # web and ws wait for the one-shot migration
    for name in ("web", "ws"):
        assert services[name]["depends_on"]["migrate"] == {"condition": "service_completed_successfully"}
        assert "/healthz" in " ".join(services[name]["healthcheck"]["test"])
    assert "/healthz" in " ".join(proxy["healthcheck"]["test"])
    assert "migrate --noinput" in " ".join(services["migrate"]["command"])
    # The webhooks' worker runs beside them, after the migrations, restarted when it stops.
    assert services["webhooks"]["command"] == ["python", "manage.py", "deliver_webhooks"]
    assert services["webhooks"]["depends_on"]["migrate"] == {"condition": "service_completed_successfully"}
    assert services["webhooks"]["restart"] == "unless-stopped"
    assert services["migrate"]["restart"] == "no"
    assert all("healthcheck" in services[name] for name in ("db", "redis"))


def test_make_serve_reaches_gunicorn_over_a_unix_socket_nginx_accepts(tmp_path, monkeypatch):
    nginx = shutil.which("nginx") or ("/usr/sbin/nginx" if Path("/usr/sbin/nginx").exists() else None)
    if nginx is None:
        pytest.skip("nginx is not installed (apt-get install nginx)")
    monkeypatch.setattr(serve, "RUN", tmp_path)
    socket_path = serve.web_socket_path(8299)
    assert socket_path == tmp_path / "8299" / "gunicorn.sock"
    conf = serve.write_nginx_config(
        listen="127.0.0.1:8299",
        web=f"unix:{socket_path}",
        ws="127.0.0.1:8297",
        static_root=ROOT / "staticfiles",
        folder=serve.run_dir(8299),
    )
    assert f"server unix:{socket_path} max_fails=0;" in (conf.parent / "sheetforge.conf").read_text()
    result = subprocess.run(
        [nginx, "-t", "-p", str(conf.parent), "-c", str(conf), "-e", str(conf.parent / "error.log")],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr


def test_a_checkout_too_deep_for_a_unix_socket_path_gets_one_in_the_temporary_folder(tmp_path, monkeypatch):
    deep = tmp_path / ("d" * 60) / ("e" * 60)
    monkeypatch.setattr(serve, "RUN", deep)
    path = serve.web_socket_path(8299)
    assert not str(path).startswith(str(deep))
    assert path.name == "gunicorn-8299.sock" and len(str(path).encode()) <= 100


# ------------------------------------------------------------------ issue 32: a stack that stands a rough night


def _directive(text: str, name: str) -> list[str]:
    return re.findall(rf"^\s*{name}\s+([^;]+);", text, flags=re.MULTILINE)


def test_nginx_holds_each_address_to_a_number_of_connections_and_times_out_slow_ones():
    conf = serve.render(serve.NGINX_TEMPLATE, {**VALUES, "SHEETFORGE_CONN_PER_IP": "77"})
    assert _directive(conf, "limit_conn_zone") == ["$binary_remote_addr zone=sheetforge_per_client:10m"]
    assert _directive(conf, "limit_conn") == ["sheetforge_per_client 77"]
    assert _directive(conf, "limit_conn_status") == ["429"]
    assert _directive(conf, "client_header_timeout") == ["10s"]
    assert _directive(conf, "client_body_timeout") == ["10s"]
    assert _directive(conf, "client_max_body_size") == ["262144"]
    # a GET whose worker died is tried once more; a POST never is (nginx's default for non-idempotent)
    assert _directive(conf, "proxy_next_upstream") == ["error"]
    assert _directive(conf, "proxy_next_upstream_tries") == ["2"]
    assert "non_idempotent" not in conf


def test_make_serve_and_compose_run_nginx_with_the_same_connection_settings():
    main = serve.render(serve.NGINX_MAIN_TEMPLATE, {"SHEETFORGE_RUN": "/run", "SHEETFORGE_USER": ""})
    compose_main = (ROOT / "deploy" / "nginx" / "compose.conf").read_text()
    for name in ("worker_connections", "worker_rlimit_nofile", "worker_processes"):
        assert _directive(main, name) == _directive(compose_main, name), name
    assert _directive(main, "worker_connections") == ["8192"]
    assert _directive(compose_main, "include")[-1] == "/etc/nginx/conf.d/*.conf"
    proxy = yaml.safe_load((ROOT / "docker-compose.yml").read_text())["services"]["proxy"]
    assert "./deploy/nginx/compose.conf:/etc/nginx/nginx.conf:ro" in proxy["volumes"]
    assert proxy["environment"]["SHEETFORGE_CONN_PER_IP"] == "${NGINX_CONN_PER_IP:-128}"
    assert proxy["environment"]["SHEETFORGE_MAX_BODY"] == "${MAX_REQUEST_BODY:-262144}"


def test_the_readme_gives_the_per_address_limit_and_it_holds_a_table():
    readme = (ROOT / "README.md").read_text()
    row = next(line for line in readme.splitlines() if line.startswith("| `NGINX_CONN_PER_IP` |"))
    assert f"`{serve.CONN_PER_IP_DEFAULT}`" in row
    assert serve.CONN_PER_IP_DEFAULT >= 64  # 8 players × 3 tabs × 2 sockets, behind one home address
    assert serve.connections_per_client({}) == serve.CONN_PER_IP_DEFAULT
    assert serve.connections_per_client({"NGINX_CONN_PER_IP": "4096"}) == 4096
    assert "restart: unless-stopped" in readme


@pytest.mark.parametrize("value", ["0", "-1", "lots", "70000"])
def test_a_per_address_limit_nginx_cannot_take_is_refused_in_words(value, capsys):
    with pytest.raises(SystemExit):
        serve.connections_per_client({"NGINX_CONN_PER_IP": value})
    assert "NGINX_CONN_PER_IP" in capsys.readouterr().err


def test_the_load_benches_set_their_own_per_address_limit():
    for name in ("load.py", "cost.py", "bench_pages.py", "bench_feed.py"):
        assert '"NGINX_CONN_PER_IP"' in (ROOT / "bench" / name).read_text(), name


def test_each_stack_keeps_its_own_run_folder(tmp_path, monkeypatch):
    monkeypatch.setattr(serve, "RUN", tmp_path)
    folders = {}
    for port in (8301, 8311):
        conf = serve.write_nginx_config(
            listen=f"127.0.0.1:{port}",
            web="127.0.0.1:1",
            ws="127.0.0.1:2",
            static_root=ROOT / "staticfiles",
            folder=serve.run_dir(port),
        )
        text = conf.read_text()
        folders[port] = (_directive(text, "pid"), _directive(text, "error_log"), serve.web_socket_path(port))
    assert folders[8301][0] == [f"{tmp_path}/8301/nginx.pid"]
    assert folders[8311][0] == [f"{tmp_path}/8311/nginx.pid"]
    assert folders[8301][1] != folders[8311][1] and folders[8301][2] != folders[8311][2]


# ------------------------------------------------------------------ supervision (real processes, fast)


def test_the_supervised_servers_are_listed_in_one_place():
    kids = serve.children(
        nginx="/usr/sbin/nginx",
        conf=Path("/run/nginx.conf"),
        web_socket=Path("/run/gunicorn.sock"),
        ws_port=8302,
        connect_host="127.0.0.1",
        port=8300,
    )
    assert [k.name for k in kids] == ["gunicorn", "daphne", "webhooks", "nginx"]
    assert [k.after_the_others for k in kids] == [False, False, False, True]
    assert kids[2].argv[1:] == ["manage.py", "deliver_webhooks"] and kids[2].listens is None
    assert kids[0].argv[-1] == "config.wsgi:application" and kids[0].listens == ("/run/gunicorn.sock", None)
    assert kids[1].argv[-1] == "config.asgi:websocket_application" and kids[1].listens == ("127.0.0.1", 8302)


class _Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_a_server_that_keeps_dying_is_restarted_with_backoff_and_said_so(monkeypatch, capsys):
    clock = _Clock()
    monkeypatch.setattr(serve.time, "monotonic", clock)
    stack = serve.Stack()
    crasher = serve.Child("crasher", [sys.executable, "-c", "raise SystemExit(3)"])
    steady = serve.Child("steady", [sys.executable, "-c", "import time; time.sleep(60)"])
    stack.start(crasher, dict(os.environ))
    stack.start(steady, dict(os.environ))
    steady_pid = stack.pid("steady")
    delays = []
    try:
        for _ in range(7):
            assert poll(
                lambda: stack.running[0].proc is None or stack.running[0].proc.poll() is not None,
                timeout=20,
                every=0.02,
            )
            stack.tend()  # the death seen: a restart scheduled
            delays.append(stack.running[0].restart_at - clock.now)
            clock.now += delays[-1]
            stack.tend()  # due: started again
            assert stack.running[0].proc is not None
        # one that served a minute before it died starts the backoff again
        proc = stack.running[0].proc
        proc.wait(timeout=20)
        clock.now += serve.Stack.STEADY_S
        stack.tend()
        delays.append(stack.running[0].restart_at - clock.now)
        assert stack.pid("steady") == steady_pid and stack.running[1].proc.poll() is None  # untouched
    finally:
        stack.stop(timeout=5)
    assert delays == [1, 2, 4, 8, 16, 30, 30, 1]
    out = capsys.readouterr().out
    assert (
        "make serve: crasher (pid " in out and ") exited (exit code 3) after 0 s; restarting it in 1 s" in out
    )
    assert "restarting it in 30 s, the other servers serve on." in out
    assert "make serve: crasher restarted (pid " in out and "restart 7)" in out
    assert "steady" not in out


def test_a_server_killed_is_said_killed_and_what_it_left_behind_goes_too(capsys):
    """A server's leftovers (nginx's workers keep its port when the master is killed) are killed
    with it: the restarted one can listen."""
    stack = serve.Stack()
    parent = serve.Child(
        "parent",
        [
            sys.executable,
            "-c",
            "import subprocess, sys, time; subprocess.Popen([sys.executable, '-c', "
            "'import time; time.sleep(60)']); print('child', flush=True); time.sleep(60)",
        ],
    )
    stack.start(parent, dict(os.environ))
    pid = stack.pid("parent")
    try:
        orphan = poll(lambda: _children(pid), timeout=20)[0]
        os.kill(pid, signal.SIGKILL)
        stack.running[0].proc.wait(timeout=10)
        stack.tend()
        assert poll(lambda: _gone(orphan))
    finally:
        stack.stop(timeout=5)
    assert f"make serve: parent (pid {pid}) exited (killed by SIGKILL)" in capsys.readouterr().out


def _gone(pid: int) -> bool:
    """Whether process ``pid`` has ended (gone, or a zombie its parent has not reaped)."""
    try:
        return "Z" in Path(f"/proc/{pid}/stat").read_text().split()[2]
    except OSError:
        return True


def _children(pid: int) -> list[int]:
    try:
        return [int(c) for c in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    except OSError:
        return []
