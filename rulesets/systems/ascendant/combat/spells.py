"""Ascendant's spells in a fight (W10): a spell attack against Deflection, and a spell a defense
resists — "you roll a defense check against the threshold of the effect, such as the spell threshold
of whoever cast the spell" (seed 002, "Game Basics"). A mixin of ``AscendantCombat`` (``__init__.py``),
whose helpers (``_derived``, ``_attr``, ``_attack``, ``_deflection``, ``_request``…) it calls."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rulesets.engine.combat import ActionSpec, Fighter, Outcome
from rulesets.engine.dice import Roller
from rulesets.engine.fields import is_int
from rulesets.engine.modifiers import Stacked, stack

from .. import dice as checks
from ..character import DEFENSES

if TYPE_CHECKING:
    from rulesets.engine.context import Context

#: The defense a spell's target resists with unless the caster names another (HD: Spirit, the seed's
#: "a spell reaches for your mind").
SAVE_DEFAULT = "spirit"


def d20_text(face: int) -> str:
    """A d20 face in the log's words: "d20 20 (natural 20)"."""
    return f"d20 {face}" + (" (natural 20)" if face == 20 else " (natural 1)" if face == 1 else "")


def roll_data(
    target: Fighter, roll: dict[str, Any], threshold: int, request: dict[str, Any]
) -> dict[str, Any]:
    """What a log line of a rolled check keeps (a Strike's, a spell's): the target, the faces, the
    total against the threshold, the degree and the request the odds were read from."""
    return {
        "target": target.id,
        "faces": list(roll["faces"]),
        "total": roll["total"],
        "threshold": threshold,
        "outcome": roll["outcome"],
        "odds": request,
    }


