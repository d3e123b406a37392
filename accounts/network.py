"""The client as every per-address limit counts it (log-ins, sign-ups, hints, the daily's
fair-play check): plain, so any app may use it."""

from __future__ import annotations

import ipaddress


def network_of(address: str) -> str:
    """An IPv4 address as it is; an IPv6 address as its /64 (one subscriber's network: a
    client picks addresses within it at will, so counting single IPv6 addresses would let
    it slip past every per-address limit); anything unparsable as it is."""
    try:
        parsed = ipaddress.ip_address(address)
    except ValueError:
        return address
    if isinstance(parsed, ipaddress.IPv6Address):
        if parsed.ipv4_mapped is not None:
            return str(parsed.ipv4_mapped)
        return str(ipaddress.ip_network(f"{parsed}/64", strict=False))
    return str(parsed)
