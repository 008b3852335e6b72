"""Play: the sheet's writes. Play-state actions, whole-state replace (the API's PATCH),
loadout changes and dice rolls.

Each service is its own transaction and locks the character row first, so two
tabs (or the player and the GM) changing the same sheet never lose a change.
Every state change is a new ``CharacterVersion`` of kind "play" whose reason is the ruleset's
log sentence: the play log shows "Took 2 damage"; History lists build versions.

Errors (config/errors.py), mapped to HTTP once for the pages and once for the API:
``CharacterNotFound`` (404, from the selector), ``NotPermitted`` (403),
``Conflict`` (409, stale version), ``RuleRefused`` (422, the rules say no; carries
the rule's code, path and message) and ``StateInvalid`` (400, a state with issues).
"""

from __future__ import annotations

import copy
import logging
from typing import Any

from django.db import transaction

from characters.effects.services import state_with_effect
from characters.models import Character, CharacterVersion, RollLog
from characters.obstacles.selectors import obstacles_for_rules
from characters.obstacles.services import obstacle_end_effect, obstacle_put_ep
from characters.selectors import can_edit_build, can_edit_state, character_for_user
from characters.sheet.selectors import (
    NOTES,
    PICKED,
    _hook,
    character_context,
    character_play_state,
    character_report,
    character_ruleset,
    label,
    roll_request,
    rollable_for,
    sheet_rules,
    single_inputs,
)
from characters.table.feed import roll_logged, table_note
from characters.versions import character_version_write
from config.bounds import require_bounded
from config.errors import BadInput, Conflict, NotPermitted, RuleRefused, rule_refused
from rulesets.engine import effects as fx
from rulesets.engine import registry
from rulesets.engine.context import Context
from rulesets.engine.dice import Roller
from rulesets.engine.errors import OddsError, StateError
from rulesets.engine.fields import is_int, whole_number
from rulesets.engine.pointer import resolve, set_at, split
from rulesets.engine.report import Issue, Report
from rulesets.engine.ruleset import Ruleset

logger = logging.getLogger(__name__)

REASON_LENGTH = 200  # CharacterVersion.reason
#: What a chanced roll's label adds in the log and the table's feed (``character_roll``).
CHANCED = " · chanced"


class StateInvalid(BadInput):
    """A play state the ruleset finds problems with (400); ``errors`` are its issues."""

    code = "state_invalid"
    default_message = "The play state has problems."

    def __init__(self, issues: list[Issue]):
        self.issues = list(issues)
        message = "; ".join(f"{i.path or '/'}: {i.message}" for i in self.issues) or self.default_message
        super().__init__(message, errors=[i.as_dict() for i in self.issues])


def _refused(code: str, message: str, path: str = "") -> RuleRefused:
    return rule_refused(code, message, path)


def _rules_of(character: Character) -> tuple[Ruleset, Report, Context]:
    """The character's ruleset, its report and its campaign's rules context (built once here)."""
    ruleset = character_ruleset(character)
    if ruleset is None:
        raise _refused("ruleset.unknown", f"The ruleset {character.ruleset!r} is not available.", "/ruleset")
    report = character_report(character=character, ruleset=ruleset)
    return ruleset, report, report.context or character_context(character=character, ruleset=ruleset)


def _save_version(character: Character, *, user, reason: str, fields: list[str]) -> CharacterVersion:
    """Bump the version counter and write the version row, in the caller's transaction. A change
    of the play state alone is a "play" version (the play log): see ``character_version_write``."""
    return character_version_write(character=character, author=user, reason=reason, fields=fields)


def _lock_for_state(*, character_id, user) -> Character:
    character = character_for_user(user=user, character_id=character_id, for_update=True)
    if not can_edit_state(user, character):
        raise NotPermitted("Only the owner and the GM change this character's play state.")
    if character.status != Character.Status.ACTIVE:
        raise _refused(
            "state.not_active",
            f"{character.name} is {character.get_status_display().lower()}: "
            "play state and dice open once the character is submitted.",
        )
    return character


# ------------------------------------------------------------------ state actions


