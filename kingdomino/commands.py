"""The ``kingdomino`` commands, ``score``, ``rank`` and ``read``: each takes the parsed arguments
(``kingdomino.cli``), prints its results and returns the exit status."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from kingdomino.files import is_image, is_image_file
from kingdomino.inputs import (
    InputError,
    LoadedInput,
    input_name,
    load_input,
    photo_source,
    read_photo,
    read_stdin,
    read_table,
)
from scoring import Rules, Score, check_game, rank_players, score_board
from scoring.board import terrain_name
from scoring.words import Joined, Message, msg, where
from translations import Translator, translator

EXIT_OK = 0
EXIT_BAD_INPUT = 2

# The language of the human output (``kingdomino --lang``, or LANG); JSON is English always.
_words: Translator = translator("en")


def use_language(language: str) -> None:
    global _words
    _words = translator(language)


def _(text: str, /, **params: object) -> str:
    return _words.gettext(text, **params)


def _n(singular: str, plural: str, n: int, /, **params: object) -> str:
    return _words.ngettext(singular, plural, n, **params)


def say(message: object) -> str:
    return _words.say(message) if isinstance(message, Message) else str(message)


def _cells(n: int) -> str:
    return _n("{n} cell", "{n} cells", n, n=n)


def _crowns(n: int) -> str:
    return _n("{n} crown", "{n} crowns", n, n=n)


def print_error(message: Message | str | InputError) -> None:
    """A bad input or argument: one ``kingdomino: ...`` line on stderr, in the CLI's language."""
    if isinstance(message, InputError):
        message = message.message
    print(f"kingdomino: {' '.join(say(message).split())}", file=sys.stderr)


# ---- score ---------------------------------------------------------------------------------


def _warnings(loaded: LoadedInput, score: Score) -> list[str]:
    """The photo reader's warnings (if the board came from a photo), then the tile-set ones."""
    return [*(getattr(loaded.reading, "warnings", None) or ()), *score.warnings]


def _score_json(name: str, loaded: LoadedInput, score: Score) -> dict:
    result = {"file": name, **score.to_dict(), "warnings": _warnings(loaded, score)}
    cells = getattr(loaded.reading, "cells", None)  # an image: what vision read in each cell
    if cells is not None:
        result["cells"] = cells.cells_json()
        result["decoding"] = cells.decoding
    return result


def _score_text(name: str, loaded: LoadedInput, score: Score) -> str:
    size = score.board.size
    lines = [f"{name} ({size}×{size})"]
    lines += [f"    {row}" for row in score.board.rows_text()]
    crowned = [region for region in score.regions if region.crowns]
    if crowned:
        lines.append("  " + _("Regions with crowns:"))
        terrains = {region.terrain: say(terrain_name(region.terrain)) for region in crowned}
        cells_width = max(len(_n("cell", "cells", region.size)) for region in crowned)
        crowns_width = max(len(_n("crown", "crowns", region.crowns)) for region in crowned)
        terrain_width = max(9, *(len(word) for word in terrains.values()))
        for region in crowned:
            r, c = region.cells[0]
            cells = _n("cell", "cells", region.size)
            crowns = _n("crown", "crowns", region.crowns)
            lines.append(
                f"    {terrains[region.terrain]:<{terrain_width}} {region.size:>2} "
                f"{cells:<{cells_width}} × {region.crowns} {crowns:<{crowns_width}} = "
                f"{region.points:>3}   " + _("(from {cell})", cell=say(where(r, c)))
            )
    else:
        lines.append("  " + _("No region has a crown."))
    others = len(score.regions) - len(crowned)
    if others:
        lines.append(
            "  "
            + _n(
                "{n} region without crowns scores 0.",
                "{n} regions without crowns score 0.",
                others,
                n=others,
            )
        )
    lines.append("  " + _("Base: {points}", points=score.base))
    for bonus in (score.middle_kingdom, score.harmony):
        bonus_name = _("Middle Kingdom") if bonus.name == "Middle Kingdom" else _("Harmony")
        lines.append(f"  {bonus_name}: +{bonus.points}. {say(bonus.reason)}")
    lines.append(
        "  "
        + _(
            "Total: {points} (largest region {largest}, {crowns})",
            points=score.total,
            largest=_cells(score.largest_region),
            crowns=_crowns(score.crowns),
        )
    )
    to_check = _cells_to_check(loaded)
    if to_check:
        from games.results import cells_text

        lines.append(
            "  "
            + _n(
                "Provisional: check {cells}, which the reader was unsure of or decoding "
                "changed; the total counts it as read.",
                "Provisional: check {cells}, which the reader was unsure of or decoding "
                "changed; the total counts them as read.",
                len(to_check),
                cells=say(cells_text(to_check)),
            )
        )
    lines += [
        "  " + _("Warning: {warning}", warning=say(warning)) for warning in _warnings(loaded, score)
    ]
    return "\n".join(lines)


