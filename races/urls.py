"""The races' API (and, beside it, the pages: /race/, /race/<code>/,
/race/<code>/replay/<entry_id>/, added by the pages' views)."""

from django.urls import path

from . import api

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
    # The pages (races.views) go here.
]