def _set_pool(
    state: dict, action: dict, ruleset: Ruleset, build: dict, report: Report, ctx: Context
) -> tuple[dict, str]:
    """The generic "set a pool" action for rulesets without their own: put a whole number at a
    pool's path, within the pool's min and max as ``state_sections`` gives them."""
    path = action.get("path")
    path = path if isinstance(path, str) else ""  # pool paths are JSON pointers: anything else finds none
    value = action.get("value")
    delta = action.get("delta")
    pool = None
    for section in (
        _hook(None, "state_sections", [], ruleset.state_sections, build, report, state, ctx=ctx) or []
    ):
        if section.get("kind") != "pools":
            continue
        for item in section.get("items", []):
            if item.get("path") == path:
                pool = item
    if pool is None:
        raise StateError("state.unknown_pool", "There is no such pool on this sheet.", str(path or ""))
    current = resolve(state, path, pool.get("value"))
    if is_int(delta):
        value = (current if is_int(current) else 0) + delta
    if not is_int(value):
        raise StateError("state.malformed", f"{pool.get('label', 'The pool')} takes a whole number.", path)
    low, high = pool.get("min"), pool.get("max")
    if is_int(low) and value < low:
        raise StateError(
            "state.below_minimum", f"{pool.get('label', 'The pool')} cannot go below {low}.", path
        )
    if is_int(high) and value > high:
        raise StateError(
            "state.above_maximum", f"{pool.get('label', 'The pool')} cannot go above {high}.", path
        )
    new_state = set_at(copy.deepcopy(state), path, value)
    return new_state, f"{pool.get('label') or label(split(path)[-1])} set to {value} (was {current})."


def _apply_action(
    ruleset: Ruleset,
    state: dict,
    action: dict,
    build: dict,
    report: Report,
    roller: Roller | None,
    ctx: Context,
) -> tuple[dict, str]:
    try:
        return ruleset.state_action(state, action, build, report, roller, ctx=ctx)
    except StateError as exc:
        if exc.code == "state.unknown_action" and action.get("action") in {"set", "set_pool"}:
            return _set_pool(state, action, ruleset, build, report, ctx)
        if exc.code == "state.unknown_action" and action.get("action") == NOTES:
            return _set_notes(state, action)
        raise
    except NotImplementedError:
        if action.get("action") in {"set", "set_pool"}:
            return _set_pool(state, action, ruleset, build, report, ctx)
        if action.get("action") == NOTES:
            return _set_notes(state, action)
        raise StateError("state.unknown_action", f"{ruleset.name} has no play-state actions yet.") from None


NOTES_LENGTH = 10_000


def _set_notes(state: dict, action: dict) -> tuple[dict, str]:
    """The generic "set the notes" for a ruleset that keeps ``notes`` text in its play state
    without an action of its own for it."""
    notes = action.get("notes", "")
    if not isinstance(state.get("notes"), str):
        raise StateError("state.unknown_action", "This sheet keeps no notes.", "/notes")
    if not isinstance(notes, str) or len(notes) > NOTES_LENGTH:
        raise StateError("state.malformed", f"Notes are text of at most {NOTES_LENGTH} characters.", "/notes")
    return {**state, "notes": notes}, "Notes updated."


#: The sheet's −/+ on a pool: ``{"action": "step", "path": <the pool's path>, "delta": ±n}``, applied
#: to the pool's value as it is when the row is locked (``character_state_action``).
STEP = "step"


def _pool_item(
    ruleset: Ruleset, state: dict, path: Any, build: dict, report: Report, ctx: Context
) -> dict | None:
    """The "pools" item of ``state_sections`` at ``path`` (its label, value, min and max), or None."""
    for section in (
        _hook(None, "state_sections", [], ruleset.state_sections, build, report, state, ctx=ctx) or []
    ):
        if isinstance(section, dict) and section.get("kind") == "pools":
            for item in section.get("items") or []:
                if isinstance(item, dict) and path and item.get("path") == path:
                    return item
    return None


