"""Our D&D (seed 003, RULES.md section 4): checks, prices and derives a build,
answers the odds of a d20 roll against the scene's TD, and keeps the play state.

Build document (RULES.md §4)::

    {"ruleset": "ourdnd", "name": "Pip", "budget": {"points": 6},
     "stats": {"str": 0, "dex": 3, "con": 1, "int": 0, "wis": 2, "cha": 0},   # all six, 0–6 (HD)
     "hearts": 1,                                   # ≥ 1; left out = 1
     "gear": [{"item": "shortbow"}, {"item": "leather_armor"}]}   # optional

Costs (all HD, the seed has no creation rules): 1 point per stat point, 3 points
per heart beyond the first. Gear is free.

Codes: the common ones, plus ``gear.unknown`` (path ``/gear/<i>/item``) and
``ourdnd.gear_conflict`` (path ``/gear/<i>``: a second body armour or a second shield;
the first of each counts for defense). Hearts below 1 is ``attribute.below_minimum``
at ``/hearts``. A stat outside its range is still priced (1 point a point), beside its
range error.

Derived: ``max_hp`` (hearts × 10), ``defense`` (con + Σ armor defense; enemies
roll against ``defense + 10``, given as ``defense_target``), ``effort``
(``{"bare_hands": "d4", "<item id>": "d6", …}``: every gear item with an effort die,
keyed by its id), ``stats`` (the stats with gear bonuses, when any gear gives one).

Odds and rolls, two request shapes:

* a check ``{"stat": S, "td": T, "mode": "normal"|"easy"|"hard"}`` (mode defaults
  to normal) → ``{"success": p, "critical": p, "blunder": p}`` (CONTRACT.md).
  ``success`` is the whole chance of succeeding, criticals included, so the two
  outcomes success and failure (= 1 − ``success``) sum to 1. ``critical`` (a
  natural 20: always a success) is the part of ``success`` that is critical;
  ``blunder`` (a natural 1: always a failure) is the part of the failures that
  blunder. Easy keeps the higher of 2d20, hard the lower; the kept die is the
  natural one.
* an effort roll ``{"effort": "d6", "critical": false}`` → ``{"effort": {"1": p, …}}``
  (a critical or Heroic Inspiration adds a d12).

Play state (never priced)::

    {"hp": 10,                 # 0..max_hp
     "unconscious": false,
     "dying": false,           # at 0 HP, counting down
     "dying_rounds": null,     # rounds left, rolled (1d4) on the first dying turn; null before
     "stable": false,          # first aid stopped the countdown (still 0 HP, unconscious)
     "dead": false,
     "inspiration": false}     # Heroic Inspiration: at most one

Actions (``state_action``): ``damage`` {amount} (to −20 HP or below in one blow:
dead; reaching 0 HP — or any damage to a stable character — starts dying), ``heal`` {amount}, ``dying_turn`` (the first one rolls the d4 countdown; each
one rolls a d20 for a miracle — a natural 20 wakes with 1 HP — and later ones count
a round down; none left: dead), ``first_aid`` {stat, td} or {result: "success"}
(stabilises a dying character at 0 HP), ``recover`` {td} (whole turn, not dying:
d20 + con ≥ TD regains con + 1 HP), ``rest`` (8 hours, needs ≥ 1 HP: all HP back,
inspiration lost; the once-per-24-hours limit is the table's to keep),
``gain_inspiration``, ``spend_inspiration``.
"""

from __future__ import annotations

from typing import Any

from rulesets.engine.base import Context, OddsError, StateError, action_amount, is_int
from rulesets.engine.dice import Roller, convolve, die, keep_highest, keep_lowest
from rulesets.engine.pointer import ptr
from rulesets.engine.report import Issue, Report

STATS = ("str", "dex", "con", "int", "wis", "cha")
MODES = ("normal", "easy", "hard")
EFFORT_DICE = ("d4", "d6", "d8", "d10", "d12")
REACHES = ("close", "near", "far", "very_far")  # a gear entry's "reach" (distance.py)
ODDS_LIMIT = 40  # the largest stat or TD an odds request may name (in absolute value)


# ------------------------------------------------------------------ the build


