"""Game setup: players' names, the variant, the optional rules and Dynasty."""

from __future__ import annotations

import secrets

import streamlit as st

from games.model import MAX_PLAYERS, MIN_PLAYERS, GameError, GameSetup
from games.removals import REMOVED, Removal, after_count_change
from scoring.score import Rules
from ui import state
from ui.language import CHOSEN, _, sentence
from ui.text import escape_markdown

# Stored values (in the session and the draft): the same in every language; shown translated.
PLAYERS_BEFORE = "players_shown"  # the number of players the setup last showed
CLASSIC, DUEL = "5×5 classic", "7×7 Mighty Duel (2 players)"
DEFAULTS = {
    CHOSEN: "",  # the page's language: "" follows the browser (ui.language)
    "setup_count": 2,
    "setup_size": CLASSIC,
    "setup_middle_kingdom": True,
    "setup_harmony": True,
    "setup_dynasty": False,
}


def defaults() -> dict[str, object]:
    """The setup a new page starts with; the players' names in the page's language."""
    names = {f"setup_name_{slot}": _("Player {number}", number=slot + 1) for slot in range(4)}
    return DEFAULTS | names


def init_defaults() -> None:
    for key, value in defaults().items():
        st.session_state.setdefault(key, value)


def load_setup(setup: GameSetup) -> None:
    """Fill the setup widgets from a game (opened from history or a share link). Callbacks only."""
    st.session_state["setup_count"] = len(setup.players)
    st.session_state["setup_size"] = DUEL if setup.size == 7 else CLASSIC
    st.session_state["setup_middle_kingdom"] = setup.rules.middle_kingdom
    st.session_state["setup_harmony"] = setup.rules.harmony
    st.session_state["setup_dynasty"] = setup.dynasty
    for slot, name in enumerate(setup.players):
        st.session_state[f"setup_name_{slot}"] = name


def _players_changed() -> None:
    """A callback: players taken out of the game with their kingdoms entered are told on every
    screen, with "Put back" (``games.removals``; the kingdoms stay in the draft)."""
    session = st.session_state
    before = session.get(PLAYERS_BEFORE) or MIN_PLAYERS
    after = session.get("setup_count") or MIN_PLAYERS
    names = [str(session.get(f"setup_name_{slot}", "")) for slot in range(MAX_PLAYERS)]
    entered = {slot for slot in range(MAX_PLAYERS) if state.has_entry(slot)}
    pending = Removal.from_data(session.get(REMOVED))
    found = after_count_change(before, after, names, entered, pending, secrets.token_urlsafe(6))
    if found is None:
        session.pop(REMOVED, None)
    else:
        session[REMOVED] = found.to_data()


def put_back_players() -> None:
    """A callback: the players taken out come back with their kingdoms (names and boards are
    still kept by slot)."""
    removal = Removal.from_data(st.session_state.pop(REMOVED, None))
    if removal is not None:
        st.session_state["setup_count"] = removal.count


def apply_size_switch() -> None:
    """Switch the size a photo asked for (``ui.photo.request_size_switch``), before the size
    widget is drawn: Streamlit refuses to change a widget's value once it is on the page."""
    size = st.session_state.pop("switch_size_to", None)
    if size is not None:
        st.session_state["setup_size"] = DUEL if size == 7 else CLASSIC


def _size_chosen_by_hand() -> None:
    """From now on the size is the user's: photos no longer switch it."""
    st.session_state["size_by_hand"] = True
    st.session_state.pop("size_notice", None)
    st.session_state.pop("size_question", None)


def undo_size_switch() -> None:
    st.session_state["setup_size"] = CLASSIC
    _size_chosen_by_hand()


def size_notice() -> None:
    """After a photo switched the game to 7×7: say so, with the way back."""
    notice = st.session_state.get("size_notice")
    if not notice or st.session_state.get("setup_size") != DUEL:
        return
    with st.container(border=True, key="size_notice"):
        st.info(
            _(
                "{notice}, so this game is now 7×7 Mighty Duel; every photo is read again at "
                "that size (boards entered at 5×5 are kept for a switch back).",
                notice=_size_notice_text(notice),
            ),
            icon=":material/aspect_ratio:",
        )
        st.button(_("Undo: back to 5×5"), key="undo_size", on_click=undo_size_switch)


