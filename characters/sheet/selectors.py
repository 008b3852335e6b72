"""Reads for the character sheet: the rules' view of a character (report, play state,
state sections, effects, roll buttons) and the roll log.

Every ruleset hook is called through ``_hook`` so that a ruleset that has not
written a hook yet (NotImplementedError) or that trips over an odd state gives an
empty block on the page, never a 500.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from django.db.models import QuerySet
from django.db.models.fields.json import KT

from characters.campaigns.selectors import campaign_context, campaign_rules_digest
from characters.compiled import CompiledQuery
from characters.models import Character, RollLog
from characters.recent import Recent
from config.bounds import require_bounded
from rulesets.engine import registry
from rulesets.engine.context import Context
from rulesets.engine.errors import RollInputError
from rulesets.engine.report import Report
from rulesets.engine.ruleset import Ruleset

logger = logging.getLogger(__name__)

ROLL_LOG_LENGTH = 20


def label(key: Any) -> str:
    """``max_speed`` → "Max speed", ``exhaustion:cold`` → "Exhaustion: cold": the rulesets' own words
    first (``registry.label``, which the builder uses too)."""
    return registry.label(key)


@dataclass
class SheetRules:
    """The rules' answers about one character, computed once per request."""

    ruleset: Ruleset | None
    report: Report | None
    state: dict[str, Any]
    #: The campaign's rules context (house rules, homebrew) every hook got.
    ctx: Context | None = None
    sections: list[dict[str, Any]] = field(default_factory=list)
    effects: dict[str, Any] = field(default_factory=dict)
    rollables: list[dict[str, Any]] = field(default_factory=list)
    #: Hooks that failed or are not written yet, for a small notice on the page.
    missing: list[str] = field(default_factory=list)
    #: The build document the hooks got.
    build: dict[str, Any] = field(default_factory=dict)
    #: The odds form's fields the table sets (``roll_inputs``), read once per request.
    table_fields: list[dict[str, Any]] | None = field(default=None, repr=False, compare=False)
    #: What the sheet's presenters worked out from these answers alone (no viewer, no request),
    #: kept with them (``SheetRules.once``).
    presented: dict[Any, Any] = field(default_factory=dict, repr=False, compare=False)

    def once(self, key: Any, make: Any) -> Any:
        """``make()`` the first time ``key`` is asked for on these answers, the same value after:
        a view-model that depends on the rules' answers only (and on ``key``), worked out once
        per character version when the answers are kept (``sheet_rules_kept``). Read-only."""
        try:
            return self.presented[key]
        except KeyError:
            value = self.presented[key] = make()
            return value

    @property
    def derived(self) -> dict[str, Any]:
        return self.report.derived if self.report else {}


def _hook(rules: SheetRules | None, name: str, default, fn, *args, **kwargs):
    try:
        return fn(*args, **kwargs)
    except NotImplementedError:
        if rules is not None:
            rules.missing.append(name)
        return default
    except Exception:  # a ruleset bug must not take the sheet down
        logger.exception("ruleset hook %s failed", name)
        if rules is not None:
            rules.missing.append(name)
        return default


def character_ruleset(character: Character) -> Ruleset | None:
    try:
        return registry.get(character.ruleset)
    except Exception:  # a ruleset package that does not import yet
        logger.exception("ruleset %s does not load", character.ruleset)
        return None


def character_report(*, character: Character, ruleset: Ruleset, phase: str = "draft") -> Report:
    """The live report of the character's build under its campaign's house rules and homebrew.

    Re-validated rather than read from ``character.report``: the hooks want the
    ruleset's own Python values in ``derived``, not their JSON round trip.
    """
    campaign = character.campaign
    return ruleset.validate(
        character.build,
        settings=campaign.house_rules or None,
        homebrew=campaign.homebrew or None,
        phase=phase,
    )


def character_context(*, character: Character, ruleset: Ruleset, phase: str = "draft") -> Context:
    """The rules context of the character's campaign (see ``campaign_context``)."""
    return campaign_context(campaign=character.campaign, ruleset=ruleset, phase=phase)


