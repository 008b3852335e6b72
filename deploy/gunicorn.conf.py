"""gunicorn's settings for the WSGI side (make serve, compose `web`): `gunicorn -c deploy/gunicorn.conf.py`.

One sync worker per core (WEB_CONCURRENCY overrides): a worker serves one request at a time and
keeps one database connection (DB_CONN_MAX_AGE). nginx in front buffers slow clients.
"""

import os

workers = int(os.environ.get("WEB_CONCURRENCY") or os.cpu_count() or 1)
worker_class = "sync"
preload_app = True  # Django loads once, before the fork; no connection is opened at import
timeout = 30
graceful_timeout = 20
keepalive = 2
accesslog = None
errorlog = "-"
loglevel = os.environ.get("GUNICORN_LOG_LEVEL", "info")
# X-Forwarded-* is trusted from these proxy addresses (compose: the proxy's container address), and
# always from a unix socket's peer (make serve: nginx on .serve/PORT/gunicorn.sock).
forwarded_allow_ips = os.environ.get("FORWARDED_ALLOW_IPS", "127.0.0.1,::1")
proc_name = "sheetforge-web"
# gunicorn 27 opens a control socket in ~/.gunicorn by default: one path for every gunicorn of the
# user, so a second stack (or a benchmark) on the same machine would fight over it. Not used here.
control_socket_disable = True


def when_ready(server):
    """With preload_app, before the workers fork: load once what each would otherwise load on its
    first request (the URL resolver, the rulesets' content, the main templates, ~1 s together)."""
    try:
        from django.template.loader import get_template
        from django.urls import get_resolver

        from rulesets.engine import registry

        get_resolver().url_patterns  # noqa: B018 (imports every view module)
        for slug in registry.SYSTEMS:
            registry.get(slug)
        for name in (
            "base.html",
            "characters/sheet/sheet.html",
            "characters/builder/builder.html",
            "characters/campaigns/home.html",
        ):
            try:
                get_template(name)
            except Exception:  # a template renamed since: nothing to warm
                pass
    except Exception:  # warming is an optimisation; a worker loads what it needs anyway
        server.log.warning("warm-up before the fork failed", exc_info=True)
