"""The pages of "Race a friend": open a room, the room itself (lobby, countdown, live
progress, results) and the replay viewer. Thin: each page names what its script needs
(the room's code, the player's account) and the script reads the room from the API and
its socket, so the page never carries a card; the board during a race is the play page.
"""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.csrf import ensure_csrf_cookie

import patience
from game.names import named_game, named_variants

from . import actions

MINUTES = (5, 10, 15)


def games() -> list[dict[str, Any]]:
    """Every registered game with its variants: what a race can be run on."""
    return [{**named_game(game), "variants": named_variants(game.variants.values())}
            for game in patience.GAMES.values()]


@ensure_csrf_cookie
def new_race(request: HttpRequest) -> HttpResponse:
    """Open a race (logged-in players); a visitor reads why not and where to log in."""
    return render(request, "races/new.html", {"games": games(), "minutes": MINUTES,
                                              "default_minutes": MINUTES[0]})


@ensure_csrf_cookie
def room(request: HttpRequest, code: str) -> HttpResponse:
    try:
        actions.get_race(code)  # an address nobody opened is the site's 404 page
    except actions.ActionError as error:
        raise Http404(error.message) from error
    return render(request, "races/room.html", {"code": code, "minutes": MINUTES})


def replay(request: HttpRequest, code: str, entry_id: int) -> HttpResponse:
    # Who may watch, and when, is the API's to say (a participant, after the race):
    # the script shows its answer.
    return render(request, "races/replay.html", {"code": code, "entry_id": entry_id})
