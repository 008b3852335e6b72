"""JSON Pointers (RFC 6901): every Issue path is one."""

from __future__ import annotations

from typing import Any

#: "No value": ``resolve``'s default that raises, ``set_at``'s value that deletes.
MISSING = _MISSING = object()


#: Escaped text tokens seen before (keys, ids: a small, bounded vocabulary in practice).
_ESCAPED: dict[str, str] = {}


def escape(token: Any) -> str:
    if type(token) is str:
        out = _ESCAPED.get(token)
        if out is None:
            out = token.replace("~", "~0").replace("/", "~1")
            if len(_ESCAPED) > 4096:
                _ESCAPED.clear()
            _ESCAPED[token] = out
        return out
    return str(token).replace("~", "~0").replace("/", "~1")


def unescape(token: str) -> str:
    return token.replace("~1", "/").replace("~0", "~")


def ptr(*tokens: Any) -> str:
    """``ptr("skills", 2)`` → ``"/skills/2"``; ``ptr()`` → ``""`` (the whole document)."""
    out = ""
    for token in tokens:
        if type(token) is str:
            text = _ESCAPED.get(token)
            if text is None:
                text = escape(token)
        else:
            text = escape(token)
        out += "/" + text
    return out


def join(base: str, *tokens: Any) -> str:
    return base + ptr(*tokens)


def split(pointer: str) -> list[str]:
    if pointer == "":
        return []
    if not pointer.startswith("/"):
        raise ValueError(f"not a JSON pointer: {pointer!r}")
    return [unescape(t) for t in pointer[1:].split("/")]


def resolve(doc: Any, pointer: str, default: Any = _MISSING) -> Any:
    """The value at ``pointer`` in ``doc``; ``default`` (or KeyError) when it is not there."""
    node = doc
    for token in split(pointer):
        if isinstance(node, dict) and token in node:
            node = node[token]
        elif isinstance(node, list) and token.isdigit() and int(token) < len(node):
            node = node[int(token)]
        else:
            if default is _MISSING:
                raise KeyError(pointer)
            return default
    return node


def set_at(doc: Any, pointer: str, value: Any) -> Any:
    """Set ``value`` at ``pointer`` in ``doc`` (creating objects on the way); returns ``doc``.

    ``value is MISSING`` deletes the key (``delete_at``). A token "-" on a list appends. A path
    through a list index that is not there changes nothing. The one JSON-pointer writer: the
    builder's forms and the sheet's pools write through it.
    """
    tokens = split(pointer)
    if not tokens:
        return value
    node = doc
    for token in tokens[:-1]:
        if isinstance(node, list):
            if token.isdigit() and int(token) < len(node):
                node = node[int(token)]
                continue
            return doc  # nowhere to put it: the list is shorter than the form thought
        if not isinstance(node, dict):
            return doc
        if not isinstance(node.get(token), (dict, list)):
            node[token] = {}
        node = node[token]
    last = tokens[-1]
    if isinstance(node, list):
        if last == "-":
            if value is not MISSING:
                node.append(value)
        elif last.isdigit() and int(last) < len(node):
            if value is MISSING:
                del node[int(last)]
            else:
                node[int(last)] = value
    elif isinstance(node, dict):
        if value is MISSING:
            node.pop(last, None)
        else:
            node[last] = value
    return doc


def delete_at(doc: Any, pointer: str) -> Any:
    return set_at(doc, pointer, MISSING)
