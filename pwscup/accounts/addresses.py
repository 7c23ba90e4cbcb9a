"""The client's address, as lock-outs (django-axes), the account throttles and the API's
throttles key on it: one owner, so a forged header cannot pick an address for any of them."""

import functools
import ipaddress

from django.conf import settings


def client_ip(request) -> str:
    """The address lock-outs and throttles are keyed on: the proxy's header
    (``PWSCUP_CLIENT_IP_HEADER``) when the request comes from a trusted proxy
    (``PWSCUP_TRUSTED_PROXIES``), else the peer's own address, so a client that reaches
    gunicorn directly cannot pick its address with a forged header."""
    peer = request.META.get("REMOTE_ADDR", "")
    header = settings.PWSCUP_CLIENT_IP_HEADER
    if header and _is_trusted_proxy(peer):
        forwarded = request.META.get(header, "").split(",")[0].strip()
        if forwarded:
            return forwarded
    return peer


@functools.cache
def _trusted_networks(entries: tuple[str, ...]) -> tuple:
    return tuple(ipaddress.ip_network(entry.strip(), strict=False) for entry in entries if entry)


def _is_trusted_proxy(address: str) -> bool:
    # The standard library's ipaddress is all this takes: django-ipware's trusted proxies are
    # string prefixes matched inside X-Forwarded-For, not the peer address against networks.
    try:
        peer = ipaddress.ip_address(address)
    except ValueError:
        return False
    networks = _trusted_networks(tuple(settings.PWSCUP_TRUSTED_PROXIES))
    return any(peer.version == network.version and peer in network for network in networks)
