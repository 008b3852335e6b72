"""What the party page shows, in the game's words: cards, what waits for review, the "who should
roll" form and its answer. Plain dicts for the templates (characters/templates/characters/party/);
no ids, codes or raw documents reach the text a person reads."""

from __future__ import annotations

from typing import Any

from django.urls import reverse

from characters.models import Campaign, Character
from characters.party.forms import MAX_NEED, check_aid, need_label, roll_aids, table_specs
from characters.party.odds import party_rolls
from characters.party.selectors import (
    MemberRules,
    encounter_rounds,
    member_effects,
    member_rules,
    party_characters,
    party_pending,
    party_unspent,
)
from characters.sheet.selectors import table_numbers
from rulesets.engine import registry
from rulesets.engine.context import Context
from rulesets.engine.fields import is_int
from rulesets.engine.ruleset import Ruleset

#: The form's name of a table number: ``t_<key>`` (the roll, need and aid have their own names).
TABLE_PREFIX = "t_"


def percent(p: float) -> str:
    """A chance as people read it: "62.5%", "<0.1%", ">99.9%"."""
    pct = p * 100
    if 0 < pct < 0.1:
        return "<0.1%"
    if 99.9 < pct < 100:
        return ">99.9%"
    return f"{pct:.1f}%"


def _value_text(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, (int, float, str)):
        return str(value)
    return ""


def _pool(pool: dict[str, Any], note: str = "") -> dict[str, Any]:
    high, now = pool.get("max"), pool.get("current")
    top = high if is_int(high) and high > 0 and is_int(now) else None
    return {
        "label": pool.get("label", ""),
        "note": note,
        "current": now,
        "max": high,
        "meter": top is not None,
        # A bar that turns from good to bad as the pool runs low (HTML <meter> low/high/optimum).
        "low": f"{top / 3:.2f}" if top is not None else "",
        "high": f"{2 * top / 3:.2f}" if top is not None else "",
    }


def _numbers(summary: Any, pools: Any) -> dict[str, list[dict[str, Any]]]:
    """The card's headline numbers (``summary``) and ``pools``, each pool named once: a headline with
    a pool's label is not said again beside it ("Willpower 3" and "Willpower 2 / 3": the pool's
    maximum; "Health: Unhurt" and "Health 8 / 8": a word said with the pool, "Health Unhurt 8 / 8")."""
    notes: dict[str, list[str]] = {p.get("label", ""): [] for p in pools}
    headline = []
    for entry in summary:
        text = _value_text(entry["value"])
        if text == "":
            continue
        pool = next((p for p in pools if p.get("label") == entry["label"]), None)
        if pool is None:
            headline.append({"label": entry["label"], "value": text})
        elif text not in (_value_text(pool.get("current")), _value_text(pool.get("max"))):
            notes[entry["label"]].append(text)
    return {
        "summary": headline,
        "pools": [_pool(p, ", ".join(notes[p.get("label", "")])) for p in pools],
    }


def pending_links(items: list[dict[str, Any]], ruleset: Ruleset | None) -> list[dict[str, Any]]:
    """Requests waiting for review as links to their review pages, in words."""
    out = []
    for item in items:
        creation = item["kind"] == "creation"
        activities = item["kind"] == "activities"
        cost = ", ".join(
            f"{n} {ruleset.currency_label(c, n) if ruleset else c}"
            for c, n in (item.get("cost") or {}).items()
            if n
        )
        out.append(
            {
                "url": reverse("advancement_detail", args=[item["id"]]),
                "text": f"New character {item['name']}"
                if creation
                else f"{item['name']} between adventures"
                if activities
                else f"Advancement of {item['name']}",
                "short": "New character to review"
                if creation
                else "Activities between adventures to review"
                if activities
                else "Advancement request to review",
                "by": item["requested_by"],
                "cost": cost,
            }
        )
    return out


