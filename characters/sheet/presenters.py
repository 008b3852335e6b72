"""The sheet's view-models: what its templates print, worked out once in Python from the
character and its rules (``characters.sheet.selectors.sheet_rules``). The views parse the
request and call these; nothing here writes."""

from __future__ import annotations

import json
import logging
import re
from functools import lru_cache
from typing import Any

from django.template.defaultfilters import add
from django.urls import reverse
from django.utils.dates import MONTHS_3
from django.utils.functional import SimpleLazyObject
from django.utils.timezone import template_localtime  # type: ignore[attr-defined]  # real, but not in django-stubs

from characters.effects.selectors import effects_shown
from characters.models import Character, RollLog
from characters.obstacles.selectors import campaign_obstacles
from characters.selectors import can_edit_build, can_edit_state
from characters.sheet.selectors import (
    PICKED,
    RollSummary,
    SheetRules,
    label,
    number_groups,
    roll_inputs,
    roll_picker,
    roll_request,
    rollable_for,
    sheet_numbers,
    sheet_rules_kept,
    single_inputs,
    table_numbers,
)
from characters.templatetags.sheet_tags import pretty, state_fields
from config.htmx import HtmxHttpRequest
from rulesets.engine.fields import is_int

logger = logging.getLogger(__name__)

#: Top-level build keys the summary leaves to other blocks (or that say nothing).
SUMMARY_SKIP = {"format", "ruleset", "name", "budget", "notes", "creation"}


# ------------------------------------------------------------------ context


def _build_summary(build: dict, gear_key: str | None = None) -> list[dict[str, Any]]:
    """The build's own keys as labelled blocks, in the document's order (the gear list, which has
    its own block with the loadout controls, left out)."""
    blocks = []
    for key, value in build.items():
        if key in SUMMARY_SKIP or value in (None, "", [], {}):
            continue
        if key == gear_key and isinstance(value, list):
            continue
        blocks.append({"key": key, "label": label(key), "value": value})
    return blocks


def _equipment(character: Character, rules: SheetRules) -> dict[str, Any] | None:
    """The sheet's gear block, as the ruleset's ``equipment`` hook says it (engine/equipment.py)."""
    if rules.ruleset is None or not isinstance(character.build, dict):
        return None
    try:
        return rules.ruleset.equipment(character.build, ctx=rules.ctx)
    except Exception:  # a build shaped so oddly that the ruleset trips over it
        logger.exception("equipment of %s failed", rules.ruleset.slug)
        return None


def _sheet_links(character: Character) -> dict[str, str]:
    """The sheet's header links, its live block's fetch and its blocks' forms, reversed once per
    character (a process's URLs do not change) rather than by a {% url %} per link per view."""
    return _links_of(character.pk, character.campaign_id)


@lru_cache(maxsize=4096)
def _links_of(pk: int, campaign_id: int | None) -> dict[str, str]:
    links = {
        "live": reverse("character_sheet_live", args=[pk]),
        "builder": reverse("character_builder", args=[pk]),
        "advance": reverse("character_advance", args=[pk]),
        "advancements": reverse("character_advancements", args=[pk]),
        "ledger": reverse("character_ledger", args=[pk]),
        "activities": reverse("character_activities", args=[pk]),
        "history": reverse("character_history", args=[pk]),
        "play_log": reverse("character_play_log", args=[pk]),
        "plans": reverse("character_plans", args=[pk]),
        "shares": reverse("character_shares", args=[pk]),
        # the blocks' forms
        "state": reverse("character_state_action", args=[pk]),
        "roll": reverse("character_roll", args=[pk]),
        "effect_apply": reverse("character_effect_apply", args=[pk]),
        "campaign": "",
    }
    if campaign_id:
        links["campaign"] = reverse("campaign_detail", args=[campaign_id])
    return links