def _as_operation(
    ruleset: Ruleset,
    state: dict,
    action: dict,
    build: dict,
    report: Report,
    ctx: Context,
    version: Any,
    current_version: int,
) -> dict:
    """The action to apply to the state as it is now (the row is locked).

    - ``step`` (the sheet's −/+): the pool's value now ± delta, whoever changed it since the page
      was drawn: two devices lowering one pool lower it twice.
    - an absolute ``set`` that says which ``version`` it was typed against (the pool's number box)
      is refused with ``Conflict`` when the character has changed since, saying the value now.
    """
    kind = action.get("action")
    if kind == STEP:
        delta = action.get("delta")
        if not is_int(delta) or delta == 0:
            raise _refused("state.malformed", "Say how much to raise or lower the pool by.", "/delta")
        pool = _pool_item(ruleset, state, action.get("path"), build, report, ctx)
        if pool is None:
            raise _refused(
                "state.unknown_pool", "There is no such pool on this sheet.", str(action.get("path") or "")
            )
        current: Any = resolve(state, pool["path"], pool.get("value"))
        if not is_int(current):
            current = pool.get("value") if is_int(pool.get("value")) else 0
        return {k: v for k, v in action.items() if k != "delta"} | {"action": "set", "value": current + delta}
    if version is not None and (not is_int(version) or version != current_version):
        what = ""
        pool = _pool_item(ruleset, state, action.get("path"), build, report, ctx) if kind == "set" else None
        if pool is not None:
            now = resolve(state, pool["path"], pool.get("value"))
            what = f"{pool.get('label') or label(split(pool['path'])[-1])} is now {now}: "
        raise Conflict(
            f"Not saved: {what}this sheet changed since your page showed it (version {current_version}, "
            f"not {version}). Nothing was changed; look at the value now and set it again if you still mean to."
        )
    return action


def _played(
    character: Character, action: dict, roller: Roller | None, version: Any = None
) -> tuple[dict, str]:
    """(new state, sentence) of one play-state action on ``character`` (its row locked by the
    caller): refused (``RuleRefused``) when the rules say no or it brings new problems."""
    ruleset, report, ctx = _rules_of(character)
    if not report.valid:
        raise _refused("state.build_invalid", f"Fix {character.name}'s build before playing this character.")
    state = character_play_state(character=character, ruleset=ruleset, report=report, ctx=ctx)
    action = _as_operation(ruleset, state, action, character.build, report, ctx, version, character.version)
    try:
        new_state, sentence = _apply_action(
            ruleset, state, action, character.build, report, roller or Roller(), ctx
        )
    except StateError as exc:
        raise _refused(exc.code, exc.message, exc.path) from None
    except Exception:  # a ruleset bug: refuse, keep the state, log it
        logger.exception("state_action of %s failed on %r", ruleset.slug, action)
        raise _refused("state.error", "The rules could not apply this action; nothing was changed.") from None
    # Only problems the action brings are refused: an old problem (a maximum lowered by a
    # loadout change) must not lock the sheet.
    before = {
        (i.code, i.path)
        for i in _hook(None, "check_state", [], ruleset.check_state, state, character.build, report, ctx=ctx)
        or []
    }
    issues = (
        _hook(None, "check_state", [], ruleset.check_state, new_state, character.build, report, ctx=ctx) or []
    )
    issues = [i for i in issues if (i.code, i.path) not in before]
    if issues:
        raise _refused(issues[0].code, issues[0].message, issues[0].path)
    return new_state, sentence


