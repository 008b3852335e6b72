"""Hand-written SELECTs for the few reads every page makes, with rows made into what the ORM
would have made of them.

Building a queryset (``select_related``, a subquery, an ordering) costs more CPU than Postgres
takes to answer it: on the sheet page and the builder's live update, the ORM's compiling of four
small queries was a third of the request (bench/README.md). The statements here are built once
per process (and database vendor) from the models' metadata, so a renamed column or a new field
follows; the values go through each field's database converters, as the ORM's do.
"""

from __future__ import annotations

from typing import Any

from django.db import connection


class Columns:
    """Fields of one model (all its concrete fields by default) as the column list of a SELECT,
    and a row's values back into an instance (``Model.from_db``) or into Python values."""

    def __init__(self, model, alias: str, fields: list[str] | None = None) -> None:
        qn = connection.ops.quote_name
        self.model = model
        concrete = list(model._meta.concrete_fields)
        self.fields = concrete if fields is None else [model._meta.get_field(name) for name in fields]
        self.names = [f.attname for f in self.fields]
        self.sql = ", ".join(f"{alias}.{qn(f.column)}" for f in self.fields)
        self.converters: list[tuple[list, Any]] = []
        for f in self.fields:
            col = f.get_col(alias)
            self.converters.append(
                (connection.ops.get_db_converters(col) + col.get_db_converters(connection), col)
            )

    def __len__(self) -> int:
        return len(self.fields)

    def values(self, row) -> list[Any]:
        out = list(row)
        for i, (converters, col) in enumerate(self.converters):
            for converter in converters:
                out[i] = converter(out[i], col, connection)
        return out

    def instance(self, row):
        return self.model.from_db(connection.alias, self.names, self.values(row))


def qn(name: str) -> str:
    return connection.ops.quote_name(name)


_STATEMENTS: dict[tuple, Any] = {}


def statement(key: tuple, build):
    """``build()`` (a statement and its ``Columns``) once per process, database vendor and ``key``."""
    full = (connection.vendor, *key)
    found = _STATEMENTS.get(full)
    if found is None:
        found = _STATEMENTS[full] = build()
    return found
