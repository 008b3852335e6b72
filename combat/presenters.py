"""What the encounter page shows, worked out from a fight (``combat.fight.Fight``): the board every
member sees (status, turn order with the ruleset's summary of each row, the log), the actions panel
of one person (each action with its targets and the odds of its roll) and what the GM's "Add NPCs"
form offers. Plain dicts for the templates (combat/templates/combat/) and the API; the reads they
start from are ``combat.selectors``'.
"""

from __future__ import annotations

import json
import logging
from typing import Any

from django.utils.text import slugify

from characters.campaigns.selectors import campaign_context
from characters.sheet.selectors import label
from combat.fight import Fight, combatant_effects, fighter_actions
from combat.models import Combatant, Encounter
from combat.selectors import (
    LOG_LENGTH,
    campaign_combat_rules,
    combatant_fighter,
    encounter_log,
    npc_archetypes,
    npc_library_builds,
)
from rulesets.charts import odds_bars
from rulesets.engine.combat import ActionSpec, Fighter
from rulesets.engine.context import Context
from rulesets.engine.errors import OddsError
from rulesets.engine.ruleset import Ruleset

logger = logging.getLogger(__name__)


# ---------------------------------------------------------------- the board


def _summary(fight: Fight, fighter: Fighter) -> dict[str, Any]:
    if fight.rules is None:
        return {"stats": [], "status": []}
    try:
        out = fight.rules.summary(fighter, fight.encounter.state or {}, ctx=fight.ctx) or {}
    except Exception:  # a ruleset bug shows an empty row, not a 500
        logger.exception("summary failed")
        out = {}
    stats = [
        {**st, "key": st.get("key") or slugify(str(st.get("label", "")))}
        for st in out.get("stats") or []
        if isinstance(st, dict)
    ]
    details = [
        {**d, "key": d.get("key") or slugify(str(d.get("label", "")))}
        for d in out.get("details") or []
        if isinstance(d, dict)
    ]
    summary: dict[str, Any] = {"stats": stats, "status": list(out.get("status") or [])}
    if details:  # more label/value pairs under their own heading (a ruleset's distances to the others…)
        summary.update(details=details, details_label=str(out.get("details_label") or ""))
    return summary


def _rows(fight: Fight) -> list[dict[str, Any]]:
    current = set(fight.current_ids)
    position = {cid: i + 1 for i, cid in enumerate(fight.order)}
    rows = []
    for c in fight.combatants:
        f = fight.fighter_by_id.get(c.id)
        rows.append(
            {
                "id": c.id,
                "name": f.name if f else c.name,
                "is_npc": c.is_npc,
                "group": c.group,
                "character": c.character_id,
                "owner": c.character.owner.get_username() if c.character else "",
                "owner_id": c.character.owner_id if c.character else None,
                "position": position.get(c.id),
                "current": c.id in current,
                "summary": _summary(fight, f) if f else {"stats": [], "status": []},
                "state": f.state if f else c.state,
                "combat": c.combat or {},
                "effects": combatant_effects(fight, f.state if f else c.state),
            }
        )
    return rows


def encounter_board(*, fight: Fight, log_limit: int = LOG_LENGTH) -> dict[str, Any]:
    """Everything every member sees: status, order, rows with the ruleset's summary, the log
    (``log_limit`` = 0: no log, no query)."""
    e = fight.encounter
    rows = _rows(fight)
    by_id = {r["id"]: r for r in rows}
    ordered = [by_id[i] for i in fight.order]
    rest = [r for r in rows if r["position"] is None]
    current_names = [by_id[i]["name"] for i in fight.current_ids if i in by_id]
    log = encounter_log(encounter=e, limit=log_limit) if log_limit > 0 else []
    return {
        "encounter": e,
        "id": e.id,
        "name": e.name,
        "status": e.status,
        "status_label": e.get_status_display(),
        "round": e.round,
        "turn": e.turn,
        "version": e.version,
        "campaign": e.campaign_id,
        "current": fight.current_id,
        "current_ids": list(fight.current_ids),
        "current_names": current_names,
        "order": fight.order,
        "ordered": ordered,
        "unordered": rest,
        "combatants": rows,
        "log": log,
        "unsupported": fight.unsupported,
        "ruleset_name": fight.ruleset.name if fight.ruleset else e.campaign.ruleset,
    }