def character_state_action(
    *, character_id, user, action: dict[str, Any], roller: Roller | None = None, version: Any = None
) -> tuple[Character, str]:
    """Apply one play-state action (take harm, heal, spend willpower, set a pool…) to the play
    state as it is when the character's row is locked, whoever sends it: an action is an
    operation ("lower Health by 1": ``STEP``; "damage 3"), never an overwrite of a value the
    sender saw earlier.

    ``version``: the character version the action was based on, for an absolute value (the
    pool's number box): a stale one raises ``Conflict`` (409) naming the value now, and nothing
    changes. Returns (character, the log sentence). A refusal raises ``RuleRefused`` with the
    rule's code and message and changes nothing. The sentence becomes the reason of the new
    version.

    An action the ruleset lists in ``ally_actions`` (a rally of an ally) changes two characters:
    see ``character_ally_action``.
    """
    if not isinstance(action, dict) or not isinstance(action.get("action"), str):
        raise _refused("state.malformed", "Say which action to take.")
    require_bounded(action, what="The action's numbers")
    if any(action["action"] in r.ally_actions for r in registry.all_rulesets()):
        return character_ally_action(character_id=character_id, user=user, action=action, roller=roller)
    with transaction.atomic():
        character = _lock_for_state(character_id=character_id, user=user)
        new_state, sentence = _played(character, action, roller, version)
        character.state = new_state
        _save_version(character, user=user, reason=sentence or f"play: {action['action']}", fields=["state"])
    return character, sentence


def character_ally_action(
    *, character_id, user, action: dict[str, Any], roller: Roller | None = None
) -> tuple[Character, str]:
    """One character's action for another of the campaign (``Ruleset.ally_actions``: spending one's own
    willpower to rally an ally): ``action["target"]`` is the other character's id. Whoever may
    change the actor's play state (its owner, the GM) may take it; the target is any other character
    in play in the same campaign. Both rows are locked (in id order, so two crossing actions cannot
    deadlock); the target's half is applied first, then the actor's, each a new play version; either
    refused, nothing changes. Returns (the actor, both sentences)."""
    target_id = whole_number(action.get("target"))
    if target_id is None:
        raise _refused("ally.unknown", "Choose which character.", "/target")
    if target_id == whole_number(character_id):
        raise _refused(
            "ally.self", "Choose another character: this action is taken for someone else.", "/target"
        )
    with transaction.atomic():
        list(Character.objects.select_for_update().filter(pk__in=[character_id, target_id]).order_by("pk"))
        actor = _lock_for_state(character_id=character_id, user=user)
        ruleset = character_ruleset(actor)
        paired = ruleset.ally_actions.get(action["action"]) if ruleset is not None else None
        target = Character.objects.filter(pk=target_id, campaign_id=actor.campaign_id).first()
        if paired is None or target is None or target.status != Character.Status.ACTIVE:
            raise _refused(
                "ally.unknown", "Choose another character of this campaign who is in play.", "/target"
            )
        target_state, target_sentence = _played(target, {"action": paired, "by": actor.name}, roller)
        own = {k: v for k, v in action.items() if k != "target"} | {"target_name": target.name}
        actor_state, actor_sentence = _played(actor, own, roller)
        target.state = target_state
        _save_version(target, user=user, reason=target_sentence, fields=["state"])
        actor.state = actor_state
        _save_version(actor, user=user, reason=actor_sentence, fields=["state"])
    return actor, f"{actor_sentence} {target.name}: {target_sentence}"


def character_update_state(*, character_id, user, state: Any, version: Any) -> Character:
    """Replace the whole play state (the API's PATCH {version, state}).

    ``version`` must be the character's current version (else ``Conflict``); the
    state must pass the ruleset's ``check_state`` (else ``StateInvalid`` listing the
    issues with their paths). Writes a new version.
    """
    with transaction.atomic():
        character = _lock_for_state(character_id=character_id, user=user)
        if not is_int(version) or version != character.version:
            raise Conflict(
                f"This character is at version {character.version}, not {version!r}: reload it and try again."
            )
        if not isinstance(state, dict):
            raise StateInvalid([Issue("state.malformed", "", "The play state must be a JSON object.")])
        # Its effects are checked as effects (their changes within the odds; a duration names an
        # encounter by its id, which may grow past any game number).
        require_bounded({k: v for k, v in state.items() if k != fx.STATE_KEY}, what="The play state")
        ruleset, report, ctx = _rules_of(character)
        try:
            issues = ruleset.check_state(state, character.build, report, ctx=ctx)
        except Exception:  # a state shaped so oddly that the ruleset trips over it
            logger.exception("check_state of %s failed", ruleset.slug)
            issues = [Issue("state.malformed", "", "The rules service could not read this play state.")]
        if issues:
            raise StateInvalid(issues)
        character.state = state
        _save_version(character, user=user, reason="play state updated", fields=["state"])
    return character


