import pytest
import threading, psycopg

def dump():
    with psycopg.connect("postgresql://postgres@127.0.0.1:5432/postgres") as c:
        for row in c.execute("select pid, state, left(query, 60), application_name from pg_stat_activity where datname='test_sf_combat'"):
            print(row)
    print([t.name for t in threading.enumerate()])

@pytest.mark.django_db(transaction=True)
def test_probe(table):
    print("after table"); dump()
    from combat import services
    e = services.encounter_create(campaign=table["campaign"], user=table["gm"], name="Live")
    print("after create"); dump()