# ---------------------------------------------------------------- the actions panel


def odds_rows(ruleset: Ruleset | None, request: Any, ctx: Context | None = None) -> list[dict[str, Any]]:
    """An odds answer flattened for a tiny bar chart: [{"label": "2 EP", "p": 0.31, "pct": 31}].
    Ruleset-neutral: a float is one row, a dict of floats is one row per key. Kept per campaign
    context (its house rules may fill what a request leaves out)."""
    if ruleset is None or not isinstance(request, dict):
        return []
    ctx = ruleset.context_of(None, ctx)
    try:
        key = json.dumps(request, sort_keys=True)
    except (TypeError, ValueError):
        return []
    cache = ctx.memo("combat.odds_rows", dict)
    if key in cache:
        return cache[key]
    try:
        answer = ruleset.odds(request, ctx=ctx)
    except (OddsError, NotImplementedError):
        return []
    except Exception:
        logger.exception("odds failed")
        return []
    # The sheet's bars (rulesets.charts): every outcome, in the ruleset's order and words — the
    # encounter's own flattening left out what the answer does not list (a plain failure).
    rows: list[dict[str, Any]] = [
        {"label": b["label"], "p": float(b["p"])} for b in odds_bars(ruleset.slug, answer or {})
    ]
    for r in rows:
        r["pct"] = round(r["p"] * 100)
        r["width"] = max(0, min(100, round(r["p"] * 100)))
    if len(cache) > 2048:
        cache.clear()
    cache[key] = rows
    return rows


def _targets(fight: Fight, fighter: Fighter, kind: str | None) -> list[dict[str, Any]]:
    if kind in (None, "self"):
        return []
    out = []
    for f in fight.fighters:
        if kind == "enemy" and f.id == fighter.id:
            continue
        if kind == "enemy" and f.is_npc == fighter.is_npc:
            continue
        if kind == "ally" and f.is_npc != fighter.is_npc:
            continue
        out.append({"id": f.id, "name": f.name})
    if kind == "enemy":  # the other side first, then anyone (a brawl among allies is allowed)
        out += [
            {"id": f.id, "name": f.name}
            for f in fight.fighters
            if f.id != fighter.id and f.is_npc == fighter.is_npc
        ]
    return out


def encounter_panel(*, fight: Fight, user, is_gm: bool) -> dict[str, Any]:
    """The actions ``user`` may take now: the current actor's actions (if theirs, or for the GM),
    reactions of their other combatants that are allowed now, and for the GM the GM actions of
    every combatant. Each action comes with its targets and the odds rows of its roll."""
    blocks = []
    gm_blocks = []
    current = set(fight.current_ids)
    uid = getattr(user, "pk", None)
    for f in fight.fighters:
        mine = is_gm or uid in f.controller_ids
        if not mine:
            continue
        specs = fighter_actions(fight, f)
        own = [s for s in specs if not s.gm]
        if f.id in current:
            shown = own
            title = f"{f.name}'s turn"
        else:
            shown = [s for s in own if s.reaction and s.allowed]
            title = f"{f.name}: reactions"
        if shown:
            blocks.append(
                {
                    "fighter": f,
                    "title": title,
                    "current": f.id in current,
                    "actions": [_action_row(fight, f, s) for s in shown],
                }
            )
        if is_gm:
            gm = [s for s in specs if s.gm]
            if gm:
                gm_blocks.append({"fighter": f, "actions": [_action_row(fight, f, s) for s in gm]})
    blocks.sort(key=lambda b: not b["current"])
    return {
        "blocks": blocks,
        "gm_blocks": gm_blocks,
        "gm_title": gm_actions_title(fight.ruleset),
        "is_gm": is_gm,
    }