def _effect_rows(effects: dict[str, Any]) -> list[dict[str, Any]]:
    """``state_effects`` as rows for people; "labels" (ready sentences) come first."""
    rows = []
    for key, value in (effects or {}).items():
        if key == "labels" or value in (None, {}, [], 0, False):
            continue
        if isinstance(value, dict) and any(isinstance(v, (dict, list)) for v in value.values()):
            continue  # per-part details: the state blocks show those where they belong
        rows.append({"key": key, "label": label(key), "value": value})
    return rows


# The rows below are what the sheet's loops print, worked out once in Python: a failed
# lookup, a filter chain or a {% url %} inside a loop of fifty rollables or twenty logged rolls
# costs more than everything the rules compute for the page.


def html_id(value: Any) -> str:
    """A rollable's id as a stable piece of an HTML id: ``check:str:normal`` → ``check-str-normal``."""
    return re.sub(r"[^A-Za-z0-9_-]+", "-", str(value)).strip("-") or "roll"


def _roll_groups(
    rollables: list, *, can_edit_state: bool, picker: bool = False, shown: frozenset[str] = frozenset()
) -> dict[str, list[dict[str, Any]]]:
    """The roll buttons by group, each with every key the template reads (so no lookup fails);
    with a roll picker, not the rolls it composes (``"picker": True``). A button's request text
    leaves out the numbers the form ``shown`` sets (its "15" would be stale once the player types
    another target) and what is not a plain number or word (the typed modifiers it counts)."""
    groups: dict[str, list] = {}
    for rollable in rollables:
        if not isinstance(rollable, dict) or (picker and rollable.get("picker")):
            continue
        request = rollable.get("request")
        if isinstance(request, dict):
            request = {
                k: v
                for k, v in request.items()
                if k not in shown and isinstance(v, (int, str)) and not isinstance(v, bool)
            }
        groups.setdefault(label(rollable.get("group") or "Rolls"), []).append(
            {
                "id": rollable.get("id", ""),
                "sid": html_id(rollable.get("id", "")),
                "label": rollable.get("label", ""),
                "request_text": pretty(request) if request else "",
                "cost": rollable.get("cost"),
                "reason": rollable.get("reason"),
                "disabled": not can_edit_state or rollable.get("usable") is False,
                # What the roll may buy and the chance to afford each, before rolling (the ruleset's words).
                "afford": "; ".join(
                    o["afford"]
                    for o in rollable.get("outcomes") or ()
                    if isinstance(o, dict) and o.get("afford")
                ),
                # A roll that may be chanced (``Ruleset.chance_roll``): its words, and why not now.
                "chance": rollable.get("chance") if isinstance(rollable.get("chance"), dict) else None,
            }
        )
    return groups


def _kept_roll_groups(
    rules: SheetRules, *, can_edit_state: bool, picker: bool, shown: frozenset[str]
) -> dict[str, list[dict[str, Any]]]:
    """``_roll_groups`` of the rules' rollables, once per rules answers and arguments."""
    return rules.once(
        ("roll_groups", can_edit_state, picker, shown),
        lambda: _roll_groups(rules.rollables, can_edit_state=can_edit_state, picker=picker, shown=shown),
    )


def _compare(a: Any, op: str, b: Any) -> bool:
    """``{% if a <= b %}`` as the template reads it: a comparison that cannot be made is false."""
    try:
        return a <= b if op == "<=" else a >= b
    except TypeError:
        return False


def _pool_steps(item: dict[str, Any]) -> list[dict[str, Any]]:
    """The −1 and +1 buttons of a pool: the step each makes (an operation on the value the pool
    has when it arrives, not a value worked out from this page) and whether it is at the limit."""
    low, high = item.get("min"), item.get("max")
    return [
        {
            "sign": "−",
            "verb": "Lower",
            "dir": "lower",
            "delta": "-1",
            "disabled": low is not None and _compare(item.get("value"), "<=", low),
        },
        {
            "sign": "+",
            "verb": "Raise",
            "dir": "raise",
            "delta": "1",
            "disabled": high is not None and _compare(item.get("value"), ">=", high),
        },
    ]


