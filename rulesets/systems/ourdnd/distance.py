"""Our D&D's distances (seed 003 "MOVMENT AND DISTANCE"): CLOSE, NEAR, FAR, VERY FAR and
OUT OF RANGE, what a move covers and what a weapon reaches. Plain functions over the
encounter state; the combat hooks (combat/) use them.

The representation (the seed supports it: "if you are usig some squared grid ... this a
reference: CLOSE: from 0 to 1 meter. NEAR: 10 meters approximately. FAR: 20 meters
approximately. VERY FAR: 40 meters approximately. OUT OF RANGE: beyond 40 or 50 meters"):
every combatant stands on one line of zones, each zone a NEAR step (~10 m) from the next.
``encounter_state["positions"]`` keeps each combatant's zone (``{"<id>": 0}``) and
``encounter_state["names"]`` its name (the page shows the bands by name). The band between
two combatants is how many steps apart they are: 0 CLOSE, 1 NEAR, 2 FAR, 3–4 VERY FAR, 5 or
more (beyond 40 m, which is beyond 50 m on a 10 m grid too) OUT OF RANGE.

Moves (seed "THREE KINDS OF TURNS"): a NEAR move covers one step ("a few big steps"), a FAR
move two ("move twice as far as normal"), so VERY FAR and OUT OF RANGE are never covered in
one turn ("It's impossible to get a VERY FAR distance in a turn by normal ways").

Reach: an item's ``reach`` (content/gear.json: melee CLOSE, hand thrown NEAR, a bowshot FAR,
longbows and heavy crossbows VERY FAR), else the campaign's ``reach_by_kind`` for its kind
(house default where the seed is silent: gunpowder and magic), else CLOSE (used by hand,
"If you can reach it with your hands ... it's CLOSE"). At VERY FAR hitting is HARD; nothing
reaches OUT OF RANGE.

House default (content/house.json): ``start_distance``, how far apart the two sides start
(each side's combatants start CLOSE to each other); the DM places anyone afterwards.
"""

from __future__ import annotations

from typing import Any

from rulesets.engine.context import Context
from rulesets.engine.fields import get_as, is_int
from rulesets.engine.pointer import ptr
from rulesets.engine.report import Issue

BANDS = ("close", "near", "far", "very_far", "out_of_range")
WORDS = {
    "close": "CLOSE",
    "near": "NEAR",
    "far": "FAR",
    "very_far": "VERY FAR",
    "out_of_range": "OUT OF RANGE",
}
#: Where a band starts, in NEAR steps of ~10 m (the seed's reference measurements).
STEPS = {"close": 0, "near": 1, "far": 2, "very_far": 4, "out_of_range": 5}
#: The bands as the choices of a form (read-only: shared by every action that offers them).
BAND_OPTIONS = tuple({"id": b, "label": WORDS[b]} for b in BANDS)
#: NEAR steps a move covers: a NEAR move, and a FAR move ("twice as far as normal").
MOVE_STEPS = {"near": 1, "far": 2}
#: How each band reads after a combatant's name: "NEAR Wren", "FAR from the goblin".
_PHRASE = {
    "close": "CLOSE to",
    "near": "NEAR",
    "far": "FAR from",
    "very_far": "VERY FAR from",
    "out_of_range": "OUT OF RANGE of",
}


def band_of(steps: int) -> str:
    """The band of a distance of ``steps`` NEAR steps."""
    steps = abs(steps)
    if steps == 0:
        return "close"
    if steps == 1:
        return "near"
    if steps == 2:
        return "far"
    if steps < STEPS["out_of_range"]:
        return "very_far"
    return "out_of_range"


def word(band: str) -> str:
    """The seed's word for a band: "VERY FAR"."""
    return WORDS.get(band, band)


def phrase(band: str, name: str) -> str:
    """ "NEAR Wren", "CLOSE to Goblin 1", "OUT OF RANGE of the archer"."""
    return f"{_PHRASE.get(band, word(band))} {name}"


def farther(a: str, b: str) -> bool:
    """Band ``a`` is beyond band ``b``."""
    return BANDS.index(a) > BANDS.index(b)