def gm_actions_title(ruleset: Ruleset | None) -> str:
    """The heading of the GM's actions on the encounter page: the ruleset's words for them
    (``labels()["gm_actions"]``, its ``content/labels.json``), else "GM actions"."""
    words = ruleset.labels().get("gm_actions") if ruleset is not None else None
    return words if isinstance(words, str) and words else "GM actions"


def _choice(option: Any) -> dict[str, Any]:
    """A choice's option as the form reads it: ``{"id", "label"}``; a bare value ("melee", "str")
    gets the rulesets' word for it (it rendered as an empty option: a stat, a kind)."""
    if isinstance(option, dict):
        return option
    return {"id": option, "label": label(option)}


def _params(spec: ActionSpec) -> list[dict[str, Any]]:
    return [
        {**p, "options": [_choice(o) for o in p.get("options") or []]}
        if isinstance(p, dict) and p.get("kind") == "choice"
        else p
        for p in spec.params
    ]


def _action_row(fight: Fight, fighter: Fighter, spec: ActionSpec) -> dict[str, Any]:
    return {
        "spec": spec,
        "params": _params(spec),
        "targets": _targets(fight, fighter, spec.target),
        "odds": odds_rows(fight.ruleset, spec.odds, fight.ctx) if spec.odds else [],
    }


def _npc_numbers(fight: Fight, name: str, build: Any) -> list[str]:
    """The first numbers an NPC's row in the turn order will show, before it joins
    (["Stamina 11/11", "Luck 3"]): the ruleset's own ``summary`` of it."""
    if fight.ruleset is None or fight.rules is None or not isinstance(build, dict):
        return []
    try:
        fighter = combatant_fighter(
            fight.ruleset,
            fight.encounter.campaign,
            Combatant(id=0, name=name, build=build, state={}, is_npc=True),
            fight.ctx,
        )
        stats = fight.rules.summary(fighter, fight.encounter.state or {}, ctx=fight.ctx) or {}
    except Exception:  # a ruleset bug costs the line its numbers, not the page
        logger.exception("summary of an NPC to add failed")
        return []
    return [
        f"{st['label']} {st.get('value', '')}".strip()
        for st in (stats.get("stats") or [])[:3]
        if isinstance(st, dict) and st.get("label")
    ]


def encounter_npcs_to_add(*, encounter: Encounter) -> dict[str, list[dict[str, Any]]]:
    """What the GM's "Add NPCs" form offers: the ruleset's ready NPCs and the campaign's library,
    each {"value", "name", "summary", "numbers"} (``summary``: the ruleset's line about a ready NPC;
    ``numbers``: its row's first numbers; ``value`` is what the form posts back, "archetype:<id>"
    or "npc:<id>", never shown). One query (the library); the combatants are not loaded."""
    campaign = encounter.campaign
    ruleset, rules, why = campaign_combat_rules(campaign)
    ctx = campaign_context(campaign=campaign, ruleset=ruleset) if ruleset else None
    fight = Fight(encounter=encounter, ruleset=ruleset, rules=rules, unsupported=why, combatants=[], ctx=ctx)
    ready = [
        {
            "value": f"archetype:{a['id']}",
            "name": a["name"],
            "summary": a["summary"],
            "numbers": _npc_numbers(fight, a["name"], a["build"]),
        }
        for a in npc_archetypes(fight.ruleset, campaign)
    ]
    kept = [
        {
            "value": f"npc:{npc.pk}",
            "name": npc.name,
            "summary": "",
            "numbers": _npc_numbers(fight, npc.name, npc.build),
        }
        for npc in npc_library_builds(campaign=campaign)
    ]
    return {"archetypes": ready, "library": kept}
