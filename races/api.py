"""The races' REST API: thin views, each calling one action.

Errors are JSON {"error": "..."} through game.api's handler (400 bad input, 403 not
allowed, 404 no such race or player, 409 not now: started, over, full, already in;
503 no deal proved yet). Too many rooms opened: 429 {"error", "wait"} with Retry-After.
Every answer that describes a room is the room as the asker sees it (races.payloads).
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.extensions import OpenApiSerializerExtension
from drf_spectacular.utils import OpenApiResponse, extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from game.api import ERRORS, error_handler, player
from game.schema import variants_of_another_game
from game.serializers import GAME_SLUGS, VARIANT_SLUGS

from . import actions
from .models import MINUTES

ROOM = OpenApiResponse(description="the room (races.payloads.room_payload)")
RACE_ERRORS = {**ERRORS, 429: ERRORS[400], 503: ERRORS[400]}
# The bodies as races.actions reads them, so that what the schema lets through the server
# takes: a null (and a blank slug) is the field left out, as check_variant and check_bool
# read it.
LEFT_OUT = {"required": False, "allow_null": True}


class NewRaceSerializer(serializers.Serializer):
    game = serializers.ChoiceField(
        choices=GAME_SLUGS, allow_blank=True, **LEFT_OUT,
        help_text="a game's slug; left out: the variant's game, else the default game")
    variant = serializers.ChoiceField(
        choices=VARIANT_SLUGS, allow_blank=True, **LEFT_OUT,
        help_text="a variant of the game (of another game: 400); left out: the game's "
        "default variant")
    minutes = serializers.ChoiceField(choices=MINUTES, required=False,
                                      help_text=f"left out: {MINUTES[0]}")
    visitors = serializers.BooleanField(
        **LEFT_OUT, help_text="whether visitors without an account may join; left out: true")


class NewRaceScheme(OpenApiSerializerExtension):
    """A game and a variant named together must be each other's, as for a new game
    (game.schema.NewGameScheme): the same rule, from the registry."""

    target_class = NewRaceSerializer

    def map_serializer(self, auto_schema: Any, direction: Any) -> dict[str, Any]:
        schema: dict[str, Any] = auto_schema._map_serializer(self.target_class, direction,
                                                             bypass_extensions=True)
        schema["not"] = {"anyOf": variants_of_another_game()}
        return schema


def race_error_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    if isinstance(exc, actions.TooManyRaces):
        return Response({"error": exc.message, "wait": exc.wait}, status=exc.status,
                        headers={"Retry-After": str(exc.wait)})
    return error_handler(exc, context)


class RaceView(APIView):
    """A races endpoint: game.api's errors, plus the room allowance's 429."""

    def get_exception_handler(self) -> Any:
        return race_error_handler


class RacesView(RaceView):
    @extend_schema(
        operation_id="race_create",
        request=NewRaceSerializer,
        responses={201: ROOM, **RACE_ERRORS},
        summary="Open a race room (logged-in players)",
    )
    def post(self, request: Request) -> Response:
        variant, minutes, visitors = actions.check_new_race(request.data)
        room = actions.do_create_race(player(request), variant, minutes, visitors)
        return Response(room, status=status.HTTP_201_CREATED)


class RoomView(RaceView):
    @extend_schema(operation_id="race_room", responses={200: ROOM, **RACE_ERRORS},
                   summary="A race room (live at /ws/races/<code>/)")
    def get(self, request: Request, code: str) -> Response:
        return Response(actions.show_room(code, player(request)))


class JoinView(RaceView):
    @extend_schema(
        operation_id="race_join",
        request=inline_serializer("JoinRace", {"name": serializers.CharField(required=False)}),
        responses={200: ROOM, **RACE_ERRORS},
        summary="Join a room in its lobby (a visitor gives a name)",
    )
    def post(self, request: Request, code: str) -> Response:
        return Response(actions.do_join(code, player(request, create=True), request.data))


class ReadyView(RaceView):
    @extend_schema(
        operation_id="race_ready",
        request=inline_serializer("RaceReady", {"ready": serializers.BooleanField()}),
        responses={200: ROOM, **RACE_ERRORS}, summary="Say ready (or not)",
    )
    def post(self, request: Request, code: str) -> Response:
        return Response(actions.do_ready(code, player(request), request.data))


class LeaveView(RaceView):
    @extend_schema(operation_id="race_leave", request=None,
                   responses={200: ROOM, **RACE_ERRORS}, summary="Leave the room")
    def post(self, request: Request, code: str) -> Response:
        return Response(actions.do_leave(code, player(request)))


class OptionsView(RaceView):
    @extend_schema(
        operation_id="race_options",
        request=inline_serializer("RaceOptions", {
            "minutes": serializers.ChoiceField(
                choices=MINUTES, **LEFT_OUT, help_text="left out: as it is"),
            "visitors": serializers.BooleanField(**LEFT_OUT, help_text="left out: as it is")}),
        responses={200: ROOM, **RACE_ERRORS},
        summary="Change the time limit or visitors (owner, lobby)",
    )
    def post(self, request: Request, code: str) -> Response:
        return Response(actions.do_options(code, player(request), request.data))


class StartView(RaceView):
    @extend_schema(operation_id="race_start", request=None,
                   responses={200: ROOM, **RACE_ERRORS},
                   summary="Start: every player gets the deal; clocks run after the countdown")
    def post(self, request: Request, code: str) -> Response:
        return Response(actions.do_start(code, player(request)))


class GiveUpView(RaceView):
    @extend_schema(operation_id="race_give_up", request=None,
                   responses={200: ROOM, **RACE_ERRORS}, summary="Give up my game")
    def post(self, request: Request, code: str) -> Response:
        return Response(actions.do_give_up(code, player(request)))


class RematchView(RaceView):
    @extend_schema(operation_id="race_rematch", request=None,
                   responses={200: ROOM, **RACE_ERRORS},
                   summary="The rematch's room (made by the first call)")
    def post(self, request: Request, code: str) -> Response:
        return Response(actions.do_rematch(code, player(request)))


class ReplayView(RaceView):
    @extend_schema(operation_id="race_replay",
                   responses={200: OpenApiResponse(description="player, moves, frames, deal, "
                                                   "table"), **RACE_ERRORS},
                   summary="A player's game replayed, with its deal (after the race only)")
    def get(self, request: Request, code: str, entry_id: str) -> Response:
        return Response(actions.replay_of(code, entry_id, player(request)))
