"""Coin's builder widget: the purse, one coin per point of Luck."""

from __future__ import annotations

from typing import Any


def purse(raw: dict, build: dict, report: dict, ui: Any) -> dict:
    luck = build.get("luck") if isinstance(build.get("luck"), int) else 1
    return {"coins": ["●"] * max(luck, 0), "spent": (report.get("spent") or {}).get("coins", 0)}


WIDGETS = {"coin_purse": purse}
