"""The GM's NPC library: keep NPC builds, add N of one (or of a ready archetype) to an encounter."""
