"""Stand-ins for the combat service in the pure-Python combat tests (tests/rulesets/<slug>/test_*_combat.py).

A test file subclasses ``Table`` or ``Scene`` and names its ruleset's hooks:

    class Table(combat_helpers.Table):
        rules = RULES

``Table`` takes actions as dicts and checks that no hook mutates its arguments;
``Scene`` takes actions as keywords (``scene.act(1, [12], action="strike", target=2)``).
"""

from __future__ import annotations

import copy

import pytest

from rulesets.engine.combat import CombatRefused, CombatRules, Fighter, Outcome
from rulesets.engine.dice import FixedRoller


def make_fighter(
    ruleset,
    fid: int,
    build: dict,
    *,
    npc: bool,
    name: str | None = None,
    group: str = "",
    state: dict | None = None,
) -> Fighter:
    """A fighter as the combat service makes one: a valid ``build`` (asserted), its opening play state
    (``state`` overrides keys of it), no combat numbers yet. ``name`` defaults to the build's."""
    report = ruleset.validate(build)
    assert report.valid, report.errors
    opening = ruleset.initial_state(build, report)
    if state:
        opening = {**opening, **state}
    return Fighter(
        id=fid,
        name=name or build["name"],
        is_npc=npc,
        group=group,
        build=build,
        derived=report.derived,
        state=opening,
        combat={},
        report=report,
    )


def frozen(fighters: list[Fighter], *values):
    """A deep copy of what the hooks must not mutate: the fighters' data, the encounter state, the action."""
    return copy.deepcopy(
        (
            [(f.id, f.build, f.derived, f.state, f.combat) for f in fighters],
            [v for v in values if isinstance(v, dict)],
        )
    )


def call(hook, fighters: list[Fighter], es: dict, *args, **kwargs):
    """Call a hook and check that it did not mutate the fighters, the encounter state or the action."""
    before = frozen(fighters, es, *args)
    try:
        return hook(*args, **kwargs)
    finally:
        assert frozen(fighters, es, *args) == before


class _Service:
    """Applies outcomes to the fighters the way a fight step does (combat/step.py)."""

    def apply(self, out: Outcome) -> Outcome:
        for fid, state in out.state.items():
            self.by_id[fid].state = state
        for fid, numbers in out.combat.items():
            self.by_id[fid].combat = numbers
        if out.encounter_state is not None:
            self.es = out.encounter_state
        if out.order is not None:
            self.order = out.order
        self.log.extend(e.text for e in out.events)
        return out


class Table(_Service):
    """Fighters at a table; actions are dicts, every hook call is checked for mutation.
    ``refusal_faces``: the dice a refused action is offered (it must refuse before it runs out)."""

    rules: CombatRules
    refusal_faces: tuple[int, ...] = (1, 1, 1)

    def __init__(self, *fighters: Fighter):
        self.fighters = list(fighters)
        self.by_id = {f.id: f for f in fighters}
        self.es: dict = {}
        self.current: int | None = None
        self.log: list[str] = []

    def start(self, faces) -> Outcome:
        roller = FixedRoller(faces)
        out = self.apply(call(self.rules.start, self.fighters, self.es, self.fighters, self.es, roller))
        assert roller.faces == []
        self.order = out.order
        return out

    def turn(self, fid: int) -> Outcome:
        self.current = fid
        return self.apply(
            call(
                self.rules.turn_start,
                self.fighters,
                self.es,
                self.by_id[fid],
                self.fighters,
                self.es,
                FixedRoller([]),
            )
        )

    def act(self, fid: int, action: dict, faces=(), *, gm: bool = False) -> Outcome:
        roller = FixedRoller(faces)
        out = self.apply(
            call(
                self.rules.perform,
                self.fighters,
                self.es,
                action,
                self.by_id[fid],
                self.fighters,
                self.es,
                roller,
                current=self.current,
                by_gm=gm,
            )
        )
        assert roller.faces == []
        return out

    def refused(self, code: str, fid: int, action: dict, faces=None, *, gm: bool = False) -> CombatRefused:
        before = frozen(self.fighters, self.es)
        with pytest.raises(CombatRefused) as exc:
            self.act(fid, action, self.refusal_faces if faces is None else faces, gm=gm)
        assert exc.value.code == code, exc.value.message
        assert frozen(self.fighters, self.es) == before
        return exc.value

    def spec(self, fid: int, sid: str):
        specs = call(
            self.rules.actions,
            self.fighters,
            self.es,
            self.by_id[fid],
            self.fighters,
            self.es,
            current=self.current,
        )
        return next(s for s in specs if s.id == sid)


class Scene(_Service):
    """A started encounter (``faces``: the opening rolls); actions are keywords. The first in the
    order is the current fighter."""

    rules: CombatRules

    def __init__(self, fighters: list[Fighter], es: dict | None = None, faces: list[int] = ()):
        self.fighters = fighters
        self.by_id = {f.id: f for f in fighters}
        self.es: dict = {}
        self.log: list[str] = []
        out = self.apply(self.rules.start(fighters, es or {}, FixedRoller(faces)))
        self.order = out.order
        self.current = self.order[0]

    @property
    def by(self) -> dict[int, Fighter]:
        """The fighters by id (``by_id``, the short name the scene tests read)."""
        return self.by_id

    def act(self, fid: int, faces: list[int] = (), gm: bool = False, **action) -> Outcome:
        roller = FixedRoller(faces)
        out = self.rules.perform(
            action, self.by_id[fid], self.fighters, self.es, roller, current=self.current, by_gm=gm
        )
        assert not roller.faces, f"unused faces {roller.faces}"
        return self.apply(out)

    def turn(self, fid: int, faces: list[int] = ()) -> Outcome:
        self.current = fid
        return self.apply(self.rules.turn_start(self.by_id[fid], self.fighters, self.es, FixedRoller(faces)))

    def refused(self, fid: int, code: str, faces: list[int] = (), gm: bool = False, **action) -> str:
        before = copy.deepcopy(([f.state for f in self.fighters], [f.combat for f in self.fighters], self.es))
        with pytest.raises(CombatRefused) as exc:
            self.act(fid, faces, gm=gm, **action)
        assert exc.value.code == code, exc.value.message
        assert before == ([f.state for f in self.fighters], [f.combat for f in self.fighters], self.es)
        return exc.value.message

    def spec(self, fid: int, action: str):
        specs = self.rules.actions(self.by_id[fid], self.fighters, self.es, current=self.current)
        return next(s for s in specs if s.id == action)
