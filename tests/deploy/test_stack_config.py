"""The production stack's configuration: the nginx template (shared by make serve and compose)
renders to a configuration nginx accepts, and docker-compose.yml runs the topology make serve runs."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
import yaml

from deploy import serve

ROOT = Path(__file__).resolve().parents[2]
VALUES = {
    "SHEETFORGE_LISTEN": "127.0.0.1:8299",
    "SHEETFORGE_WEB": "127.0.0.1:8298",
    "SHEETFORGE_WS": "127.0.0.1:8297",
    "SHEETFORGE_STATIC_ROOT": "/srv/static",
}


def test_the_template_renders_our_values_and_leaves_nginx_variables():
    conf = serve.render(serve.NGINX_TEMPLATE, VALUES)
    assert "${SHEETFORGE_" not in conf
    assert "listen 127.0.0.1:8299;" in conf
    assert "server 127.0.0.1:8298;" in conf and "server 127.0.0.1:8297;" in conf
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
        listen="127.0.0.1:8299", web="127.0.0.1:8298", ws="127.0.0.1:8297", static_root=ROOT / "staticfiles"
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
    assert set(services) == {"proxy", "web", "ws", "migrate", "db", "redis"}
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
    assert services["migrate"]["restart"] == "no"
    assert all("healthcheck" in services[name] for name in ("db", "redis"))


def test_make_serve_reaches_gunicorn_over_a_unix_socket_nginx_accepts(tmp_path, monkeypatch):
    nginx = shutil.which("nginx") or ("/usr/sbin/nginx" if Path("/usr/sbin/nginx").exists() else None)
    if nginx is None:
        pytest.skip("nginx is not installed (apt-get install nginx)")
    monkeypatch.setattr(serve, "RUN", tmp_path)
    socket_path = serve.web_socket_path(8299)
    assert socket_path == tmp_path / "gunicorn-8299.sock"
    conf = serve.write_nginx_config(
        listen="127.0.0.1:8299",
        web=f"unix:{socket_path}",
        ws="127.0.0.1:8297",
        static_root=ROOT / "staticfiles",
    )
    assert f"server unix:{socket_path};" in (conf.parent / "sheetforge.conf").read_text()
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
