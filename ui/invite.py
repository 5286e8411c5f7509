"""The host's "Invite the table": the game's address as phones on this network reach it, and its QR
code (the address logic is ``games.invite``)."""

from __future__ import annotations

import streamlit as st

from games.invite import Invite, invite, lan_ip, qr_png
from ui.language import _

SERVE_THE_NETWORK = "streamlit run app.py --server.address 0.0.0.0"


def invite_the_table(draft_id: str | None) -> None:
    """A toggle; when on, the QR code and address of this game (the draft is written now, so
    that a phone finds the game at once)."""
    if draft_id is None:  # the history file cannot hold drafts: there is no address to share
        return
    if not st.toggle(
        _("Invite the table"),
        key="invite_table",
        help=_("Each player joins this game on their own phone and adds their own kingdom"),
    ):
        return
    st.session_state["draft_written"] = True  # written at the end of this run, even if untouched
    found = _this_game(draft_id)
    with st.container(border=True, key="invite"):
        left, right = st.columns([2, 3])
        left.image(_qr(found.url), caption=_("This game's address"), width=240)
        right.markdown(
            _("Scan with each phone's camera, or open this address on a phone on the same network:")
        )
        with right.container(key="invite_address"):
            st.code(found.url, language=None, wrap_lines=True)
        if found.local_only:
            right.warning(
                _(
                    "This app answers only on this computer now, so phones cannot open the "
                    "address yet. Stop it and start it again with the command below: the game "
                    "keeps its address."
                ),
                icon=":material/wifi_off:",
            )
            # Wrapped: on a phone's width the command was cut at the column's edge.
            right.code(SERVE_THE_NETWORK, language="bash", wrap_lines=True)
        right.caption(
            _(
                "The address is the key to this game: whoever has it can see and change the "
                "kingdoms. Show it only to the players at the table."
            )
        )


def _this_game(draft_id: str) -> Invite:
    """The invite from Streamlit's own settings (``streamlit run ... --server.*``)."""
    if "lan_ip" not in st.session_state:  # looked up once a session; it sends nothing
        st.session_state["lan_ip"] = lan_ip()
    return invite(
        draft_id,
        server_address=st.get_option("server.address"),
        port=int(st.get_option("server.port")),
        base_path=st.get_option("server.baseUrlPath") or "",
        https=bool(st.get_option("server.sslCertFile")),
        network_ip=st.session_state["lan_ip"],
    )


def _qr(url: str) -> bytes:
    drawn = st.session_state.get("invite_qr")
    if drawn is None or drawn[0] != url:
        drawn = (url, qr_png(url))
        st.session_state["invite_qr"] = drawn
    return drawn[1]
