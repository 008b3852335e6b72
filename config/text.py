"""What text Sheetforge accepts, in one place: the JSON API's parser and every HTML form use it.

Postgres cannot store NUL (in text or jsonb) and UTF-8 cannot carry an unpaired surrogate (a JSON
"\\ud800" escape decodes to one). Either, let through, is a 500 somewhere further in; refused at
the door it is a 400 that names the field.
"""

from __future__ import annotations

import re
from typing import Any

#: NUL and the surrogate range: text nobody types and nothing downstream can keep.
UNSTORABLE = re.compile("[\x00\ud800-\udfff]")
#: The reason given to people (API ``errors[].message`` and form field errors alike).
UNSTORABLE_MESSAGE = "Text may not contain NUL characters or unpaired surrogates."
UNSTORABLE_KEY_MESSAGE = "Keys may not contain NUL characters or unpaired surrogates."


def is_storable(text: str) -> bool:
    """True when ``text`` holds neither NUL nor an unpaired surrogate."""
    return UNSTORABLE.search(text) is None


def unstorable_at(value: Any) -> str | None:
    """The JSON Pointer of the first string (or key) in ``value`` that is not storable, else None.

    ``value`` is plain data (str, dict, list and scalars), as json.loads gives it."""
    stack: list[tuple[Any, str]] = [(value, "")]
    while stack:
        node, path = stack.pop()
        if isinstance(node, str):
            if not is_storable(node):
                return path
        elif isinstance(node, dict):
            for key, item in node.items():
                token = str(key).replace("~", "~0").replace("/", "~1")
                if isinstance(key, str) and not is_storable(key):
                    return f"{path}/{token}"
                stack.append((item, f"{path}/{token}"))
        elif isinstance(node, (list, tuple)):
            stack.extend((item, f"{path}/{i}") for i, item in enumerate(node))
    return None