def _cells_to_check(loaded: LoadedInput) -> list[tuple[int, int]]:
    """(row, col) of a photo reading's cells the reader was unsure of or decoding changed;
    none for a typed board (the user's own)."""
    cells = getattr(loaded.reading, "cells", None)
    if cells is None:
        return []
    rows, cols = (cells.uncertain | cells.corrected).nonzero()
    return [(int(r), int(c)) for r, c in zip(rows, cols, strict=True)]


def cmd_score(args: argparse.Namespace) -> int:
    rules = Rules(middle_kingdom=not args.no_middle_kingdom, harmony=not args.no_harmony)
    status = EXIT_OK
    if _corners_with_all(args):
        return EXIT_BAD_INPUT
    for path in args.files:
        name = input_name(path)
        try:
            # Standard input is told a photo or a board by its bytes, so it is read first here.
            piped = read_stdin() if path == "-" and args.kingdoms == "all" else None
            if args.kingdoms == "all" and (is_image_file(path) or is_image(piped or b"")):
                source = path if piped is None else piped
                _score_table(name, read_table(name, source, args.size), rules, args.json)
                continue
            loaded = load_input(path, size=args.size, corners=args.corners, stdin_data=piped)
        except InputError as err:
            print_error(err)
            status = EXIT_BAD_INPUT
            continue
        score = score_board(loaded.board, rules)
        if args.json:
            print(json.dumps(_score_json(name, loaded, score)), flush=True)
        else:
            print(_score_text(name, loaded, score), end="\n\n", flush=True)
    return status


def _corners_with_all(args: argparse.Namespace) -> bool:
    """--corners locate one kingdom: with --kingdoms all it is an error (said on stderr)."""
    if args.kingdoms == "all" and args.corners is not None:
        print_error(
            msg("--corners gives one kingdom's corners: leave out --kingdoms all, or the corners")
        )
        return True
    return False


def _score_table(name: str, table: Any, rules: Rules, as_json: bool) -> None:
    """Score every kingdom of a ``vision.pipeline.TableReading``: one JSON line (or block) each."""
    not_scored = [msg("not scored: {reason}", reason=sentence) for sentence in table.cut_off]
    for number, reading in enumerate(table.kingdoms, start=1):
        loaded = LoadedInput(reading.board, reading)
        score = score_board(loaded.board, rules)
        if as_json:
            fields = _kingdom_fields(number, reading, table.photo_scale)
            result = {**_score_json(name, loaded, score), **fields}
            result["warnings"] = [*result["warnings"], *not_scored, *table.warnings]
            print(json.dumps(result), flush=True)
        else:
            text = _score_text(
                _("{file}, kingdom {number}", file=name, number=number), loaded, score
            )
            print(text, end="\n\n", flush=True)
    if not as_json:
        for warning in (*not_scored, *table.warnings):
            print(
                _("Warning ({file}): {warning}", file=name, warning=say(warning)),
                end="\n\n",
                flush=True,
            )


def _kingdom_fields(number: int, reading: Any, photo_scale: float) -> dict:
    """``kingdom`` (1, 2, ... in reading order) and its ``corners`` in the photo file's pixels."""
    corners = reading.location.corners * photo_scale if reading.location is not None else []
    return {"kingdom": number, "corners": [[round(x, 1), round(y, 1)] for x, y in corners]}


# ---- rank ----------------------------------------------------------------------------------


