"""The REST API: thin views, each calling one action.

Errors are always JSON ``{"error": "<readable message>"}``: 400 malformed
request or move notation, 403 not your game (or a missing CSRF token),
404 no such game, 409 a move the position does not allow (illegal move,
nothing to undo, a hint on a finished game), 429 past an allowance (with
Retry-After). A move or undo that carries the ``version`` the client saw is
refused with 409 and ``"code": "stale"`` (and the current ``game``) when the
game has moved past it: nothing changes.

Writes (a new game, a move, an undo, a finish) draw on the game's and the player's
write allowance, shared with the socket's (game.limits): past it, 429 and nothing changes.
"""

from __future__ import annotations

import logging
from typing import Any

from django.http import Http404, QueryDict
from django.middleware.csrf import get_token
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import exceptions, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from patience import GAMES, all_variants

from . import actions, limits
from .converters import game_and_variant
from .names import game_name, variant_name
from .payloads import game_summary, table_of
from .serializers import (
    GAME_SLUGS,
    VARIANT_SLUGS,
    CatalogGameSerializer,
    CsrfSerializer,
    ErrorSerializer,
    GameSerializer,
    GameSummarySerializer,
    HintedGameSerializer,
    HintRequestSerializer,
    MoveSerializer,
    NewGameSerializer,
    StatsSerializer,
    UndoSerializer,
)

log = logging.getLogger(__name__)
ERRORS = {code: ErrorSerializer for code in (400, 403, 404, 409)}
WRITE_ERRORS = {**ERRORS, 429: ErrorSerializer}


def slug_parameter(name: str, slugs: list[str], description: str) -> OpenApiParameter:
    # An empty value is the parameter left out (the default), as the actions read it.
    return OpenApiParameter(name, {"type": "string", "enum": ["", *slugs]},
                            description=description)


GAME_PARAMETER = slug_parameter("game", GAME_SLUGS, "a game's slug (default: the default game)")
VARIANT_PARAMETER = slug_parameter("variant", VARIANT_SLUGS, "a variant's slug (default: the "
                                   "game's default variant); of another game than ?game=: 404")


def error_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    """Every error as {"error": "..."}; actions' errors carry their status."""
    if isinstance(exc, actions.Stale):
        return Response({"error": exc.message, "code": exc.code, "game": exc.game},
                        status=exc.status)
    if isinstance(exc, (actions.TooManyHints, limits.TooManyWrites)):
        return Response({"error": exc.message}, status=exc.status,
                        headers={"Retry-After": str(exc.wait)})
    if isinstance(exc, actions.ActionError):
        return Response({"error": exc.message}, status=exc.status)
    if isinstance(exc, Http404):
        return Response({"error": "not found"}, status=status.HTTP_404_NOT_FOUND)
    if isinstance(exc, exceptions.APIException):
        headers = {"Retry-After": str(exc.wait)} if getattr(exc, "wait", None) else {}
        return Response({"error": _readable(exc.detail)}, status=exc.status_code, headers=headers)
    return None  # a bug: Django's handler500 answers with a JSON error


def _readable(detail: Any) -> str:
    if isinstance(detail, dict):
        return "; ".join(f"{key}: {_readable(value)}" for key, value in detail.items())
    if isinstance(detail, list):
        return "; ".join(_readable(item) for item in detail)
    return str(detail)


def client_address(request: Request) -> str:
    # The server's view of the peer: behind a trusted proxy, uvicorn's --proxy-headers put
    # the real client here. X-Forwarded-For itself is never read: anyone can write it.
    return str(request.META.get("REMOTE_ADDR", ""))


def player(request: Request, *, create: bool = False) -> actions.Player:
    return actions.player_from(request.user, request.session, create=create)


class GamesView(APIView):
    @extend_schema(responses={200: GameSummarySerializer(many=True)}, summary="My games")
    def get(self, request: Request) -> Response:
        games = actions.my_games(player(request))
        return Response([game_summary(game) for game in games])

    @extend_schema(
        request=NewGameSerializer, responses={201: GameSerializer, **WRITE_ERRORS},
        summary="Start a game on a deal number, a random one, or a proved-won one",
        description='{"game": "napoleons-tomb", "variant": "classic", "deal": 7}: that deal. '
        'A variant\'s slug names its game, so "game" may be left out; no variant: the '
        'game\'s default one. No deal: a random one. '
        '{"winnable": true} (no deal): a random deal the solver has proved won; the game '
        'says deal_kind "winnable" and its records are kept apart.',
    )
    def post(self, request: Request) -> Response:
        variant, deal, winnable = actions.check_new_free_game(request.data)
        asker = player(request, create=True)
        limits.check_write_allowance(asker)
        game = actions.do_create_game(asker, variant, deal, winnable=winnable)
        return Response(game, status=status.HTTP_201_CREATED)


