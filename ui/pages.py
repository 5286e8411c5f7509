"""The app's two pages: scoring a game (or showing a shared one) and the saved-games history."""

from __future__ import annotations

import json

import numpy as np
import streamlit as st
from babel.dates import format_datetime
from streamlit.runtime.scriptrunner import get_script_run_ctx

from games.editing import blank_board
from games.history import GameHistory, HistoryError
from games.model import Game, GameSetup, game_to_dict
from games.results import GameResult, provisional_reason, result_to_dict, score_game, summary
from games.share import SharedGame, ShareError, decode_shared, encode_game
from ui import draft, live, state
from ui.editor import board_editor
from ui.invite import invite_the_table
from ui.language import N_, _, current, language_picker, say, sentence, streamlit_words
from ui.photo import has_new_file, kingdom_input, read_new_uploads, warm_up_in_background
from ui.results import show_result
from ui.setup import (
    apply_size_switch,
    current_setup,
    init_defaults,
    load_setup,
    setup_form,
    size_notice,
    size_question,
)
from ui.table import table_photo
from ui.text import escape_markdown

SHARE_PARAM = "game"
KINGDOM_SHOWN = "kingdom_shown"  # the widget choosing whose kingdom is drawn
RESULT_SHOWN_FOR = "result_shown_for"  # what the result on the page was drawn from
HOW_TO = N_(
    "**1.** Set up the players and rules. **2.** For each player, upload a photo of the kingdom "
    "taken from above (or tap it in by hand). **3.** Check the marked cells: the result below "
    "updates as you go."
)


def score_page() -> None:
    """Setup, each player's kingdom (photo or by hand), the live result, save and share."""
    init_defaults()
    live.keep_language()
    _title(_("Kingdomino Scorer"))
    if SHARE_PARAM in st.query_params:
        _shared_game(st.query_params[SHARE_PARAM])
        return
    draft.restore()  # the host's page, or a phone that joined (games.seats)
    draft.pull()  # what other phones at the table entered since this page's last run
    if live.joining():
        _joined_game()
    else:
        _game_in_progress()
    # Not when the run ends early with st.rerun(): the next run saves, and the result comes first.
    draft.save()


def _game_in_progress() -> None:
    st.markdown(_(HOW_TO))
    live.follow_the_table()
    before = current_setup()
    if before is not None:  # a new photo may switch the size: read it before the setup is drawn
        read_new_uploads(before)
    with st.expander(_("Game setup"), expanded=not state.finished_rounds()):
        setup = setup_form()
    live.conflict_notices(setup)
    live.removal_notice()
    live.new_game_notice()
    invite_the_table(st.session_state.get("draft_id"))
    if setup is None:
        return
    live.seats_taken(setup)
    size_notice()
    size_question()

    finished = state.finished_rounds()
    if setup.dynasty:
        st.subheader(_("Kingdoms of game {number} of 3", number=len(finished) + 1))
    else:
        st.subheader(_("Kingdoms"))
    table_photo(setup)
    _kingdom_section(setup)
    _result_section(setup, host=True)


def _joined_game() -> None:
    """A phone that joined the table: which player it is, that player's kingdom, the ranking."""
    live.follow_the_table()
    before = current_setup()
    if before is not None:  # as on the host's page: a new photo first (it may switch the size)
        read_new_uploads(before)
    apply_size_switch()  # the setup widgets are the host's: a switch asked for is made here
    setup = current_setup()
    live.conflict_notices(setup)
    live.removal_notice()
    live.new_game_notice()
    if setup is None:
        st.info(_("The host is still setting up the game; this page follows it."))
        return
    size_notice()
    slot = live.seat(setup)
    if slot is None:
        live.choose_seat(setup)
    else:
        live.seated(setup, slot)
        _kingdom_section(setup, slot)
    _result_section(setup, host=False)


def _result_section(setup: GameSetup, host: bool) -> None:
    """The ranking as every screen at the table sees it; the host also saves and shares."""
    # Written before this screen draws its ranking, so that the other screens learn of a new
    # kingdom as soon as possible (the page's last save then finds nothing new to write).
    draft.save()
    finished = state.finished_rounds()
    st.divider()
    st.header(_("Result"))
    game = state.current_game(setup)
    st.session_state[RESULT_SHOWN_FOR] = _result_depends_on(setup)
    if not finished and all(board == blank_board(setup.size) for board in game.rounds[-1]):
        # Nothing to rank yet; this also keeps pandas (the tables) out of the first page load.
        st.info(_("The ranking appears here as soon as a kingdom has its first tile."))
        warm_up_in_background()
        return
    result = score_game(game)
    photos = state.photos_by_game(setup)
    to_check, holes = state.to_check(setup), state.holes_to_check(setup)
    show_result(result, photos, key="live", to_check=to_check, holes=holes)
    if not host:
        return
    st.divider()
    final = provisional_reason(result, to_check, holes) is None
    _game_actions(result, photos, final, to_check, holes)
    _session_buttons(game, final)