def cmd_rank(args: argparse.Namespace) -> int:
    rules = Rules(middle_kingdom=not args.no_middle_kingdom, harmony=not args.no_harmony)
    status = EXIT_OK
    kingdoms: dict[str, LoadedInput] = {}
    files: dict[str, str] = {}
    if args.photo is not None:
        try:
            kingdoms, files = _kingdoms_from_photo(args.photo, args.players)
        except InputError as err:
            print_error(err)
            return EXIT_BAD_INPUT
    for argument in [] if args.photo is not None else args.players:
        name, sep, path = argument.partition("=")
        name = name.strip()
        if not sep or not name or not path:
            print_error(
                msg(
                    "{argument}: give each player as NAME=FILE, e.g. Anna=anna.txt",
                    argument=argument,
                )
            )
            status = EXIT_BAD_INPUT
            continue
        if name in kingdoms:
            print_error(
                msg(
                    "{argument}: {player} is given twice; names must differ",
                    argument=argument,
                    player=name,
                )
            )
            status = EXIT_BAD_INPUT
            continue
        try:
            loaded = load_input(path)
        except InputError as err:
            print_error(msg("{player}: {error}", player=name, error=err.message))
            status = EXIT_BAD_INPUT
            continue
        kingdoms[name] = loaded
        files[name] = path
    kingdoms = _decoded_as_one_game(kingdoms)
    scores = {name: score_board(loaded.board, rules) for name, loaded in kingdoms.items()}
    try:
        ranking = rank_players(scores)
    except ValueError as err:
        print_error(msg("cannot rank: {error}", error=getattr(err, "message", None) or str(err)))
        return EXIT_BAD_INPUT
    game_warnings = check_game({name: score.board for name, score in scores.items()})
    provisional = _provisional(kingdoms)
    if args.json:
        result = {
            "provisional": provisional,
            "standings": [
                {
                    "place": s.place,
                    "name": s.name,
                    "file": files[s.name],
                    "total": s.total,
                    "largest_region": s.largest_region,
                    "crowns": s.crowns,
                }
                for s in ranking.standings
            ],
            "winners": [] if provisional else list(ranking.winners),
            "explanations": list(ranking.explanations),
            "warnings": list(game_warnings),
            "scores": {
                name: {"file": files[name], **s.to_dict(), **_decoding_of(kingdoms[name])}
                for name, s in scores.items()
            },
        }
        print(json.dumps(result))
        return status
    if provisional:
        print(say(provisional))
    width = max(len(s.name) for s in ranking.standings)
    for s in ranking.standings:
        points = _n("{n} point", "{n} points", s.total, n=f"{s.total:>3}")
        details = _(
            "(largest region {largest}, {crowns})",
            largest=_cells(s.largest_region),
            crowns=_crowns(s.crowns),
        )
        print(f"{s.place}. {s.name:<{width}}  {points}  {details}")
    for sentence in ranking.explanations or (msg("The totals decide every place."),):
        print(say(sentence))
    for name, score in scores.items():
        for warning in score.warnings:
            print(_("Warning ({player}): {warning}", player=name, warning=say(warning)))
    for warning in game_warnings:
        print(_("Warning: {warning}", warning=say(warning)))
    return status


def _provisional(kingdoms: dict[str, LoadedInput]) -> Message | None:
    """Why the ranking names no winner yet, with what to do: cells of photo-read kingdoms the
    reader was unsure of or its decoding changed, and kingdoms (read or typed) that contradict
    themselves (``scoring.tileset.contradictions``: their warnings below say where). None when
    there are none."""
    from games.results import cells_text
    from scoring.tileset import contradictions

    flagged = [
        msg("{cells} of {player}'s kingdom", cells=cells_text(cells), player=name)
        for name, cells in ((name, _cells_to_check(loaded)) for name, loaded in kingdoms.items())
        if cells
    ]
    flagged += [
        msg("{player}'s kingdom impossible with the real dominoes", player=name)
        for name, loaded in kingdoms.items()
        if contradictions(loaded.board)
    ]
    if not flagged:
        return None
    return msg(
        "Provisional, no winner named: check {kingdoms} (kingdomino read shows them), write "
        "each corrected grid to a file and rank again with NAME=FILE.",
        kingdoms=Joined(tuple(flagged)),
    )


def _kingdoms_from_photo(
    photo: str, names: list[str]
) -> tuple[dict[str, LoadedInput], dict[str, str]]:
    """The photo's complete kingdoms, given to ``names`` in reading order (left to right)."""
    names = [name.strip() for name in names]
    if any(not name or "=" in name for name in names):
        raise InputError(msg("with --photo, give only the players' names, in the kingdoms' order"))
    if len(set(names)) != len(names):
        raise InputError(msg("with --photo, each player's name must differ"))
    if photo != "-" and not is_image_file(photo):
        raise InputError(msg("{file}: no such photo (--photo takes an image file)", file=photo))
    table = read_table(input_name(photo), photo_source(photo), None)
    photo = input_name(photo)  # as the output names it
    if len(table.kingdoms) != len(names):
        found, given = len(table.kingdoms), len(names)
        # The counts stand where their case does not change ("kingdom(s)" in English).
        if table.cut_off:
            raise InputError(
                msg(
                    "{file}: {n} complete kingdom(s) found ({cut_off}) but {names} names given; "
                    "give one name per kingdom, left to right",
                    file=photo,
                    n=found,
                    cut_off=Joined(tuple(table.cut_off)),
                    names=given,
                )
            )
        raise InputError(
            msg(
                "{file}: {n} complete kingdom(s) found but {names} names given; give one name "
                "per kingdom, left to right",
                file=photo,
                n=found,
                names=given,
            )
        )
    kingdoms, files = {}, {}
    for number, (name, reading) in enumerate(zip(names, table.kingdoms, strict=True), start=1):
        kingdoms[name] = LoadedInput(reading.board, reading)
        files[name] = f"{photo}#kingdom{number}"
    return kingdoms, files


