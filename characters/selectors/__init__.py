"""Reads: `<entity>_<query>` functions that apply the user's rights (one module per feature, as services/)."""
