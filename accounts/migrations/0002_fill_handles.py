"""Handles for the users made before names were unique: each claims its name's skeleton,
oldest first; a later user whose name looks like an earlier one's keeps no handle (logged),
and keeps its account and games."""

import logging

from django.db import migrations

log = logging.getLogger(__name__)


def fill_handles(apps, schema_editor):
    # The skeleton as of today's code: a migration that runs it later gets the same classes
    # unless the confusables data changed, which only makes more names clash.
    from accounts.skeleton import skeleton

    User = apps.get_model("auth", "User")
    Handle = apps.get_model("accounts", "Handle")
    owners = set(Handle.objects.values_list("skeleton", flat=True))
    for user_id, username in User.objects.order_by("date_joined", "pk").values_list(
            "pk", "username"):
        name = skeleton(username)
        if Handle.objects.filter(user_id=user_id).exists():
            continue
        if name in owners:
            log.warning("user %s (%r) keeps no handle: its name looks like an older user's",
                        user_id, username)
            continue
        Handle.objects.create(user_id=user_id, skeleton=name)
        owners.add(name)


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0001_initial"),
    ]

    operations = [
        migrations.RunPython(fill_handles, migrations.RunPython.noop),
    ]