def check(build: dict, report: Report, ctx: Context) -> None:
    settings = ctx.settings
    report.spent.setdefault("points", 0)
    stats = _check_stats(build, report, ctx)
    hearts = _check_hearts(build, report, settings)
    gear = _check_gear(build, report, ctx)

    if hearts is not None:
        report.derived["max_hp"] = hearts * settings.get("hp_per_heart", 10)
    if gear is not None:
        bonus = {s: 0 for s in STATS}
        for entry in gear:
            for stat, n in (entry.get("stats") or {}).items():
                if stat in bonus and is_int(n):
                    bonus[stat] += n
        if "con" in stats:
            defense = stats["con"] + bonus["con"] + sum(e.get("defense", 0) or 0 for e in gear)
            report.derived["defense"] = defense
            report.derived["defense_target"] = defense + 10
        effort = {"bare_hands": settings.get("bare_hands_effort", "d4")}
        for entry in gear:
            if entry.get("effort"):
                effort[entry["id"]] = entry["effort"]
        report.derived["effort"] = effort
        if any(bonus.values()) and len(stats) == len(STATS):
            report.derived["stats"] = {s: stats[s] + bonus[s] for s in STATS}


def _check_stats(build: dict, report: Report, ctx: Context) -> dict[str, int]:
    settings = ctx.settings
    low, high = settings.get("stat_min", 0), settings.get("stat_max", 6)
    per_point = settings.get("stat_point_cost", 1)
    names = ctx.catalogue.get("stats", {})
    good: dict[str, int] = {}
    raw = build.get("stats")
    if raw is None:
        report.error("build.malformed", "/stats",
                     'Give the six stats, e.g. "stats": {"str": 0, "dex": 3, "con": 1, "int": 0, "wis": 2, "cha": 0}.')
        return good
    if not isinstance(raw, dict):
        report.error("build.malformed", "/stats", "Stats must be an object of stat → value (0–6).")
        return good
    rows = ctx.memo("ourdnd.stat_rows", lambda: {
        s: (ptr("stats", s), names.get(s, {}).get("name", s.upper())) for s in STATS})
    for stat, value in raw.items():
        row = rows.get(stat)
        if row is None:
            report.error("attribute.unknown", ptr("stats", stat),
                         f"Our D&D has no stat {stat!r}; the six stats are {', '.join(STATS)}. Remove or rename it.")
            continue
        path, label = row
        if not is_int(value):
            report.error("build.malformed", path, f"{label} must be a whole number from {low} to {high}.")
            continue
        # RULES.md "out-of-range values are priced": a stat outside its range still costs what the
        # formula says, so spent, remaining and budget.exceeded stay true beside the range error.
        report.charge("points", value * per_point, path=path, label=f"{label} {value}")
        if value < low:
            report.error("attribute.below_minimum", path, f"{label} cannot be below {low}; raise it to {low}.")
            continue
        if value > high:
            report.error("attribute.above_maximum", path,
                         f"{label} {value} is above the highest stat, {high} (house default; your campaign may "
                         f"change it); lower it to {high}.")
            continue
        good[stat] = value
    for stat in STATS:
        if stat not in raw:
            report.error("attribute.missing", ptr("stats", stat),
                         f"{names.get(stat, {}).get('name', stat.upper())} is missing; give it a value (0 is fine).")
    return good


def _check_hearts(build: dict, report: Report, settings: dict) -> int | None:
    hearts = build.get("hearts", 1)
    if not is_int(hearts):
        report.error("build.malformed", "/hearts", "Hearts must be a whole number, 1 or more.")
        return None
    if hearts < 1:
        report.error("attribute.below_minimum", "/hearts",
                     "Every adventurer has at least one heart; set hearts to 1 or more.")
        return None
    cost = settings.get("heart_cost", 3)
    if hearts > 1:
        report.charge("points", (hearts - 1) * cost, path="/hearts",
                      label=f"{hearts - 1} extra heart{'s' if hearts > 2 else ''} ({cost} points each, house default)")
    return hearts


