from django.db import migrations, models
from django.db.models import Max


def fill(apps, schema_editor):
    Encounter = apps.get_model("combat", "Encounter")
    EncounterEvent = apps.get_model("combat", "EncounterEvent")
    for row in EncounterEvent.objects.values("encounter_id").annotate(last=Max("seq")):
        Encounter.objects.filter(pk=row["encounter_id"]).update(last_seq=row["last"])


class Migration(migrations.Migration):

    dependencies = [
        ("combat", "0001_initial"),
    ]

    operations = [
        migrations.AddField(
            model_name="encounter",
            name="last_seq",
            field=models.PositiveIntegerField(default=0),
        ),
        migrations.RunPython(fill, migrations.RunPython.noop),
    ]
