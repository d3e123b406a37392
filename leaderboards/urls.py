"""The daily challenge's pages and API, by game and variant: ``/<game>/<variant>/daily/``.

The first URLs named only the variant (``/daily/<variant>/``, ``/boards/<variant>/``,
``/api/daily/<variant>/...``); a variant's slug names its game, so they still work:
the pages redirect to their new address, the API answers at both.
"""

from django.urls import path

import game.converters  # noqa: F401  # registers <game:...> and <variant:...>

from . import api, views

GAME = "<game:game>/<variant:variant>/"
DAY = "<str:day>/"
OLD = "<str:variant>/"
BY_VARIANT = {"game": None}  # the old URLs: the game is the variant's

urlpatterns = [
    path("daily/", views.daily_home, name="daily-home"),
    path("boards/", views.daily_home, name="boards-home"),
    path(f"{GAME}daily/", views.daily, name="daily"),
    path(f"{GAME}daily/archive/", views.archive, name="daily-archive"),
    path(f"{GAME}daily/{DAY}", views.day, name="daily-day"),
    path(f"{GAME}boards/", views.all_time, name="boards"),
    path("me/stats/", views.my_stats, name="my-stats"),
    path(f"api/{GAME}daily/", api.TodayView.as_view(), name="api-daily"),
    path(f"api/{GAME}daily/play/", api.PlayTodayView.as_view(), name="api-daily-play"),
    path(f"api/{GAME}daily/field/", api.FieldView.as_view(), name="api-daily-field"),
    path(f"api/{GAME}daily/archive/", api.ArchiveView.as_view(), name="api-daily-archive"),
    path(f"api/{GAME}daily/{DAY}", api.DayView.as_view(), name="api-daily-day"),
    path(f"api/{GAME}daily/{DAY}board/", api.DayBoardView.as_view(), name="api-daily-board"),
    path(f"api/{GAME}daily/{DAY}replay/", api.ReplayView.as_view(), name="api-daily-replay"),
    path(f"api/{GAME}boards/<str:board>/", api.AllTimeBoardView.as_view(), name="api-boards"),
    path("api/me/daily-stats/", api.MyStatsView.as_view(), name="api-my-daily-stats"),
    # The old pages redirect to their new address (query string kept).
    path(f"daily/{OLD}", views.moved("daily"), name="old-daily"),
    path(f"daily/{OLD}archive/", views.moved("daily-archive"), name="old-daily-archive"),
    path(f"daily/{OLD}{DAY}", views.moved("daily-day"), name="old-daily-day"),
    path(f"boards/{OLD}", views.moved("boards"), name="old-boards"),
    # The old API: the same views, the game found from the variant.
    path(f"api/daily/{OLD}", api.old_address(api.TodayView), BY_VARIANT, name="old-api-daily"),
    path(f"api/daily/{OLD}play/", api.old_address(api.PlayTodayView), BY_VARIANT),
    path(f"api/daily/{OLD}field/", api.old_address(api.FieldView), BY_VARIANT),
    path(f"api/daily/{OLD}archive/", api.old_address(api.ArchiveView), BY_VARIANT),
    path(f"api/daily/{OLD}{DAY}", api.old_address(api.DayView), BY_VARIANT),
    path(f"api/daily/{OLD}{DAY}board/", api.old_address(api.DayBoardView), BY_VARIANT),
    path(f"api/daily/{OLD}{DAY}replay/", api.old_address(api.ReplayView), BY_VARIANT),
    path(f"api/boards/{OLD}<str:board>/", api.old_address(api.AllTimeBoardView), BY_VARIANT),
]