def _check_gear(build: dict, report: Report, ctx: Context) -> list[dict] | None:
    """The catalogue entries of the carried gear; None when the list itself is broken."""
    raw = build.get("gear", [])
    if raw is None:
        raw = []
    if not isinstance(raw, list):
        report.error("build.malformed", "/gear", 'Gear must be a list such as [{"item": "sword"}].')
        return None
    catalogue = ctx.catalogue.get("gear", {})
    out = []
    sound = True
    worn: dict[str, str] = {}  # armor / shield → the name of the one that counts
    for i, entry in enumerate(raw):
        if not isinstance(entry, dict) or not isinstance(entry.get("item"), str):
            report.error("build.malformed", ptr("gear", i), 'Each piece of gear is an object such as {"item": "sword"}.')
            sound = False
            continue
        item = catalogue.get(entry["item"])
        if item is None:
            report.error("gear.unknown", ptr("gear", i, "item"),
                         f"There is no gear {entry['item']!r} in Our D&D or this campaign's homebrew; pick one from "
                         "the catalogue or ask the DM to add it.")
            sound = False
            continue
        if item.get("kind") in WORN_KINDS and not _one_of_a_kind(item, i, worn, report):
            continue  # a second armor or shield: reported, and its defense does not count
        out.append(item)
    return out if sound else None


#: RULES.md §4 (HD): a character wears at most one body armour and carries at most one shield.
WORN_KINDS = {"armor": "body armour", "shield": "shield"}


def _one_of_a_kind(item: dict, index: int, worn: dict[str, str], report: Report) -> bool:
    """False (and ``ourdnd.gear_conflict`` at the entry) when ``item`` is a second body armour or a
    second shield; the first of each kind counts for defense."""
    kind = item["kind"]
    name = item.get("name", item.get("id", kind))
    first = worn.get(kind)
    if first is None:
        worn[kind] = name
        return True
    what = WORN_KINDS[kind]
    report.error("ourdnd.gear_conflict", ptr("gear", index),
                 f"{name} is a second {what}: a character wears one body armour and carries one shield "
                 f"for defense (house default), and {first} already counts. Remove one of them.")
    return False


def check_homebrew_entry(kind: str, entry: dict, path: str) -> list[Issue]:
    if kind != "gear":
        return []
    issues = []
    if not isinstance(entry.get("name"), str) or not entry["name"].strip():
        issues.append(Issue("homebrew.malformed", path + "/name", "Give the gear a name."))
    effort = entry.get("effort")
    if effort is not None and effort not in EFFORT_DICE:
        issues.append(Issue("homebrew.malformed", path + "/effort",
                            f"The effort die is one of {', '.join(EFFORT_DICE)} (or null for none)."))
    defense = entry.get("defense", 0)
    if not is_int(defense) or not 0 <= defense <= 5:
        issues.append(Issue("homebrew.malformed", path + "/defense", "A defense bonus is a whole number from 0 to 5."))
    stats = entry.get("stats", {})
    if not isinstance(stats, dict) or any(s not in STATS or not is_int(n) for s, n in stats.items()):
        issues.append(Issue("homebrew.malformed", path + "/stats",
                            f'Stat bonuses are an object such as {{"str": 1}} over {", ".join(STATS)}.'))
    reach = entry.get("reach")
    if reach is not None and reach not in REACHES:
        issues.append(Issue("homebrew.malformed", path + "/reach",
                            "How far gear reaches in a fight is close, near, far or very_far (nothing reaches "
                            "out of range)."))
    td = entry.get("td_modifier", 0)
    if not is_int(td) or not -3 <= td <= 0:
        issues.append(Issue("homebrew.malformed", path + "/td_modifier",
                            "A TD modifier lowers the TD by 0 to 3 (players never lower it by more than 3)."))
    return issues


# ------------------------------------------------------------------ odds and rolls


def _kept(mode: str) -> dict[int, float]:
    d20 = die(20)
    return {"normal": d20, "easy": keep_highest(d20, 2), "hard": keep_lowest(d20, 2)}[mode]


def _read_check(request: dict) -> tuple[int, int, str]:
    stat, td, mode = request.get("stat"), request.get("td"), request.get("mode", "normal")
    for key, value in (("stat", stat), ("td", td)):
        if not is_int(value) or abs(value) > ODDS_LIMIT:
            raise OddsError(f'"{key}" must be a whole number (got {value!r}).')
    if mode not in MODES:
        raise OddsError(f'"mode" is one of {", ".join(MODES)} (got {mode!r}).')
    return stat, td, mode