def character_play_state(
    *, character: Character, ruleset: Ruleset, report: Report, ctx: Context | None = None
) -> dict[str, Any]:
    """The stored play state, or a fresh one when the character has none yet."""
    if character.state:
        return character.state
    if not report.valid:
        return {}
    ctx = ctx or character_context(character=character, ruleset=ruleset)
    return _hook(None, "initial_state", {}, ruleset.initial_state, character.build, report, ctx=ctx) or {}


def sheet_rules(*, character: Character) -> SheetRules:
    """Everything the sheet shows that the ruleset computes (no queries)."""
    ruleset = character_ruleset(character)
    if ruleset is None:
        return SheetRules(ruleset=None, report=None, state=character.state or {}, missing=["ruleset"])
    report = character_report(character=character, ruleset=ruleset)
    # The campaign's context the report was checked under (the same the ruleset caches).
    ctx = report.context or character_context(character=character, ruleset=ruleset)
    state = character_play_state(character=character, ruleset=ruleset, report=report, ctx=ctx)
    rules = SheetRules(
        ruleset=ruleset,
        report=report,
        state=state,
        ctx=ctx,
        build=character.build if isinstance(character.build, dict) else {},
    )
    if character.status != Character.Status.ACTIVE:
        return rules  # a draft (or retired character) is not played: no state blocks, no dice
    build = character.build
    rules.sections = _with_body_shapes(
        ruleset,
        _hook(rules, "state_sections", [], ruleset.state_sections, build, report, state, ctx=ctx) or [],
    )
    rules.effects = (
        _hook(rules, "state_effects", {}, ruleset.state_effects, build, report, state, ctx=ctx) or {}
    )
    rules.rollables = _hook(rules, "rollables", [], ruleset.rollables, build, report, state, ctx=ctx) or []
    return rules


#: How many characters' sheet answers a process keeps per campaign rules (``sheet_rules_kept``).
KEPT_SHEETS = 256


def sheet_rules_kept(*, character: Character) -> SheetRules:
    """``sheet_rules``, worked out once per character version: every view of a sheet (and the live
    fetch of every open sheet after a change) asks the same answers of the same build and play
    state. Kept on the campaign's rules context (one per house rules and homebrew), keyed by the
    character's id, version, last save and status (every change of its build or play state makes
    a new version: characters/versions.py) and the campaign's rules digest, as the sheet's
    ``{% cache %}`` blocks are. The answers are read,
    never changed, by the sheet's presenters (``sheet_context``); a writer works on its own
    ``sheet_rules``."""
    ruleset = character_ruleset(character)
    if ruleset is None:
        return sheet_rules(character=character)
    ctx = campaign_context(campaign=character.campaign, ruleset=ruleset)
    kept = ctx.memo("sheet.rules", lambda: Recent(KEPT_SHEETS))
    # The campaign's settings and homebrew as the sheet's cached blocks key them (a setting no
    # ruleset reads changes no context, yet the blocks are worked out afresh: so are these).
    key = (
        character.pk,
        character.version,
        character.updated,
        character.status,
        campaign_rules_digest(character.campaign),
    )
    found = kept.get(key)
    if found is None:
        found = sheet_rules(character=character)
        kept.put(key, found)
    return found


