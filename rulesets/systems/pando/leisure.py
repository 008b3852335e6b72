"""Pando's actions at leisure, and chanced (seed 000 "Actions"; RULES.md 1 HD "At leisure" and W4).

"At leisure actions don't require a die roll, instead treating the situation as if the character
succeeded to the best of their ability": EP = the skill's level (house default ``leisure_ep``), spent
on the action's outcomes as a roll's are (W1). "At leisure actions can optionally be chanced and taken
with a die roll, allowing for a possibly greater effect than they would otherwise be able to achieve,
or possibly a worse one … a chanced at leisure action cannot be repeated, even if the result is
lesser than it would have been had it not been chanced."

A chanced roll marks its skill in the play state (``state.CHANCED``); taking that skill's action at
leisure, or chancing it again, is refused (``pando.chanced_repeat``) until the campaign's clock moves
on, which clears the marks (``time_passes``). The same action is the skill (RULINGS.md). The sheet
shows, before chancing, the exact odds of more, as many or fewer EP than at leisure
(``with_odds``).
"""

from __future__ import annotations

from typing import Any

from rulesets.engine.clock import Passage
from rulesets.engine.errors import StateError
from rulesets.engine.fields import get_as
from rulesets.engine.report import Report
from rulesets.engine.ruleset import Ruleset

from . import outcomes as oc
from .character import CAPABILITY, HOUSE_NOTE, label

#: The play action that takes a skill's action at leisure: ``{"action": TAKE, "skill": <skill id>}``.
TAKE = "take_at_leisure"
REPEAT = "pando.chanced_repeat"
NOT_CHANCEABLE = "roll.not_chanceable"
#: The play state's list of the skills chanced at leisure since the campaign's clock last moved.
CHANCED = "chanced"


def taken(settings: dict[str, Any]) -> bool:
    """Whether the campaign takes actions at leisure (house rule ``leisure_ep``: "skill_level", the
    house default, or "none": every action is rolled, and none is chanced either)."""
    return settings.get("leisure_ep", "skill_level") == "skill_level"


def chanced(state: Any) -> list[str]:
    """The skills chanced at leisure since the clock last moved, in the order they were chanced."""
    raw = state.get(CHANCED) if isinstance(state, dict) else None
    if not isinstance(raw, list):
        return []
    return list(dict.fromkeys(s for s in raw if isinstance(s, str) and s))


def learned(build: dict, report: Report) -> tuple[dict[str, int], dict[str, str]]:
    """(skill id → level, skill id → name) of capability and every priced skill of the build: homebrew
    skills are priced too (cost = level, the label is the name)."""
    levels: dict[str, int] = {CAPABILITY: 1}
    names: dict[str, str] = {CAPABILITY: "Capability"}
    listed = get_as(build, "skills", list, [])
    for cost in report.costs:
        path = cost["path"]
        if path.startswith("/skills/"):
            index = int(path.rsplit("/", 1)[1])
            sid = listed[index] if index < len(listed) else None
            if isinstance(sid, str):
                levels[sid], names[sid] = cost["cost"], cost["label"]
    return levels, names


def refusal(name: str, skill_name: str) -> str:
    """The words of W4's refusal: the same action again before time passes."""
    return f"{name} chanced {skill_name} at leisure: it cannot be repeated until time passes."


def chance(skill: str, skill_name: str, sure: int, attribute: str, marked: list[str], name: str) -> dict:
    """A skill roll's chance (``rollable["chance"]``, the sheet's "Chance it"): the skill, the EP at
    leisure it is weighed against, and the refusal when it was chanced already."""
    return {
        "skill": skill,
        "name": skill_name,
        "sure": sure,
        "attribute": attribute,
        "refused": refusal(name, skill_name) if skill in marked else None,
    }


def with_odds(view: dict[str, Any], ep_odds: dict[str, float], dice: int) -> dict[str, Any]:
    """``view`` (``chance``'s) with the exact odds of a chanced roll of ``dice`` d6 (``ep_odds``, the
    efficiency roll's distribution) giving more, as many or fewer EP than at leisure, in words."""
    sure = view["sure"]
    odds = {
        "more": sum((p for ep, p in ep_odds.items() if int(ep) > sure), 0.0),
        "same": ep_odds.get(str(sure), 0.0),
        "fewer": sum((p for ep, p in ep_odds.items() if int(ep) < sure), 0.0),
    }
    pct = {k: f"{oc.percent_text(p, 1)}%" for k, p in odds.items()}
    text = (
        f"At leisure: {sure} EP for sure. Chanced ({label(view['attribute'])} {dice}d6): "
        f"more than {sure} EP {pct['more']}, exactly {sure} EP {pct['same']}, fewer {pct['fewer']}."
    )
    return {**view, "odds": odds, "text": text}


