"""Races: the pages (``/race/``, the room ``/race/<code>/``, its replays)."""

from django.urls import path

from . import views

urlpatterns = [
    path("race/", views.new_race, name="race-new"),
    path("race/<str:code>/", views.room, name="race-room"),
    path("race/<str:code>/replay/<int:entry_id>/", views.replay, name="race-replay"),
]
