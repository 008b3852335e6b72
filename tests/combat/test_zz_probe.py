import pytest
from tests.combat.test_live import *  # noqa

@pytest.mark.django_db(transaction=True)
def test_probe(fight):
    import psycopg, threading
    async def run():
        comm = _communicator(fight["stranger"], fight["e"].pk)
        result = await comm.connect()
        return result
    print(async_to_sync(run)())
    with psycopg.connect("postgresql://postgres@127.0.0.1:5432/postgres") as c:
        for row in c.execute("select pid, state, backend_start, left(query, 80) from pg_stat_activity where datname='test_sf_combat'"):
            print(row)
    print(threading.enumerate())
