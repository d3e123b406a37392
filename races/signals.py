"""A visitor who signs up or logs in takes their places in races along."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.signals import user_logged_in
from django.dispatch import receiver

from game.actions import ANON_SESSION_KEY

from .actions import do_adopt_entries


@receiver(user_logged_in, dispatch_uid="races.adopt_session_entries")
def adopt_session_entries(sender: Any, request: Any, user: Any, **kwargs: Any) -> None:
    session = getattr(request, "session", None)
    if session is not None:
        do_adopt_entries(user.pk, session.get(ANON_SESSION_KEY, ""))
