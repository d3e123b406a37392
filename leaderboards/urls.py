from django.urls import path

from . import api, views

DAY = "<str:variant>/<str:day>/"

urlpatterns = [
    path("daily/", views.daily_home, name="daily-home"),
    path("daily/<str:variant>/", views.daily, name="daily"),
    path("daily/<str:variant>/archive/", views.archive, name="daily-archive"),
    path(f"daily/{DAY}", views.day, name="daily-day"),
    path("boards/<str:variant>/", views.all_time, name="boards"),
    path("me/stats/", views.my_stats, name="my-stats"),
    path("api/daily/<str:variant>/", api.TodayView.as_view(), name="api-daily"),
    path("api/daily/<str:variant>/play/", api.PlayTodayView.as_view(), name="api-daily-play"),
    path("api/daily/<str:variant>/field/", api.FieldView.as_view(), name="api-daily-field"),
    path("api/daily/<str:variant>/archive/", api.ArchiveView.as_view(), name="api-daily-archive"),
    path(f"api/daily/{DAY}", api.DayView.as_view(), name="api-daily-day"),
    path(f"api/daily/{DAY}board/", api.DayBoardView.as_view(), name="api-daily-board"),
    path(f"api/daily/{DAY}replay/", api.ReplayView.as_view(), name="api-daily-replay"),
    path("api/boards/<str:variant>/<str:board>/", api.AllTimeBoardView.as_view(),
         name="api-boards"),
    path("api/me/daily-stats/", api.MyStatsView.as_view(), name="api-my-daily-stats"),
]
