"""OpenAPI: describe the project's session authentication like DRF's own."""

from drf_spectacular.authentication import SessionScheme


class SessionCsrfScheme(SessionScheme):
    target_class = "game.authentication.SessionCsrfAuthentication"
