"""Reads about encounters, always through the user's membership of the encounter's campaign.

An encounter of a campaign the user is not in does not exist for them (``EncounterNotFound``,
a 404 for pages, the API and the websocket alike). ``encounter_fight`` turns an encounter
and its combatants into the ruleset's ``Fighter`` values; the services (writes), the page,
the API and the broadcast all read the board through ``encounter_board``, so they can
never disagree.
"""

from __future__ import annotations

import copy
import functools
import json
import logging
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from django.db.models import Exists, OuterRef, QuerySet
from django.http import Http404
from django.utils.html import format_html
from django.utils.text import slugify

from characters.campaigns.selectors import campaign_context, campaign_memberships
from characters.compiled import CompiledQuery
from characters.models import Campaign, Character, Obstacle
from characters.obstacles.selectors import encounter_obstacle_rows, for_rules
from characters.selectors import is_campaign_gm
from characters.sheet.selectors import label
from combat.models import Combatant, Encounter, EncounterEvent, LibraryNpc
from rulesets.charts import odds_bars
from rulesets.engine import effects as fx
from rulesets.engine import registry, validate
from rulesets.engine.combat import ActionSpec, CombatRules, Fighter
from rulesets.engine.context import NPC_PHASE, Context
from rulesets.engine.errors import OddsError
from rulesets.engine.report import Report
from rulesets.engine.ruleset import Ruleset

logger = logging.getLogger(__name__)

_MAX_ID = 2**63 - 1
LOG_LENGTH = 30


class EncounterNotFound(Http404, Encounter.DoesNotExist):
    """The encounter does not exist or the user is not in its campaign (404 everywhere)."""


def _pk(value) -> int | None:
    try:
        pk = int(value)
    except (TypeError, ValueError):
        return None
    return pk if 0 < pk <= _MAX_ID else None


def encounters_for_user(*, user, campaign_id=None) -> QuerySet[Encounter]:
    """Encounters of the campaigns ``user`` belongs to (optionally one campaign), newest first."""
    if not getattr(user, "is_authenticated", False):
        return Encounter.objects.none()
    qs = Encounter.objects.filter(Exists(campaign_memberships(user=user))).select_related("campaign")
    if campaign_id is not None:
        pk = _pk(campaign_id)
        if pk is None:
            return Encounter.objects.none()
        qs = qs.filter(campaign_id=pk)
    return qs.order_by("-created", "-id")


def encounter_for_user(*, user, encounter_id, for_update: bool = False) -> Encounter:
    """The encounter if ``user`` is a member of its campaign, else ``EncounterNotFound``.
    With ``for_update`` the encounter row is locked (inside a transaction): every change of
    one encounter is serialised on that lock. Its campaign comes with it, so ``encounter_is_gm``
    needs no second round trip: one query, compiled once per process (``_ENCOUNTER_FOR_USER``)."""
    pk = _pk(encounter_id)
    if pk is None or not getattr(user, "is_authenticated", False):
        raise EncounterNotFound("No such encounter.")
    rows = _ENCOUNTER_FOR_USER[for_update].fetch(pk=pk, user=user.pk)
    if not rows:
        raise EncounterNotFound("No such encounter.")
    return rows[0]


def _encounter_for_user_query(for_update: bool) -> CompiledQuery:
    def build(pk, user) -> QuerySet[Encounter]:
        found = Encounter.objects.filter(Exists(campaign_memberships(user=user)), pk=pk)
        # Whether the campaign has any obstacle, in the same read: a page of a campaign without
        # one asks nothing more of them (Fight.obstacles).
        found = found.annotate(
            has_obstacles=Exists(Obstacle.objects.filter(campaign_id=OuterRef("campaign_id")))
        )
        found = found.select_related("campaign")
        if for_update:
            found = found.select_for_update(of=("self",))
        return found.order_by()[:1]

    return CompiledQuery(build, "pk", "user")


#: Compiled once (characters/compiled.py): every request of the encounter page starts
#: with this read (the action, the panel every page fetches after every change, the board).
_ENCOUNTER_FOR_USER = {lock: _encounter_for_user_query(lock) for lock in (False, True)}


def encounter_visible(*, user, encounter_id) -> bool:
    """For the websocket: may ``user`` watch this encounter?"""
    try:
        encounter_for_user(user=user, encounter_id=encounter_id)
    except EncounterNotFound:
        return False
    return True


