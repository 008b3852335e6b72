"""Zero willpower in a fight (seed "Zero Willpower"; RULES.md W18): out of the fight, and the rally.

"Once a character is longer directly threatened … they can recover by themselves and act
normally. This requires being fully out of combat for at least one turn and can usually be
accomplished by finding a decent hiding spot, being fully behind sturdy solid cover, or fleeing.
However, this only resolves the incapacitation and does not recover a dot of willpower."
"If another character is sufficiently motivating or encouraging, they may spend one dot of their
own willpower to restore nearby incapacitated characters to one dot."

- ``take_cover`` (the fighter's own, on their turn, allowed at 0 willpower: the seed's
  incapacitated "continue to act passively to … hide, crawl away from danger"): out of the fight.
  When their next turn starts still out of it, a whole turn has passed: at 0 willpower they act
  normally again (the play-state action ``out_of_combat``), still at 0 dots. Any action of the
  turn brings them back into the fight.
- ``rally`` (the turn's action): spend a dot to restore an ally at 0 willpower to one dot (the
  play-state actions ``rally`` and ``rallied``). Rulings (RULINGS.md): it takes the rallier's
  action, and their last dot may go.
- ``gm_out_of_combat`` (GM): the storyteller says the fighter has been out of combat for a turn.

Called from the package's ``MaelstromCombat`` (combat/__init__.py).
"""

from __future__ import annotations

from typing import Any

from rulesets.engine.combat import ActionSpec, CombatRefused, Fighter, Outcome

#: ``MaelstromCombat`` (combat/__init__.py; not imported: it imports this module).
MaelstromCombat = Any

ACTIONS = ("take_cover", "rally", "gm_out_of_combat")


def _at_zero(fx: dict) -> bool:
    """Incapacitated by 0 willpower alone (not a full track, not dead)."""
    return fx["willpower"] == 0 and not fx["acting_normally"] and not fx["dead"]


def specs(rules: MaelstromCombat, actor: Fighter, fx: dict, on_turn: bool, gate) -> list[ActionSpec]:
    """``take_cover`` (gated here: it is open at 0 willpower), ``rally`` (``gate``: the rules every turn
    action has) and the GM's ``gm_out_of_combat``."""
    cover = ActionSpec(
        id="take_cover",
        label="Hide, take full cover or flee (out of the fight)",
        cost="the turn; a whole turn out of the fight lets a character at 0 willpower act again",
    )
    full = sum(fx["damage"].values()) >= len(rules._chart_labels(actor))
    if fx["dead"]:
        cover.deny(f"{actor.name} is dead.", "maelstrom.dead")
    elif full:
        cover.deny(
            f"{actor.name} is incapacitated (the health track is full) and cannot act.",
            "maelstrom.incapacitated",
        )
    elif not on_turn:
        cover.deny(*rules.not_your_turn(actor))
    elif (actor.combat or {}).get("out_of_fight"):
        cover.deny(f"{actor.name} is already out of the fight.", "maelstrom.out_of_fight")
    rally = gate(
        ActionSpec(
            id="rally",
            label="Rally an ally at 0 willpower",
            cost="the turn's action and 1 willpower: the ally is back to 1 dot",
            target="ally",
        )
    )
    if fx["willpower"] < 1:
        rally.deny(f"{actor.name} has no willpower left to rally anyone with.", "maelstrom.no_willpower")
    gm = ActionSpec(
        id="gm_out_of_combat",
        label="Out of combat for a turn (acts again at 0 willpower)",
        cost="GM",
        gm=True,
        reaction=True,
    )
    if not _at_zero(fx):
        gm.deny(
            f"{actor.name} is not incapacitated by 0 willpower.",
            "maelstrom.has_willpower" if fx["willpower"] else "maelstrom.already_acting",
        )
    return [cover, rally, gm]


def perform(
    rules: MaelstromCombat, aid: str, action: dict, actor: Fighter, fighters: list[Fighter], out: Outcome
) -> dict[str, Any]:
    """Carry out one of ``ACTIONS``; returns the actor's new combat numbers."""
    combat = rules.combat_numbers(actor)
    if aid == "take_cover":
        combat["out_of_fight"] = True
        out.log(
            "take_cover",
            f"{actor.name} gets out of the fight (hidden, behind full cover or fleeing).",
            actor.id,
        )
        out.end_turn = True
    elif aid == "gm_out_of_combat":
        new_state, text = rules.play_state_action(actor, actor.state, {"action": "out_of_combat"})
        out.state[actor.id] = new_state
        out.log(aid, f"GM: {actor.name}: {text}", actor.id)
    elif aid == "rally":
        target = rules.target_of(action, fighters)
        if target.id == actor.id:
            raise CombatRefused("combat.invalid_target", f"{actor.name} cannot rally themselves.")
        rallied, text = rules.play_state_action(target, target.state, {"action": "rallied", "by": actor.name})
        spent, spend_text = rules.play_state_action(
            actor, actor.state, {"action": "rally", "target_name": target.name}
        )
        out.state[target.id] = rallied
        out.state[actor.id] = spent
        combat["acted"] = True
        combat["out_of_fight"] = False
        out.log("rally", f"{actor.name}: {spend_text} {target.name}: {text}", actor.id, target=target.id)
    return combat


def turn_opening(rules: MaelstromCombat, actor: Fighter) -> tuple[dict | None, str]:
    """A whole turn out of the fight has passed when the fighter's next turn starts still out of it:
    at 0 willpower they collect themselves (``out_of_combat``) and act normally, still at 0 dots."""
    if not (actor.combat or {}).get("out_of_fight") or not _at_zero(rules.effects_of(actor)):
        return None, ""
    new_state, text = rules.play_state_action(actor, actor.state, {"action": "out_of_combat"})
    return new_state, f"{actor.name}: {text}"