# ------------------------------------------------------------------ loadout


def character_equipment_state(*, character_id, user, index: Any, state: Any) -> Character:
    """Change the state of a gear entry (the ruleset's ``equipment_change``): a loadout change of
    the build.

    Only the owner may do it (the GM gets ``NotPermitted``). The new build is
    re-validated; a change that brings new errors (a slot conflict) is refused
    with them (``RuleRefused``) and nothing changes. Writes a new version.
    """
    with transaction.atomic():
        character = character_for_user(user=user, character_id=character_id, for_update=True)
        if not can_edit_build(user, character):
            raise NotPermitted("Only the owner changes this character's gear.")
        ruleset, old_report, ctx = _rules_of(character)
        gear_path = f"/{ruleset.equipment_key}/{index}"
        if not is_int(index):
            raise _refused("equipment.unknown", "There is no such equipment entry.", gear_path)
        try:
            build, words = ruleset.equipment_change(character.build, index, state, ctx=ctx)
        except StateError as exc:
            raise _refused(exc.code, exc.message, exc.path or gear_path) from exc
        phase = "approval" if character.status == Character.Status.ACTIVE else "draft"
        report = ruleset.validate(
            build,
            settings=character.campaign.house_rules or None,
            homebrew=character.campaign.homebrew or None,
            phase=phase,
        )
        before = {(i.code, i.path) for i in old_report.errors}
        new_errors = [i for i in report.errors if (i.code, i.path) not in before]
        if new_errors:
            first = new_errors[0]
            raise RuleRefused(first.message, errors=[i.as_dict() for i in new_errors], code=first.code)
        if report.spent != old_report.spent:
            raise _refused(
                "equipment.costs", "A loadout change may not change what the build costs.", gear_path
            )
        character.build = build
        character.report = report.as_dict()
        _save_version(character, user=user, reason=f"loadout: {words}", fields=["build", "report"])
    return character


# ------------------------------------------------------------------ dice


