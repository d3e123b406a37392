"""The language menu's target, in the place and under the name of Django's set_language
(django.conf.urls.i18n), saving the choice on the account as well."""

from django.urls import path

from . import language

urlpatterns = [
    path("setlang/", language.choose_language, name="set_language"),
]
