"""The address phones at the table open to join a game, and its QR code.

A phone on the same network reaches the app at this computer's network address, on the port and
base path Streamlit serves; the game's draft id (``games.drafts``) is in the address, so the
address is the key to the game. The network address is found without sending anything: a UDP
socket ``connect`` only chooses the interface a packet would leave by (docs/multiplayer.md).
"""

from __future__ import annotations

import io
import ipaddress
import socket
from dataclasses import dataclass
from urllib.parse import urlencode

DRAFT_PARAM = "draft"
JOIN_PARAM = "join"
# Any private address: connecting a UDP socket to it sends no packet, it only picks the route.
_PROBE = ("10.255.255.255", 1)
_ALL_INTERFACES = {"", "0.0.0.0", "::"}  # Streamlit told to listen on every interface
_LOOPBACK_NAMES = {"localhost"}


def lan_ip() -> str | None:
    """This computer's address on the local network, or None when it has none but loopback."""
    found = None
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(_PROBE)
            found = probe.getsockname()[0]
    except OSError:  # no route at all (no network): try the name the computer gives itself
        try:
            found = socket.gethostbyname(socket.gethostname())
        except OSError:
            return None
    return None if _is_loopback(found) else found


def _is_loopback(host: str) -> bool:
    if host.lower() in _LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


@dataclass(frozen=True)
class Invite:
    """Where phones join a game."""

    url: str
    # The server answers only on this computer: the address works once it serves the network.
    local_only: bool


def invite(
    draft_id: str,
    *,
    server_address: str | None,
    port: int,
    base_path: str = "",
    https: bool = False,
    network_ip: str | None = None,
    hostname: str | None = None,
) -> Invite:
    """The address a phone on the same network opens to join the game ``draft_id``.

    ``server_address`` is Streamlit's ``server.address`` (empty: every interface). A server bound
    to one network address is reached there; one bound to every interface at ``network_ip`` (this
    computer's LAN address, else its ``hostname``). A server bound to loopback is ``local_only``:
    its address is still the one phones will use once the app serves the network, as the game
    keeps its id through a restart.
    """
    bound = (server_address or "").strip()
    local_only = _is_loopback(bound) if bound else False
    if bound and bound not in _ALL_INTERFACES and not local_only:
        host = bound
    else:
        host = network_ip or hostname or socket.gethostname()
    if ":" in host:  # an IPv6 address goes in brackets
        host = f"[{host}]"
    path = "/".join(part for part in base_path.strip("/").split("/") if part)
    path = f"/{path}/" if path else "/"
    query = urlencode({DRAFT_PARAM: draft_id, JOIN_PARAM: 1})
    scheme = "https" if https else "http"
    return Invite(f"{scheme}://{host}:{port}{path}?{query}", local_only)


def qr_png(text: str, scale: int = 8) -> bytes:
    """A QR code of ``text`` as PNG bytes, drawn here (``segno``), dark on white with its quiet
    zone, so any phone camera reads it off a screen."""
    import segno

    buffer = io.BytesIO()
    segno.make(text, error="m", micro=False).save(buffer, kind="png", scale=scale, border=4)
    return buffer.getvalue()
