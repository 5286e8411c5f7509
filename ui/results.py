"""Showing a result: the ranking with its tie-break sentences, points by terrain, each kingdom
annotated with its breakdown, and Dynasty standings. Used for the live game, a shared link and a
game opened from the history alike.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from functools import partial

import numpy as np
import streamlit as st

from games.results import GameResult, RoundResult, provisional_reason
from scoring.board import terrain_name
from scoring.ranking import Ranking
from scoring.score import Score
from ui.language import _, ngettext, say, tr
from ui.text import escape_markdown


def ordinal(place: int) -> str:
    """A place in the ranking as the language writes it: 1st, 1., 1º."""
    return (_("1st"), _("2nd"), _("3rd"), _("4th"))[place - 1]


def show_result(
    result: GameResult,
    photos: Sequence[Mapping[str, np.ndarray]],
    key: str,
    to_check: Mapping[str, Collection[tuple[int, int]]] | None = None,
    holes: Mapping[str, Collection[tuple[int, int]]] | None = None,
) -> None:
    """The whole result. ``photos[i]``: straightened photos of game ``i + 1``'s kingdoms, by name
    (a kingdom without one is drawn instead); ``key`` keeps widget keys apart between pages;
    ``to_check``: by player, the cells of the current game still flagged for a look; ``holes``:
    the cells read as holes and not checked yet.

    While a kingdom is missing or contradicts itself, or a cell is flagged, the result says so
    first, with why, and names no winner.
    """
    rounds = result.rounds
    reason = provisional_reason(result, to_check, holes)
    if reason is not None:
        st.warning(escape_markdown(say(reason)), icon=":material/pending:")

    def photos_of(number: int) -> Mapping[str, np.ndarray]:
        return photos[number - 1] if number <= len(photos) else {}

    if result.dynasty is not None:
        _show_dynasty(result, final=reason is None)
        st.subheader(_("Game {number} of 3", number=len(rounds)))
    _show_round(rounds[-1], photos_of(len(rounds)), f"{key}_game{len(rounds)}", reason is None)
    for number in range(len(rounds) - 1, 0, -1):
        with st.expander(_("Game {number} of 3", number=number)):
            _show_round(rounds[number - 1], photos_of(number), f"{key}_game{number}", True)


def _names(names) -> str:
    """Player names joined with 'and', each escaped for Markdown."""
    return tr().and_list([escape_markdown(name) for name in names])


def show_ranking(ranking: Ranking, total_label: str | None = None, final: bool = True) -> None:
    """The standings; places and tie-break sentences only when ``final`` (a provisional result
    must not hand out places a correction could still change)."""
    total_label = total_label or _("Total")
    rows = [
        {
            **({_("Place"): ordinal(s.place)} if final else {}),
            _("Player"): escape_markdown(s.name),
            total_label: s.total,
            _("Largest region"): s.largest_region,
            _("Crowns"): s.crowns,
        }
        for s in ranking.standings
    ]
    st.table(rows, hide_index=True)
    if not final:
        st.caption(_("Places and tie-breaks are given once every kingdom is in and checked."))
        return
    for sentence in ranking.explanations:
        st.info(escape_markdown(say(sentence)), icon=":material/balance:")


def _show_dynasty(result: GameResult, final: bool) -> None:
    dynasty = result.dynasty
    assert dynasty is not None
    played = dynasty.games_played
    if played == 0:
        return  # no game has all its kingdoms yet: nothing to add up
    st.subheader(_("Dynasty standings after game {number} of 3", number=played))
    if played == 3 and final:
        winners = dynasty.overall.winners
        if len(winners) == 1:
            st.success(
                _("{player} wins the Dynasty!", player=escape_markdown(winners[0])),
                icon=":material/emoji_events:",
            )
        else:
            st.success(
                _("{players} share the Dynasty!", players=_names(winners)),
                icon=":material/emoji_events:",
            )
    # Standings after the games already over are settled; after the last, only once it is checked.
    show_ranking(dynasty.overall, total_label=_("Total of the games"), final=played < 3 or final)


def _show_round(
    game: RoundResult, images: Mapping[str, np.ndarray | None], key: str, final: bool
) -> None:
    """One game: the winner (only when ``final``), the ranking of the entered kingdoms, each
    kingdom's breakdown and the points by terrain."""
    if not game.scores:
        st.caption(_("No kingdom of this game is entered yet."))
        return
    if game.ranking is not None:
        winners = game.ranking.winners
        if not final:
            st.markdown("### " + _("Standing so far"))
        elif len(winners) == 1:
            won = _("{player} wins this game", player=escape_markdown(winners[0]))
            st.markdown(f"### :material/emoji_events: {won}")
        else:
            shared = _("{players} share first place", players=_names(winners))
            st.markdown(f"### :material/emoji_events: {shared}")
        show_ranking(game.ranking, final=final)
    _tile_set_warnings(game.warnings)
    tabs = st.tabs([escape_markdown(name) for name in game.scores])
    for index, (tab, (name, score)) in enumerate(zip(tabs, game.scores.items(), strict=True)):
        with tab:
            _show_kingdom(name, score, images.get(name), f"{key}_{index}")
    st.markdown("**" + _("Points by terrain") + "**")
    # A table, not a chart: the exact numbers side by side, and no charting library for a phone
    # to load and draw after every photo (ten phones at once share this server's two cores).
    st.table(points_by_terrain(game.scores), hide_index=True)