def _with_body_shapes(ruleset: Ruleset, sections: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Each part of a "body" section with the shape the ruleset draws it with (or None)."""
    if not any(isinstance(s, dict) and s.get("kind") == "body" for s in sections):
        return sections
    diagram = ruleset.body_diagram()
    return [
        {
            **s,
            "items": [
                {**p, "shape": diagram.get(p.get("id", ""))}
                for p in s.get("items") or []
                if isinstance(p, dict)
            ],
        }
        if isinstance(s, dict) and s.get("kind") == "body"
        else s
        for s in sections
    ]


def rollable_by_id(rules: SheetRules, rollable_id: str) -> dict[str, Any] | None:
    for rollable in rules.rollables:
        if str(rollable.get("id")) == str(rollable_id):
            return rollable
    return None


#: The sheet's Notes block's action: the play state's own ``notes`` text (rulesets that keep one).
NOTES = "set_notes"

#: The rollable id of the roll a ruleset's picker composes (``Ruleset.picked_roll``).
PICKED = Ruleset.PICKED


def roll_picker(rules: SheetRules, inputs: dict[str, list[str]] | None = None) -> dict[str, Any] | None:
    """The ruleset's roll picker for this character (``Ruleset.roll_picker``), the choices from
    ``inputs``; None when the ruleset has none or the character is not played."""
    if rules.ruleset is None or rules.report is None or not rules.rollables:
        return None
    picker = _hook(
        None,
        "roll_picker",
        None,
        rules.ruleset.roll_picker,
        rules.build,
        rules.report,
        rules.state,
        inputs or {},
        ctx=rules.ctx,
    )
    return picker if isinstance(picker, dict) and isinstance(picker.get("template"), str) else None


def rollable_for(
    rules: SheetRules, rollable_id: str, inputs: dict[str, list[str]] | None = None
) -> tuple[dict[str, Any] | None, str]:
    """(the rollable, "") for a roll button's id, or the roll the picker's ``inputs`` compose
    (``PICKED``); (None, why) when there is no such roll or the rules refuse a picked value."""
    if str(rollable_id) != PICKED:
        found = rollable_by_id(rules, rollable_id)
        return (found, "") if found is not None else (None, "This character has no such roll.")
    if rules.ruleset is None or rules.report is None or not rules.rollables:
        return None, "This character has no such roll."
    try:
        rollable = rules.ruleset.picked_roll(
            rules.build, rules.report, rules.state, inputs or {}, ctx=rules.ctx
        )
    except RollInputError as exc:
        return None, exc.message
    except NotImplementedError:
        return None, "This character has no such roll."
    except Exception:  # a ruleset bug must not become a 500
        logger.exception("picked_roll of %s failed", rules.ruleset.slug)
        return None, "The rules cannot compose this roll."
    if not isinstance(rollable, dict) or not isinstance(rollable.get("request"), dict):
        return None, "The rules cannot compose this roll."
    return rollable, ""


def single_inputs(inputs: dict[str, Any] | None) -> dict[str, Any]:
    """A form's values with the last of each multi-valued one (what the table's numbers read)."""
    return {k: (v[-1] if v else "") if isinstance(v, list) else v for k, v in (inputs or {}).items()}


def _visible_rolls(rolls, *, campaign_gm_id: int | None, viewer):
    """A private roll is the GM's: everybody else never sees it."""
    if viewer is not None and campaign_gm_id is not None and getattr(viewer, "pk", None) == campaign_gm_id:
        return rolls
    return rolls.filter(private=False)


@dataclass(frozen=True)
class RollSummary:
    """A roll as the roll log prints it: when, who, what and the result's sentence."""

    pk: int
    label: str
    private: bool
    created: Any
    username: str | None
    result_text: Any
    result_outcome: Any
    user_id: int | None = None
    rollable: str | None = None  # the rollable's id (the roll picker's composed rolls: its picks below)
    picks_json: str | None = None  # result["inputs"] as JSON text, decoded only where it is used


def character_roll_log(
    *, character: Character, viewer=None, limit: int = ROLL_LOG_LENGTH, summary: bool = False
) -> list[Any]:
    """The latest rolls for the character that ``viewer`` may see, newest first, with who rolled
    them (one query; the campaign's GM also sees their private rolls).

    ``summary``: ``RollSummary`` rows, what the log prints and no more (``values_list``): a roll's
    ``result`` carries its whole odds distribution, and twenty of those, with their users, cost
    more to decode and make into models than the page's rules take."""
    if summary:
        return _roll_summaries(character=character, viewer=viewer, limit=limit)
    rolls = RollLog.objects.filter(character=character)
    rolls = _visible_rolls(rolls, campaign_gm_id=character.campaign.gm_id, viewer=viewer)
    return list(rolls.select_related("user").order_by("-created", "-id")[:limit])


def _roll_summaries(*, character: Character, viewer, limit: int) -> list[RollSummary]:
    gm_id = character.campaign.gm_id
    everything = viewer is not None and gm_id is not None and getattr(viewer, "pk", None) == gm_id
    key = (everything, int(limit))
    query = _ROLL_SUMMARIES.get(key)
    if query is None:
        query = _ROLL_SUMMARIES[key] = CompiledQuery(partial(_roll_summary_rows, *key), "character")
    return [RollSummary(*row) for row in query.fetch(character=character.pk)]


