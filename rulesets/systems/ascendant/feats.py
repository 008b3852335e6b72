"""Feats that change numbers: the ``effects`` of a feat (content/feats.json or homebrew).

A feat is data. Its ``effects`` list says what it does to the character's numbers, each
effect one object with a ``kind``:

``{"kind": "modifier", "selector": "skill.athletics", "type": "circumstance", "value": 1}``
    a typed bonus (or penalty) to a number, stacked by ``rulesets.engine.modifiers.stack``
    with every other modifier of that number (the seed: only the highest bonus of each
    type). Selectors: ``skill.<id>``, ``skills`` (every skill), ``untrained_skills``,
    ``lore.<id>``, ``lores``, ``defense.<name>``, ``perception``, ``initiative``,
    ``deflection``, ``attack``. ``level_divisor`` adds level // divisor to ``value``
    (never below 0): "half your level" is ``{"value": 0, "level_divisor": 2}``. A
    ``when`` ("against being moved") makes it situational: shown on the sheet, not added.
``{"kind": "stamina_per_level", "value": 1}``
    Maximum Stamina + value × level.
``{"kind": "speed", "value": 5}``
    Speed (feet) + value.
``{"kind": "lore", "value": 1}``
    one more Lore slot.
``{"kind": "proficiency", ...}``
    a granted proficiency: ``"armor": ["heavy"]`` (or ``"next"``: the next heavier
    category), ``"skill": "stealth"`` with ``"rank"`` (trained when left out),
    ``"perception": "expert"``, ``"weapons": ["warhammer"]``.
``{"kind": "action", "action": "power_attack"}``
    an action in combat (``ACTIONS``; combat/ plays them).
``{"kind": "dying_max", "value": 1}``
    one dies at dying (campaign's maximum + value).
``{"kind": "resistance", "damage": "fire", "value": 0, "level_divisor": 2}``
    resistance to a damage type.

Every effect is shown with its source: ``derived["breakdown"]`` lists, per number the
sheet shows, its base and the modifiers that applied or were ignored (with the feat's
name), and ``derived["situational"]`` the bonuses that only apply "when …".
"""

from __future__ import annotations

from typing import Any

from rulesets.engine.context import ID_RE
from rulesets.engine.fields import is_int
from rulesets.engine.modifiers import stack
from rulesets.engine.report import Issue
from rulesets.engine.words import a

EFFECT_KINDS = (
    "modifier",
    "stamina_per_level",
    "speed",
    "lore",
    "proficiency",
    "action",
    "dying_max",
    "resistance",
)
FIXED_SELECTORS = ("skills", "untrained_skills", "lores", "perception", "initiative", "deflection", "attack")
SELECTOR_PREFIXES = ("skill.", "lore.", "defense.")
#: The actions a feat can grant in combat (combat/ plays each), with the words players see.
ACTIONS: dict[str, str] = {
    "power_attack": "Power Attack",
    "sudden_charge": "Sudden Charge",
    "double_slice": "Double Slice",
    "whirlwind_strike": "Whirlwind Strike",
    "reactive_shield": "Reactive Shield",
    "cast_spell": "Cast a Spell (attack)",
}
ARMOR_ORDER = ("unarmored", "light", "medium", "heavy")
EFFECT_KEYS: dict[str, frozenset[str]] = {
    "modifier": frozenset({"kind", "selector", "type", "value", "level_divisor", "when"}),
    "stamina_per_level": frozenset({"kind", "value"}),
    "speed": frozenset({"kind", "value"}),
    "lore": frozenset({"kind", "value"}),
    "proficiency": frozenset({"kind", "armor", "skill", "rank", "perception", "weapons"}),
    "action": frozenset({"kind", "action"}),
    "dying_max": frozenset({"kind", "value"}),
    "resistance": frozenset({"kind", "damage", "value", "level_divisor"}),
}


def signed(n: int) -> str:
    return f"{n:+d}".replace("-", "−")


