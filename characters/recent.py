"""``Recent``: a small map of a process's recently used answers, for the rules' answers about a
character worked out once per version (the sheet's, characters/sheet/selectors.py; the party's,
characters/party/selectors.py). Kept in a campaign rules context's memo, so a change of house rules
or homebrew starts afresh; keyed by what the answers are worked out from."""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Any


class Recent:
    """A small map that forgets the least recently used entry past ``size``."""

    def __init__(self, size: int):
        self.size = size
        self.items: OrderedDict[Any, Any] = OrderedDict()
        self.lock = threading.Lock()

    def __deepcopy__(self, memo: dict) -> Recent:
        # Kept in the campaign context's memo, which a copy of a fighter's report copies too: a
        # cache is shared, never copied (its lock could not be).
        return self

    def get(self, key: Any) -> Any:
        with self.lock:
            value = self.items.get(key)
            if value is not None:
                self.items.move_to_end(key)
            return value

    def put(self, key: Any, value: Any) -> None:
        with self.lock:
            self.items[key] = value
            self.items.move_to_end(key)
            while len(self.items) > self.size:
                self.items.popitem(last=False)