def size_question() -> None:
    """A 7×7 photo came while another kingdom is in at 5×5: switch the game only if asked to."""
    question = st.session_state.get("size_question")
    if not isinstance(question, dict) or st.session_state.get("setup_size") != CLASSIC:
        return
    with st.container(border=True, key="size_question"):
        st.info(
            _(
                "{player}'s photo shows a 7×7 kingdom, but another kingdom is entered at 5×5. "
                "Switch this game to 7×7 Mighty Duel? The 5×5 kingdoms are kept for a switch "
                "back, but every kingdom must then be entered at 7×7.",
                player=escape_markdown(str(question.get("player", ""))),
            ),
            icon=":material/aspect_ratio:",
        )
        left, right = st.columns(2)
        left.button(_("Switch to 7×7"), key="size_switch_yes", on_click=_switch_asked)
        right.button(_("Keep 5×5"), key="size_switch_no", on_click=_keep_asked)


def _switch_asked() -> None:
    question = st.session_state.pop("size_question", None) or {}
    st.session_state["setup_size"] = DUEL
    st.session_state["size_notice"] = {"player": question.get("player", "")}


def _keep_asked() -> None:
    st.session_state.pop("size_question", None)
    _size_chosen_by_hand()


def _size_notice_text(notice: object) -> str:
    """The size notice is kept (in the draft too) as the player's name, or as old English text."""
    if isinstance(notice, dict) and "player" in notice:
        return _("{player}'s photo shows a 7×7 kingdom", player=escape_markdown(notice["player"]))
    return str(notice)


def current_setup() -> GameSetup | None:
    """The setup as the widgets hold it, before they are drawn (None while it has a mistake)."""
    session = st.session_state
    count = session.get("setup_count") or MIN_PLAYERS
    try:
        return GameSetup(
            players=tuple(session[f"setup_name_{slot}"] for slot in range(count)),
            size=7 if session.get("setup_size") == DUEL and count == 2 else 5,
            rules=Rules(session["setup_middle_kingdom"], session["setup_harmony"]),
            dynasty=session["setup_dynasty"],
        )
    except (GameError, KeyError):
        return None


def setup_form() -> GameSetup | None:
    """Draw the setup; the chosen setup, or None (with a message saying what to fix)."""
    apply_size_switch()
    locked = bool(state.finished_rounds())
    if locked:
        st.caption(
            _("The Dynasty is under way: start a new game below to change players or rules.")
        )
    count = st.segmented_control(
        _("Players"),
        list(range(MIN_PLAYERS, MAX_PLAYERS + 1)),
        key="setup_count",
        disabled=locked,
        required=True,
        on_change=_players_changed,
    )
    count = count or MIN_PLAYERS
    st.session_state[PLAYERS_BEFORE] = count
    columns = st.columns(MAX_PLAYERS)
    for slot in range(count):
        columns[slot].text_input(
            _("Player {number}", number=slot + 1),
            key=f"setup_name_{slot}",
            max_chars=30,
            disabled=locked,
        )
    duel_allowed = count == 2
    if not duel_allowed and st.session_state.get("setup_size") == DUEL:
        st.session_state["setup_size"] = CLASSIC  # before the widget: 7×7 is for two
    size = st.radio(
        _("Kingdom size"),
        [CLASSIC, DUEL],
        format_func=lambda choice: (
            _("5×5 classic") if choice == CLASSIC else _("7×7 Mighty Duel (2 players)")
        ),
        key="setup_size",
        horizontal=True,
        disabled=locked or not duel_allowed,
        on_change=_size_chosen_by_hand,
    )
    if not duel_allowed:
        st.caption(
            _("7×7 Mighty Duel is for two players; with {n}, the kingdoms are 5×5.", n=count)
        )
    left, middle, right = st.columns(3)
    middle_kingdom = left.toggle(
        _("Middle Kingdom"),
        key="setup_middle_kingdom",
        help=_("+10 points when the castle is in the centre of the kingdom"),
        disabled=locked,
    )
    harmony = middle.toggle(
        _("Harmony"),
        key="setup_harmony",
        help=_("+5 points when the kingdom is complete (no discarded domino)"),
        disabled=locked,
    )
    dynasty = right.toggle(
        _("Dynasty (3 games)"),
        key="setup_dynasty",
        help=_("Three games in a row; the totals are added up"),
        disabled=locked,
    )
    names = [st.session_state[f"setup_name_{slot}"] for slot in range(count)]
    unnamed = [slot + 1 for slot, name in enumerate(names) if not str(name).strip()]
    if unnamed:
        st.error(
            _("Player {number} has no name yet: type one in the box above.", number=unnamed[0])
        )
        return None
    try:
        return GameSetup(
            players=tuple(names),
            size=7 if size == DUEL else 5,
            rules=Rules(middle_kingdom=middle_kingdom, harmony=harmony),
            dynasty=dynasty,
        )
    except GameError as err:
        st.error(escape_markdown(sentence(err)))  # it says what to change
        return None
