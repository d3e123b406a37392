"""Every user, however made (sign-up, createsuperuser, the admin), claims its handle."""

from __future__ import annotations

import logging
from typing import Any

from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.db.models.signals import post_save
from django.dispatch import receiver

from . import actions

log = logging.getLogger(__name__)


@receiver(post_save, sender=User)
def claim_handle(sender: type[User], instance: User, created: bool,
                 update_fields: frozenset[str] | None = None, **kwargs: Any) -> None:
    if update_fields is not None and "username" not in update_fields:
        return  # a log-in's last_login, say: the name is unchanged
    if created:
        actions.claim_handle(instance)  # a clash undoes the new user (the caller's atomic)
        return
    try:
        with transaction.atomic():
            actions.claim_handle(instance)
    except IntegrityError:
        # A user kept without a handle when names were first made unique (the older of two
        # look-alikes kept it): saving them changes nothing of that.
        log.warning("user %s keeps no handle: its name looks like another's", instance.pk)
