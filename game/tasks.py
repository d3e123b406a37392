"""Celery tasks of the game app: answering hints for live play."""

from __future__ import annotations

from celery import shared_task

from . import actions, events
from .models import Game


@shared_task(name="game.answer_hint", ignore_result=True)
def answer_hint(game_id: str, fair: bool = False) -> None:
    """Ask the solver about the game's current position and tell its open boards.

    The hint was counted when it was asked for (actions.do_request_hint); this
    only reads (``fair``: the hint that does not peek at the stock). The answer
    names the version it is for, so a board that has moved on since can ignore it.
    """
    game = Game.objects.filter(pk=game_id).first()
    if game is None:
        return
    position = game.position()
    hint = actions.ask_fair_solver(position) if fair else actions.ask_solver(position)
    try:
        events.send_hint(str(game.id), game.version, hint)
    finally:
        if not answer_hint.request.is_eager:
            events.close_layer()