def amount(effect: dict, level: int) -> int:
    """The effect's number at ``level``: ``value`` (+ level // ``level_divisor``, never below 0)."""
    value = effect.get("value", 0)
    value = value if is_int(value) else 0
    divisor = effect.get("level_divisor")
    if is_int(divisor) and divisor > 0:
        return max(0, value + level // divisor)
    return value


def modifier_text(mod: dict) -> str:
    """ "+1 circumstance from Shield Block" (and "… against being moved" when situational)."""
    kind = f" {mod['type']}" if mod.get("type") else ""
    when = f" {mod['when']}" if mod.get("when") else ""
    return f"{signed(mod['value'])}{kind} from {mod['source']}{when}"


class Effects:
    """What the feats a character holds do, gathered once per check."""

    __slots__ = (
        "modifiers",
        "situational",
        "stamina_per_level",
        "speed",
        "lores",
        "armor",
        "armor_next",
        "skills",
        "perception",
        "weapons",
        "actions",
        "dying_max",
        "resistances",
        "by_selector",
        "_stacked",
        "_per_skill",
        "_present",
        "_sorted_ids",
    )

    def __init__(self) -> None:
        self.modifiers: list[tuple[str, dict]] = []  # (selector, {"value", "type", "source"})
        self.situational: list[dict] = []
        self.stamina_per_level: list[tuple[int, str]] = []
        self.speed: list[tuple[int, str]] = []
        self.lores: list[tuple[int, str]] = []
        self.armor: list[str] = []
        self.armor_next = 0
        self.skills: list[tuple[str, str, str]] = []  # (skill, rank, source)
        self.perception: list[tuple[str, str]] = []  # (rank, source)
        self.weapons: list[str] = []
        self.actions: list[tuple[str, str]] = []  # (action id, source)
        self.dying_max: list[tuple[int, str]] = []
        self.resistances: dict[str, int] = {}
        self.by_selector: dict[str, tuple[int, ...]] = {}  # selector -> indexes into ``modifiers``
        self._stacked: dict[tuple[str, ...], dict | None] = {}
        self._per_skill: dict[str, tuple] | None = None
        self._present: dict[tuple, list[tuple]] = {}
        self._sorted_ids: list[str] | None = None

    @classmethod
    def of(cls, feat_ids: Any, feats_cat: dict, level: int) -> Effects:
        fx = cls()
        for fid in feat_ids:
            feat = feats_cat.get(fid)
            if isinstance(feat, dict):
                fx.add(feat, level)
        for i, (selector, _) in enumerate(fx.modifiers):
            fx.by_selector[selector] = (*fx.by_selector.get(selector, ()), i)
        return fx

    def add(self, feat: dict, level: int) -> None:
        source = feat.get("name", feat.get("id", "a feat"))
        effects = feat.get("effects")
        if not isinstance(effects, list):
            return
        for effect in effects:  # well formed: character/ keeps only effects that pass ``check_effect``
            self._add(effect, source, level)

    def _add(self, e: dict, source: str, level: int) -> None:
        kind = e["kind"]
        if kind == "modifier":
            mod = {"value": amount(e, level), "type": e.get("type"), "source": source}
            if e.get("when"):
                mod["when"] = e["when"]
                self.situational.append({**mod, "selector": e["selector"], "text": modifier_text(mod)})
            else:
                self.modifiers.append((e["selector"], mod))
        elif kind == "stamina_per_level":
            self.stamina_per_level.append((amount(e, level), source))
        elif kind == "speed":
            self.speed.append((amount(e, level), source))
        elif kind == "lore":
            self.lores.append((amount(e, level), source))
        elif kind == "dying_max":
            self.dying_max.append((amount(e, level), source))
        elif kind == "resistance":
            damage = e["damage"]
            self.resistances[damage] = max(self.resistances.get(damage, 0), amount(e, level))
        elif kind == "action":
            if all(a != e["action"] for a, _ in self.actions):
                self.actions.append((e["action"], source))
        elif kind == "proficiency":
            armor = e.get("armor")
            if armor == "next":
                self.armor_next += 1
            elif isinstance(armor, list):
                self.armor += armor
            if e.get("skill"):
                self.skills.append((e["skill"], e.get("rank", "trained"), source))
            if e.get("perception"):
                self.perception.append((e["perception"], source))
            self.weapons += [w for w in e.get("weapons", []) if w not in self.weapons]

    def stamina_parts(self, level: int) -> list[tuple[int, str]]:
        """The Stamina per level of the feats at ``level`` (this ``Effects``'s level), with their words."""
        key = ("stamina_parts", level)
        found = self._present.get(key)
        if found is None:
            found = self._present[key] = [
                (n * level, f"{src} ({signed(n)} per level)") for n, src in self.stamina_per_level
            ]
        return found

    def sorted_ids(self, held: Any) -> list[str]:
        """``sorted(held)``, sorted once per ``Effects`` (it is shared by the characters whose held feats
        are the same set, so their sorted ids are the same): a new list each call."""
        if self._sorted_ids is None:
            self._sorted_ids = sorted(held)
        return list(self._sorted_ids)

    def armor_categories(self, own: list[str]) -> list[str]:
        """The class's armor categories plus the feats' (``next`` = the lightest not yet trained)."""
        out = list(dict.fromkeys([*own, *self.armor]))
        for _ in range(self.armor_next):
            nxt = next((c for c in ARMOR_ORDER if c not in out), None)
            if nxt is None:
                break
            out.append(nxt)
        return out

    def per_skill(self, selectors: dict[str, tuple], names: dict[str, str]) -> dict[str, tuple]:
        """Skill id -> (when trained, when untrained), each None (no feat modifier) or (the stacked total,
        its modifiers, applied, ignored, the skill's name, its breakdown key). Once per ``Effects`` (of one
        context: ``selectors`` and ``names`` are that context's)."""
        if self._per_skill is None:
            self._per_skill = {
                k: (
                    self._skill_part(key, trained, names.get(k, k)),
                    self._skill_part(key, untrained, names.get(k, k)),
                )
                for k, (key, trained, untrained) in selectors.items()
            }
        return self._per_skill

    def _skill_part(self, key: str, selectors: tuple[str, ...], label: str) -> tuple | None:
        stacked = self.stacked(selectors)
        if stacked is None:
            return None
        return (stacked["total"], stacked["modifiers"], stacked["applied"], stacked["ignored"], label, key)

    def present(self, numbers: tuple[tuple[str, str, tuple[str, ...], str], ...]) -> list[tuple]:
        """Of ``numbers`` ((name, breakdown key, selectors, label), a constant tuple), those the feats
        modify, as (name, key, label, stacked): once per ``Effects`` and tuple."""
        try:
            return self._present[numbers]
        except KeyError:
            found = []
            for name, key, selectors, label in numbers:
                stacked = self.stacked(selectors)
                if stacked is not None:
                    found.append((name, key, label, stacked))
            self._present[numbers] = found
            return found

    def stacked(self, selectors: tuple[str, ...]) -> dict | None:
        """The feats' modifiers of ``selectors`` stacked ({"modifiers", "applied", "ignored", "total"}),
        None when there are none. Worked out once per set of modifiers: an ``Effects`` is shared (memo),
        so the lists are read-only."""
        try:
            return self._stacked[selectors]
        except KeyError:
            pass
        found: tuple[int, ...] = ()
        for selector in selectors:
            found += self.by_selector.get(selector, ())
        entry = None
        if found:
            mods = [dict(self.modifiers[i][1]) for i in sorted(found)]
            stacked = stack(mods)
            for mod in stacked["applied"]:
                mod["text"] = modifier_text(mod)
            for mod in stacked["ignored"]:
                mod["text"] = modifier_text(mod) if is_int(mod.get("value")) else str(mod.get("source", ""))
            entry = {"modifiers": mods, **stacked}
        self._stacked[selectors] = entry
        return entry


_FLAT: dict[tuple, tuple[list[dict], int]] = {}


def flat(label: str, base: int, parts: list[tuple[int, str]], unit: str) -> dict[str, Any]:
    """A number raised by untyped amounts (Stamina, speed, Lore slots), each with its source:
    "+5 feet from Fleet"."""
    key = (tuple(parts), unit)
    found = _FLAT.get(key)
    if found is None:  # the parts' texts, shared (read-only) between reports, and their sum
        if len(_FLAT) > 1024:
            _FLAT.clear()
        made = [
            {"value": n, "type": None, "source": src, "text": f"{signed(n)}{unit} from {src}"}
            for n, src in parts
            if n
        ]
        found = _FLAT[key] = (made, sum([n for n, _ in parts if n]))
    applied, amount = found
    return {
        "label": label,
        "base": base,
        "total": base + amount,
        "modifiers": [],
        "applied": applied,
        "ignored": [],
    }


# ------------------------------------------------------------------ homebrew checks


def _selector_ok(selector: Any, names: dict[str, Any]) -> bool:
    if not isinstance(selector, str):
        return False
    if selector in FIXED_SELECTORS:
        return True
    prefix, _, rest = selector.partition(".")
    if prefix + "." not in SELECTOR_PREFIXES or not ID_RE.match(rest):
        return False
    known = names.get(prefix)
    return known is None or rest in known


def check_effect(effect: Any, path: str, names: dict[str, Any]) -> list[Issue]:
    """The field issues of one effect (``homebrew.malformed``), empty when it is well formed.

    ``names`` may give the known ids to check selectors against: {"skill": ..., "defense": ...,
    "ranks": [...]} (left out: any id is accepted)."""
    issues: list[Issue] = []

    def bad(key: str, message: str) -> None:
        issues.append(Issue("homebrew.malformed", f"{path}/{key}" if key else path, message))

    if not isinstance(effect, dict):
        bad(
            "",
            'An effect is an object such as {"kind": "modifier", "selector": "skill.athletics", '
            '"type": "circumstance", "value": 1}.',
        )
        return issues
    kind = effect.get("kind")
    if kind not in EFFECT_KINDS:
        bad("kind", f"An effect's kind is one of {', '.join(EFFECT_KINDS)}.")
        return issues
    for key in effect:
        if key not in EFFECT_KEYS[kind]:
            bad(
                key,
                f"{a(kind.replace('_', ' ')).capitalize()} effect has no {key!r}; its fields are "
                f"{', '.join(sorted(EFFECT_KEYS[kind] - {'kind'}))}.",
            )
    value = effect.get("value", 0)
    if not is_int(value) or abs(value) > 100:
        bad("value", "The value is a whole number from −100 to 100.")
    divisor = effect.get("level_divisor")
    if divisor is not None and (not is_int(divisor) or divisor < 1):
        bad("level_divisor", "level_divisor is a whole number ≥ 1 (2: half your level).")
    if kind == "modifier":
        if not _selector_ok(effect.get("selector"), names):
            bad(
                "selector",
                "Say which number the bonus changes: skill.<skill>, skills, untrained_skills, "
                "lore.<lore>, lores, defense.<defense>, perception, initiative, deflection or attack.",
            )
        kind_of = effect.get("type")
        if kind_of is not None and (not isinstance(kind_of, str) or not ID_RE.match(kind_of)):
            bad("type", "A bonus type is a word such as circumstance, status or item (or null: untyped).")
        if "value" not in effect:
            bad("value", "Give the bonus a value (a whole number; negative for a penalty).")
        when = effect.get("when")
        if when is not None and (not isinstance(when, str) or not when.strip()):
            bad("when", 'When is the situation the bonus needs, in words ("against being moved").')
    elif kind in ("stamina_per_level", "speed", "lore", "dying_max") and "value" not in effect:
        bad("value", "Give the amount (a whole number).")
    elif kind == "action" and effect.get("action") not in ACTIONS:
        bad(
            "action",
            f"A feat can grant one of these actions: {', '.join(ACTIONS.values())} ({', '.join(ACTIONS)}).",
        )
    elif kind == "resistance" and not (
        isinstance(effect.get("damage"), str) and ID_RE.match(effect["damage"])
    ):
        bad("damage", "Name the damage type resisted, such as fire.")
    elif kind == "proficiency":
        _check_proficiency(effect, names, bad)
    return issues


def _check_proficiency(effect: dict, names: dict[str, Any], bad) -> None:
    ranks = names.get("ranks")
    if not any(k in effect for k in ("armor", "skill", "perception", "weapons")):
        bad("", "A proficiency effect grants armor, a skill, perception or weapons.")
    armor = effect.get("armor")
    if (
        armor is not None
        and armor != "next"
        and (not isinstance(armor, list) or not all(a in ARMOR_ORDER for a in armor))
    ):
        bad("armor", f'Armor is "next" or a list of {", ".join(ARMOR_ORDER)}.')
    skill = effect.get("skill")
    if skill is not None and not (
        isinstance(skill, str) and (names.get("skill") is None or skill in names["skill"])
    ):
        bad("skill", f"{skill!r} is not a skill.")
    for key in ("rank", "perception"):
        rank = effect.get(key)
        if rank is not None and (not isinstance(rank, str) or (ranks and rank not in ranks[1:])):
            bad(key, f"A rank is one of {', '.join((ranks or ['trained'])[1:])}.")
    weapons = effect.get("weapons")
    if weapons is not None and (
        not isinstance(weapons, list) or not all(isinstance(w, str) and ID_RE.match(w) for w in weapons)
    ):
        bad("weapons", 'Weapons are a list of ids such as ["warhammer"].')
