"""The board editor's browser half: a Streamlit custom component (version 2) that paints taps at
once and hands the board back to Python when the taps pause.

The HTML, CSS and JavaScript ship beside this module (``board_editor.js``, ``board_editor.css``)
and go to the browser inline: no build step, nothing fetched at run time. What the component is
given and what it gives back is described in docs/editor.md; this module only packs the board,
the rules it needs (terrains, their colours, the crowns each can carry) and the brush for it, and
unpacks and checks what comes back.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass
from pathlib import Path

from streamlit.components.v2 import component

from scoring import Board, BoardError, Cell, Terrain, parse_board
from scoring.board import terrain_name
from scoring.words import msg
from ui.language import N_, _, current, ngettext, say
from vision.palette import DARK_TERRAINS, TERRAIN_COLOURS

_HERE = Path(__file__).resolve().parent
_mount = component(
    "kingdomino.board_editor",
    html='<div class="kd-editor"></div>',
    css=(_HERE / "board_editor.css").read_text(encoding="utf-8"),
    js=(_HERE / "board_editor.js").read_text(encoding="utf-8"),
)

# The brush's buttons; words, not emoji (a phone without an emoji font shows boxes).
TERRAIN_LABELS = {
    Terrain.WHEAT: N_("Wheat"),
    Terrain.FOREST: N_("Forest"),
    Terrain.LAKE: N_("Lake"),
    Terrain.GRASSLAND: N_("Grassland"),
    Terrain.SWAMP: N_("Swamp"),
    Terrain.MINE: N_("Mine"),
    Terrain.CASTLE: N_("Castle"),
    Terrain.EMPTY: N_("Hole"),
}


@dataclass(frozen=True)
class Edit:
    """What the editor sent: the whole board after a burst of taps, and the cells touched."""

    id: str  # named back to the browser as ``ack`` once applied (see docs/editor.md)
    board: Board
    touched: frozenset[tuple[int, int]]  # painted or confirmed: these lose their flag
    brush: Cell


def cell_name(terrain: Terrain) -> str:
    """How a cell's terrain is read out: ``lake``, ``castle``, ``hole`` (in the page's language)."""
    return say(terrain_name(terrain))


def editor_texts() -> dict[str, object]:
    """Every sentence the editor shows or reads out, in the page's language; the browser only
    fills in the named placeholders (``{row}``, ``{terrain}``)."""
    return {
        "language": current(),
        "crowns": [ngettext("{n} crown", "{n} crowns", n, n=n) for n in range(4)],
        "cell": _("row {row}, column {column}: {terrain}"),
        "cell_crowned": _("row {row}, column {column}: {terrain}, {crowns}"),
        "flagged": _("flagged: check this cell"),
        "not_framed": _("Row {row}, column {column} is not framed: nothing to confirm there."),
        "castle_tap": _("That is the castle: to move it, tap it and then its new cell."),
        "brush_terrain": _("Brush: terrain"),
        "brush_crowns": _("Brush: crowns"),
        "right_as_read": _("Right as read"),
        "board": _("The kingdom: tap a cell to paint it"),
        "tap_framed": _("Tap a framed cell that was read right."),
        "a_hole": _("a hole"),
        "brush_fill": _("{terrain}, {crowns}"),
        "castle_move": _(
            "Now tap the cell where the castle belongs; its old cell gets the brush ({fill})."
        ),
        "idle": _("Tap a cell to paint it with the brush; tap the castle to move it."),
    }


def _terrain_texts(terrain: Terrain) -> dict[str, str]:
    label = _(TERRAIN_LABELS[terrain])
    most = terrain.max_crowns
    return {
        "name": cell_name(terrain),
        "label": label,
        "most_crowns": ngettext(
            "{terrain} carries at most {n} crown: no real domino has more.",
            "{terrain} carries at most {n} crowns: no real domino has more.",
            most,
            terrain=label,
            n=most,
        ),
        "no_crowns": _("{terrain}: no crowns.", terrain=label),
        "no_crowns_typed": _(
            "{terrain} carries no crowns: type its terrain first (W F L G S M).", terrain=label
        ),
    }


def _css_colour(bgr: tuple[int, int, int]) -> str:
    blue, green, red = bgr
    return f"rgb({red} {green} {blue})"


def editor_data(
    board: Board, flagged: Collection[tuple[int, int]], brush: Cell, ack: str | None
) -> dict:
    """The component's ``data``: plain JSON, so that an unchanged board sends nothing new."""
    return {
        "size": board.size,
        "cells": [cell.token for _r, _c, cell in board.iter_cells()],
        "flagged": sorted([r, c] for r, c in flagged),
        "terrains": [
            {
                "letter": terrain.letter,
                **_terrain_texts(terrain),
                "land": terrain.is_land,
                "max_crowns": terrain.max_crowns,  # the real dominoes' most, from scoring
                "colour": _css_colour(TERRAIN_COLOURS[terrain]),
                "dark": terrain in DARK_TERRAINS,
            }
            for terrain in Terrain
        ],
        "brush": {"letter": brush.terrain.letter, "crowns": brush.crowns},
        "ack": ack,
        "texts": editor_texts(),
    }


def board_editor(
    key: str,
    board: Board,
    flagged: Collection[tuple[int, int]],
    brush: Cell,
    ack: str | None,
    on_edit: Callable[[], None],
) -> None:
    """Draw the editor; ``on_edit`` runs (as a widget callback) when it sends a board."""
    _mount(
        key=key,
        # As a JSON string, not a dict: Streamlit looks through a dict's values for dataframes,
        # and that check imports pandas (about a second of a fresh server's CPU) on the first
        # page, which draws no table.
        data=json.dumps(editor_data(board, flagged, brush, ack)),
        on_edit_change=on_edit,
        width="stretch",
    )


def parse_edit(value: object, size: int) -> Edit:
    """Check what the browser sent; a ``BoardError`` (in words) for anything malformed."""
    if not isinstance(value, Mapping):
        raise BoardError(msg("the editor sent no board"))
    edit_id, text, touched, brush = (value.get(k) for k in ("id", "board", "touched", "brush"))
    if not isinstance(edit_id, str) or not isinstance(text, str):
        raise BoardError(msg("the editor sent no board"))
    board = parse_board(text)
    if board.size != size:
        raise BoardError(
            msg(
                "the editor sent a {sent}×{sent} board for a {size}×{size}",
                sent=board.size,
                size=size,
            )
        )
    cells: set[tuple[int, int]] = set()
    for pair in touched if isinstance(touched, list) else []:
        if (
            isinstance(pair, list)
            and len(pair) == 2
            and all(isinstance(v, int) and 0 <= v < size for v in pair)
        ):
            cells.add((pair[0], pair[1]))
    return Edit(edit_id, board, frozenset(cells), _brush(brush))


def _brush(value: object) -> Cell:
    """The brush the editor painted with (kept for the next time it is drawn); wheat if unclear."""
    if isinstance(value, Mapping):
        letter, crowns = value.get("letter"), value.get("crowns")
        terrain = next((t for t in Terrain if t.letter == letter), None)
        if terrain is not None and isinstance(crowns, int):
            return Cell(terrain, min(max(crowns, 0), terrain.max_crowns))
    return Cell(Terrain.WHEAT, 0)
