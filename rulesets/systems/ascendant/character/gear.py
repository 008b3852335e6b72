"""Ascendant's gear: what it costs in golden pieces (W11) and what it weighs (W12).

The seed: "Buy equipment. You begin with 15 golden pieces (gp). Spend them on weapons, armor, and
gear, keeping in mind what you are trained to use" and Strength "decides how much weight you carry
before it slows you down". The seed's chapter 8 (the equipment) is lost: the catalogues
(``content/weapons.json``, ``armor.json``, ``gear.json``) and their prices and Bulk are house content.

- **Price** in gp (an item without one costs 0): the worn ``armor`` and every ``gear`` entry are
  charged to the ``gp`` budget (``report.charge``); spending more than the gp is ``budget.exceeded`` on
  ``/budget/gp``. The budget is the document's ``budget.gp``, else the house rule ``starting_gp``
  (15 at any level, HD: the seed has no wealth table).
- **Bulk**: a whole number, or ``"L"`` (light): ten light items make 1 Bulk, fewer weigh nothing
  (HD). The worn armor and every gear entry that is ``carried`` (the default; ``"set_down"`` gear is
  owned, not carried) count. ``bulk_limit`` = ``bulk_base`` (5) + Strength: above it the character is
  *encumbered*, Clumsy 1 as a native effect (state.py ``loaded``); above ``overload_base`` (10) +
  Strength the build is ``ascendant.overloaded`` (an error at the entry that crossed the line).
"""

from __future__ import annotations

from typing import Any

from rulesets.engine.context import Context
from rulesets.engine.fields import is_int
from rulesets.engine.pointer import ptr

from .checking import Check
from .tables import _few, _label

#: The catalogues a gear entry's ``item`` may name.
GEAR_KINDS = ("weapons", "gear")
#: What a gear entry may be, in the sheet's words: carried (its Bulk counts) or set down (owned, not
#: carried).
STATES = {"carried": "Carried", "set_down": "Set down"}
LIGHT = "L"
OVERLOADED = "ascendant.overloaded"


def bulk_tenths(value: Any) -> int:
    """An item's Bulk in tenths: a whole number n is 10 n, light ("L") is 1, anything else 0."""
    if is_int(value) and value > 0:
        return value * 10
    return 1 if value == LIGHT else 0


def items_of(ctx_catalogue: dict) -> dict[str, dict]:
    """Every item a gear entry may name: the weapons (not the bare fist) and the gear."""
    out: dict[str, dict] = {}
    for kind in GEAR_KINDS:
        for iid, item in ctx_catalogue.get(kind, {}).items():
            if not item.get("unarmed"):
                out.setdefault(iid, item)
    return out


#: A weapon's numbers when neither the house table nor its entry gives them: a fist's.
_PLAIN_WEAPON = {"die": 4, "attribute": "str", "agile": False, "ranged": False}
_NUMBERS = tuple(_PLAIN_WEAPON)


def _weapon_numbers(numbers: Any) -> dict[str, Any]:
    """The well-formed numbers of a weapon (a house rule or an entry may hold anything)."""
    if not isinstance(numbers, dict):
        return {}
    out: dict[str, Any] = {}
    die = numbers.get("die")
    if is_int(die) and 2 <= die <= 100:
        out["die"] = die
    if numbers.get("attribute") in ("str", "dex", "finesse"):
        out["attribute"] = numbers["attribute"]
    for key in ("agile", "ranged"):
        if isinstance(numbers.get(key), bool):
            out[key] = numbers[key]
    return out


def weapon_table(ctx: Context) -> dict[str, dict[str, Any]]:
    """W21: every weapon of the catalogue (``weapons.json``: name, price, Bulk) with its numbers
    (die, attack attribute, agile, ranged) from the house table ``weapon_table`` (``house.json``, a
    campaign overrides any of them as a house rule); a homebrew weapon's own numbers come first.
    Once per context (``Context.memo``)."""

    def table() -> dict[str, dict[str, Any]]:
        house = ctx.settings.get("weapon_table")
        house = house if isinstance(house, dict) else {}
        out = {}
        for wid, entry in ctx.catalogue.get("weapons", {}).items():
            own = _weapon_numbers(entry) if entry.get("homebrew") else {}
            out[wid] = {**entry, **_PLAIN_WEAPON, **_weapon_numbers(house.get(wid)), **own}
        return out

    return ctx.memo("ascendant.weapon_table", table)


def _armor_load(c: Check, armor: dict) -> tuple[str, int, int]:
    """(name, price in gp, Bulk in tenths) of a suit of armor, once per context and armor."""
    key = ("ascendant.armor_load", armor.get("id"))
    found = c.ctx.cache.get(key)
    if found is not None:
        return found
    price = armor.get("price", 0)
    return c.ctx.memo(
        key,
        lambda: (
            _label(armor, str(armor.get("id"))),
            price if is_int(price) and price > 0 else 0,
            bulk_tenths(armor.get("bulk")),
        ),
    )


def gear(c: Check, armor: dict | None) -> None:
    """Price the armor and the gear in gp, weigh what is carried, and say whether it is too much."""
    report, build = c.report, c.build
    steps: list[tuple[str, int, str]] = []  # (path, tenths carried after it, its name)
    tenths = 0
    if armor is not None:
        name, price, tenths = _armor_load(c, armor)
        if price:
            report.charge("gp", price, path="/armor", label=name)
        steps.append(("/armor", tenths, name))
    raw = build.get("gear")
    if raw is not None and not isinstance(raw, list):
        report.error("build.malformed", "/gear", 'Gear is a list such as [{"item": "dagger"}].')
        raw = None
    items = items_of(c.cat) if raw else {}
    for i, entry in enumerate(raw or ()):
        path = ptr("gear", i)
        if not isinstance(entry, dict):
            report.error("build.malformed", path, 'A gear entry is an object such as {"item": "dagger"}.')
            continue
        item_id = entry.get("item")
        item = items.get(item_id) if isinstance(item_id, str) else None
        if item is None:
            if not isinstance(item_id, str):
                report.error("build.malformed", f"{path}/item", 'Name the item by its id, such as "dagger".')
            else:
                report.error(
                    "skill.unknown",
                    f"{path}/item",
                    f"{item_id!r} is not a weapon or gear here; buy one of {_few(list(items), names=items)}.",
                )
            continue
        name = _label(item, str(item_id))
        price = item.get("price", 0)
        if is_int(price) and price > 0:
            report.charge("gp", price, path=path, label=name)
        state = entry.get("state", "carried")
        if state not in STATES:
            report.error("build.malformed", f"{path}/state", f"{name} is carried or set down, not {state!r}.")
            continue
        if state == "carried":
            tenths += bulk_tenths(item.get("bulk"))
            steps.append((path, tenths, name))
    d = report.derived
    d["bulk"] = bulk = tenths // 10
    if not c.attrs_ok:
        return
    strength = c.attrs.get("str", 0)
    s = c.s
    d["bulk_limit"] = limit = s["bulk_base"] + strength
    overload = s["overload_base"] + strength
    if bulk > limit:
        d["encumbered"] = True
    if bulk > overload:
        path, _, name = next(step for step in steps if step[1] // 10 > overload)
        report.error(
            OVERLOADED,
            path,
            f"Bulk {bulk} is more than you can carry at all ({s['overload_base']} + Strength "
            f"{strength:+d} = {overload}): with the {name} you are overloaded. Set something down or "
            f"leave it behind (above {limit} Bulk you are encumbered, Clumsy 1).",
        )
