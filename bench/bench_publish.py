"""One live update sent from synchronous code (a request of gunicorn's sync workers) on Redis's
pub/sub layer: ``config.publish.group_send`` against ``async_to_sync(layer.group_send)``, which it
replaced.

    REDIS_URL=redis://127.0.0.1:6379/3 .venv/bin/python bench/bench_publish.py [--sends 300]

Prints, for each, the median and p90 wall time of a send and this process's CPU per send (the
threads included), then the threads left running.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
os.environ.setdefault("SECRET_KEY", "bench-only-" + os.urandom(32).hex())
os.environ.setdefault("DEBUG", "false")

import django  # noqa: E402

django.setup()


def main() -> int:
    from asgiref.sync import async_to_sync
    from channels.layers import get_channel_layer

    from config import publish

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sends", type=int, default=300)
    args = parser.parse_args()
    layer = get_channel_layer()
    if not publish._keeps_one_loop(layer):
        raise SystemExit(f"REDIS_URL names no Redis: the layer is {type(layer).__name__}, not Redis pub/sub")
    message = {"type": "sheet.changed", "text": '{"character": 1, "version": 2}'}
    ways = {
        "async_to_sync(layer.group_send)": lambda: async_to_sync(layer.group_send)("bench-publish", message),
        "config.publish.group_send": lambda: publish.group_send(("bench-publish", message)),
    }
    for name, send in ways.items():
        for _ in range(10):
            send()
        walls = []
        cpu = time.process_time()
        for _ in range(args.sends):
            start = time.perf_counter()
            send()
            walls.append((time.perf_counter() - start) * 1000)
        time.sleep(0.2)  # what a send leaves running is counted too
        cpu_ms = (time.process_time() - cpu) * 1000 / args.sends
        walls.sort()
        print(
            f"{name:32} median {statistics.median(walls):6.3f} ms   p90 {walls[int(len(walls) * 0.9)]:6.3f} ms"
            f"   CPU per send {cpu_ms:6.3f} ms"
        )
    print("threads:", sorted(t.name for t in threading.enumerate()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
