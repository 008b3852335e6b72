from django.db import migrations, models
from django.db.models import F


def changed_when_created(apps, schema_editor):
    """Every row took its last change when it was written, as far as is known: a play row that
    took later changes of its session is off by their minutes (it starts a new session sooner)."""
    CharacterVersion = apps.get_model("characters", "CharacterVersion")
    CharacterVersion.objects.filter(kind="play").update(changed=F("created"))


class Migration(migrations.Migration):
    dependencies = [
        ("characters", "0012_obstacles"),
    ]

    operations = [
        migrations.AddField(
            model_name="characterversion",
            name="changed",
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.RunPython(changed_when_created, migrations.RunPython.noop),
    ]
