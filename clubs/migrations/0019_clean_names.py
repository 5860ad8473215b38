from django.db import migrations
from django.db.models import F

from matching import clean_name

# Event and club names were stored as typed, zero-width and bidi characters included (a
# right-to-left override turns the text after it around on every page). Names now pass
# matching.clean_name when they come in; this cleans the ones already stored. A name of
# nothing but such characters becomes the club's address or the event's date.


def clean_names(apps, schema_editor):
    Club = apps.get_model("clubs", "Club")
    Event = apps.get_model("clubs", "Event")
    changed_clubs = set()
    for pk, slug, name in Club.objects.values_list("pk", "slug", "name").iterator():
        if clean_name(name) != name:
            Club.objects.filter(pk=pk).update(name=clean_name(name) or slug)
            changed_clubs.add(pk)
    events = Event.objects.values_list("pk", "club_id", "date", "name")
    for pk, club_id, date, name in events.iterator():
        if clean_name(name) != name:
            Event.objects.filter(pk=pk).update(name=clean_name(name) or date.isoformat())
            changed_clubs.add(club_id)
    # What the pages show changed: every kept page and roster of these clubs is retired.
    Club.objects.filter(pk__in=changed_clubs).update(pages_version=F("pages_version") + 1)


class Migration(migrations.Migration):
    dependencies = [("clubs", "0018_held_players")]

    operations = [migrations.RunPython(clean_names, migrations.RunPython.noop)]
