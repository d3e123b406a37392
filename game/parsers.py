"""The API's JSON parser: DRF's, refusing bodies nested too deep with a 400."""

from __future__ import annotations

import codecs
from typing import Any

from django.conf import settings
from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser

from . import jsonsafe


class BoundedJSONParser(JSONParser):  # type: ignore[misc]
    def parse(self, stream: Any, media_type: str | None = None,
              parser_context: dict[str, Any] | None = None) -> Any:
        encoding = (parser_context or {}).get("encoding", settings.DEFAULT_CHARSET)
        try:
            text = codecs.getreader(encoding)(stream).read()
            return jsonsafe.loads(text)
        except jsonsafe.TooDeep as error:
            raise ParseError(str(error)) from error
        except ValueError as error:
            raise ParseError(f"JSON parse error - {error}") from error