@st.fragment
def _kingdom_section(setup: GameSetup, seat: int | None = None) -> None:
    """Whose kingdom, its photo and its editor: a fragment, so that what happens here (another
    player's name, the source of the photo, a look at what the app saw, text with a mistake)
    reruns this section only. A change of a board or its flags reruns the whole page at once, as
    the result below must follow it."""
    alone = _fragment_run()
    if alone and (
        _result_depends_on(setup) != st.session_state.get(RESULT_SHOWN_FOR)
        or has_new_file(len(setup.players))
    ):
        # An edit's callback changed the board before this run, or a photo came: the whole
        # page runs at once (it reads the photo before the setup, and the result follows).
        st.rerun()
    # One player's kingdom is drawn at a time: the browser then builds one uploader and one
    # board editor, not four, which is most of a phone's work on the first page and after each
    # photo. The kingdoms live in the session state. A segmented control, not keyed st.tabs:
    # Streamlit makes those a new element when a label changes (a player renamed) and would
    # draw the kingdom afresh, losing text being typed into it; this control keeps its
    # identity by its key alone.
    slots = list(range(len(setup.players)))
    if st.session_state.get(KINGDOM_SHOWN) not in slots:
        st.session_state[KINGDOM_SHOWN] = 0
    if seat is not None:  # a phone that joined the table: its player's kingdom only
        slot = seat
    else:
        slot = st.segmented_control(
            _("Whose kingdom"),
            slots,
            format_func=lambda shown: escape_markdown(setup.players[shown]),
            key=KINGDOM_SHOWN,
            required=True,
        )
    kingdom_input(slot, setup.players[slot], setup)
    board_editor(slot, setup.players[slot], setup.size)
    if alone:
        if _result_depends_on(setup) != st.session_state.get(RESULT_SHOWN_FOR):
            st.rerun()  # a photo was read here (a sample, or one read again at a new size)
        draft.save()  # the page's own save is not reached in a run of this section alone


def _fragment_run() -> bool:
    """Whether this run is of a fragment alone (not the whole page)."""
    ctx = get_script_run_ctx()
    return bool(ctx is not None and ctx.fragment_ids_this_run)


def _result_depends_on(setup: GameSetup) -> tuple:
    """What the result section is drawn from: the boards and the cells still flagged."""
    flagged = state.to_check(setup)
    checked = sorted((name, sorted(cells)) for name, cells in flagged.items())
    holes = sorted((name, sorted(cells)) for name, cells in state.holes_to_check(setup).items())
    return state.current_game(setup), checked, holes


def _game_actions(
    result: GameResult,
    photos: list[dict[str, np.ndarray]],
    final: bool,
    to_check: dict[str, set[tuple[int, int]]],
    holes: dict[str, set[tuple[int, int]]],
) -> None:
    """Save (with the kingdoms' photos), share (with the cells still to check, so that the
    link opens as provisional as this page is) and download."""
    game = result.game
    try:  # what was saved, to say so (as drafts have kept it: the link's code without flags)
        code = encode_game(game)
    except ShareError:  # too long for a link: the game itself
        code = json.dumps(game_to_dict(game), sort_keys=True)
    left, right = st.columns(2)
    if not final:
        left.caption(_("Save to history once every kingdom is in and checked."))
    elif game.finished:
        saved_code = st.session_state.get("saved_code")
        if saved_code == code:
            left.success(_("Saved in the history."))
            if st.session_state.get("history_notice"):
                left.warning(escape_markdown(say(st.session_state["history_notice"])))
        elif left.button(
            _("Save to history"), icon=":material/save:", type="primary", key="save_game"
        ):
            from vision.annotate import jpeg_bytes

            files = [{name: jpeg_bytes(image) for name, image in p.items()} for p in photos]
            try:
                history = GameHistory()
                history.save(game, summary(result), files)
            except HistoryError as err:  # the result stays on the page: only saving failed
                left.error(escape_markdown(say(err)), icon=":material/error:")
            else:
                st.session_state["saved_code"] = code
                if history.notice:
                    st.session_state["history_notice"] = history.notice
                st.rerun()
    else:
        left.caption(
            _(
                "Save to history once the third game is entered; until then this page keeps the "
                "games, even through a reload."
            )
        )
    right.download_button(
        _("Download the results (JSON)"),
        json.dumps(result_to_dict(result), indent=2, ensure_ascii=False),
        icon=":material/download:",
        file_name="kingdomino-results.json",
        mime="application/json",
        key="download_json",
    )
    base = st.context.url.split("?")[0] if st.context.url else ""
    # In a popover: a code block is the page's dearest element to draw in the browser (its
    # syntax highlighter), and every phone redraws the result after each change.
    with st.popover(_("Share link"), icon=":material/share:"):
        try:
            link = encode_game(game, to_check, holes)
        except ShareError as err:  # longer than a link may carry: none is offered
            st.warning(escape_markdown(sentence(err)), icon=":material/link_off:")
            return
        if final:
            st.caption(_("Opens this result on any device that can reach this app."))
        else:
            st.caption(
                _(
                    "Opens this result on any device that can reach this app, provisional as "
                    "it is here: it names no winner until the kingdoms are checked."
                )
            )
        st.code(f"{base}?{SHARE_PARAM}={link}", language=None, wrap_lines=True)


