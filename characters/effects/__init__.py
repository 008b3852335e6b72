"""Effects on characters: named conditions and custom ones, with durations (rulesets/engine/effects.py
holds the rules; this feature keeps them in the play state, on the clock, and behind the doors)."""