class _Entry(dict):
    """An entry of a "list" or "flags" section (or of any kind drawn as a list) as its template
    reads it: a key the entry does not have reads as None, as a failed lookup does in ``{% if %}``
    (the only place those templates read an optional key), without the failed lookup's exceptions
    and ``dir()`` (~15 µs each; eight entries missing two keys each cost more than the ruleset's
    whole hook). ``dict.get`` and iteration see the entry as it is (``{{ item|pretty }}`` prints
    the same)."""

    def __missing__(self, key: str) -> None:
        return None


#: The section keys sheet.html and _state_section.html read only in ``{% if %}``: a missing one
#: reads as None there, so setting None changes nothing but the cost of the lookup.
_SECTION_OPTIONAL = ("status", "help", "total", "actions")


def _others_in_play(character: Character) -> list[dict[str, Any]]:
    """The campaign's other characters in play, for a field of kind "character" (an action taken for
    another character: ``Ruleset.ally_actions``)."""
    rows = (
        Character.objects.filter(campaign_id=character.campaign_id, status=Character.Status.ACTIVE)
        .exclude(pk=character.pk)
        .order_by("name", "pk")
        .values_list("pk", "name")
    )
    return [{"id": pk, "label": name} for pk, name in rows]


def _names_characters(section: Any) -> bool:
    """Whether a form of ``section`` has a field of kind "character"."""
    actions = section.get("actions") if isinstance(section, dict) else None
    return isinstance(actions, list) and any(
        isinstance(a, dict)
        and any(isinstance(f, dict) and f.get("kind") == "character" for f in a.get("fields") or [])
        for a in actions
    )


def _sections(rules: SheetRules, character: Character) -> list[Any]:
    """The play-state sections as the sheet draws them: kept with the rules' answers, unless a form
    chooses among the campaign's characters (who is in play changes without this one changing)."""
    raw = rules.sections or []
    if not any(_names_characters(section) for section in raw):
        return rules.once("sections", lambda: _section_views(raw))
    return _section_views(_with_characters(raw, character))


def _with_characters(sections: list, character: Character) -> list:
    """``sections`` with each field of kind "character" turned into a choice of the campaign's other
    characters in play (read once)."""
    others: list[dict[str, Any]] | None = None
    out = []
    for section in sections:
        if not _names_characters(section):
            out.append(section)
            continue
        actions = section["actions"]
        if others is None:
            others = _others_in_play(character)
        fields_of = [
            [
                {**f, "kind": "choice", "options": others}
                if isinstance(f, dict) and f.get("kind") == "character"
                else f
                for f in (a.get("fields") or [])
            ]
            if isinstance(a, dict)
            else a
            for a in actions
        ]
        out.append(
            {
                **section,
                "actions": [
                    {**a, "fields": fields} if isinstance(a, dict) else a
                    for a, fields in zip(actions, fields_of, strict=True)
                ],
            }
        )
    return out


def _section_views(sections: list) -> list[Any]:
    """``state_sections`` with their forms' fields (and element ids) and pool buttons worked out."""
    views = []
    for section in sections:
        if not isinstance(section, dict):
            views.append(section)
            continue
        view = dict(section)
        for key in _SECTION_OPTIONAL:
            view.setdefault(key, None)
        # Every kind but these three is drawn by _state_list.html or _state_flags.html.
        if section.get("kind") not in ("pools", "body", "track") and isinstance(section.get("items"), list):
            view["items"] = [_Entry(item) if type(item) is dict else item for item in section["items"]]
        if isinstance(section.get("actions"), list):
            view["actions"] = [_action_view(section, action) for action in section["actions"]]
        if section.get("kind") == "pools" and isinstance(section.get("items"), list):
            view["items"] = [
                {**item, "steps": _pool_steps(item)} if isinstance(item, dict) else item
                for item in section["items"]
            ]
        views.append(view)
    return views


