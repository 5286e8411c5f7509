"""One game, every phone at the table: a phone that opened the invite joins as one player, every
screen follows the shared draft, and a kingdom changed on another phone is told
(docs/multiplayer.md). The sharing itself is ``ui.draft`` and ``games.drafts``."""

from __future__ import annotations

import streamlit as st

from games.draft_parts import GAME, kingdom_slot
from games.invite import JOIN_PARAM
from games.model import MAX_PLAYERS, MIN_PLAYERS, GameSetup
from games.new_game import NEW_GAME, STARTED, GameSwap
from games.removals import REMOVED, Removal
from games.seats import SeatError
from translations import LANGUAGES
from ui import draft, state
from ui.draft import SEAT, SEAT_KEY
from ui.language import CHOSEN, _, ngettext, say, tr
from ui.setup import put_back_players
from ui.text import escape_markdown

# How often each screen looks whether another phone changed the game: one small read of the
# draft's version; the page is drawn again only when it changed (docs/multiplayer.md).
REFRESH_S = 2.0
SEAT_PARAM = "player"  # this phone's seat, in its tab's address, so a reload keeps it
KEY_PARAM = "key"  # ... and its key to that seat (games.seats)
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
    """This phone's player slot, if it holds one (checked against the seats kept in the draft:
    a seat in the address that this phone does not hold is not taken)."""
    session = st.session_state
    if SEAT_KEY not in session and st.query_params.get(KEY_PARAM):
        session[SEAT_KEY] = st.query_params[KEY_PARAM]  # a reload: the key the tab kept
    chosen = session.get(SEAT)
    if chosen is None:
        wanted = st.query_params.get(SEAT_PARAM, "")
        chosen = int(wanted) - 1 if wanted.isdigit() else None
    if setup is None or chosen is None or not 0 <= chosen < len(setup.players):
        return None
    if not draft.seats().holds(chosen, session.get(SEAT_KEY)):
        if session.get(SEAT) is not None:  # held until now: the host gave it free
            session["seat_problem"] = _(
                "Your seat was given free by the host; choose which player you are again."
            )
        _stand()
        return None
    session[SEAT] = chosen
    return chosen


def choose_seat(setup: GameSetup) -> None:
    """Which player this phone is: one of the game's whose seat is free, or a new one (up to
    four)."""
    st.subheader(_("You joined this table's game. Which player are you?"))
    seats = draft.seats()
    with st.container(key="seats"):
        columns = st.columns(len(setup.players))
        for slot, name in enumerate(setup.players):
            columns[slot].button(
                escape_markdown(name),
                key=f"seat_{slot}",
                on_click=_sit,
                args=(slot,),
                use_container_width=True,
                disabled=seats.taken(slot),
                help=_("Another phone has this seat") if seats.taken(slot) else None,
            )
    problem = st.session_state.pop("seat_problem", None)
    if problem:
        st.error(escape_markdown(problem))
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
        st.form_submit_button(_("Add me"), on_click=_add_player)


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
        on_click=_leave,
    )


def _sit(slot: int | None, name: str | None = None) -> bool:
    """Take a seat in the draft (checked there: never one another phone holds)."""
    try:
        slot = draft.take_seat(slot, name)
    except SeatError as err:
        st.session_state["seat_problem"] = say(err.message)
        return False
    st.session_state[SEAT] = slot
    st.query_params[SEAT_PARAM] = str(slot + 1)
    st.query_params[KEY_PARAM] = st.session_state[SEAT_KEY]
    return True


def _stand() -> None:
    st.session_state.pop(SEAT, None)
    st.query_params.pop(SEAT_PARAM, None)


def _leave() -> None:
    """A callback: this phone gives its seat free, to choose again."""
    slot = st.session_state.get(SEAT)
    if slot is not None:
        draft.release_seat(slot)
    _stand()


def _add_player() -> None:
    """A callback: the new player joins the game (written at once, with the seat)."""
    name = str(st.session_state.get("new_player_name", "")).strip()
    if not name:
        st.session_state["seat_problem"] = _("Type your name first.")
        return
    if _sit(None, name):
        st.session_state["new_player_name"] = ""