def _session_buttons(game: Game, final: bool) -> None:
    setup = game.setup
    finished = state.finished_rounds()
    if setup.dynasty and len(finished) + 1 < setup.games_to_play:
        number = len(finished) + 1
        st.button(
            _("Game {number} is over: start game {next}", number=number, next=number + 1),
            key="next_game",
            on_click=_next_game,
            args=(game,),
            disabled=not final,
            help=None if final else _("Enter and check every kingdom of this game first"),
        )
    with st.popover(_("Start a new game")):
        st.write(
            _(
                "This clears the kingdoms and finished games on every screen of this game; the "
                "game is kept, to put back (saved games stay in History)."
            )
        )
        st.button(_("Yes, clear everything"), key="new_game", on_click=_new_game)


def _next_game(game: Game) -> None:
    state.finished_rounds().append(game.rounds[-1])
    state.finished_photos().append(state.photos_by_game(game.setup)[-1])
    for slot in range(len(game.setup.players)):
        state.clear_kingdom(slot, game.setup.size)


def _new_game() -> None:
    """A callback: a new game on every screen, the cleared one kept and told with the way back
    (``ui.draft.start_new_game``, ``games.new_game``)."""
    draft.start_new_game()


def _open_in_editor(game: Game, shared: SharedGame | None = None) -> None:
    """Load a game (shared or saved) into the page's setup and editors, replacing what was there.

    A shared game's cells still to check stay framed in the editors, so the result stays
    provisional there too."""
    load_setup(game.setup)
    finished = state.finished_rounds()
    finished.clear()
    finished.extend(game.rounds[:-1])
    state.finished_photos()[:] = [{} for _ in finished]  # the boards come without photos
    for slot, board in enumerate(game.rounds[-1]):
        state.clear_kingdom(slot, game.setup.size)
        state.set_board(slot, game.setup.size, board)
        name = game.setup.players[slot]
        if shared is not None and (shared.to_check.get(name) or shared.holes.get(name)):
            state.set_reading(
                slot,
                game.setup.size,
                state.PhotoReading(
                    name="share link",
                    photo=None,
                    straightened=None,
                    overlay=None,
                    uncertain=set(shared.to_check.get(name, ())),
                    holes=set(shared.holes.get(name, ())),
                    board=board,
                ),
            )
    st.query_params.clear()


def _leave_shared() -> None:
    st.query_params.clear()


def _shared_game(code: str) -> None:
    try:
        shared = decode_shared(code)
    except ShareError as err:
        st.error(escape_markdown(sentence(err)))
        st.button(_("Start a game of my own"), key="leave_shared", on_click=_leave_shared)
        return
    game = shared.game
    players = ", ".join(escape_markdown(name) for name in game.setup.players)
    st.info(
        _(
            "A shared game: {players} · {rules}. This view is read-only.",
            players=players,
            rules=say(game.setup.rules_text),
        )
    )
    # The cells the host had still to check come with the link: the same provisional sentence,
    # and no winner, as on the host's page.
    show_result(score_game(game), [], key="shared", to_check=shared.to_check, holes=shared.holes)
    left, right = st.columns(2)
    left.button(
        _("Edit these kingdoms"),
        key="edit_shared",
        on_click=_open_in_editor,
        args=(game, shared),
        help=_("Copies this game into the editor, replacing the kingdoms entered there"),
    )
    right.button(_("Start a game of my own"), key="leave_shared", on_click=_leave_shared)