def encounter_is_gm(user, encounter: Encounter) -> bool:
    """Whether ``user`` runs the encounter's campaign (``is_campaign_gm``: no query)."""
    return is_campaign_gm(user, encounter.campaign)


# ---------------------------------------------------------------- rules and fighters


def campaign_combat_rules(campaign: Campaign) -> tuple[Ruleset | None, CombatRules | None, str]:
    """(ruleset, its combat rules, "" ) or (…, None, why not) when the ruleset has no combat yet."""
    ruleset = registry.get(campaign.ruleset)
    if ruleset is None:
        return None, None, f"The ruleset {campaign.ruleset!r} is not available."
    try:
        return ruleset, ruleset.combat(), ""
    except NotImplementedError:
        return (
            ruleset,
            None,
            (
                f"{ruleset.name} has no combat rules yet: encounters of this campaign can be set up "
                "but not run until they are written."
            ),
        )


_REPORTS: dict[tuple, Report] = {}


def fighter_report(ruleset: Ruleset, campaign: Campaign, build: Any) -> Report:
    """The report of a build under the campaign's house rules and homebrew, as an NPC (the player
    budget does not bind it: ``NPC_PHASE``), cached (a fight
    re-reads the same builds on every action; reports are treated as read-only)."""
    try:
        key = (
            ruleset.slug,
            json.dumps(build, sort_keys=True),
            json.dumps(campaign.house_rules, sort_keys=True),
            json.dumps(campaign.homebrew, sort_keys=True),
        )
    except (TypeError, ValueError):
        key = None
    if key is not None and key in _REPORTS:
        return _REPORTS[key]
    # In a fight nobody is held to a player's budget: an NPC may be an ogre (phase "npc" makes an
    # overspend a warning; an active character was within its budget when approved anyway).
    report = validate(
        build,
        settings=campaign.house_rules or None,
        homebrew=campaign.homebrew or None,
        slug=ruleset.slug,
        phase=NPC_PHASE,
    )
    if key is not None:
        if len(_REPORTS) > 1024:
            _REPORTS.clear()
        _REPORTS[key] = report
    return report


def _initial_state(ruleset: Ruleset, build: dict, report: Report, ctx: Context | None) -> dict:
    if not report.valid:
        return {}
    try:
        return ruleset.initial_state(build, report, ctx=ctx) or {}
    except NotImplementedError:
        return {}
    except Exception:
        logger.exception("initial_state of %s failed", ruleset.slug)
        return {}


def combatant_fighter(
    ruleset: Ruleset, campaign: Campaign, c: Combatant, ctx: Context | None = None
) -> Fighter:
    """The combatant as the combat hooks see it; ``ctx`` is the campaign's rules context."""
    ctx = ctx or campaign_context(campaign=campaign, ruleset=ruleset)
    character = c.character  # None without a query when there is no character_id
    if character is not None:
        build = character.build if isinstance(character.build, dict) else {}
        report = fighter_report(ruleset, campaign, build)
        state = character.state if character.state else _initial_state(ruleset, build, report, ctx)
        controllers: tuple[int, ...] = (character.owner_id,)
        name = character.name or c.name
    else:
        build = c.build if isinstance(c.build, dict) else {}
        report = fighter_report(ruleset, campaign, build)
        state = c.state if c.state else _initial_state(ruleset, build, report, ctx)
        controllers = ()
        name = c.name
    return Fighter(
        id=c.id,
        name=name,
        is_npc=c.is_npc,
        group=c.group,
        build=build,
        derived=report.derived,
        state=state,
        combat=c.combat or {},
        controller_ids=controllers,
        report=report,
    )


#: The key of the obstacles in the encounter state the rules read (``Fight.rules_state``).
OBSTACLES = "obstacles"


class LazyMapping(Mapping):
    """A read-only mapping made by ``load`` the first time it is read: the obstacles cost their query
    only when a rule looks at them (a spend), not on every action."""

    def __init__(self, load: Callable[[], dict[str, Any]]):
        self._load = load
        self._data: dict[str, Any] | None = None

    def _got(self) -> dict[str, Any]:
        if self._data is None:
            self._data = self._load()
        return self._data

    def __getitem__(self, key: str) -> Any:
        return self._got()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._got())

    def __len__(self) -> int:
        return len(self._got())