def card_view(
    character: Character,
    *,
    unspent: dict[str, int],
    rounds: dict[int, int],
    pending: list[dict[str, Any]],
    rules: MemberRules | None = None,
) -> dict[str, Any]:
    """One character's card on the party page."""
    ruleset = registry.get(character.ruleset)
    rules = rules or member_rules(character)
    effects = member_effects(ruleset, character, rounds)
    return {
        "id": character.pk,
        "version": character.version,
        "name": character.name,
        "owner": character.owner.get_username(),
        "sheet_url": reverse("character_sheet", args=[character.pk]),
        "valid": rules.valid,
        **_numbers(rules.summary, rules.pools),
        "effects": [
            {
                "name": e["name"],
                "remaining": e["remaining"],
                "text": e["text"],
                "house_default": e["house_default"],
            }
            for e in effects
        ],
        "unspent": [
            {"amount": n, "label": ruleset.currency_label(c, n) if ruleset else c} for c, n in unspent.items()
        ],
        "pending": pending_links(pending, ruleset),
    }


def party_cards(*, campaign: Campaign, characters: list[Character] | None = None) -> dict[str, Any]:
    """Every card of the party and what waits for review (the page's two live blocks)."""
    characters = party_characters(campaign=campaign) if characters is None else characters
    unspent = party_unspent(characters=characters, campaign=campaign)
    rounds = encounter_rounds(campaign=campaign, characters=characters)
    pending = party_pending(campaign=campaign)
    ruleset = registry.get(campaign.ruleset)
    requests = pending["advancements"]
    cards = [
        card_view(
            c,
            unspent=unspent[c.pk],
            rounds=rounds,
            pending=[p for p in requests if p["character"] == c.pk],
        )
        for c in characters
    ]
    return {
        "cards": cards,
        "pending": {
            "creations": pending_links(pending["creations"], ruleset),
            "advancements": pending_links(pending["advancements"], ruleset),
        },
    }


def one_card(*, campaign: Campaign, character: Character) -> dict[str, Any]:
    """One character's card (the live update), with the campaign's pending block."""
    pending = party_pending(campaign=campaign)
    ruleset = registry.get(campaign.ruleset)
    return {
        "card": card_view(
            character,
            unspent=party_unspent(characters=[character])[character.pk],
            rounds=encounter_rounds(campaign=campaign, characters=[character]),
            pending=[p for p in pending["advancements"] if p["character"] == character.pk],
        ),
        "pending": {
            "creations": pending_links(pending["creations"], ruleset),
            "advancements": pending_links(pending["advancements"], ruleset),
        },
    }


# ------------------------------------------------------------------ who should roll


def form_values(query) -> dict[str, Any]:
    """The "who should roll" form's values from a query string: roll, table numbers, need, aid."""
    return {
        "roll": query.get("roll", ""),
        "table": {k[len(TABLE_PREFIX) :]: v for k, v in query.items() if k.startswith(TABLE_PREFIX)},
        "need": query.get("need", ""),
        "aid": query.get("aid", ""),
    }


def table_defaults(
    *, ruleset: Ruleset, members: list[tuple[Character, MemberRules]], rollable: str | None
) -> dict[str, Any]:
    """The table's numbers the party page's form starts from: what the running encounter has set
    (its scene's target…), else the first character's request of the chosen roll (it carries the
    campaign's house defaults), else any roll's that carries the key, else the odds form's default."""
    specs = table_specs(ruleset)
    if not specs:
        return {}
    encounter = table_numbers(character=members[0][0]) if members else {}
    requests = []
    for _, rules in members:
        if rollable:
            found = rules.rollable(rollable)
            if found is not None:
                requests.append(found["request"])
    for _, rules in members:
        requests.extend(r["request"] for r in rules.rollables)
    out = {}
    for key, spec in specs.items():
        value = encounter.get(key)
        if value is None:
            value = next((req[key] for req in requests if key in req), spec.get("default"))
        out[key] = value
    return out


