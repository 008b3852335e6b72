"""`manage.py deliver_webhooks`: the worker that sends the campaigns' webhooks from the outbox.

Long-running: a batch at a time (characters/webhooks/delivery.py ``run_once``), sleeping
``--idle`` seconds when nothing is due. Several may run against one database (``SKIP LOCKED``
claims). ``--once`` sends one batch and stops (tests, cron). SIGTERM or SIGINT stop it after the
batch in hand. `make serve` and docker-compose start and supervise it.
"""

from __future__ import annotations

import logging
import signal
import time

from django.core.management.base import BaseCommand
from django.db import close_old_connections

from characters.webhooks.delivery import THREADS, run_once

logger = logging.getLogger(__name__)


class Command(BaseCommand):
    help = "Send the campaigns' webhooks (Discord, signed JSON) from the outbox; runs until stopped."

    def add_arguments(self, parser):
        parser.add_argument("--once", action="store_true", help="Send what is due now, then stop.")
        parser.add_argument("--idle", type=float, default=1.0, help="Seconds to sleep when nothing is due.")
        parser.add_argument("--threads", type=int, default=THREADS, help="Deliveries sent at once.")

    def handle(self, *args, once: bool = False, idle: float = 1.0, threads: int = THREADS, **options):
        stopping = []

        def stop(signum, frame):
            stopping.append(signum)

        if not once:
            signal.signal(signal.SIGTERM, stop)
            signal.signal(signal.SIGINT, stop)
            self.stdout.write(f"deliver_webhooks: sending the outbox ({threads} at a time); Ctrl-C stops.")
        sent = 0
        while not stopping:
            if not once:
                close_old_connections()  # a long-running process: a connection that broke is opened anew
            try:
                count = run_once(threads=threads)
            except Exception:  # the database away for a moment: log, wait, go on
                logger.exception("a webhook batch failed")
                count = 0
                time.sleep(min(idle * 5, 30))
            sent += count
            if once:
                break
            if not count:
                time.sleep(idle)
        self.stdout.write(f"deliver_webhooks: {sent} sent.")