def _roll_summary_rows(everything: bool, limit: int, character) -> QuerySet:
    from django.contrib.auth import get_user_model

    rolls = RollLog.objects.filter(character=character)
    if not everything:
        rolls = rolls.filter(private=False)  # a private roll is the GM's (``_visible_rolls``)
    return rolls.order_by("-created", "-id").values_list(
        "id",
        "label",
        "private",
        "created",
        f"user__{get_user_model().USERNAME_FIELD}",
        # The result's sentence and picks, read out of the JSON by the database (``->>``): not
        # the whole odds distribution every roll carries.
        KT("result__text"),
        KT("result__outcome"),
        "user_id",
        KT("result__rollable"),
        KT("result__inputs"),
    )[:limit]


#: The roll log's read, compiled once per (GM or not, length) (characters/compiled.py):
#: every sheet view and play action runs it.
_ROLL_SUMMARIES: dict[tuple[bool, int], CompiledQuery] = {}


def character_roll(*, character: Character, roll_id, viewer=None) -> RollLog | None:
    """One roll of this character that ``viewer`` may see (None when the id is not one)."""
    try:
        pk = int(roll_id)
    except (TypeError, ValueError):
        return None
    if not 0 < pk < 2**63:
        return None
    rolls = _visible_rolls(
        RollLog.objects.filter(character=character, pk=pk),
        campaign_gm_id=character.campaign.gm_id,
        viewer=viewer,
    )
    return rolls.select_related("user").first()


def campaign_roll_feed(*, campaign, viewer, limit: int = 20) -> list[RollLog]:
    """The table's latest rolls that ``viewer`` (a member) may see, newest first (one query)."""
    rolls = _visible_rolls(
        RollLog.objects.filter(campaign=campaign), campaign_gm_id=campaign.gm_id, viewer=viewer
    )
    return list(rolls.select_related("user", "character").order_by("-created", "-id")[:limit])


def campaign_roll_page(*, campaign, viewer, before: int | None = None, limit: int = 20) -> list[RollLog]:
    """The table's rolls that ``viewer`` (a member) may see, newest first, older than the roll
    ``before`` when given (a cursor by id: ids only grow)."""
    rolls = _visible_rolls(
        RollLog.objects.filter(campaign=campaign), campaign_gm_id=campaign.gm_id, viewer=viewer
    )
    if before is not None:
        rolls = rolls.filter(pk__lt=before)
    return list(rolls.select_related("user", "character").order_by("-id")[:limit])


# ------------------------------------------------------------------ the table's numbers

#: Where a roll's table numbers come from besides the rules' defaults: functions
#: ``(character) -> {input name: value}``, asked in order, the first answer per name wins.
#: The combat app adds the running encounter's (combat/apps.py): the layers point one way.
TABLE_NUMBER_SOURCES: list[Any] = []


def _odds_form(ruleset: Ruleset | None) -> list[dict[str, Any]]:
    """The ruleset's odds form (its inputs, declared in its folder)."""
    if ruleset is None:
        return []
    try:
        form = ruleset.odds_form()
    except Exception:
        logger.exception("odds_form of %s failed", ruleset.slug)
        form = None
    return [f for f in form or [] if isinstance(f, dict) and isinstance(f.get("name"), str)]


def table_numbers(*, character: Character) -> dict[str, Any]:
    """What the table has set for this character's rolls now (a running encounter's scene
    target…): {input name: value}."""
    numbers: dict[str, Any] = {}
    for source in TABLE_NUMBER_SOURCES:
        try:
            for key, value in (source(character) or {}).items():
                numbers.setdefault(key, value)
        except Exception:
            logger.exception("table number source %r failed", source)
    return numbers


def roll_inputs(
    rules: SheetRules, rollable: dict[str, Any], table: dict[str, Any] | None = None
) -> list[dict[str, Any]]:
    """The inputs a player sets on this roll: the fields of the ruleset's odds form marked
    ``"table": true`` that the roll's request carries, each with its ``value`` (what the table
    set, else the rules' default with the campaign's house rules, which the request already has)."""
    request = rollable.get("request") if isinstance(rollable, dict) else None
    if not isinstance(request, dict):
        return []
    fields = rules.table_fields
    if fields is None:  # once per request: the sheet asks this of each of its fifty rolls
        fields = rules.table_fields = [s for s in _odds_form(rules.ruleset) if s.get("table")]
    out = []
    for spec in fields:
        name = spec["name"]
        # ``"any_roll": true``: offered for every roll (a situational bonus), whether or not its
        # request carries it; it joins the request only when set to something else than its default.
        if name not in request and not spec.get("any_roll"):
            continue
        value = (table or {}).get(name, request.get(name, spec.get("default")))
        out.append({**spec, "value": value, "kind": "choice" if "choices" in spec else "int"})
    return out


