"""The page to play on: a template and a small script that talks to the API."""

import json

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.csrf import ensure_csrf_cookie

from patience.tomb import DEFAULT_VARIANT, VARIANTS

from . import actions, freeplay


@ensure_csrf_cookie
def play(request: HttpRequest) -> HttpResponse:
    # The script reads the CSRF cookie for its POSTs; the table itself is fetched by
    # the script. The page says which variants have an unfinished game, so the script
    # resumes only a game that exists (no 404 in the console of a first visit).
    player = actions.player_from(request.user, request.session)
    return render(request, "game/play.html", {
        "variants": VARIANTS.values(),
        "default_variant": DEFAULT_VARIANT.slug,
        "variant_slugs": json.dumps(list(VARIANTS)),
        "resumable": actions.unfinished_ids(player),
    })


def rules(request: HttpRequest) -> HttpResponse:
    """How to play, the daily's rules, the keys and the FAQ: a plain page, no script."""
    return render(request, "game/rules.html", {
        "proved_three_card": len(freeplay.winnable_lines("three-card")),
        "proved_classic": len(freeplay.winnable_lines("classic")),
    })
