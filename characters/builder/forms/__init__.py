"""The builder form ↔ the build document, in one place.

Field names are JSON Pointers into the build (``name="/attributes/strength"``), so the
form needs no per-ruleset code: ``build_from_post`` walks the ruleset's traits
(``Ruleset.traits(ctx)["sections"]``) and reads each section by its kind.

Markers and actions that ride along in the same POST:

- ``_section`` (one per rendered section, its id): only those sections are read;
  the rest of the build (format, ruleset, budget, anything the form does not show)
  comes from ``base_build``.
- ``_count:<path>``: how many entries a list of objects (items, records) has on the page.
- ``<path>/-``: append (JSON Pointer's "end of list"): the id of an item to add.
- ``_add=<path>``: append an empty record; ``_remove=<path>/<i>``: remove an entry;
  ``_step=<path>|<delta>``: a stepper's − / + button.
- ``_list=<pointer>`` (custom widgets): the value at that pointer is a list of the
  values posted under it.

A value that does not parse keeps its raw string so that the rules service reports it
(``build.malformed`` at its path): the builder never answers a 500 to a typo.
"""

from .binding import apply_steps, build_from_post, builder_meta
from .fields import html_id
from .parsing import READERS, parse_int, ptr_join
from .sections import SHAPERS, WidgetUI, builder_form

__all__ = [
    "READERS",
    "SHAPERS",
    "WidgetUI",
    "apply_steps",
    "build_from_post",
    "builder_form",
    "builder_meta",
    "html_id",
    "parse_int",
    "ptr_join",
]
