"""The daily challenge's REST API: thin views, each calling one action or reader.

Errors are JSON {"error": "..."} through game.api's handler. Nothing here
accepts a time, a result or a figure from the client: they come from the
server's record of the game.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from game.api import ERRORS, player
from game.serializers import GameSerializer

from . import actions, boards, preparing
from .actions.checks import DAY_FORM, FIRST_MONTH, LAST_MONTH, MAX_PAGE, MONTHS
from .fairplay import client_of
from .serializers import (
    AllTimeBoardSerializer,
    ArchiveDaySerializer,
    DailySerializer,
    DayBoardSerializer,
    FieldSerializer,
    MyStatsSerializer,
    NotReadySerializer,
    TodaySerializer,
)

# The parameters as actions.check_* read them: what the schema lets through, the server takes.
PAGE = OpenApiParameter("page", {"type": "integer", "minimum": 1, "maximum": MAX_PAGE},
                        description=f"1 to {MAX_PAGE} (default 1)")
MONTH = OpenApiParameter("month", {"type": "string", "pattern": f"^(?:{MONTHS})$"},
                         description=f"YYYY-MM, {FIRST_MONTH:%Y-%m} to {LAST_MONTH:%Y-%m} "
                         "(empty or left out: this month)")
DAY = OpenApiParameter("day", {"type": "string", "format": "date",
                               "pattern": f"^(?:{DAY_FORM})$"},
                       OpenApiParameter.PATH, description="YYYY-MM-DD (UTC); a day not "
                       "yet out: 404")
BOARD = OpenApiParameter("board", {"type": "string", "enum": list(boards.ALL_TIME_BOARDS)},
                         OpenApiParameter.PATH)
DAILY_ERRORS = {**ERRORS, 503: ERRORS[400]}
# Today's daily still being made: 503 {"error", "progress"} (a client retries).
TODAY_ERRORS = {**ERRORS, 503: NotReadySerializer}


def chosen(game: str | None, variant: str) -> Any:
    """The variant a URL names (with its game, or alone on the old URLs): 404 otherwise."""
    return actions.check_game_variant(game, variant)[1]


def old_address(view: type[APIView]) -> Any:
    """The same view at a first address, which named only the variant: answered as
    ever, and left out of the schema (the address by game and variant documents it)."""
    alias = type(f"Old{view.__name__}", (view,), {"__doc__": view.__doc__})
    for method in ("get", "post"):
        if hasattr(view, method):
            # Wrapped again so the alias's schema (excluded) is its own, not the view's.
            setattr(alias, method, extend_schema(exclude=True)(_same(getattr(view, method))))
    return alias.as_view()


def _same(method: Any) -> Any:
    def answer(self: APIView, *args: Any, **kwargs: Any) -> Any:
        return method(self, *args, **kwargs)
    return answer


def not_ready(waiting: preparing.DailyNotReady) -> Response:
    return Response({"error": waiting.message, "progress": waiting.progress},
                    status=status.HTTP_503_SERVICE_UNAVAILABLE, headers={"Retry-After": "5"})


class TodayView(APIView):
    @extend_schema(
        operation_id="daily_today",
        responses={200: TodaySerializer, **TODAY_ERRORS},
        summary="Today's daily of a variant, with my game on it",
        description="While today's deal is still being made (never inside the request) "
        "the answer is 503 with the maker's progress: candidates screened so far.",
    )
    def get(self, request: Request, game: str | None, variant: str) -> Response:
        try:
            daily = preparing.todays_daily(chosen(game, variant))
        except preparing.DailyNotReady as waiting:
            return not_ready(waiting)
        asker = player(request)
        return Response({**boards.daily_info(daily),
                         "me": boards.my_attempt(daily, asker, boards.site_url(request)),
                         "play": actions.play_status(asker, daily)})


class PlayTodayView(APIView):
    @extend_schema(
        operation_id="daily_play",
        request=None, responses={200: GameSerializer, 201: GameSerializer, **DAILY_ERRORS},
        summary="Start (201) or resume (200) my ranked game on today's daily",
        description="Only a logged-in player whose account is older than today's daily "
        "may play it (403 otherwise): nobody sees today's deal but through their own "
        "ranked attempt.",
    )
    def post(self, request: Request, game: str | None, variant: str) -> Response:
        daily = preparing.todays_daily(chosen(game, variant))
        payload, created = actions.do_play_today(
            player(request, create=True), daily, client_of(request)
        )
        return Response(payload,
                        status=status.HTTP_201_CREATED if created else status.HTTP_200_OK)


class FieldView(APIView):
    @extend_schema(
        operation_id="daily_field",
        responses={200: FieldSerializer, **ERRORS},
        summary="Today's field (live at /ws/<game>/<variant>/daily/)",
    )
    def get(self, request: Request, game: str | None, variant: str) -> Response:
        return Response(boards.field(chosen(game, variant).slug))


class DayView(APIView):
    @extend_schema(
        operation_id="daily_day",
        parameters=[DAY], responses={200: DailySerializer, **DAILY_ERRORS},
        summary="A day's daily; its order once the day is over",
    )
    def get(self, request: Request, game: str | None, variant: str, day: str) -> Response:
        daily = preparing.daily_of(actions.check_day(day), chosen(game, variant))
        return Response(boards.daily_info(daily))


class DayBoardView(APIView):
    @extend_schema(
        operation_id="daily_day_board",
        parameters=[DAY, PAGE], responses={200: DayBoardSerializer, **DAILY_ERRORS},
        summary="A day's board: cards home, no hints first, time, moves",
    )
    def get(self, request: Request, game: str | None, variant: str, day: str) -> Response:
        daily = preparing.daily_of(actions.check_day(day), chosen(game, variant))
        page = actions.check_page(request.query_params.get("page"))
        return Response(boards.day_board(daily, page))


class ReplayView(APIView):
    @extend_schema(
        operation_id="daily_replay",
        parameters=[DAY], request=None, responses={201: GameSerializer, **ERRORS},
        summary="A new unranked game on a past day's deal",
    )
    def post(self, request: Request, game: str | None, variant: str, day: str) -> Response:
        past = preparing.daily_of(actions.check_past_day(day), chosen(game, variant))
        payload = actions.do_replay(player(request, create=True), past)
        return Response(payload, status=status.HTTP_201_CREATED)


class ArchiveView(APIView):
    @extend_schema(
        operation_id="daily_archive",
        responses={200: ArchiveDaySerializer(many=True), **ERRORS},
        summary="Past dailies of a variant, newest first",
    )
    def get(self, request: Request, game: str | None, variant: str) -> Response:
        return Response(boards.archive(chosen(game, variant).slug))


class AllTimeBoardView(APIView):
    @extend_schema(
        operation_id="boards_all_time",
        parameters=[BOARD, PAGE], responses={200: AllTimeBoardSerializer, **ERRORS},
        summary="All-time board: wins, win-rate (minimum games) or streak",
    )
    def get(self, request: Request, game: str | None, variant: str, board: str) -> Response:
        name = actions.check_board(board)
        slug = chosen(game, variant).slug
        page = actions.check_page(request.query_params.get("page"))
        return Response(boards.all_time_board(slug, name, page))


class MyStatsView(APIView):
    @extend_schema(
        operation_id="my_daily_stats",
        parameters=[MONTH], responses={200: MyStatsSerializer(many=True), **ERRORS},
        summary="My daily statistics per variant, with a month's calendar",
    )
    def get(self, request: Request) -> Response:
        user_id = actions.check_logged_in(player(request))
        month = actions.check_month(request.query_params.get("month"))
        return Response(boards.my_stats(user_id, actions.variant_slugs(), month))