def _read_effort(request: dict) -> tuple[str, bool]:
    effort, critical = request.get("effort"), request.get("critical", False)
    if effort not in EFFORT_DICE:
        raise OddsError(f'"effort" is one of {", ".join(EFFORT_DICE)} (got {effort!r}).')
    if not isinstance(critical, bool):
        raise OddsError('"critical" is true or false.')
    return effort, critical


_CHECK_CACHE: dict[tuple[int, int, str], dict[str, float]] = {}


def check_odds(stat: int, td: int, mode: str) -> dict[str, float]:
    key = (stat, td, mode)
    hit = _CHECK_CACHE.get(key)
    if hit is None:
        kept = _kept(mode)
        critical, blunder = kept[20], kept[1]
        success = critical + sum(p for face, p in kept.items() if 2 <= face <= 19 and face + stat >= td)
        hit = {"success": success, "critical": critical, "blunder": blunder}
        if len(_CHECK_CACHE) > 4096:
            _CHECK_CACHE.clear()
        _CHECK_CACHE[key] = hit
    return dict(hit)


def odds(request: Any) -> dict[str, Any]:
    if not isinstance(request, dict):
        raise OddsError('An Our D&D request is {"stat": S, "td": T, "mode": "normal"} or {"effort": "d6"}.')
    if "effort" in request:
        effort, critical = _read_effort(request)
        dist = die(int(effort[1:]))
        if critical:
            dist = convolve(dist, die(12))
        return {"effort": {str(k): v for k, v in sorted(dist.items())}}
    return check_odds(*_read_check(request))


def roll(request: Any, roller: Roller) -> dict[str, Any]:
    if not isinstance(request, dict):
        raise OddsError('An Our D&D request is {"stat": S, "td": T, "mode": "normal"} or {"effort": "d6"}.')
    if "effort" in request:
        effort, critical = _read_effort(request)
        faces = [roller.d(int(effort[1:]))]
        text = f"Effort {effort}: {faces[0]}"
        if critical:
            faces.append(roller.d(12))
            text += f" + d12 {faces[1]}"
        total = sum(faces)
        return {"faces": faces, "total": total, "outcome": "effort", "text": f"{text} = {total}"}
    stat, td, mode = _read_check(request)
    faces = [roller.d(20)] if mode == "normal" else [roller.d(20), roller.d(20)]
    natural = max(faces) if mode == "easy" else min(faces)
    total = natural + stat
    if natural == 20:
        outcome = "critical"
    elif natural == 1:
        outcome = "blunder"
    else:
        outcome = "success" if total >= td else "failure"
    dice_text = f"d20 {faces[0]}" if mode == "normal" else f"2d20 ({mode}) {faces[0]}, {faces[1]} → {natural}"
    text = f"{dice_text} {'+' if stat >= 0 else '−'} {abs(stat)} = {total} vs TD {td}: {outcome}"
    if natural == 20:
        text += " (natural 20: Heroic Inspiration)"
    return {"faces": faces, "natural": natural, "total": total, "outcome": outcome,
            "success": outcome in ("success", "critical"), "text": text}


def rollables(build: dict, report: Report, ctx: Context, state: dict | None = None) -> list[dict[str, Any]]:
    """A check per stat in each of the three modes, and an effort roll per gear die."""
    stats = report.derived.get("stats")
    if not isinstance(stats, dict):
        raw = build.get("stats") if isinstance(build.get("stats"), dict) else {}
        stats = {s: raw[s] for s in STATS if is_int(raw.get(s)) and abs(raw[s]) <= ODDS_LIMIT}
    td = ctx.settings.get("default_td", 12)
    names = ctx.catalogue.get("stats", {})
    out = []
    for stat in STATS:
        if stat not in stats:
            continue
        for mode in MODES:
            label = f"{names.get(stat, {}).get('name', stat.upper())} check"
            out.append({
                "id": f"check:{stat}:{mode}",
                "label": label if mode == "normal" else f"{label} ({mode})",
                "group": "checks",
                "request": {"stat": stats[stat], "td": td, "mode": mode},
            })
    catalogue = ctx.catalogue.get("gear", {})
    for key, effort in (report.derived.get("effort") or {}).items():
        label = "Bare hands" if key == "bare_hands" else catalogue.get(key, {}).get("name", key)
        out.append({"id": f"effort:{key}", "label": f"{label} effort ({effort})", "group": "effort",
                    "request": {"effort": effort}})
    return out


