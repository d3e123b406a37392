"""The only writer of handles; sign-up goes through here so a name is claimed atomically."""

from __future__ import annotations

import logging

from django.contrib.auth.models import User
from django.db import IntegrityError, transaction

from .models import Handle
from .skeleton import normal_form, skeleton

log = logging.getLogger(__name__)

# Nobody may sign up as these, nor as anything that looks like them.
RESERVED = ("admin", "staff", "support", "moderator", "system", "root")


def is_reserved(name: str) -> bool:
    return skeleton(name) in {skeleton(word) for word in RESERVED}


def is_taken(name: str) -> bool:
    return Handle.objects.filter(skeleton=skeleton(name)).exists()


def sign_up(username: str, password: str) -> User | None:
    """A new player, or None when the name (or a look-alike) was taken meanwhile: the unique
    skeleton (or username) decides a race, and the loser's user row is rolled back."""
    try:
        with transaction.atomic():
            return User.objects.create_user(normal_form(username), password=password)
    except IntegrityError:
        return None


def claim_handle(user: User) -> None:
    """Records the skeleton of the user's name (called on every save that may change it).
    A clash raises IntegrityError inside the caller's transaction."""
    name = skeleton(user.get_username())
    current = Handle.objects.filter(user=user).first()
    if current is None:
        Handle.objects.create(user=user, skeleton=name)
    elif current.skeleton != name:
        current.skeleton = name
        current.save(update_fields=["skeleton"])