def chance_roll(state: dict[str, Any], rollable: dict[str, Any], name: str) -> tuple[dict[str, Any], str]:
    """A roll of ``rollable`` chanced: the state with its skill marked, and the log's sentence; refused
    when the roll is no action at leisure, or its skill was chanced since the clock last moved."""
    view = rollable.get("chance")
    if not isinstance(view, dict):
        raise StateError(
            NOT_CHANCEABLE,
            f"Only an action that could be taken at leisure is chanced: "
            f"{rollable.get('label') or 'this roll'} is rolled as it is.",
        )
    marked = chanced(state)
    if view["skill"] in marked:
        raise StateError(REPEAT, refusal(name, view["name"]))
    return {**state, CHANCED: [*marked, view["skill"]]}, (
        f"{name} chances {view['name']} at leisure, rolled as under pressure: "
        "it cannot be repeated until time passes."
    )


def take(
    state: dict[str, Any],
    action: dict[str, Any],
    learned: tuple[dict[str, int], dict[str, str]],
    tools: dict[str, list[dict]],
    name: str,
) -> tuple[dict[str, Any], str]:
    """``TAKE``: a skill's action at leisure (``learned``: the character's skills), no roll: its EP
    (the skill's level) kept to spend on the outcomes its tools offer (``outcomes.of_tools``), as a
    roll's (an earlier roll's EP are lost). Refused when the skill is not the character's, or it was
    chanced since the clock last moved."""
    levels, names = learned
    sid = action.get("skill")
    if not isinstance(sid, str) or sid not in levels:
        raise StateError(
            "skill.unknown",
            f"That is not one of {name}'s skills: choose one of {', '.join(names.values())}.",
            "/skill",
        )
    if sid in chanced(state):
        raise StateError(REPEAT, refusal(name, names[sid]), "/skill")
    ep = levels[sid]
    rollable = {"label": f"{names[sid]} at leisure", oc.KIND: tools.get(sid) or []}
    pending = oc.to_spend(rollable, {"total": ep})
    new = {k: v for k, v in state.items() if k != Ruleset.TO_SPEND}
    if pending:
        new[Ruleset.TO_SPEND] = pending
    spend = f" {ep} EP to spend on its outcomes." if pending else ""
    return new, f"{name} takes {names[sid]} at leisure: {ep} EP, no roll: the skill level{HOUSE_NOTE}.{spend}"


def section(state: dict[str, Any], levels: dict[str, int], names: dict[str, str]) -> dict[str, Any]:
    """The sheet's "At leisure" block: each learned skill's EP at leisure, the ones chanced since the
    clock last moved, and the form that takes an action at leisure (the API lists it the same)."""
    marked = chanced(state)
    return {
        "id": "leisure",
        "label": "At leisure",
        "kind": "list",
        "help": "An action taken at leisure needs no roll: its EP are the skill's level"
        f"{HOUSE_NOTE}, spent on its outcomes as a roll's are. Chance it (Dice) to roll it as under "
        "pressure instead, for possibly more EP or possibly fewer: a chanced action cannot be "
        "repeated until time passes.",
        "items": [
            {
                "id": sid,
                "label": names[sid],
                "value": f"{level} EP",
                "status": "chanced: not until time passes" if sid in marked else "",
            }
            for sid, level in levels.items()
        ],
        "actions": [
            {
                "action": TAKE,
                "label": "Take it at leisure",
                "fields": [
                    {
                        "id": "skill",
                        "label": "Skill",
                        "kind": "choice",
                        "options": [
                            {"id": sid, "label": f"{names[sid]} — {level} EP"}
                            for sid, level in levels.items()
                        ],
                    }
                ],
            }
        ],
    }


def time_passes(passage: Passage, names: dict[str, str], name: str) -> Passage:
    """The campaign's clock moved on (any span: an hour or a new day): every chanced action may be
    chanced, or taken at leisure, again."""
    marked = chanced(passage.state)
    if not marked:
        return passage
    state = {k: v for k, v in passage.state.items() if k != CHANCED}
    skills = " and ".join(names.get(s) or label(s) for s in marked)
    return Passage(
        state,
        [*passage.messages, f"Time has passed: {name} may chance {skills} again, or take it at leisure."],
        passage.rolls,
    )