# ------------------------------------------------------------------ play state


def max_hp(build: dict, report: Report, ctx: Context) -> int:
    if is_int(report.derived.get("max_hp")):
        return report.derived["max_hp"]
    hearts = build.get("hearts", 1)
    return (hearts if is_int(hearts) and hearts > 0 else 1) * ctx.settings.get("hp_per_heart", 10)


def initial_state(build: dict, report: Report, ctx: Context) -> dict[str, Any]:
    return {"hp": max_hp(build, report, ctx), "unconscious": False, "dying": False, "dying_rounds": None,
            "stable": False, "dead": False, "inspiration": False}


FLAGS = ("unconscious", "dying", "stable", "dead", "inspiration")


def _normal(state: Any, build: dict, report: Report, ctx: Context) -> dict[str, Any]:
    out = initial_state(build, report, ctx)
    if isinstance(state, dict):
        if is_int(state.get("hp")):
            out["hp"] = max(0, min(out["hp"], state["hp"]))
        for flag in FLAGS:
            if isinstance(state.get(flag), bool):
                out[flag] = state[flag]
        if is_int(state.get("dying_rounds")):
            out["dying_rounds"] = state["dying_rounds"]
    return out


def check_state(state: Any, build: dict, report: Report, ctx: Context) -> list[Issue]:
    if not isinstance(state, dict):
        return [Issue("state.malformed", "", 'The play state must be an object such as {"hp": 10}.')]
    issues = []
    top = max_hp(build, report, ctx)
    hp = state.get("hp", top)
    if not is_int(hp):
        issues.append(Issue("state.malformed", "/hp", "HP must be a whole number."))
    elif hp < 0:
        issues.append(Issue("state.below_minimum", "/hp", "HP stops at 0 (a character at 0 is dying)."))
    elif hp > top:
        issues.append(Issue("state.above_maximum", "/hp", f"HP {hp} is above the maximum {top}; lower it."))
    for flag in FLAGS:
        if flag in state and not isinstance(state[flag], bool):
            issues.append(Issue("state.malformed", ptr(flag), f"{flag} must be true or false."))
    rounds = state.get("dying_rounds")
    if rounds is not None and (not is_int(rounds) or rounds < 0):
        issues.append(Issue("state.malformed", "/dying_rounds", "Dying rounds are a whole number ≥ 0, or null."))
    for key in state:
        if key not in FLAGS and key not in ("hp", "dying_rounds"):
            issues.append(Issue("state.unknown", ptr(key), f"The play state has no {key!r}."))
    return issues


def _conditions(st: dict) -> list[tuple[str, str]]:
    out = []
    if st["dead"]:
        return [("dead", "Dead.")]
    if st["dying"]:
        left = "countdown not rolled yet" if st["dying_rounds"] is None else f"{st['dying_rounds']} rounds left"
        out.append(("dying", f"Dying ({left}): first aid (INT or WIS vs TD) stabilises; a natural 20 is a miracle."))
    elif st["stable"]:
        out.append(("stable", "Stable at 0 HP, unconscious: healing wakes them."))
    if st["unconscious"]:
        out.append(("unconscious", "Unconscious."))
    if st["inspiration"]:
        out.append(("inspiration", "Heroic Inspiration: re-roll any d20, or add a d12 to an effort roll."))
    return out


def state_effects(build: dict, report: Report, ctx: Context, state: dict) -> dict[str, Any]:
    st = _normal(state, build, report, ctx)
    found = _conditions(st)
    return {
        "conditions": [c for c, _ in found],
        "labels": [t for _, t in found],
        "can_act": not (st["dead"] or st["unconscious"]),
        "inspiration": st["inspiration"],
    }