def character_roll(
    *,
    character_id,
    user,
    rollable_id: Any,
    roller: Roller | None = None,
    private: bool = False,
    inputs: dict[str, Any] | None = None,
    chanced: bool = False,
) -> RollLog:
    """Roll one of the sheet's rollables on the server and log it with its exact odds.

    The RollLog's ``result`` is the ruleset's roll ({"faces", "total", "outcome",
    "text"}) plus ``"odds"``: the odds answer for the same request. ``inputs`` sets the
    numbers the table chooses (a target, a difficulty: the roll's ``inputs``, see
    ``sheet.selectors.roll_inputs``); anything else in it is refused. ``private`` is the GM's:
    the roll goes to the GM's feed only; a player asking for it is refused (403). ``chanced``: an
    action that could be taken at leisure, rolled instead (``Ruleset.chance_roll``, RULES.md W4: the
    ruleset marks it, not to be repeated until the clock moves on, or refuses it, 422); the result says
    ``"chanced": true``. Once the transaction commits the roll goes to the table's feed
    (characters/table/feed.py).
    """
    require_bounded(inputs, what="The table's numbers")
    with transaction.atomic():
        character = _lock_for_state(character_id=character_id, user=user)
        if private and character.campaign.gm_id != user.pk:
            raise NotPermitted("Only the GM rolls privately.")
        rules = sheet_rules(character=character)
        if rules.ruleset is None:
            raise _refused(
                "ruleset.unknown", f"The ruleset {character.ruleset!r} is not available.", "/ruleset"
            )
        rollable, problem = rollable_for(rules, rollable_id, inputs or {})
        if rollable is None:
            raise _refused("roll.unknown" if str(rollable_id) != PICKED else "roll.input", problem)
        request, problem = roll_request(rules, rollable, single_inputs(inputs))
        if problem:
            raise _refused("roll.input", problem)
        roller = roller or Roller()
        state = rules.state
        sentences: list[str] = []
        after: list[str] = []
        try:
            odds = rules.ruleset.odds(request, ctx=rules.ctx)
            if chanced:  # refused before anything is spent or rolled
                state, said = rules.ruleset.chance_roll(state, rollable, rules.build, ctx=rules.ctx)
                sentences.append(said)
            # What the roll costs (a willpower dot spent on it) is spent with it, then the roll.
            state, spent = _roll_actions(rules, state, rollable.get("state_actions"), roller)
            sentences += spent
            result = rules.ruleset.roll(request, roller, ctx=rules.ctx)
            state, after = _roll_actions(rules, state, rollable.get("after_actions"), roller)
        except OddsError as exc:
            raise _refused("roll.refused", str(exc)) from None
        except StateError as exc:
            raise _refused(exc.code, exc.message, exc.path) from None
        except NotImplementedError:
            raise _refused("roll.unavailable", f"{rules.ruleset.name} cannot roll yet.") from None
        label_text = str(rollable.get("label") or rollable_id)
        label_text = label_text[: 120 - len(CHANCED)] + CHANCED if chanced else label_text[:120]
        kept = _kept_to_spend(rules.ruleset, rules, state, rollable, result)
        if kept is not state:
            state = kept
            if not (sentences or after):
                left = (state.get(rules.ruleset.TO_SPEND) or {}).get("ep")
                after = [f"{left} EP to spend." if left else "The last roll's EP are lost."]
        if sentences or after:
            character.state = state
            _save_version(
                character,
                user=user,
                reason=f"{' '.join(sentences)} Rolls {label_text}."[:REASON_LENGTH],
                fields=["state"],
            )
        extra: dict[str, Any] = {"rollable": str(rollable_id)}
        if chanced:
            extra["chanced"] = True
        if isinstance(rollable.get("inputs"), dict):
            extra["inputs"] = rollable["inputs"]  # the picks, to start from next time
        log = RollLog.objects.create(
            campaign_id=character.campaign_id,
            character=character,
            user=user,
            label=label_text,
            request=request,
            result={**result, "odds": odds, **extra},
            private=bool(private),
        )
        roll_logged(log)
    return log


def _kept_to_spend(ruleset: Ruleset, rules: Any, state: dict, rollable: dict, result: dict) -> dict:
    """``state`` with what the roll leaves to spend (``Ruleset.roll_to_spend``), or without an
    earlier roll's: a roll not spent when the character rolls again is lost."""
    key = ruleset.TO_SPEND
    try:
        pending = ruleset.roll_to_spend(rollable, result, ctx=rules.ctx)
    except Exception:  # what a roll buys is a courtesy of the sheet: the roll stands without it
        logger.exception("roll_to_spend of %s failed", ruleset.slug)
        pending = None
    if pending:
        return {**state, key: pending}
    return {k: v for k, v in state.items() if k != key} if key in state else state