def _input_value(spec: dict[str, Any], raw: Any) -> tuple[Any, str]:
    if "choices" in spec:
        raw = (spec.get("aliases") or {}).get(raw, raw) if isinstance(raw, str) else raw
        if raw in spec["choices"]:
            return raw, ""
        return (
            None,
            f"{spec.get('label', spec['name'])} is one of {', '.join(label(c) for c in spec['choices'])}.",
        )
    try:
        value = raw if isinstance(raw, int) and not isinstance(raw, bool) else int(str(raw).strip())
    except ValueError:
        return None, f"{spec.get('label', spec['name'])} must be a whole number."
    require_bounded({spec["name"]: value}, what="The table's numbers")  # a form's text, now a number
    low, high = spec.get("min"), spec.get("max")
    if (isinstance(low, int) and value < low) or (isinstance(high, int) and value > high):
        return None, f"{spec.get('label', spec['name'])} goes from {low} to {high}."
    return value, ""


def roll_request(
    rules: SheetRules, rollable: dict[str, Any], inputs: dict[str, Any]
) -> tuple[dict[str, Any], str]:
    """The roll's request with the player's inputs set: (request, "") or (the request, a
    sentence saying what is wrong). The sheet's numbers are shared by all its rolls: an input
    this roll does not take is left out (a roll without a target ignores the target)."""
    raw_request = rollable.get("request")
    request: dict[str, Any] = dict(raw_request) if isinstance(raw_request, dict) else {}
    # A roll an effect changed: the table's numbers go into the request before the effects, which
    # then change them too (+1 difficulty on the scene's difficulty; hard meeting the table's easy).
    unaffected = rollable.get("unaffected")
    affected = isinstance(unaffected, dict) and rules.ruleset is not None
    if affected and isinstance(unaffected, dict):
        request = dict(unaffected)
    specs = {s["name"]: s for s in roll_inputs(rules, rollable)}
    for name, raw in (inputs or {}).items():
        spec = specs.get(name)
        if spec is None or raw in (None, ""):
            continue
        value, problem = _input_value(spec, raw)
        if problem:
            return request, problem
        if spec.get("any_roll") and name not in request and value == spec.get("default"):
            continue  # a situational number left at its default changes nothing: the request stays plain
        request[name] = value
    if affected and rules.ruleset is not None:
        request = rules.ruleset.with_effects(request, rules.state, rollable.get("id"))
    return request, ""


def sheet_numbers(rules: SheetRules, table: dict[str, Any] | None = None) -> list[dict[str, Any]]:
    """The numbers the sheet's rolls take, once each (one target shared by every check), in the odds
    form's order, each with its value: what the table set, else the first roll's (the rules'
    default with the campaign's house rules)."""
    seen: dict[str, dict[str, Any]] = {}
    for rollable in rules.rollables:
        if not isinstance(rollable, dict) or rollable.get("usable") is False:
            continue
        for spec in roll_inputs(rules, rollable, table):
            seen.setdefault(spec["name"], spec)
    order = [f["name"] for f in rules.table_fields or ()]  # every number seen is one of these
    return sorted(seen.values(), key=lambda s: order.index(s["name"]))


def number_groups(numbers: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The sheet's numbers in the odds form's groups (``"group"``: a legend such as "Situational
    bonuses and penalties"; ungrouped numbers first): [{"label": legend or "", "numbers", "set"}],
    ``set`` when a grouped number is not at its default (its group is shown open)."""
    groups: dict[str, dict[str, Any]] = {}
    for n in numbers:
        found = n.get("group")
        key = found if isinstance(found, str) else ""
        group = groups.setdefault(key, {"label": key, "numbers": [], "set": False})
        group["numbers"].append(n)
        if key and n.get("value") != n.get("default"):
            group["set"] = True
    return sorted(groups.values(), key=lambda g: g["label"] != "")
