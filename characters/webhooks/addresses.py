"""Where a webhook may point: an http(s) address whose host resolves only to public addresses.

A host that resolves to a private, loopback, link-local (the cloud's metadata service), shared,
reserved or multicast address is refused when the hook is set and again at each delivery (DNS may
have changed since): the server must not be made to call into its own network. The delivery then
connects to the very address that was checked (no second look-up for a rebinding answer to slip
into) and follows no redirect. ``WEBHOOKS_ALLOW_PRIVATE=true`` lifts the check (the tests' local
receiver).
"""

from __future__ import annotations

import ipaddress
import socket
from dataclasses import dataclass
from urllib.parse import urlsplit

from django.conf import settings

from config.errors import BadInput

URL_LENGTH = 500


class AddressRefused(BadInput):
    """A webhook address the server will not call (400)."""

    code = "webhook.address"

    def __init__(self, message: str):
        super().__init__(message, field="url")


@dataclass(frozen=True)
class Target:
    """Where to connect: the host (for the Host header and TLS), its port, the checked address."""

    scheme: str
    host: str
    port: int
    ip: str
    path: str


def allowed_ip(ip: str) -> bool:
    """Whether ``ip`` is a public address the server may call."""
    address = ipaddress.ip_address(ip.split("%", 1)[0])
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        address = address.ipv4_mapped
    return address.is_global and not address.is_multicast


def check_url(url: object) -> str:
    """The address as given when it is an http(s) URL with a host; ``AddressRefused`` otherwise."""
    if not isinstance(url, str) or not url.strip():
        raise AddressRefused("Give the webhook's address, starting with https://.")
    url = url.strip()
    if len(url) > URL_LENGTH:
        raise AddressRefused(f"The address is longer than {URL_LENGTH} characters.")
    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018  # a port out of range raises here
    except ValueError:
        raise AddressRefused("That is not a web address.") from None
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise AddressRefused("The address must start with https:// (or http://) and name a host.")
    if any(c.isspace() for c in url):
        raise AddressRefused("The address may not contain spaces.")
    return url


def target(url: str) -> Target:
    """Resolve the address's host now and return where to connect; ``AddressRefused`` when it
    cannot be found or any of its addresses is not public (unless WEBHOOKS_ALLOW_PRIVATE)."""
    parts = urlsplit(check_url(url))
    host = parts.hostname or ""
    port = parts.port or (443 if parts.scheme == "https" else 80)
    try:
        found = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (OSError, UnicodeError):
        raise AddressRefused(f"The host {host} cannot be found.") from None
    ips = list(dict.fromkeys(str(info[4][0]) for info in found))
    if not ips:
        raise AddressRefused(f"The host {host} cannot be found.")
    if not settings.WEBHOOKS_ALLOW_PRIVATE and not all(allowed_ip(ip) for ip in ips):
        raise AddressRefused(
            f"The host {host} is on a private, loopback or link-local network: the server does not call there."
        )
    path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    return Target(scheme=parts.scheme, host=host, port=port, ip=ips[0], path=path)
