"""The language menu's target, in the place and under the name of Django's set_language
(django.conf.urls.i18n) but saving the choice on the account as well; and the browser's
strings, Django's JavaScriptCatalog."""

from django.urls import path

from . import language

urlpatterns = [
    path("i18n/setlang/", language.choose_language, name="set_language"),
    path("jsi18n/", language.javascript_catalog, name="javascript-catalog"),
]