def state_sections(build: dict, report: Report, ctx: Context, state: dict) -> list[dict[str, Any]]:
    st = _normal(state, build, report, ctx)
    top = max_hp(build, report, ctx)
    status = "dead" if st["dead"] else "dying" if st["dying"] else "stable" if st["stable"] else \
        "unconscious" if st["unconscious"] else ""
    amount = [{"id": "amount", "kind": "number", "min": 1}]
    td = [{"id": "td", "kind": "number", "min": 1, "default": ctx.settings.get("default_td", 12)}]
    return [
        {
            "id": "health", "label": "Hit points", "kind": "pools",
            "items": [{"id": "hp", "label": "HP", "path": "/hp", "value": st["hp"], "min": 0, "max": top,
                       "status": status}],
            "actions": [
                {"action": "damage", "label": "Take damage", "fields": amount},
                {"action": "heal", "label": "Heal", "fields": amount},
                {"action": "recover", "label": "Recover (whole turn: d20 + CON vs TD)", "fields": td},
                {"action": "rest", "label": "Rest (8 hours)", "fields": []},
            ],
        },
        {
            "id": "dying", "label": "Dying", "kind": "flags",
            "items": [{"id": flag, "label": flag.replace("_", " ").capitalize(), "on": st[flag]}
                      for flag in ("unconscious", "dying", "stable", "dead")]
            + [{"id": "dying_rounds", "label": "Rounds left", "on": st["dying_rounds"] is not None,
                "value": st["dying_rounds"]}],
            "actions": [
                {"action": "dying_turn", "label": "Dying turn (countdown and miracle roll)", "fields": []},
                {"action": "first_aid", "label": "First aid (INT or WIS vs TD)",
                 "fields": [{"id": "stat", "kind": "number", "min": 0}] + td},
            ],
        },
        {
            "id": "inspiration", "label": "Heroic Inspiration", "kind": "flags",
            "items": [{"id": "inspiration", "label": "Heroic Inspiration", "on": st["inspiration"]}],
            "actions": [
                {"action": "gain_inspiration", "label": "Gain Heroic Inspiration", "fields": []},
                {"action": "spend_inspiration", "label": "Turn in Heroic Inspiration", "fields": []},
            ],
        },
    ]


def _d20_vs(roller: Roller, bonus: int, td: int) -> tuple[int, bool]:
    face = roller.d(20)
    return face, face == 20 or (face != 1 and face + bonus >= td)


