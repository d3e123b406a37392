"""A visitor who signs up or logs in takes their session's games along."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.signals import user_logged_in
from django.dispatch import receiver

from . import actions


@receiver(user_logged_in, dispatch_uid="game.adopt_session_games")
def adopt_session_games(sender: Any, request: Any, user: Any, **kwargs: Any) -> None:
    # login() keeps the session's data when it changes the session key, so
    # the visitor's token is still here.
    session = getattr(request, "session", None)
    if session is not None:
        actions.do_adopt_games(user, session.get(actions.ANON_SESSION_KEY, ""))
