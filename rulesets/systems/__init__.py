"""One folder per ruleset. The registry finds them here; ``ORDER`` is the order the product lists
them in (a folder not named here comes after these, alphabetically)."""

ORDER: tuple[str, ...] = ("pando", "paragon", "ascendant", "ourdnd", "maelstrom")