def _decoding_of(loaded: LoadedInput) -> dict:
    """``decoding``: what joint decoding did to a photo's reading (nothing for typed boards)."""
    cells = getattr(loaded.reading, "cells", None)
    return {} if cells is None else {"decoding": cells.decoding}


def _decoded_as_one_game(kingdoms: dict[str, LoadedInput]) -> dict[str, LoadedInput]:
    """Kingdoms read from photos share one domino set: decode them together, so that no
    domino is read into two kingdoms (boards typed in stay exactly as typed)."""
    photos = [name for name, loaded in kingdoms.items() if loaded.reading is not None]
    if len(photos) < 2:
        return kingdoms
    from vision.pipeline import decode_together

    readings = decode_together([kingdoms[name].reading for name in photos])
    decoded = {name: LoadedInput(r.board, r) for name, r in zip(photos, readings, strict=True)}
    return {name: decoded.get(name, loaded) for name, loaded in kingdoms.items()}


# ---- read (images only) --------------------------------------------------------------------


def cmd_read(args: argparse.Namespace) -> int:
    """Print what vision reads in each image: the board text, then the cells to double-check."""
    status = EXIT_OK
    if _corners_with_all(args):
        return EXIT_BAD_INPUT
    for path in args.images:
        name = input_name(path)
        try:
            source = photo_source(path)
            if args.kingdoms == "all":
                table = read_table(name, source, args.size)
                _print_table(name, table, args.json)
                continue
            reading = read_photo(name, source, args.size, args.corners)
        except InputError as err:
            print_error(err)
            status = EXIT_BAD_INPUT
            continue
        if args.json:
            print(json.dumps({**reading.to_json(), "file": name}), flush=True)
            continue
        size = reading.size
        lines = [f"{name} ({size}×{size})"] + [f"    {row}" for row in reading.board.rows_text()]
        uncertain = [cell for cell in reading.cells.cells_json() if cell["uncertain"]]
        for cell in uncertain:
            token = reading.board[cell["row"], cell["col"]].token
            lines.append(
                "  "
                + _(
                    "Uncertain: {cell} read as {tile} (confidence {confidence})",
                    cell=where(cell["row"], cell["col"]),
                    tile=token,
                    confidence=_words.number(cell["confidence"], "0.00"),
                )
            )
        if not uncertain:
            lines.append("  " + _("No uncertain cells."))
        if reading.cells.corrected.any():
            lines.append("  " + _("Decoding: {note}", note=reading.cells.decoding))
        lines += ["  " + _("Warning: {warning}", warning=warning) for warning in reading.warnings]
        print("\n".join(lines), end="\n\n", flush=True)
    return status


def _print_table(path: str, table: Any, as_json: bool) -> None:
    """``read --kingdoms all``: each kingdom's board (or JSON line), then the cut-off ones."""
    not_scored = [msg("not read: {reason}", reason=sentence) for sentence in table.cut_off]
    for number, reading in enumerate(table.kingdoms, start=1):
        if as_json:
            fields = _kingdom_fields(number, reading, table.photo_scale)
            result = {**reading.to_json(), "file": path, **fields}
            result["warnings"] = [*result["warnings"], *not_scored, *table.warnings]
            print(json.dumps(result), flush=True)
            continue
        kingdom = _("{file}, kingdom {number}", file=path, number=number)
        lines = [f"{kingdom} ({reading.size}×{reading.size})"]
        lines += [f"    {row}" for row in reading.board.rows_text()]
        lines += ["  " + _("Warning: {warning}", warning=warning) for warning in reading.warnings]
        print("\n".join(lines), end="\n\n", flush=True)
    if not as_json:
        for warning in (*not_scored, *table.warnings):
            print(
                _("Warning ({file}): {warning}", file=path, warning=warning), end="\n\n", flush=True
            )
