"""The pages to play on and the rules pages, for every registered game and variant.

``/<game>/<variant>/`` is the play page of one variant (``?deal=N`` opens that deal);
``/`` is the default game's; ``/<game>/`` goes to the game's default variant.
``/<game>/rules/`` is how to play a game; ``/rules/`` is the default game's, as it
always was (the site's navigation links it).
"""

from __future__ import annotations

import json
from typing import Any

from django.http import (
    HttpRequest,
    HttpResponse,
    HttpResponseBadRequest,
    HttpResponsePermanentRedirect,
)
from django.shortcuts import render
from django.template import TemplateDoesNotExist
from django.template.loader import select_template
from django.urls import reverse
from django.views.decorators.csrf import ensure_csrf_cookie

from patience import DEFAULT_GAME, GAMES, Rules

from . import actions, freeplay
from .converters import game_and_variant
from .names import named_game, named_variants, translated_guide, welcome
from .payloads import named, table_of
from .rules_page import narrow_places, pile_groups
from .win_rates import win_rates_of


@ensure_csrf_cookie
def play(request: HttpRequest) -> HttpResponse:
    """The default game's play page, as it always was at ``/``."""
    return _play_page(request, DEFAULT_GAME, None)


@ensure_csrf_cookie
def play_variant(request: HttpRequest, game: str, variant: str) -> HttpResponse:
    rules, chosen = game_and_variant(game, variant)
    return _play_page(request, rules, chosen)


def game_home(request: HttpRequest, game: str) -> HttpResponse:
    rules = GAMES[game]
    return HttpResponsePermanentRedirect(_with_query(
        request, reverse("play-variant", args=[rules.slug, rules.default_variant.slug])))


def _play_page(request: HttpRequest, rules: Rules, chosen: Any) -> HttpResponse:
    # The script reads the CSRF cookie for its POSTs; the game itself is fetched by
    # the script, while the table (places of piles, no card) comes with the page so
    # it is drawn at once. The page says which variants have an unfinished game, so the
    # script resumes only a game that exists (no 404 in the console of a first visit).
    variant = chosen or rules.default_variant
    try:
        deal = _deal_asked(request, rules)
    except actions.ActionError as error:
        return HttpResponseBadRequest(error.message, content_type="text/plain; charset=utf-8")
    player = actions.player_from(request.user, request.session)
    slugs = actions.variant_slugs(rules)
    resumable = actions.unfinished_ids(player)
    game_named, variant_named = named(rules, variant.slug)
    return render(request, "game/play.html", {
        "game": game_named,
        "variant": variant_named,
        "games": [named_game(game) for game in GAMES.values()],
        "variants": _with_proved_deals(named_variants(rules.variants.values())),
        # The variants "Winnable only" is offered for: the ones with proved deals here.
        "winnable_slugs": json.dumps([slug for slug in slugs if freeplay.offers_winnable(slug)]),
        "default_variant": variant.slug,
        # A variant named in the URL is the one to show, whatever the browser last chose.
        "variant_fixed": chosen is not None,
        "variant_slugs": json.dumps(slugs),
        "resumable": {slug: resumable.get(slug) for slug in slugs},
        "deal": deal,
        "table": table_of(variant.slug),
        "welcome": welcome(rules),
    })


def _with_proved_deals(variants: list[dict[str, str]]) -> list[dict[str, Any]]:
    """Each variant with the count of its proved deals (0: no "Winnable only" for it)."""
    return [{**variant, "proved": len(freeplay.winnable_lines(variant["slug"]))}
            for variant in variants]


def _deal_asked(request: HttpRequest, rules: Rules) -> int | None:
    """``?deal=N``: a deal of the game to open; a bad one is the page's 400."""
    value = request.GET.get("deal")
    return None if value in (None, "") else actions.check_deal_number(value, rules)


def _with_query(request: HttpRequest, url: str) -> str:
    query = request.GET.urlencode()
    return f"{url}?{query}" if query else url


def default_rules(request: HttpRequest) -> HttpResponse:
    return rules(request, DEFAULT_GAME.slug)


def rules(request: HttpRequest, game: str) -> HttpResponse:
    """How to play a game, the daily's rules, the keys and the FAQ: a plain page, no
    script. A game's own text lives in ``game/rules/<game>.html``; a game without one
    gets a page made from its table and variants."""
    found = GAMES[game]
    table = table_of(found.default_variant.slug)
    piles, groups = pile_groups(table)
    narrow = narrow_places(table, piles)
    try:
        template = select_template([f"game/rules/{found.slug}.html"])
    except TemplateDoesNotExist:
        template = select_template(["game/rules/_table.html"])
    return HttpResponse(template.render({
        "game": named_game(found),
        "variants": named_variants(found.variants.values()),
        "table": {**table, "piles": piles, "narrow": narrow},
        # Per variant (a slug's "-" as "_", for the template): the proved deals that ship.
        "proved": {slug.replace("-", "_"): len(freeplay.winnable_lines(slug))
                   for slug in found.variants},
        "win_rates": win_rates_of(found),
        "guide": translated_guide(found.guide),
        "pile_groups": groups,
    }, request))