@dataclass
class Fight:
    """An encounter with its combatants as the ruleset sees them (one load per request)."""

    encounter: Encounter
    ruleset: Ruleset | None
    rules: CombatRules | None
    unsupported: str
    combatants: list[Combatant]
    fighters: list[Fighter] = field(default_factory=list)
    #: The campaign's rules context (house rules, homebrew): every combat hook gets it.
    ctx: Context | None = None
    #: The latest events, newest first, when a service already has them (saves the board a query).
    log: list[dict[str, Any]] | None = None

    def __post_init__(self) -> None:
        self.by_id = {c.id: c for c in self.combatants}
        self.fighter_by_id = {f.id: f for f in self.fighters}

    @property
    def order(self) -> list[int]:
        return [i for i in (self.encounter.order or []) if i in self.by_id]

    @property
    def rules_state(self) -> dict[str, Any]:
        """The encounter state as the rules read it: with the obstacles a roll's EP may go into
        (``"obstacles"``: id → {name, level, ep, resolved}; read once per request, never saved)."""
        found = self.__dict__.get("_rules_state")
        if found is None:
            e = self.encounter
            found = self.__dict__["_rules_state"] = {
                **(e.state or {}),
                OBSTACLES: LazyMapping(lambda: for_rules(self.obstacles)),
            }
        return found

    @property
    def obstacles(self) -> list[Obstacle]:
        """The obstacles of this encounter and its campaign (one query per request)."""
        found = self.__dict__.get("_obstacles")
        if found is None and getattr(self.encounter, "has_obstacles", True) is False:
            found = self.__dict__["_obstacles"] = []
        if found is None:
            e = self.encounter
            found = self.__dict__["_obstacles"] = encounter_obstacle_rows(
                campaign_id=e.campaign_id, encounter_id=e.pk
            )
        return found

    @property
    def current_id(self) -> int | None:
        order = self.encounter.order or []
        if self.encounter.status != Encounter.Status.ACTIVE or not 0 <= self.encounter.turn < len(order):
            return None
        return order[self.encounter.turn]

    @property
    def current_ids(self) -> list[int]:
        """Everyone acting in this turn (an NPC group acts together)."""
        current = self.current_id
        if current is None:
            return []
        order = self.encounter.order
        span = 1
        if self.rules is not None:
            try:
                span = max(1, self.rules.turn_span(order, self.encounter.turn, self.fighter_by_id))
            except Exception:
                logger.exception("turn_span failed")
        return [i for i in order[self.encounter.turn : self.encounter.turn + span]]


@functools.cache
def _character_fields() -> tuple[str, ...]:
    """What a fight reads of a PC's character and its owner, for ``only()``.

    The characters' cached reports are not read (the fight re-validates builds through a cache);
    leaving them out saves decoding the largest JSON column on every action. Of the owner, the
    name shown on the row."""
    from django.contrib.auth import get_user_model

    fields = [f.name for f in Character._meta.concrete_fields if f.name != "report"]
    return (*fields, f"owner__{get_user_model().USERNAME_FIELD}")


def _combatants_with_characters(encounter) -> QuerySet[Combatant]:
    combatant_fields = [f.name for f in Combatant._meta.concrete_fields]
    return (
        Combatant.objects.filter(encounter=encounter)
        .select_related("character__owner")
        .only(*combatant_fields, *(f"character__{name}" for name in _character_fields()))
        .order_by("id")
    )


def _combatants(encounter) -> QuerySet[Combatant]:
    return Combatant.objects.filter(encounter=encounter).order_by("id")


def _pc_characters_locked(encounter) -> QuerySet[Character]:
    pcs = Combatant.objects.filter(encounter=encounter, character__isnull=False).values("character_id")
    return (
        Character.objects.filter(pk__in=pcs)
        .select_related("owner")
        .only(*_character_fields())
        .order_by("id")
        .select_for_update(of=("self",))
    )


#: Compiled once (characters/compiled.py): every encounter request reads its fight.
_COMBATANTS_WITH_CHARACTERS = CompiledQuery(_combatants_with_characters, "encounter")
_COMBATANTS = CompiledQuery(_combatants, "encounter")
_PC_CHARACTERS_LOCKED = CompiledQuery(_pc_characters_locked, "encounter")