def points_by_terrain(scores: Mapping[str, Score]) -> list[dict[str, str | int]]:
    """One row per land terrain, one column per player: the points its regions made. Players
    across, not the six terrains: the table then fits a phone's width (the terrains' names
    side by side did not, and the last ones were cut)."""
    names = [escape_markdown(name) for name in scores]
    label = _("Terrain")
    while label in names:  # a player called so keeps their own column
        label += " "
    by_player = [score.points_by_terrain() for score in scores.values()]
    terrains = list(by_player[0]) if by_player else []
    return [
        {label: _capitalised(say(terrain_name(terrain)))}
        | {name: points[terrain] for name, points in zip(names, by_player, strict=True)}
        for terrain in terrains
    ]


def _capitalised(text: str) -> str:
    return text[:1].upper() + text[1:]


def _tile_set_warnings(warnings: Sequence[str]) -> None:
    """The game-wide tile-set warnings: one line with their count, the sentences folded away
    (several of them would push the kingdoms far down a phone's screen)."""
    if not warnings:
        return
    count = len(warnings)
    label = ngettext(
        "{n} tile-set warning: dominoes the real set does not have",
        "{n} tile-set warnings: dominoes the real set does not have",
        count,
        n=count,
    )
    with st.expander(label, icon=":material/extension:"):
        for warning in warnings:
            st.warning(escape_markdown(say(warning)), icon=":material/extension:")


# The pictures are the slow part of a result; a rerun for another kingdom's tap finds the
# unchanged ones here. Keyed by the score (board and rules) and the photo they show.
@st.cache_data(max_entries=64, show_spinner=False)
def _annotated(score: Score, photo: np.ndarray | None) -> np.ndarray:
    from vision.annotate import annotate_regions
    from vision.render import render_board

    return annotate_regions(photo if photo is not None else render_board(score.board), score)


@st.cache_data(max_entries=64, show_spinner=False)
def _annotated_jpeg(score: Score, photo: np.ndarray | None) -> bytes:
    from vision.annotate import jpeg_bytes

    return jpeg_bytes(_annotated(score, photo), quality=90)


def _annotated_png(score: Score, photo: np.ndarray | None) -> bytes:
    from vision.annotate import png_bytes

    return png_bytes(_annotated(score, photo))


def bonus_name(name: str) -> str:
    """A bonus as the players' rulebook names it ("Zamek centralny", "Hài hòa")."""
    return {"Middle Kingdom": _("Middle Kingdom"), "Harmony": _("Harmony")}.get(name, name)


def _show_kingdom(name: str, score: Score, photo: np.ndarray | None, key: str) -> None:
    left, right = st.columns([1, 1])
    caption = _("{player}'s regions and their points", player=escape_markdown(name))
    left.image(_annotated_jpeg(score, photo), caption=caption, output_format="JPEG")
    with right:
        st.metric(_("{player}'s total", player=escape_markdown(name)), score.total)
        rows = [
            {
                _("Terrain"): say(terrain_name(region.terrain)),
                _("Cells"): region.size,
                _("Crowns"): region.crowns,
                _("Points"): region.points,
            }
            for region in score.regions
        ]
        if rows:
            st.table(rows, hide_index=True)
        else:
            st.caption(_("No land tiles yet: only the castle."))
        st.markdown(
            ngettext("Regions: **{n}** point", "Regions: **{n}** points", score.base, n=score.base)
        )
        for bonus in (score.middle_kingdom, score.harmony):
            title = bonus_name(bonus.name)
            reason = say(bonus.reason)
            st.markdown(f"{title}: **+{bonus.points}** — {reason}")
        for warning in score.warnings:
            st.warning(escape_markdown(say(warning)), icon=":material/extension:")
        st.download_button(
            _("Download this picture (PNG)"),
            partial(_annotated_png, score, photo),  # encoded on a tap, not on every run
            file_name=f"kingdom-{name}.png",
            mime="image/png",
            key=f"png_{key}",
        )
