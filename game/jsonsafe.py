"""JSON from clients, read with a bound on nesting.

Python's parser recurses once per level: a body such as ``[[[[...]]]]`` a few thousand
deep raises RecursionError (not ValueError), which used to surface as a 500 over REST
and a dropped socket over WebSocket. Nothing the site accepts is nested more than a
few levels, so anything deeper than MAX_DEPTH is refused as malformed.
"""

from __future__ import annotations

import json
from typing import Any

MAX_DEPTH = 16
TOO_DEEP = f"JSON nested more than {MAX_DEPTH} levels deep"


class TooDeep(ValueError):
    pass


def loads(text: str | bytes) -> Any:
    """``json.loads`` that raises ValueError (TooDeep) for nesting past MAX_DEPTH."""
    try:
        value = json.loads(text)
    except RecursionError as error:
        raise TooDeep(TOO_DEEP) from error
    if depth(value) > MAX_DEPTH:
        raise TooDeep(TOO_DEEP)
    return value


def depth(value: Any) -> int:
    """Levels of arrays and objects: 0 for a scalar, 1 for [] or {}."""
    if isinstance(value, dict):
        return 1 + max((depth(item) for item in value.values()), default=0)
    if isinstance(value, list):
        return 1 + max((depth(item) for item in value), default=0)
    return 0