def _load_combatants(encounter: Encounter, lock_characters: bool) -> list[Combatant]:
    """The combatants, PCs with their characters and owners. Locking: the combatants, then the
    PCs' character rows ``FOR UPDATE`` in id order (a lock cannot take the nullable side of an
    outer join: two queries, the second only when there are PCs). Reading: one query."""
    if not lock_characters:
        loaded = _COMBATANTS_WITH_CHARACTERS.fetch(encounter=encounter.pk)
    else:
        loaded = _COMBATANTS.fetch(encounter=encounter.pk)
        if any(c.character_id for c in loaded):
            characters = {c.pk: c for c in _PC_CHARACTERS_LOCKED.fetch(encounter=encounter.pk)}
            for c in loaded:
                if c.character_id in characters:
                    c.character = characters[c.character_id]
    for c in loaded:
        c.encounter = encounter
    return loaded


def encounter_fight(*, encounter: Encounter, lock_characters: bool = False) -> Fight:
    """Load the combatants (PCs with their characters) and build the fighters. With
    ``lock_characters`` the PCs' character rows are locked too (their play state changes)."""
    combatants = _load_combatants(encounter, lock_characters)
    ruleset, rules, why = campaign_combat_rules(encounter.campaign)
    ctx = campaign_context(campaign=encounter.campaign, ruleset=ruleset) if ruleset else None
    fighters = [combatant_fighter(ruleset, encounter.campaign, c, ctx) for c in combatants] if ruleset else []
    return Fight(
        encounter=encounter,
        ruleset=ruleset,
        rules=rules,
        unsupported=why,
        combatants=combatants,
        fighters=fighters,
        ctx=ctx,
    )


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


LOG_FIELDS = ("seq", "round", "kind", "text", "actor_id", "data", "created")


def log_entry(row: dict[str, Any]) -> dict[str, Any]:
    """An event as the page and the API show it; ``html`` is its ready ``<li>`` (events never
    change, and one pre-escaped string renders much faster than a template loop)."""
    round_ = format_html('<span class="log-round">R{}</span> ', row["round"]) if row["round"] else ""
    return {
        "seq": row["seq"],
        "round": row["round"],
        "kind": row["kind"],
        "text": row["text"],
        "actor": row["actor_id"],
        "data": row["data"],
        "created": row["created"],
        "html": format_html(
            '<li class="log-{}" data-seq="{}">{}{}</li>', row["kind"], row["seq"], round_, row["text"]
        ),
    }


def encounter_log(*, encounter: Encounter, limit: int = LOG_LENGTH) -> list[dict[str, Any]]:
    """The latest events, newest first."""
    rows = EncounterEvent.objects.filter(encounter=encounter).order_by("-seq").values(*LOG_FIELDS)[:limit]
    return [log_entry(r) for r in rows]


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


def combatant_effects(fight: Fight, state: Any) -> list[dict[str, Any]]:
    """A combatant's active effects as its row shows them: [{"id", "name", "remaining"}], what
    remains in words ("1 round left", "until the end of Goblin's turn")."""
    out = []
    for entry in fx.active_entries(state):
        duration = entry.get("duration")
        remaining = fx.duration_text(duration, round_now=fight.encounter.round)
        if isinstance(duration, dict) and duration.get("until") == "end_of_turn":
            other = fight.fighter_by_id.get(duration.get("combatant"))  # type: ignore[arg-type]
            if other is not None:
                remaining = f"until the end of {other.name}'s turn"
        out.append({"id": entry.get("id"), "name": str(entry.get("name") or ""), "remaining": remaining})
    return out


def row_signature(row: dict[str, Any]) -> str:
    """What a combatant's row on the page shows (``_combatant_row.html``): equal signatures,
    equal HTML — the broadcast sends only the rows whose signature changed."""
    return json.dumps(
        [
            row["name"],
            row["is_npc"],
            row["group"],
            row["owner"],
            row["position"],
            row["current"],
            row["summary"],
            row["effects"],
        ],
        sort_keys=True,
        default=str,
    )


def row_signatures(fight: Fight) -> dict[int, str]:
    return {r["id"]: row_signature(r) for r in _rows(fight)}


def encounter_board(*, fight: Fight, log_limit: int = LOG_LENGTH) -> dict[str, Any]:
    """Everything every member sees: status, order, rows with the ruleset's summary, the log
    (``log_limit`` = 0: no log, no query)."""
    e = fight.encounter
    rows = _rows(fight)
    by_id = {r["id"]: r for r in rows}
    ordered = [by_id[i] for i in fight.order]
    rest = [r for r in rows if r["position"] is None]
    current_names = [by_id[i]["name"] for i in fight.current_ids if i in by_id]
    if log_limit <= 0:
        log = []
    elif fight.log is not None and log_limit <= LOG_LENGTH:
        log = fight.log[:log_limit]
    else:
        log = encounter_log(encounter=e, limit=log_limit)
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


