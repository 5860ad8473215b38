"""Rename the stored audit actions to the one scheme `thing.past-participle` (clubs.audit.ACTIONS).

The mapping is frozen here rather than imported, so the migration keeps meaning what it
meant when later code renames again. A staff edit in the admin ("player.admin_edit") becomes
"player.edited" with by="staff" in its details, as the admin's other entries already carry;
the reverse takes that mark off again.
"""

from django.apps.registry import Apps
from django.db import migrations
from django.db.backends.base.schema import BaseDatabaseSchemaEditor

RENAMED = {
    "club.create": "club.created",
    "club.secret_rotated": "club_secret.rotated",
    "club.page_settings": "page_settings.changed",
    "club.rating_settings": "rating_settings.changed",
    "director.invite": "director.invited",
    "director.add": "director.added",
    "director.remove": "director.removed",
    "event.create": "event.created",
    "event.update": "event.updated",
    "event.publish": "event.published",
    "event.unpublish": "event.unpublished",
    "event.delete": "event.deleted",
    "event.restore": "event.restored",
    "event.share_link_rotated": "share_link.rotated",
    "event.results": "results.saved",
    "event.names": "names.decided",
    "event.entry_add": "entry.added",
    "event.entry_remove": "entry.removed",
    "entry_repointed": "entry.repointed",
    "player.details": "player.edited",
    "player.erase": "player.erased",
    "players_merged": "players.merged",
    "merge_undone": "merge.undone",
    "duplicate_dismissed": "duplicate.dismissed",
    "ladder.rebuild": "ladder.rebuilt",
}
STAFF_EDIT = "player.admin_edit"


def rename(apps: Apps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    AuditEntry = apps.get_model("clubs", "AuditEntry")
    for old, new in RENAMED.items():
        AuditEntry.objects.filter(action=old).update(action=new)
    for entry in AuditEntry.objects.filter(action=STAFF_EDIT).iterator():
        entry.action = "player.edited"
        entry.details = {**entry.details, "by": "staff"}
        entry.save(update_fields=["action", "details"])


def rename_back(apps: Apps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    AuditEntry = apps.get_model("clubs", "AuditEntry")
    staff = AuditEntry.objects.filter(action="player.edited", details__by="staff")
    for entry in staff.iterator():
        entry.action = STAFF_EDIT
        entry.details = {key: value for key, value in entry.details.items() if key != "by"}
        entry.save(update_fields=["action", "details"])
    for old, new in RENAMED.items():
        AuditEntry.objects.filter(action=new).update(action=old)


class Migration(migrations.Migration):
    dependencies = [
        ("clubs", "0010_event_file_date"),
    ]

    operations = [
        migrations.RunPython(rename, rename_back),
    ]