def state_action(state: dict, action: dict, build: dict, report: Report, ctx: Context,
                 roller: Roller | None = None) -> tuple[dict, str]:
    if not isinstance(action, dict):
        raise StateError("state.malformed", 'An action must be an object with an "action".')
    roller = roller or Roller()
    st = _normal(state, build, report, ctx)
    top = max_hp(build, report, ctx)
    kind = action.get("action")
    name = build.get("name") if isinstance(build.get("name"), str) else "The character"
    if st["dead"] and kind not in ("gain_inspiration", "spend_inspiration"):
        raise StateError("ourdnd.dead", f"{name} is dead; no roll or rest brings them back.", "/dead")

    if kind == "damage":
        amount = action_amount(action)
        before = st["hp"]
        after = before - amount
        if after <= ctx.settings.get("instant_death_hp", -20):
            st.update(hp=0, dead=True, dying=False, stable=False, unconscious=True, dying_rounds=None)
            return st, f"{name} takes {amount} damage and is reduced to {after} HP in one blow: dead instantly."
        st["hp"] = max(0, after)
        log = f"{name} takes {amount} damage: HP {before} → {st['hp']}."
        if st["hp"] == 0 and amount > 0 and not st["dying"]:
            st.update(unconscious=True, dying=True, stable=False, dying_rounds=None)
            log += " Unconscious and dying: roll 1d4 on the next turn for the rounds left."
        return st, log

    if kind == "heal":
        amount = action_amount(action)
        before = st["hp"]
        st["hp"] = min(top, before + amount)
        log = f"{name} heals {amount}: HP {before} → {st['hp']}."
        if st["hp"] > 0 and (st["dying"] or st["unconscious"] or st["stable"]):
            st.update(unconscious=False, dying=False, stable=False, dying_rounds=None)
            log += " Back on their feet."
        return st, log

    if kind == "dying_turn":
        if not st["dying"]:
            raise StateError("ourdnd.not_dying", f"{name} is not dying; there is nothing to count down.", "/dying")
        log = f"{name} is dying."
        first = st["dying_rounds"] is None
        if first:
            st["dying_rounds"] = roller.d(ctx.settings.get("dying_die", 4))
            log += f" Countdown: {st['dying_rounds']} rounds."
        miracle = roller.d(20)
        if miracle == 20:
            st.update(hp=1, unconscious=False, dying=False, stable=False, dying_rounds=None)
            return st, log + " Miracle roll: natural 20! Back awake with 1 HP."
        log += f" Miracle roll: {miracle}."
        if not first:
            st["dying_rounds"] = max(0, st["dying_rounds"] - 1)
            log += f" {st['dying_rounds']} rounds left."
        if st["dying_rounds"] == 0:
            st.update(dead=True, dying=False, dying_rounds=None)
            log += f" {name} dies."
        return st, log

    if kind == "first_aid":
        if not st["dying"]:
            raise StateError("ourdnd.not_dying", f"{name} is not dying; first aid stops a dying countdown.",
                             "/dying")
        if action.get("result") == "success":
            ok, text = True, "a successful roll"
        else:
            bonus, td = action.get("stat"), action.get("td")
            if not is_int(bonus) or not is_int(td):
                raise StateError("state.malformed", 'First aid needs the helper\'s INT or WIS ("stat") and the '
                                 '"td", or {"result": "success"} for a roll made at the table.', "/stat")
            face, ok = _d20_vs(roller, bonus, td)
            text = f"d20 {face} + {bonus} vs TD {td}"
        if not ok:
            return st, f"First aid on {name} fails ({text}); the countdown goes on."
        st.update(dying=False, stable=True, dying_rounds=None, hp=0, unconscious=True)
        return st, f"First aid stabilises {name} ({text}): still unconscious at 0 HP, no longer dying."

    if kind == "recover":
        if st["dying"] or st["unconscious"]:
            raise StateError("ourdnd.cannot_recover", f"{name} cannot recover while unconscious or dying.", "/hp")
        td = action.get("td", ctx.settings.get("default_td", 12))
        stats = build.get("stats") if isinstance(build.get("stats"), dict) else {}
        con = report.derived.get("stats", {}).get("con", stats.get("con", 0))
        con = con if is_int(con) else 0
        if not is_int(td):
            raise StateError("state.malformed", '"td" must be a whole number.', "/td")
        face, ok = _d20_vs(roller, con, td)
        if not ok:
            return st, f"{name} tries to recover (d20 {face} + {con} vs TD {td}) and fails."
        before = st["hp"]
        st["hp"] = min(top, before + con + 1)
        return st, f"{name} recovers (d20 {face} + {con} vs TD {td}): HP {before} → {st['hp']}."

    if kind == "rest":
        if st["hp"] < 1:
            raise StateError("ourdnd.rest_needs_hp", f"{name} needs at least 1 HP at the start of a rest; heal "
                             "them first.", "/hp")
        lost = " Heroic Inspiration is lost." if st["inspiration"] else ""
        st.update(hp=top, inspiration=False)
        return st, f"{name} rests 8 hours and regains all hearts (HP {top}).{lost}"

    if kind == "gain_inspiration":
        if st["inspiration"]:
            raise StateError("ourdnd.inspiration_held", f"{name} already has Heroic Inspiration (one at most); "
                             "give the new one to a party member who lacks it.", "/inspiration")
        st["inspiration"] = True
        return st, f"{name} gains Heroic Inspiration."

    if kind == "spend_inspiration":
        if not st["inspiration"]:
            raise StateError("ourdnd.no_inspiration", f"{name} has no Heroic Inspiration to turn in.",
                             "/inspiration")
        st["inspiration"] = False
        return st, f"{name} turns in Heroic Inspiration (re-roll a d20 or add a d12 to effort)."

    raise StateError(
        "state.unknown_action",
        f"Our D&D has no action {kind!r}; use damage, heal, dying_turn, first_aid, recover, rest, "
        "gain_inspiration or spend_inspiration.",
        "/action",
    )