class GameView(APIView):
    @extend_schema(responses={200: GameSerializer, **ERRORS}, summary="A game")
    def get(self, request: Request, game_id: str) -> Response:
        return Response(actions.show_game(game_id, player(request)))


class ResumeView(APIView):
    @extend_schema(
        parameters=[GAME_PARAMETER, VARIANT_PARAMETER],
        responses={200: GameSerializer, **ERRORS},
        summary="My latest unfinished game of a variant",
    )
    def get(self, request: Request) -> Response:
        variant = variant_asked(request.query_params)
        return Response(actions.latest_unfinished(player(request), variant))


def variant_asked(query: QueryDict) -> Any:
    """The variant ``?variant=`` names (of ``?game=``). A variant and a game that are
    each registered but not each other's are not found (404), as at /<game>/<variant>/:
    the schema can list each parameter's slugs, not which of them go together."""
    game, variant = query.get("game"), query.get("variant")
    # The registry as it stands, not VARIANT_SLUGS (the schema's list, made at import).
    if game in GAMES and variant in {known.slug for _, known in all_variants()}:
        return game_and_variant(game, variant)[1]
    return actions.check_variant(variant, game)


class MovesView(APIView):
    @extend_schema(
        request=MoveSerializer, responses={200: GameSerializer, **WRITE_ERRORS},
        summary="Play a move in RULES.md notation",
    )
    def post(self, request: Request, game_id: str) -> Response:
        move = actions.check_move(request.data)
        version = actions.check_version(request.data)
        do = limits.limited(actions.do_move)
        return Response(do(game_id, player(request), move, version=version))


class UndoView(APIView):
    @extend_schema(
        request=UndoSerializer, responses={200: GameSerializer, **WRITE_ERRORS},
        summary="Undo the last move",
    )
    def post(self, request: Request, game_id: str) -> Response:
        version = actions.check_version(request.data)
        do = limits.limited(actions.do_undo)
        return Response(do(game_id, player(request), version=version))


class FinishView(APIView):
    @extend_schema(
        request=UndoSerializer, responses={200: GameSerializer, **WRITE_ERRORS},
        summary="Play the rest of the game when it plays itself (can_finish)",
        description="Every remaining card goes home in one versioned write; 409 while the "
        "stock still holds cards or the waste does not go home in order.",
    )
    def post(self, request: Request, game_id: str) -> Response:
        version = actions.check_version(request.data)
        do = limits.limited(actions.do_finish)
        return Response(do(game_id, player(request), version=version))


class HintView(APIView):

    @extend_schema(
        request=HintRequestSerializer,
        responses={200: HintedGameSerializer, **ERRORS, 429: ErrorSerializer},
        summary="Count a hint and return the solver's answer with the game",
        description='No body (or {"fair": false}): the solver that knows the stock. '
        '{"fair": true}: the fair hint, from what the player has seen only.',
    )
    def post(self, request: Request, game_id: str) -> Response:
        fair = actions.check_hint(request.data)
        return Response(actions.do_hint_now(game_id, player(request), fair=fair,
                                            address=client_address(request)))


class StatsView(APIView):
    @extend_schema(
        parameters=[slug_parameter("game", GAME_SLUGS, "only this game's variants")],
        responses={200: StatsSerializer, 404: ErrorSerializer},
        summary="My wins per variant and my free-play figures",
    )
    def get(self, request: Request) -> Response:
        asker = player(request)
        game = actions.check_game_in_url(request.query_params.get("game"))
        return Response({"wins": actions.wins_by_variant(asker, game),
                         "free_play": actions.free_play_stats(asker, game)})


class CatalogView(APIView):
    @extend_schema(responses={200: CatalogGameSerializer(many=True)},
                   summary="The games, their variants, deal numbers and tables")
    def get(self, request: Request) -> Response:
        return Response([{
            "slug": rules.slug, "name": game_name(rules),
            "default_variant": rules.default_variant.slug,
            "min_deal": rules.min_deal, "max_deal": rules.max_deal,
            "variants": [{"slug": slug, "name": variant_name(variant), "table": table_of(slug)}
                         for slug, variant in rules.variants.items()],
        } for rules in GAMES.values()])


class CsrfView(APIView):
    """For scripts: sets the CSRF cookie and returns the token to send back."""

    @extend_schema(responses={200: CsrfSerializer}, summary="A CSRF token for this session")
    def get(self, request: Request) -> Response:
        return Response({"csrf_token": get_token(request)})