def seats_taken(setup: GameSetup) -> None:
    """On the host's page: which players' seats phones hold, each with the way to give it free
    (a phone that is gone, or the wrong one)."""
    seats = draft.seats()
    taken = [slot for slot in range(len(setup.players)) if seats.taken(slot)]
    problem = st.session_state.pop("seat_problem", None)
    if problem:
        st.error(escape_markdown(problem))
    if not taken:
        return
    with st.container(border=True, key="seats_taken"):
        st.caption(_("Players whose phones have joined this game:"))
        for slot in taken:
            left, right = st.columns([3, 2], vertical_alignment="center")
            left.markdown(escape_markdown(setup.players[slot]))
            right.button(
                _("Give the seat free"),
                key=f"release_seat_{slot}",
                on_click=draft.release_seat,
                args=(slot,),
                help=_("Another phone can then join as this player"),
            )


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


def removal_notice() -> None:
    """Players taken out of the game with their kingdoms entered (on any screen): said here,
    with "Put back"; "Leave out" hides the notice on this screen only."""
    session = st.session_state
    removal = Removal.from_data(session.get(REMOVED))
    count = session.get("setup_count") or MIN_PLAYERS
    if removal is None or not removal.pending(count) or removal.id in _dismissed():
        return
    names = tr().and_list(escape_markdown(name) for name in removal.names)
    with st.container(border=True, key="removal_notice"):
        st.warning(
            ngettext(
                "**{players}** was taken out of the game (the players were set to {count}), "
                "with a kingdom entered. The kingdom is kept: put the player back, or leave "
                "them out.",
                "**{players}** were taken out of the game (the players were set to {count}), "
                "with their kingdoms entered. The kingdoms are kept: put the players back, or "
                "leave them out.",
                len(removal.players),
                players=names,
                count=count,
            ),
            icon=":material/person_remove:",
        )
        left, right = st.columns(2)
        left.button(
            _("Put back"),
            key="removal_put_back",
            on_click=put_back_players,
            icon=":material/undo:",
        )
        right.button(
            _("Leave out"), key="removal_dismiss", on_click=_dismissed().add, args=(removal.id,)
        )


def _dismissed() -> set[str]:
    """The removals this screen was told of and chose to leave out (this screen only)."""
    return st.session_state.setdefault("removals_left_out", set())


def new_game_notice() -> None:
    """A new game started (or the previous game put back over new entries), on any screen,
    with the other game kept (``games.new_game``): said here, with the way back; "Keep" hides
    the notice on this screen only."""
    swap = GameSwap.from_data(st.session_state.get(NEW_GAME))
    if swap is None or swap.id in _games_kept():
        return
    here = swap.by == st.session_state.get("draft_writer")
    if swap.kind == STARTED:
        if here:
            told = _(
                "**A new game was started here**, and the previous game's kingdoms were cleared "
                "on every screen. The previous game is kept: put it back, or keep the new game."
            )
        else:
            told = _(
                "**A new game was started on another screen**, and the previous game's kingdoms "
                "were cleared on every screen. The previous game is kept: put it back, or keep "
                "the new game."
            )
        back, keep = _("Put back the previous game"), _("Keep the new game")
    else:
        if here:
            told = _(
                "**The previous game was put back here**, over kingdoms entered in the new game. "
                "Those are kept: put the new game back, or keep the previous one."
            )
        else:
            told = _(
                "**The previous game was put back on another screen**, over kingdoms entered in "
                "the new game. Those are kept: put the new game back, or keep the previous one."
            )
        back, keep = _("Put back the new game"), _("Keep the previous game")
    with st.container(border=True, key="new_game_notice"):
        st.warning(told, icon=":material/restart_alt:")
        left, right = st.columns(2)
        left.button(
            back,
            key="new_game_put_back",
            on_click=draft.put_back_game,
            args=(swap.id,),
            icon=":material/undo:",
        )
        right.button(keep, key="new_game_keep", on_click=_games_kept().add, args=(swap.id,))


def _games_kept() -> set[str]:
    """The new games this screen was told of and chose to keep (this screen only)."""
    return st.session_state.setdefault("new_games_kept", set())
