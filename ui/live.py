"""One game, every phone at the table: a phone that opened the invite joins as one player, every
screen follows the shared draft, and a kingdom changed on another phone is told
(docs/multiplayer.md). The sharing itself is ``ui.draft`` and ``games.drafts``."""

from __future__ import annotations

import streamlit as st

from games.draft_parts import GAME, kingdom_slot
from games.invite import JOIN_PARAM
from games.model import MAX_PLAYERS, GameError, GameSetup
from translations import LANGUAGES
from ui import draft, state
from ui.language import CHOSEN, _, sentence
from ui.text import escape_markdown

# How often each screen looks whether another phone changed the game: one small read of the
# draft's version; the page is drawn again only when it changed (docs/multiplayer.md).
REFRESH_S = 2.0
SEAT = "seat"  # this browser session's player slot (never in the shared draft)
SEAT_PARAM = "player"  # ... also in this tab's address, so a reload keeps it
LANGUAGE_PARAM = "lang"  # a joined phone's language pick, kept in its address as the seat is


def joining() -> bool:
    """Whether this page is a phone that opened the table's invite."""
    if "draft_joined" in st.session_state:
        return bool(st.session_state["draft_joined"])
    return st.query_params.get(JOIN_PARAM) == "1"


def keep_language() -> None:
    """Before the page is drawn: a joined phone's language pick stays through a reload. The
    host's is kept in the draft's view; a joined phone writes none, so its tab's address keeps
    it (the pick is never "" again once made: "" is a page that never picked)."""
    if not joining():
        return
    chosen = st.session_state.get(CHOSEN)
    if chosen in LANGUAGES:
        if st.query_params.get(LANGUAGE_PARAM) != chosen:
            st.query_params[LANGUAGE_PARAM] = chosen
    elif st.query_params.get(LANGUAGE_PARAM) in LANGUAGES:
        st.session_state[CHOSEN] = st.query_params[LANGUAGE_PARAM]


def seat(setup: GameSetup | None) -> int | None:
    """This session's player slot, if one was chosen (and the player is still in the game)."""
    chosen = st.session_state.get(SEAT)
    if chosen is None:
        wanted = st.query_params.get(SEAT_PARAM, "")
        chosen = int(wanted) - 1 if wanted.isdigit() else None
    if setup is None or chosen is None or not 0 <= chosen < len(setup.players):
        return None
    st.session_state[SEAT] = chosen
    return chosen


def choose_seat(setup: GameSetup) -> None:
    """Which player this phone is: one of the game's, or a new one (up to four)."""
    st.subheader(_("You joined this table's game. Which player are you?"))
    with st.container(key="seats"):
        columns = st.columns(len(setup.players))
        for slot, name in enumerate(setup.players):
            columns[slot].button(
                escape_markdown(name),
                key=f"seat_{slot}",
                on_click=_sit,
                args=(slot,),
                use_container_width=True,
            )
    if state.finished_rounds():
        st.caption(_("The Dynasty is under way: only its players can join."))
        return
    if len(setup.players) >= MAX_PLAYERS:
        st.caption(_("The table is full (four players); ask the host to make room."))
        return
    with st.form("new_player", border=False):
        st.text_input(
            _("Or add yourself"),
            key="new_player_name",
            max_chars=30,
            placeholder=_("Your name"),
        )
        st.form_submit_button(_("Add me"), on_click=_add_player, args=(setup,))
    problem = st.session_state.pop("new_player_problem", None)
    if problem:
        st.error(escape_markdown(problem))


def seated(setup: GameSetup, slot: int) -> None:
    """Who this phone is, with the way to choose again."""
    name = setup.players[slot]
    left, right = st.columns([3, 2], vertical_alignment="center")
    left.info(
        _(
            "You are **{name}**: enter your kingdom below. Every screen at the table sees it.",
            name=escape_markdown(name),
        ),
        icon=":material/person:",
    )
    right.button(
        _("Not {name}? Choose again", name=escape_markdown(name)),
        key="leave_seat",
        on_click=_stand,
    )


def _sit(slot: int) -> None:
    st.session_state[SEAT] = slot
    st.query_params[SEAT_PARAM] = str(slot + 1)


def _stand() -> None:
    st.session_state.pop(SEAT, None)
    st.query_params.pop(SEAT_PARAM, None)


def _add_player(setup: GameSetup) -> None:
    """A callback: the new player joins the game (written with the game's part of the draft)."""
    name = str(st.session_state.get("new_player_name", "")).strip()
    if not name:
        st.session_state["new_player_problem"] = _("Type your name first.")
        return
    players = (*setup.players, name)
    try:  # the game's own checks: distinct names, their length
        GameSetup(players=players, size=5, rules=setup.rules, dynasty=setup.dynasty)
    except GameError as err:
        st.session_state["new_player_problem"] = sentence(err)
        return
    slot = len(setup.players)
    st.session_state["setup_count"] = slot + 1
    st.session_state[f"setup_name_{slot}"] = name
    st.session_state["new_player_name"] = ""
    _sit(slot)


def conflict_notices(setup: GameSetup | None) -> None:
    """Each part of this phone's that another phone replaced: say so, offer it back."""
    for name in sorted(draft.conflicts()):
        slot = kingdom_slot(name)
        if name == GAME:
            message = _(
                "**The players or rules were changed on another phone**, and this screen now "
                "shows them. What this phone had set is kept: put it back, or keep the new setup."
            )
        elif slot is not None:
            if setup and slot < len(setup.players):
                who = setup.players[slot]
            else:
                who = _("Player {number}", number=slot + 1)
            message = _(
                "**{player}'s kingdom was changed on another phone**, and this screen now shows "
                "that version. What this phone had entered is kept: put it back, or keep the new "
                "one.",
                player=escape_markdown(who),
            )
        else:
            continue
        with st.container(border=True, key=f"conflict_{name}"):
            st.warning(message, icon=":material/sync_problem:")
            left, right = st.columns(2)
            left.button(
                _("Put back this phone's version"),
                key=f"put_back_{name}",
                on_click=draft.put_back,
                args=(name,),
            )
            right.button(
                _("Keep the new one"),
                key=f"keep_new_{name}",
                on_click=draft.keep_theirs,
                args=(name,),
            )


@st.fragment(run_every=REFRESH_S)
def follow_the_table() -> None:
    """Every few seconds: when another phone changed the game, draw the page again (its run
    takes the change in first, ``draft.pull``); otherwise nothing is drawn or sent."""
    if draft.changed_elsewhere():
        st.rerun(scope="app")