def _action_view(section: dict[str, Any], action: Any) -> Any:
    if not isinstance(action, dict):
        return action
    fields = state_fields(action.get("fields"))
    prefix = add(add(add("f-", section.get("id", "")), "-"), action.get("action", ""))
    for field in fields:
        field["fid"] = add(add(prefix, "-"), field["name"])
    return {**action, "form_fields": fields, "button_id": add(prefix, "-submit")}


#: A roll id that stands for every row's in one reverse() of the roll link (``roll_rows``).
_ROLL_ID = 2**63 - 1


def roll_rows(
    character: Character, rolls: list[RollLog] | list[RollSummary] | None
) -> list[dict[str, Any]] | None:
    """The roll log's rows: when, who, what (with its links) and the result text."""
    if rolls is None:
        return None
    sheet_url = reverse("character_sheet", args=[character.pk])
    # One reverse for every row's link: the row's id goes where the placeholder (the last one) is.
    head, _, tail = reverse("character_roll_detail", args=[character.pk, _ROLL_ID]).rpartition(str(_ROLL_ID))
    rows = []
    for roll in rolls:
        when = template_localtime(roll.created)
        if isinstance(roll, RollSummary):  # character_roll_log(summary=True)
            result = {"text": roll.result_text, "outcome": roll.result_outcome}
            who = roll.username
        else:
            result = roll.result if isinstance(roll.result, dict) else {}
            who = roll.user.get_username() if roll.user else ""
        rows.append(
            {
                "pk": roll.pk,
                # What |date:"c" and |date:"j M H:i" print, without the filter's machinery.
                "when_iso": when.isoformat() if when else "",
                "when": f"{when.day} {str(MONTHS_3[when.month]).title()} {when:%H:%M}" if when else "",
                "who": who or "—",
                "label": roll.label,
                "sheet_url": f"{sheet_url}?roll={roll.pk}#roll-result",
                "detail_url": f"{head}{roll.pk}{tail}",
                "text": result.get("text") or result.get("outcome") or "",
            }
        )
    return rows


def _last_picks(rolls: list[RollLog] | list[RollSummary] | None, user: Any) -> dict[str, list[str]] | None:
    """The picks of this user's latest composed roll in the roll log (newest first), to start from."""
    for roll in rolls or []:
        if roll.user_id != getattr(user, "pk", None):
            continue
        if isinstance(roll, RollSummary):
            if roll.rollable != PICKED or not roll.picks_json:
                continue
            try:
                picks = json.loads(roll.picks_json)
            except ValueError:
                continue
        else:
            result = roll.result if isinstance(roll.result, dict) else {}
            if result.get("rollable") != PICKED:
                continue
            picks = result.get("inputs")
        if isinstance(picks, dict):
            return {
                str(k): [str(x) for x in v] if isinstance(v, list) else [str(v)] for k, v in picks.items()
            }
    return None