class SpellsMixin:
    """The spell actions of ``AscendantCombat``."""

    if TYPE_CHECKING:

        def ctx_of(self, fighter: Fighter | None = None, ctx: Context | None = None) -> Context: ...
        def _derived(self, f: Fighter) -> dict: ...
        def _attr(self, f: Fighter, attr: str) -> int: ...
        def _key_attr(self, f: Fighter) -> str: ...
        def _cond_mods(self, f: Fighter, tags: set[str]) -> list[dict]: ...
        def _feat_part(self, f: Fighter, key: str, base: int) -> tuple[int, list[dict]]: ...
        def _attack(
            self, f: Fighter, attr: str, *, attacks: int = 0, agile: bool = False, tag: str = "attack"
        ) -> tuple[int, Stacked]: ...
        def _deflection(self, f: Fighter) -> tuple[int, Stacked]: ...
        def _request(
            self, f: Fighter, modifier: int, stacked: Stacked, threshold: int, rollable_id: str | None = None
        ) -> dict[str, Any]: ...
        def _opponents(self, actor: Fighter, fighters: list[Fighter]) -> list[Fighter]: ...
        def _apply_damage(self, out: Outcome, target: Fighter, amount: int) -> str: ...
        def cannot_act(self, f: Fighter, *, ctx: Any = None) -> tuple[str, str]: ...

    def _spell_attr(self, f: Fighter) -> str:
        """The attribute the fighter's spells use: the class's ``casts`` (W10), else its key attribute."""
        casts = self._derived(f).get("spell_attribute")
        return casts if isinstance(casts, str) else self._key_attr(f)

    def _spell_threshold(self, f: Fighter) -> tuple[int, Stacked]:
        """The caster's spell threshold (W10, ``derived.thresholds.spell``; a non-caster's spark: the
        house ``threshold_base`` (10) + proficiency + its key attribute, as every other threshold) with
        its conditions stacked in, as a threshold it sets."""
        derived = self._derived(f)
        base = (derived.get("thresholds") or {}).get("spell")
        attr = self._spell_attr(f)
        if not is_int(base):
            base = (
                self.ctx_of(f).settings.get("threshold_base", 10)
                + (derived.get("proficiency_bonus", 0) or 0)
                + self._attr(f, attr)
            )
        stacked = stack(self._cond_mods(f, {"all", "spell", f"attr:{attr}"}))
        return base + stacked["total"], stacked

    def _defense_check(self, f: Fighter, defense: str) -> tuple[int, Stacked]:
        """A defense check of ``f`` (d20 + the defense), its feats' and conditions' modifiers stacked."""
        attr = DEFENSES.get(defense, "str")
        base, mods = self._feat_part(
            f, f"defense.{defense}", (self._derived(f).get("defenses") or {}).get(defense, 0) or 0
        )
        mods += self._cond_mods(f, {"all", "defense", f"defense.{defense}", f"attr:{attr}"})
        stacked = stack(mods)
        return base + stacked["total"], stacked

    def _spell_save_spec(self, actor: Fighter, fighters: list[Fighter], dice: int) -> ActionSpec:
        """Cast a Spell that a defense resists (the seed: "you roll a defense check against the
        threshold of the effect, such as the spell threshold of whoever cast the spell"): the odds are
        the target's defense check against the caster's spell threshold."""
        threshold, _ = self._spell_threshold(actor)
        foes = [f for f in self._opponents(actor, fighters) if self.cannot_act(f)[1] != "ascendant.dead"]
        odds = None
        if foes:
            modifier, stacked = self._defense_check(foes[0], SAVE_DEFAULT)
            odds = self._request(foes[0], modifier, stacked, threshold, f"defense.{SAVE_DEFAULT}")
        return ActionSpec(
            id="cast_spell_save",
            label="Cast a Spell (defense)",
            cost=f"2 actions ({dice}d6 damage; the target rolls a defense against spell threshold "
            f"{threshold}: critical success none, success half, failure full, critical failure double)",
            target="enemy",
            params=[
                {
                    "id": "defense",
                    "label": "Defense",
                    "kind": "choice",
                    "default": SAVE_DEFAULT,
                    "options": [{"id": d, "label": d.title()} for d in DEFENSES],
                }
            ],
            odds=odds,
        )

    def _spell_dice(self, f: Fighter) -> int:
        level = self._derived(f).get("level", 1)
        return max(1, ((level if is_int(level) else 1) + 1) // 2)

    def _spell(self, out: Outcome, actor: Fighter, target: Fighter, roller: Roller, *, spent: str) -> None:
        key = self._spell_attr(actor)
        modifier, stacked = self._attack(actor, key, tag="spell")
        threshold, _ = self._deflection(target)
        request = self._request(actor, modifier, stacked, threshold)
        modifier = request["modifier"]
        roll = checks.roll(request, roller)
        outcome = roll["outcome"]
        head = (
            f"{actor.name} casts a spell at {target.name} ({spent}): {d20_text(roll['faces'][0])} {modifier:+d} = "
            f"{roll['total']} vs Deflection {threshold}: {checks.DEGREE_TEXT[outcome]}"
        )
        data = roll_data(target, roll, threshold, request)
        if outcome in ("success", "critical_success"):
            dice = roller.roll(self._spell_dice(actor), 6)
            damage = sum(dice) * (2 if outcome == "critical_success" else 1)
            data.update(damage=damage, damage_faces=dice)
            text = self._apply_damage(out, target, damage)
            crit = " ×2 (critical hit)" if outcome == "critical_success" else ""
            out.log(
                "spell",
                f"{head} — {damage} damage ({len(dice)}d6 {'+'.join(map(str, dice))}{crit}). {text}",
                actor.id,
                **data,
            )
        else:
            out.log("spell", f"{head} — miss.", actor.id, **data)

    def _spell_save(
        self, out: Outcome, actor: Fighter, target: Fighter, defense: str, roller: Roller, *, spent: str
    ) -> None:
        """The target's defense check against the caster's spell threshold; damage by its degree."""
        threshold, _ = self._spell_threshold(actor)
        modifier, stacked = self._defense_check(target, defense)
        request = self._request(target, modifier, stacked, threshold, f"defense.{defense}")
        modifier = request["modifier"]
        roll = checks.roll(request, roller)
        outcome = roll["outcome"]
        head = (
            f"{actor.name} casts a spell at {target.name} ({spent}): {target.name} rolls {defense.title()} "
            f"{d20_text(roll['faces'][0])} {modifier:+d} = {roll['total']} vs spell threshold {threshold}: "
            f"{checks.DEGREE_TEXT[outcome]}"
        )
        data = {**roll_data(target, roll, threshold, request), "defense": defense}
        if outcome == "critical_success":
            out.log("spell", f"{head} — no damage.", actor.id, **data)
            return
        dice = roller.roll(self._spell_dice(actor), 6)
        rolled = sum(dice)
        damage, how = {
            "success": (rolled // 2, " ÷2 (success: half)"),
            "failure": (rolled, ""),
            "critical_failure": (rolled * 2, " ×2 (critical failure)"),
        }[outcome]
        data.update(damage=damage, damage_faces=dice)
        text = self._apply_damage(out, target, damage) if damage else f"{target.name} takes no damage."
        out.log(
            "spell",
            f"{head} — {damage} damage ({len(dice)}d6 {'+'.join(map(str, dice))}{how}). {text}",
            actor.id,
            **data,
        )