def fighter_actions(fight: Fight, fighter: Fighter) -> list[ActionSpec]:
    if fight.rules is None or fight.encounter.status != Encounter.Status.ACTIVE:
        return []
    try:
        return list(
            fight.rules.actions(
                fighter, fight.fighters, fight.rules_state, current=fight.current_id, ctx=fight.ctx
            )
        )
    except NotImplementedError:
        return []
    except Exception:
        logger.exception("actions failed")
        return []


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


def campaign_characters_to_add(*, fight: Fight) -> list[Character]:
    """Active characters of the campaign not yet in the encounter (for the GM's "add" form):
    a draft has not been approved, a retired character has left the table."""
    taken = {c.character_id for c in fight.combatants if c.character_id}
    active = fight.encounter.campaign.characters.filter(status=Character.Status.ACTIVE)
    return [
        c
        for c in active.select_related("owner").defer("report", "build", "state").order_by("name", "id")
        if c.id not in taken
    ]


# ---------------------------------------------------------------- the NPC library


def npc_archetypes(ruleset: Ruleset | None, campaign: Campaign) -> list[dict[str, Any]]:
    """The ready NPCs a ruleset ships (``Ruleset.npc_archetypes``): [{"id", "name", "summary",
    "build"}] (``summary``: a line about it in the game's words, "" when the ruleset gives none)."""
    if ruleset is None:
        return []
    found = ruleset.npc_archetypes(ruleset.context(campaign.house_rules, campaign.homebrew))
    return [
        {
            "id": str(a.get("id") or i),
            "name": str(a.get("name") or a["build"].get("name") or "NPC"),
            "summary": str(a.get("summary") or ""),
            "build": copy.deepcopy(a["build"]),
        }
        for i, a in enumerate(found)
    ]


def npc_report(campaign: Campaign, build: Any) -> Report:
    """An NPC's report: the campaign's house rules and homebrew, the player budget not binding
    (an overspend is a ``budget.exceeded`` warning saying what it would cost)."""
    return validate(
        build,
        settings=campaign.house_rules or None,
        homebrew=campaign.homebrew or None,
        slug=campaign.ruleset,
        phase=NPC_PHASE,
    )


def npc_library(*, campaign: Campaign):
    """The campaign's saved NPCs, by name (builds deferred: the lists show names and costs)."""
    return LibraryNpc.objects.filter(campaign=campaign).defer("build").order_by("name", "id")


def running_encounter_numbers(character) -> dict[str, Any]:
    """The numbers the running encounter of the character's campaign has set (its ruleset's
    encounter state: a scene's target…), for the sheet's roll form (one query)."""
    state = (
        Encounter.objects.filter(campaign_id=character.campaign_id, status=Encounter.Status.ACTIVE)
        .order_by("-updated", "-id")
        .values_list("state", flat=True)
        .first()
    )
    return {k: v for k, v in (state or {}).items() if isinstance(v, (int, str)) and not isinstance(v, bool)}


def npcs_of_gm(*, user, campaign: Campaign | None = None):
    """The library NPCs of the campaigns ``user`` runs (or of ``campaign``), by campaign and name."""
    found = LibraryNpc.objects.filter(campaign__gm=user)
    if campaign is not None:
        found = found.filter(campaign=campaign)
    return found.order_by("campaign_id", "name", "id")


def library_npc_for_user(*, user, npc_id: Any):
    """A library NPC with its campaign, when ``user`` is in that campaign; else a 404 (its
    existence is not leaked). Whether the user may use it (the GM only) is the caller's check."""
    try:
        pk = int(npc_id)
    except (TypeError, ValueError):
        raise Http404("No such NPC.") from None
    npc = (
        LibraryNpc.objects.select_related("campaign", "campaign__gm")
        .filter(Exists(campaign_memberships(user=user)), pk=pk)
        .first()
        if 0 < pk < 2**63 and getattr(user, "is_authenticated", False)
        else None
    )
    if npc is None:
        raise Http404("No such NPC.")
    return npc


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
    library = LibraryNpc.objects.filter(campaign=campaign).only("id", "name", "build").order_by("name", "id")
    kept = [
        {
            "value": f"npc:{npc.pk}",
            "name": npc.name,
            "summary": "",
            "numbers": _npc_numbers(fight, npc.name, npc.build),
        }
        for npc in library
    ]
    return {"archetypes": ready, "library": kept}
