"""A club's schedule (issue 37): its entries and their known dates, and the club's time zone.

The time zone is added by ALTER TABLE rather than Django's AddField: on SQLite that would
rebuild clubs_club, which SQLite refuses while the ladder's replay_from triggers (ladder
0005/0009) name the table (as clubs 0026 does for clubs_event). Existing clubs take the
server's TIME_ZONE, as a new club does."""

import re
from zoneinfo import ZoneInfo

import clubs.models
import django.db.models.deletion
import django.utils.timezone
from django.conf import settings
from django.db import migrations, models
from django.db.backends.base.schema import BaseDatabaseSchemaEditor
from django.db.migrations.state import StateApps


def _add_time_zone(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    zone = str(settings.TIME_ZONE)
    ZoneInfo(zone)  # a name the zone database lacks stops the migration here, not later
    # DDL takes no parameters: the name is written into the statement, so only the
    # characters IANA names use may reach it.
    if not re.fullmatch(r"[A-Za-z0-9_+/-]+", zone):
        raise ValueError(f"unexpected TIME_ZONE {zone!r}")
    schema_editor.execute(
        f"ALTER TABLE clubs_club ADD COLUMN time_zone varchar(64) NOT NULL DEFAULT '{zone}'"
    )
    if schema_editor.connection.vendor != "sqlite":
        # As Django's own AddField leaves it: no default in the database.
        schema_editor.execute("ALTER TABLE clubs_club ALTER COLUMN time_zone DROP DEFAULT")


def _drop_time_zone(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    schema_editor.execute("ALTER TABLE clubs_club DROP COLUMN time_zone")


class Migration(migrations.Migration):

    dependencies = [
        ('clubs', '0028_series'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[migrations.RunPython(_add_time_zone, _drop_time_zone)],
            state_operations=[
                migrations.AddField(
                    model_name='club',
                    name='time_zone',
                    field=models.CharField(default=clubs.models.default_time_zone, max_length=64),
                ),
            ],
        ),
        migrations.CreateModel(
            name='ScheduleEntry',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('name', models.CharField(max_length=100)),
                ('date', models.DateField()),
                ('start_time', models.TimeField()),
                ('place', models.CharField(blank=True, max_length=120)),
                ('kind', models.CharField(choices=[('standard', 'Standard'), ('rapid', 'Rapid'), ('blitz', 'Blitz'), ('bughouse', 'Bughouse'), ('other', 'Other')], default='standard', max_length=10)),
                ('notes', models.TextField(blank=True, max_length=1000)),
                ('weekly_until', models.DateField(blank=True, null=True)),
                ('created_at', models.DateTimeField(auto_now_add=True)),
                ('changed_at', models.DateTimeField(default=django.utils.timezone.now)),
                ('club', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='schedule', to='clubs.club')),
            ],
            options={
                'verbose_name_plural': 'schedule entries',
                'ordering': ['club', 'date', 'start_time', 'id'],
            },
        ),
        migrations.CreateModel(
            name='ScheduleDate',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('date', models.DateField()),
                ('cancelled', models.BooleanField(default=False)),
                ('reason', models.CharField(blank=True, max_length=200)),
                ('event', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='scheduled_dates', to='clubs.event')),
                ('entry', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='known_dates', to='clubs.scheduleentry')),
            ],
            options={
                'ordering': ['entry', 'date'],
            },
        ),
        migrations.AddConstraint(
            model_name='scheduleentry',
            constraint=models.CheckConstraint(condition=models.Q(('weekly_until__isnull', True), ('weekly_until__gte', models.F('date')), _connector='OR'), name='schedule_weekly_until_after_date'),
        ),
        migrations.AddConstraint(
            model_name='scheduledate',
            constraint=models.UniqueConstraint(fields=('entry', 'date'), name='one_schedule_date_per_day'),
        ),
    ]
