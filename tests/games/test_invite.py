"""The address phones open to join a game, and its QR code."""

import random
import string

import cv2
import numpy as np
import pytest

from games import invite as invite_module
from games.invite import invite, lan_ip, qr_png
from tests.qr import decode_qr

DRAFT = "AbCdEfGhIjKlMnOp0123456789_-abcd"


def test_a_server_on_every_interface_is_reached_at_the_computers_network_address():
    found = invite(DRAFT, server_address="0.0.0.0", port=8501, network_ip="192.168.1.20")
    assert found.url == f"http://192.168.1.20:8501/?draft={DRAFT}&join=1"
    assert not found.local_only
    # Streamlit's default (no address set) listens on every interface too.
    assert invite(DRAFT, server_address="", port=8501, network_ip="10.0.0.5").url.startswith(
        "http://10.0.0.5:8501/?"
    )


def test_a_server_bound_to_one_address_is_reached_there_with_its_base_path_and_https():
    found = invite(
        DRAFT,
        server_address="192.168.1.7",
        port=9000,
        base_path="/kingdomino/",
        https=True,
        network_ip="10.0.0.5",
    )
    assert found.url == f"https://192.168.1.7:9000/kingdomino/?draft={DRAFT}&join=1"
    assert invite(DRAFT, server_address="fd00::2", port=80).url.startswith("http://[fd00::2]:80/")


@pytest.mark.parametrize("loopback", ["127.0.0.1", "localhost", "::1"])
def test_a_server_on_this_computer_only_is_said_so_with_the_address_it_will_have(loopback):
    found = invite(DRAFT, server_address=loopback, port=8501, network_ip="192.168.1.20")
    assert found.local_only
    assert found.url == f"http://192.168.1.20:8501/?draft={DRAFT}&join=1"


def test_without_a_network_address_the_hostname_is_used():
    found = invite(DRAFT, server_address="0.0.0.0", port=8501, network_ip=None, hostname="den")
    assert found.url.startswith("http://den:8501/")


class _Socket:
    """A UDP socket stand-in: ``connect`` picks the interface; nothing is sent."""

    def __init__(self, address=None, error=None):
        self.address, self.error, self.sent = address, error, False

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def connect(self, where):
        if self.error:
            raise self.error

    def getsockname(self):
        return (self.address, 40000)

    def send(self, data):  # never called: finding the address sends nothing
        self.sent = True


def test_the_network_address_comes_from_the_route_a_packet_would_take(monkeypatch):
    probe = _Socket("192.168.1.33")
    monkeypatch.setattr(invite_module.socket, "socket", lambda *args: probe)
    assert lan_ip() == "192.168.1.33" and not probe.sent


def test_without_a_route_the_hostname_is_tried_and_loopback_is_no_answer(monkeypatch):
    monkeypatch.setattr(
        invite_module.socket, "socket", lambda *args: _Socket(error=OSError("no route"))
    )
    monkeypatch.setattr(invite_module.socket, "gethostbyname", lambda name: "192.168.7.7")
    assert lan_ip() == "192.168.7.7"
    monkeypatch.setattr(invite_module.socket, "gethostbyname", lambda name: "127.0.1.1")
    assert lan_ip() is None


def test_the_qr_code_decodes_to_the_games_address():
    url = invite(DRAFT, server_address="0.0.0.0", port=8501, network_ip="192.168.1.20").url
    png = qr_png(url)
    image = cv2.imdecode(np.frombuffer(png, np.uint8), cv2.IMREAD_GRAYSCALE)
    assert image is not None
    assert decode_qr(image) == url


def test_every_games_address_is_a_qr_code_a_camera_reads():
    """Draft ids are random, so the code's pattern is too: a hundred of them must all read back
    (the e2e table test once met one OpenCV's classic reader alone could not read)."""
    chooser = random.Random(44)
    alphabet = string.ascii_letters + string.digits + "-_"
    for n in range(100):
        draft = "".join(chooser.choice(alphabet) for _ in range(32))
        url = invite(draft, server_address="0.0.0.0", port=8501 + n, network_ip="10.0.0.7").url
        image = cv2.imdecode(np.frombuffer(qr_png(url), np.uint8), cv2.IMREAD_GRAYSCALE)
        assert decode_qr(image) == url