def history_page() -> None:
    """Saved games, newest first: open one as it was, or delete it."""
    _title(_("Saved games"))
    try:
        history = GameHistory()
        saved = history.list()
    except HistoryError as err:
        st.error(escape_markdown(say(err)), icon=":material/error:")
        st.caption(_("Scoring works without the history; only saved games wait for this fix."))
        return
    notice = history.notice or st.session_state.pop("history_notice", None)
    if notice:
        st.warning(escape_markdown(say(notice)), icon=":material/warning:")
    if st.session_state.get("history_error"):
        error = st.session_state.pop("history_error")
        st.error(escape_markdown(say(error)), icon=":material/error:")
    if not saved:
        st.info(_("No saved games yet. Finish a game and press **Save to history**."))
        return
    for entry in saved:
        with st.container(border=True, key=f"saved_game_{entry.id}"):
            text, actions = st.columns([3, 2], vertical_alignment="center")
            when = format_datetime(entry.saved_at.astimezone(), "dd MMM y, HH:mm", locale=current())
            text.markdown(f"**{when}** · {escape_markdown(_summary(history, entry))}")
            # The buttons side by side at their own width: in narrow columns of their own, a
            # phone held sideways cut "Delete" (and longer words in other languages).
            buttons = actions.container(horizontal=True, horizontal_alignment="right")
            buttons.button(
                _("Open"), key=f"open_{entry.id}", on_click=_open_saved, args=(entry.id,)
            )
            with buttons.popover(_("Delete")):  # a delete asks first
                st.write(_("Delete this game from the history for good?"))
                st.button(
                    _("Yes, delete it"),
                    key=f"delete_{entry.id}",
                    type="primary",
                    on_click=_delete_saved,
                    args=(entry.id,),
                )
    opened = st.session_state.get("history_open")
    if opened is None:
        return
    try:
        game = history.load(opened)
        files = history.photos(opened)
    except KeyError:
        st.session_state.pop("history_open", None)
        return
    except HistoryError as err:
        st.error(escape_markdown(say(err)), icon=":material/error:")
        return
    st.divider()
    st.subheader(_("Saved game"))
    photos = [_saved_photos(by_player) for by_player in files]
    show_result(score_game(game), photos, key="history")
    if st.button(
        _("Edit these kingdoms"),
        key="edit_saved",
        help=_("Copies this game into the editor on the Score page, replacing what is there"),
    ):
        _open_in_editor(game)
        st.switch_page(SCORE_PAGE)


def _title(title: str) -> None:
    """The page's title with the language picker beside it (it overrides the browser's)."""
    left, right = st.columns([4, 1], vertical_alignment="bottom")
    left.title(title)
    with right:
        language_picker()
    streamlit_words()


def _summary(history: GameHistory, entry) -> str:
    """The saved game's one line, said in the page's language (it is stored in English)."""
    if current() == "en":
        return entry.summary  # as stored; scoring every saved game again is for other languages
    try:
        return say(summary(score_game(history.load(entry.id))))
    except (KeyError, HistoryError, ValueError):
        return entry.summary


def _open_saved(game_id: int) -> None:
    st.session_state["history_open"] = game_id


def _saved_photos(files: dict[str, bytes]) -> dict[str, np.ndarray]:
    """The saved photos that still decode (a kingdom without one is drawn instead)."""
    from vision.load_image import ImageError, load_image

    photos = {}
    for name, data in files.items():
        try:
            photos[name] = load_image(data, long_side=None)
        except ImageError:
            continue
    return photos


def _delete_saved(game_id: int) -> None:
    try:
        GameHistory().delete(game_id)
    except HistoryError as err:  # a callback: the page run that follows shows it
        st.session_state["history_error"] = getattr(err, "message", None) or str(err)
        return
    if st.session_state.get("history_open") == game_id:
        st.session_state.pop("history_open")
    st.toast(_("Game deleted from the history."))


# Pages are small scripts (rather than these functions) so that AppTest can switch between them.
SCORE_PAGE = "ui/score_page.py"
HISTORY_PAGE = "ui/history_page.py"


def navigation() -> None:
    page = st.navigation(
        [
            st.Page(
                SCORE_PAGE, title=_("Score a game"), icon=":material/scoreboard:", default=True
            ),
            st.Page(
                HISTORY_PAGE, title=_("History"), icon=":material/history:", url_path="history"
            ),
        ]
    )
    # On every page, so that a reload on History loses nothing either.
    draft.keep_in_address(shared_view=SHARE_PARAM in st.query_params)
    page.run()