def _roll_form(
    character: Character,
    rules: SheetRules,
    *,
    request: HtmxHttpRequest,
    can_roll: bool,
    picker: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """The Dice block's form: the numbers the table sets for its rolls (a target, a difficulty,
    defaulting to the running encounter's, else the campaign's house default), the ruleset's roll
    picker if it has one, the roll whose odds the chart previews, that chart, and the GM's private
    toggle."""
    if not can_roll or not rules.rollables:
        return {
            "roll_numbers": [],
            "roll_number_groups": [],
            "roll_previews": [],
            "roll_private": False,
            "roll_picker": None,
        }
    numbers = sheet_numbers(rules)
    table: dict[str, Any] = {}
    if numbers:
        table = table_numbers(character=character)
        if table:
            numbers = sheet_numbers(rules, table)
    usable = [
        r
        for r in rules.rollables
        if isinstance(r, dict) and r.get("usable") is not False and not (picker and r.get("picker"))
    ]
    # The rolls the table's numbers change are previewed with them; a game none of whose rolls takes
    # the table's numbers (dice and skill that are all the character's) previews each as it is.
    previewed = [r for r in usable if roll_inputs(rules, r)] or usable
    previews = [{"id": r.get("id"), "label": r.get("label") or r.get("id")} for r in previewed]
    picks: dict[str, list[str]] = {}
    if picker:
        previews.insert(0, {"id": PICKED, "label": "The roll you pick"})
        picks = picker.get("inputs") or {}
    context: dict[str, Any] = {
        "roll_numbers": numbers,
        "roll_number_groups": number_groups(numbers),
        "roll_previews": previews,
        "roll_private": character.campaign.gm_id == request.user.pk,
        "roll_picker": picker,
        "picked_id": PICKED,
    }
    if previews:
        inputs: dict[str, Any] = {**picks, **{n["name"]: n["value"] for n in numbers}}
        context.update(roll_odds(rules, str(previews[0]["id"]), inputs))
    return context


def roll_odds(rules: SheetRules, rollable_id: str, inputs: dict[str, Any]) -> dict[str, Any]:
    """The preview chart's context: the roll (a button's, or the one the picker's inputs compose),
    its request with the inputs, and the rules service's odds of exactly that request."""
    rollable, problem = rollable_for(rules, rollable_id, _multi(inputs))
    if rollable is None or rules.ruleset is None:
        if str(rollable_id) == PICKED and problem:
            return {"preview": rollable_id, "preview_error": problem}
        return {"preview": None, "preview_error": "This character has no such roll."}
    request, problem = roll_request(rules, rollable, single_inputs(inputs))
    if problem:
        return {"preview": rollable_id, "preview_error": problem}
    try:
        odds = rules.ruleset.odds(request, ctx=rules.ctx)
    except Exception:  # an odds request the rules refuse: say so, no chart
        return {"preview": rollable_id, "preview_error": "The rules cannot give the odds of these numbers."}
    return {
        "preview": rollable_id,
        "preview_label": rollable.get("label") or rollable_id,
        # Whether the table's numbers went into these odds (the caption says "with these numbers").
        "preview_numbers": bool(roll_inputs(rules, rollable)),
        "preview_odds": odds,
        "preview_error": "",
    }


def _multi(inputs: dict[str, Any]) -> dict[str, list[str]]:
    """Form values as {name: [values]} (what a roll picker reads)."""
    return {k: [str(x) for x in v] if isinstance(v, list) else [str(v)] for k, v in inputs.items()}


def sheet_context(request: HtmxHttpRequest, character: Character, **extra) -> dict[str, Any]:
    rules: SheetRules = extra.pop("rules", None) or sheet_rules_kept(character=character)
    may_edit_state = can_edit_state(request.user, character)
    picker = roll_picker(rules, _last_picks(extra.get("rolls"), request.user)) if may_edit_state else None
    if "rolls" in extra:
        extra["rolls"] = roll_rows(character, extra["rolls"])
    effects = rules.effects if isinstance(rules.effects, dict) else {}
    form = _roll_form(character, rules, request=request, can_roll=may_edit_state, picker=picker)
    report = character.report or {}
    live = rules.report.as_dict() if rules.report else report
    gear = rules.once("equipment", lambda: _equipment(character, rules))
    links = _sheet_links(character)
    return {
        "character": character,
        "campaign": character.campaign,
        "links": links,  # shared by every view of the character: read only
        # what the blocks' forms post to (sheet.html; the state and roll rows' tags read them)
        "action_url": links["state"],
        "roll_url": links["roll"],
        "effect_apply_url": links["effect_apply"],
        "rules": rules,
        "slug": character.ruleset,
        "ruleset_name": rules.ruleset.name if rules.ruleset else character.ruleset,
        "derived": rules.derived or report.get("derived") or {},
        "report": live,
        "costs": [
            {
                "currency": c,
                "label": label(c),
                "spent": live.get("spent", {}).get(c, 0),
                "budget": live.get("budget", {}).get(c, 0),
                "remaining": live.get("remaining", {}).get(c, 0),
            }
            for c in live.get("budget", {})
        ],
        "summary": rules.once(
            "summary",
            lambda: _build_summary(
                character.build if isinstance(character.build, dict) else {},
                rules.ruleset.equipment_key if gear and rules.ruleset else None,
            ),
        ),
        "equipment": (gear or {}).get("rows") or [],
        "equipment_states": (gear or {}).get("states") or [],
        "equipment_label": (gear or {}).get("label") or "",
        "sections": _sections(rules, character),
        "effects": effects,
        "effect_labels": effects.get("labels") or [],
        "effect_rows": rules.once("effect_rows", lambda: _effect_rows(effects)),
        **form,
        "roll_groups": _kept_roll_groups(
            rules,
            can_edit_state=may_edit_state,
            picker=picker is not None,
            shown=frozenset(n["name"] for n in form["roll_numbers"]),
        ),
        "can_edit_state": may_edit_state,
        # The Effects block (characters/effects/): its list, and where its forms come back to.
        "active_effects": effects_shown(
            character=character, ruleset=rules.ruleset, rollables=rules.rollables, ctx=rules.ctx
        )
        if rules.ruleset is not None
        else [],
        "effects_next": reverse("character_sheet", args=[character.pk]),
        "effects_place": "sheet",
        "effects_error": "",
        "state_notes": _state_notes(character),
        "to_spend": to_spend_form(character, rules, request.user) if may_edit_state else None,
        # The character's afflictions (obstacles on it, W2).
        # Read only where the page draws them (not by a block's update).
        "obstacles": SimpleLazyObject(
            lambda: (
                campaign_obstacles(campaign=character.campaign, user=request.user, character_id=character.pk)
                if character.has_afflictions is not False  # read with the character: none, no query
                else []
            )
        ),
        "spend_message": "",
        "can_edit_build": can_edit_build(request.user, character),
        "is_draft": character.status == Character.Status.DRAFT,
        "printing": request.GET.get("print") == "1",
        # Read by the template's {% if %}s whatever the request: set, they cost no failed lookup.
        "oob": False,
        "state_error": None,
        "state_message": "",
        "equipment_error": None,
        "roll_error": None,
        **extra,
    }


def to_spend_form(character: Character, rules: SheetRules, user) -> dict[str, Any] | None:
    """The Last roll block's spend form: what the last roll left to spend (``Ruleset.roll_to_spend``,
    in the play state): its EP, the roll's words, the ruleset's fields and, when an outcome falls on
    someone, the campaign's active characters to pick from. None: nothing to spend."""
    if rules.ruleset is None or not isinstance(character.state, dict):
        return None
    pending = character.state.get(rules.ruleset.TO_SPEND)
    if not isinstance(pending, dict) or not is_int(pending.get("ep")):
        return None
    params = [
        {**p, "options": [o for o in p.get("options") or [] if isinstance(o, dict)]}
        for p in pending.get("params") or []
        if isinstance(p, dict) and isinstance(p.get("id"), str)
    ]
    targets = []
    if pending.get("needs_target"):
        targets = list(
            Character.objects.filter(campaign_id=character.campaign_id, status=Character.Status.ACTIVE)
            .order_by("name", "pk")
            .values("id", "name")
        )
    return {
        "ep": pending["ep"],
        "label": str(pending.get("label") or ""),
        "params": params,
        "targets": targets,
        "obstacles": [
            {"id": o["id"], "label": o["text"]}
            for o in campaign_obstacles(campaign=character.campaign, user=user)
            if not o["resolved"]
        ],
    }


def _state_notes(character: Character) -> str | None:
    """The play state's notes text (the sheet's Notes block), None for a ruleset that keeps none."""
    notes = character.state.get("notes") if isinstance(character.state, dict) else None
    return notes if isinstance(notes, str) else None
