"""The races' API and pages: ``/race/`` opens a room, ``/race/<code>/`` is the room
(lobby, countdown, progress, results), ``/race/<code>/replay/<entry_id>/`` a player's game
replayed; the scripts read the room from ``/api/races/<code>/`` and its socket."""

from django.urls import path

from . import api, views

CODE = "<str:code>/"

urlpatterns = [
    path("api/races/", api.RacesView.as_view(), name="api-races"),
    path(f"api/races/{CODE}", api.RoomView.as_view(), name="api-race"),
    path(f"api/races/{CODE}join/", api.JoinView.as_view(), name="api-race-join"),
    path(f"api/races/{CODE}ready/", api.ReadyView.as_view(), name="api-race-ready"),
    path(f"api/races/{CODE}leave/", api.LeaveView.as_view(), name="api-race-leave"),
    path(f"api/races/{CODE}options/", api.OptionsView.as_view(), name="api-race-options"),
    path(f"api/races/{CODE}start/", api.StartView.as_view(), name="api-race-start"),
    path(f"api/races/{CODE}give-up/", api.GiveUpView.as_view(), name="api-race-give-up"),
    path(f"api/races/{CODE}rematch/", api.RematchView.as_view(), name="api-race-rematch"),
    path(f"api/races/{CODE}replay/<str:entry_id>/", api.ReplayView.as_view(),
         name="api-race-replay"),
    path("race/", views.new_race, name="race-new"),
    path(f"race/{CODE}", views.room, name="race-room"),
    path(f"race/{CODE}replay/<int:entry_id>/", views.replay, name="race-replay"),
]
