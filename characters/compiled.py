"""ORM querysets compiled once per process, run with each call's values: for the reads every
request makes.

Django turns a queryset into SQL each time it is evaluated. For the few reads that every
character page, builder update, play action and encounter request starts with
(``character_for_user``, ``encounter_for_user``), that compiling cost several times what Postgres
took to answer (BENCHMARKS.md, "ORM selectors"). A ``CompiledQuery`` asks the ORM for the
statement once per process and database: the queryset stays the one statement of the read (its
filters, joins, subqueries and lock, written with the same helpers as every other read); only
the values change per call. Rows become models exactly as ``QuerySet.__iter__`` makes them
(Django's ``ModelIterable``: the fields' converters, ``Model.from_db``, the ``select_related``
populators, the annotations as attributes).

The values that change are passed to ``build`` as sentinel integers, found again among the
compiled statement's parameters; a queryset that folds one away (or adds parameters per call)
fails loudly when compiled. Use this for a measured hot path only: every other read is a
plain queryset.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.db import connections
from django.db.models import QuerySet
from django.db.models.query import ModelIterable, ValuesListIterable, get_related_populators

#: Values no caller passes: ids are positive.
_SENTINEL = -7_316_000_000_000


class CompiledQuery:
    """``build(**values)`` → a queryset of models (``select_related`` and annotations allowed) or
    of ``values_list()`` rows, compiled once per database; ``fetch(**values)`` runs it and returns
    the models, or the rows as tuples."""

    def __init__(self, build: Callable[..., QuerySet], *names: str) -> None:
        self.build = build
        self.names = names
        self._plans: dict[tuple[str, str], _Plan] = {}

    def fetch(self, *, using: str = "default", **values: Any) -> list[Any]:
        connection = connections[using]
        key = (using, connection.vendor)
        plan = self._plans.get(key)
        if plan is None:
            plan = self._plans[key] = _Plan(self.build, self.names, using)
        params = [values[slot] if isinstance(slot, _Slot) else slot for slot in plan.params]
        with connection.cursor() as cursor:
            cursor.execute(plan.sql, params)
            rows = cursor.fetchall()
        return [plan.instance(row, connection) for row in rows]


class _Slot(str):
    """A parameter position filled by the call's value of this name."""


class _Plan:
    def __init__(self, build: Callable[..., QuerySet], names: tuple[str, ...], using: str) -> None:
        sentinels = {name: _SENTINEL - i for i, name in enumerate(names)}
        queryset = build(**sentinels).using(using)
        compiler = queryset.query.get_compiler(using=using)
        self.sql, raw = compiler.as_sql()
        by_value = {value: _Slot(name) for name, value in sentinels.items()}
        self.params: list[Any] = [by_value.get(p, p) if isinstance(p, int) else p for p in raw]
        missing = set(names) - {p for p in self.params if isinstance(p, _Slot)}
        if missing:
            raise ValueError(f"the compiled statement does not take {sorted(missing)}")
        # What ModelIterable reads off the compiler after compiling (django/db/models/query.py;
        # django-stubs describe a later signature of get_related_populators).
        select, klass_info = compiler.select, compiler.klass_info
        self.converters = compiler.get_converters([s[0] for s in select[0 : compiler.col_count]])
        self.using = using
        self.model = None
        if queryset._iterable_class is not ModelIterable:  # values_list(): the rows themselves
            if queryset._iterable_class is not ValuesListIterable:
                raise ValueError("a CompiledQuery returns models or values_list() tuples")
            return
        self.model = klass_info["model"]
        fields = klass_info["select_fields"]
        self.start, self.end = fields[0], fields[-1] + 1
        self.init_list = [s[0].target.attname for s in select[self.start : self.end]]
        self.populators = get_related_populators(klass_info, select, using)  # type: ignore[call-arg]
        self.annotations = dict(compiler.annotation_col_map)

    def instance(self, row: tuple, connection) -> Any:
        values = list(row)
        for pos, (converters, expression) in self.converters.items():
            value = values[pos]
            for converter in converters:
                value = converter(value, expression, connection)
            values[pos] = value
        if self.model is None:
            return tuple(values)
        obj = self.model.from_db(self.using, self.init_list, values[self.start : self.end])
        for populator in self.populators:
            populator.populate(values, obj)
        for name, pos in self.annotations.items():
            setattr(obj, name, values[pos])
        return obj
