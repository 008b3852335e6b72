"""Tests wait on events, never on time (issue 33).

A test that needs something to have happened waits for that thing: a page's state (Playwright's
``expect`` and ``wait_for_function``), a message on a socket, a ``threading.Event`` — or, when the
thing is only seen by asking (a row in the database, a process's pid, a port that answers), by
asking again until it holds, with a deadline: ``poll`` below, the one polling loop of the tests.

A fixed pause is left only where the time itself is what is tested (emulated latency, a slow
endpoint, a press held, a timeout or a cooling-off exercised); such a line carries the comment
``# deliberate wait:`` with its reason, and tests/test_layout.py refuses any other.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")

#: The comment a deliberate pause carries on its line (tests/test_layout.py).
DELIBERATE = "# deliberate wait:"


def poll(
    read: Callable[[], T], *, until: Callable[[T], object] = bool, timeout: float = 10.0, every: float = 0.05
) -> T:
    """``read()`` again and again until ``until`` holds for what it returned, or ``timeout``
    seconds have passed; its last value either way (the caller asserts on it, so a miss says what
    was seen rather than only that time ran out)."""
    deadline = time.monotonic() + timeout
    while True:
        value = read()
        if until(value) or time.monotonic() >= deadline:
            return value
        time.sleep(every)  # deliberate wait: the interval between two looks at what is awaited