# ---------------------------------------------------------------- house defaults


def start_band(ctx: Context) -> str:
    """How far apart the sides start (``start_distance``; CLOSE when the campaign names no band)."""
    value = ctx.settings.get("start_distance", "close")
    return value if value in STEPS else "close"


def reach(item: dict[str, Any] | None, ctx: Context) -> tuple[str, bool]:
    """(the farthest band ``item`` reaches, whether that is a house default). No item: bare hands."""
    if not item:
        return "close", False
    own = item.get("reach")
    if own in STEPS:
        return own, False
    by_kind = ctx.settings.get("reach_by_kind")
    kind_reach = by_kind.get(item.get("kind")) if isinstance(by_kind, dict) else None
    if kind_reach in STEPS:
        return kind_reach, True
    return "close", False


def check_house_rules(settings: dict) -> list[Issue]:
    """The campaign's distance house rules name bands the rules know (``settings.malformed``)."""
    issues = []
    start = settings.get("start_distance")
    if isinstance(start, str) and start not in STEPS:
        issues.append(
            Issue(
                "settings.malformed",
                "/start_distance",
                "The sides start close, near, far, very_far or out_of_range from each other.",
            )
        )
    by_kind = settings.get("reach_by_kind")
    if isinstance(by_kind, dict):
        for kind, band in by_kind.items():
            if band not in STEPS or band == "out_of_range":
                issues.append(
                    Issue(
                        "settings.malformed",
                        ptr("reach_by_kind", kind),
                        f"Gear of the kind {kind!r} reaches close, near, far or very_far (nothing "
                        "reaches out of range).",
                    )
                )
    return issues


# ---------------------------------------------------------------- the line of zones


def positions(es: dict) -> dict[str, int]:
    raw = es.get("positions")
    return {k: v for k, v in raw.items() if is_int(v)} if isinstance(raw, dict) else {}


def home(is_npc: bool, ctx: Context) -> int:
    """Where a side starts: the players' side at zone 0, the DM's side ``start_distance`` away."""
    return STEPS[start_band(ctx)] if is_npc else 0


def at(es: dict, fighter: Any, ctx: Context) -> int:
    """``fighter``'s zone (its side's start when the encounter has not placed it)."""
    return positions(es).get(str(fighter.id), home(fighter.is_npc, ctx))


def between(es: dict, a: Any, b: Any, ctx: Context) -> str:
    """The band between two combatants."""
    return band_of(at(es, a, ctx) - at(es, b, ctx))


def away_side(es: dict, actor: Any, other: Any, ctx: Context) -> int:
    """+1 or −1: the direction from ``other`` towards ``actor`` on the line (when they share a
    zone, the actor's side's: the players' side lies towards −1)."""
    diff = at(es, actor, ctx) - at(es, other, ctx)
    if diff:
        return 1 if diff > 0 else -1
    return 1 if actor.is_npc else -1


def placed(es: dict, changes: dict[str, int], names: dict[str, str] | None = None) -> dict:
    """A new encounter state with ``changes`` to the positions (and names); ``es`` is not changed."""
    out = dict(es)
    out["positions"] = {**positions(es), **changes}
    old_names = get_as(es, "names", dict, {})
    out["names"] = {**old_names, **(names or {})}
    return out


def pruned(es: dict, ids: set[str]) -> dict | None:
    """The encounter state without the positions of combatants no longer in it; None when none."""
    pos = positions(es)
    names = get_as(es, "names", dict, {})
    stale = (set(pos) | set(names)) - ids
    if not stale:
        return None
    return {
        **es,
        "positions": {k: v for k, v in pos.items() if k not in stale},
        "names": {k: v for k, v in names.items() if k not in stale},
    }


def bands_from(es: dict, fighter: Any, ctx: Context) -> list[tuple[str, str]]:
    """(name, band) of every other placed combatant, as seen from ``fighter``."""
    pos = positions(es)
    names = get_as(es, "names", dict, {})
    me = at(es, fighter, ctx)
    return [
        (str(names.get(fid, "")), band_of(me - where))
        for fid, where in pos.items()
        if fid != str(fighter.id) and names.get(fid)
    ]