def odds_form(
    *,
    ruleset: Ruleset,
    ctx: Context | None,
    characters: list[Character],
    values: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """The form: the party's rolls (their labels), the table's numbers (the ruleset's labels, the
    odds form's limits and choices, starting from ``table_defaults``), the need where the ruleset
    counts successes, and the table's help with what each changes."""
    values = values or {}
    members = [(c, member_rules(c)) for c in characters]
    rolls = party_rolls(ruleset, [rules for _, rules in members])
    chosen = values.get("roll") or (rolls[0]["id"] if rolls else "")
    defaults = table_defaults(ruleset=ruleset, members=members, rollable=chosen)
    typed = values.get("table") or {}
    fields = []
    for key, spec in table_specs(ruleset).items():
        value = typed.get(key, defaults.get(key))
        field: dict[str, Any] = {
            "name": f"{TABLE_PREFIX}{key}",
            "id": f"party-table-{key}",
            "label": spec.get("label") or ruleset.label(key),
            "value": "" if value is None else value,
        }
        if "choices" in spec:
            field["kind"] = "choice"
            field["choices"] = [
                {"value": c, "label": ruleset.label(c), "selected": str(c) == str(value)}
                for c in spec["choices"]
            ]
        else:
            field["kind"] = "int"
            field["min"], field["max"] = spec.get("min"), spec.get("max")
        fields.append(field)
    need = None
    if ruleset.success_needs:
        need = {"label": need_label(ruleset), "value": values.get("need") or 1, "max": MAX_NEED}
    aid = values.get("aid") or ""
    aids = [
        {
            "value": a["id"],
            "label": str(a.get("label") or ruleset.label(a["id"])),
            "text": str(a.get("text") or ""),
            "checked": a["id"] == aid,
            "dom_id": f"party-aid-{i}",
        }
        for i, a in enumerate(roll_aids(ruleset, ctx), start=1)
    ]
    try:
        known = check_aid(ruleset, ctx, aid, form=True) is not None
    except Exception:
        known = False
    return {
        "rolls": [{"value": r["id"], "label": r["label"], "selected": r["id"] == chosen} for r in rolls],
        "fields": fields,
        "need": need,
        "aids": aids,
        "no_aid": not known,
    }


def odds_view(answer: dict[str, Any], *, characters: list[Character], ruleset: Ruleset) -> dict[str, Any]:
    """The answer in words: every character's chance best first, at least one, all, who has no such
    roll, whose numbers the rules refuse (and why), and what the help changes."""
    names = {c.pk: c.name for c in characters}
    specs = table_specs(ruleset)
    table = []
    for key, value in (answer.get("table") or {}).items():
        label = specs.get(key, {}).get("label") or ruleset.label(key)
        table.append(f"{label} {ruleset.label(value) if isinstance(value, str) else value}")
    if answer.get("need") is not None:
        table.append(f"{need_label(ruleset)} {answer['need']}")
    aid = answer.get("aid")
    return {
        "label": answer["label"],
        "table": table,
        "aid": {"label": aid["label"], "says": aid["text"] or "; ".join(aid["changed"])} if aid else None,
        "rows": [
            {
                "name": row["name"],
                "chance": percent(row["success"]),
                "p": f"{row['success']:.4f}",
                "without_aid": percent(row["without_aid"]) if "without_aid" in row else "",
            }
            for row in answer["characters"]
        ],
        "at_least_one": percent(answer["at_least_one"]),
        "all": percent(answer["all"]),
        "missing": [names.get(pk, "") for pk in answer["missing"]],
        "refused": [
            {"name": names.get(r["id"], ""), "reason": r["reason"]} for r in answer.get("refused") or ()
        ],
    }


# ------------------------------------------------------------------ the GM acts on the party


def act_form(*, campaign: Campaign, cards: list[dict[str, Any]]) -> dict[str, Any]:
    """The party page's "Act on the party" form: every character in play to tick (none ticked), the
    rest (each character's ruleset's own) and the award (the ruleset's awardable currencies)."""
    ruleset = registry.get(campaign.ruleset)
    currencies = ruleset.awardable_currencies if ruleset else ()
    return {
        "who": [{"id": c["id"], "name": c["name"], "owner": c["owner"]} for c in cards],
        "currencies": [
            {"id": c, "label": ruleset.currency_label(c, 2) if ruleset else c} for c in currencies
        ],
    }
