"""Maelstrom's build: the groups, categories and kinds, and the keys a document may hold."""

from __future__ import annotations

import re

GROUPS = ("physical", "mental")
CATEGORIES = ("talent", "skill", "knowledge")
KINDS = ("general", "advanced")
SPECIALTY_KEYS = frozenset({"ability", "name", "kind", "notes"})
CREATION_KEYS = frozenset({"primary", "attributes", "abilities"})
_PAREN_RE = re.compile(r"\s*\(.*\)\s*$")