def character_spend_roll(*, character_id, user, request: Any) -> tuple[Character, str]:
    """Spend the EP of the character's last sheet roll (the owner or the GM): ``request`` is the
    ruleset's (outcomes, for one: ``{"outcomes": [{"id", "times"?, "body_part"?, "target"?}]}``, or the sheet
    form's fields). The ruleset plans it (``Ruleset.spend_roll``); here each target (a character of
    the same campaign, active; the roller when none is named) is locked in id order and changed
    through the ruleset's own state actions and the effects' checks (``state_with_effect``); what
    stays to spend stays on the roller's play state. One version per character changed, a line in
    the table's feed. A refusal (the rules' code) changes nothing and the EP stay. Returns (the
    roller, the sentence)."""
    if not isinstance(request, dict):
        raise BadInput('A spend is an object such as {"outcomes": [{"id": "hit"}]}.', field="outcomes")
    with transaction.atomic():
        character = _lock_for_state(character_id=character_id, user=user)
        ruleset, report, ctx = _rules_of(character)
        state = copy.deepcopy(character.state or {})
        key = ruleset.TO_SPEND
        # The obstacles a roll's EP may go into, for the rules to check (W2).
        asked = {**request, "obstacles": obstacles_for_rules(campaign_id=character.campaign_id)}
        try:
            plan = ruleset.spend_roll(state.get(key), asked, ctx=ctx)
        except StateError as exc:
            raise _refused(exc.code, exc.message, exc.path) from None
        wanted = {t.get("target") for t in plan.get("targets") or []}
        ids = sorted({int(t) for t in wanted if is_int(t)} | {character.pk})
        if any(t is not None and not is_int(t) for t in wanted):
            raise BadInput("target must be a character's id.", field="target")
        people = {
            c.pk: c
            for c in Character.objects.filter(pk__in=ids, campaign_id=character.campaign_id)
            .order_by("pk")
            .select_for_update()
        }
        people[character.pk] = character
        states = {character.pk: state}
        sentences: list[str] = []
        for t in plan.get("targets") or []:
            who = people.get(t["target"]) if t.get("target") is not None else character
            if who is None or who.status != Character.Status.ACTIVE:
                raise BadInput("That character is not an active character of this campaign.", field="target")
            who_ruleset, who_report, who_ctx = (ruleset, report, ctx) if who is character else _rules_of(who)
            now = states.get(who.pk, copy.deepcopy(who.state or {}))
            try:
                for action in t.get("actions") or []:
                    now, said = who_ruleset.state_action(now, action, who.build, who_report, ctx=who_ctx)
                    sentences.append(said)
                for spec in t.get("effects") or []:
                    ids_ = [
                        r["id"]
                        for r in who_ruleset.rollables(who.build, who_report, now, ctx=who_ctx)
                        if "id" in r
                    ]
                    entry, kind = fx.resolve(who_ruleset, spec, ids_, ctx=who_ctx)
                    entry["duration"] = None
                    now = state_with_effect(
                        ruleset=who_ruleset,
                        build=who.build,
                        report=who_report,
                        ctx=who_ctx,
                        state=now,
                        entry=entry,
                        kind=kind,
                    )
                    sentences.append(f"{entry['name']} on {who.name}.")
            except StateError as exc:
                raise _refused(exc.code, exc.message, exc.path) from None
            except fx.EffectError as exc:
                raise _refused(exc.code, exc.message, exc.path) from None
            states[who.pk] = now
        roller_state = states[character.pk]
        left = plan.get("left")
        roller_state = (
            {**roller_state, key: left} if left else {k: v for k, v in roller_state.items() if k != key}
        )
        states[character.pk] = roller_state
        text = f"{character.name} {plan.get('text') or 'spends the roll.'}"
        if sentences:
            text += " " + " ".join(sentences)
        if left and isinstance(left, dict) and is_int(left.get("ep")):
            text += f" {left['ep']} EP left to spend."
        for pk, new in states.items():
            who = people[pk]
            who.state = new
            _save_version(who, user=user, reason=text[:REASON_LENGTH], fields=["state"])
        put = plan.get("obstacle")
        if isinstance(put, dict):
            code, message = (
                list(put.get("refusal") or []) + ["roll.obstacle_resolved", "{name} is overcome already."]
            )[:2]
            obstacle, said = obstacle_put_ep(
                obstacle_id=put.get("id"),
                campaign_id=character.campaign_id,
                ep=int(put.get("ep") or 0),
                who=character.name,
                refusal=(code, message),
            )
            text += " " + said + obstacle_end_effect(obstacle=obstacle)
        note = table_note(campaign_id=character.campaign_id, user=user, text=text)
        note.save()
        roll_logged(note)
    return character, text


def _roll_actions(rules: Any, state: dict, actions: Any, roller: Roller) -> tuple[dict, list[str]]:
    """Apply a roll's play-state actions (``Ruleset.picked_roll``'s ``state_actions``) in order:
    (the new state, their log sentences). A refusal raises ``StateError``."""
    sentences: list[str] = []
    for action in actions if isinstance(actions, list) else []:
        if not isinstance(action, dict):
            continue
        state, sentence = _apply_action(
            rules.ruleset, state, action, rules.build, rules.report, roller, rules.ctx
        )
        if sentence:
            sentences.append(sentence)
    return state, sentences
