"""The ``kingdomino`` command: score kingdoms and rank players from board files (or photos).

    kingdomino score FILE... [--json] [--no-middle-kingdom] [--no-harmony]
    kingdomino rank NAME=FILE... [--json] [--no-middle-kingdom] [--no-harmony]
    kingdomino rank --photo PHOTO NAME... [--json]
    kingdomino read IMAGE... [--size 5|7] [--corners X1,Y1,...,X4,Y4] [--kingdoms one|all] [--json]

``score`` also takes photos and straightened board images (``--size``, ``--corners`` as ``read``).
``--kingdoms all`` reads every complete kingdom in a photo (numbered left to right, then top to
bottom); kingdoms cut by the photo's edge are named in a warning and not scored. ``rank --photo``
gives the photo's kingdoms to the players in that order.

``-`` reads standard input. Exit status 0 when every input was scored, 2 when some input was bad
(a one-line message on stderr per bad input; the good ones are still scored).
"""

from __future__ import annotations

import argparse
import importlib
import json
import math
import re
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, NamedTuple, NoReturn

from scoring import (
    Board,
    BoardError,
    Rules,
    Score,
    check_game,
    parse_board,
    rank_players,
    score_board,
)
from scoring.words import count, where

EXIT_OK = 0
EXIT_BAD_INPUT = 2
# A board file is a few hundred bytes; anything this big is not one (images are not limited).
MAX_BOARD_BYTES = 1_000_000
IMAGE_SUFFIXES = {".jpg", ".jpeg", ".png", ".webp", ".bmp", ".tif", ".tiff", ".heic", ".heif"}
NOT_REGULAR = "not a regular file (a pipe, device or socket); give a file, or - for standard input"
_IMAGE_MAGIC = (b"\xff\xd8\xff", b"\x89PNG\r\n\x1a\n", b"BM", b"II*\x00", b"MM\x00*", b"GIF8")


class InputError(Exception):
    """An input that cannot be scored; the message is one line naming the input."""


class LoadedInput(NamedTuple):
    board: Board
    reading: Any = None  # vision's per-cell reading for a photo; None for a board file


def load_input(path: str, **image_options: Any) -> LoadedInput:
    """The board in ``path`` (``-`` = stdin): board text, a JSON board, or an image for vision.

    Raises ``InputError`` with a one-line message for anything else.
    """
    name = "<stdin>" if path == "-" else path
    if path == "-":
        data = sys.stdin.buffer.read(MAX_BOARD_BYTES + 1)
    else:
        file = Path(path)
        if not file.exists():
            raise InputError(f"{name}: no such file")
        if file.is_dir():
            raise InputError(f"{name}: is a directory, not a board file")
        if not file.is_file():  # opening a FIFO would wait forever for a writer
            raise InputError(f"{name}: {NOT_REGULAR}")
        if file.suffix.lower() in IMAGE_SUFFIXES or _starts_like_image(file):
            return _read_image(name, path, **image_options)
        try:
            with file.open("rb") as handle:
                data = handle.read(MAX_BOARD_BYTES + 1)
        except OSError as err:
            raise InputError(f"{name}: cannot read ({err.strerror or err})") from None
    if _is_image(data):
        if path == "-":
            return _read_image(name, data, **image_options)
        return _read_image(name, path, **image_options)
    if len(data) > MAX_BOARD_BYTES:
        raise InputError(f"{name}: over {MAX_BOARD_BYTES:,} bytes, too big for a board file")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise InputError(f"{name}: not a board text file (not UTF-8 text)") from None
    if "\x00" in text:
        raise InputError(f"{name}: not a board text file (binary data)")
    try:
        return LoadedInput(parse_board(text))
    except BoardError as err:
        raise InputError(f"{name}: {err}") from None


def _starts_like_image(file: Path) -> bool:
    try:
        with file.open("rb") as handle:
            return _is_image(handle.read(16))
    except OSError:
        return False  # reading it again below reports the error


def _is_image(data: bytes) -> bool:
    return (
        data.startswith(_IMAGE_MAGIC)
        or (data[:4] == b"RIFF" and data[8:12] == b"WEBP")
        or data[4:12] in (b"ftypheic", b"ftypheix", b"ftypmif1", b"ftypheim")
    )


def _image_reader() -> Callable[..., Any] | None:
    """vision's ``read_image``, or None while the vision package has none (or cannot load)."""
    for module_name in ("vision", "vision.pipeline"):
        try:
            module = importlib.import_module(module_name)
        except Exception:  # a missing or broken optional dependency (cv2, ...) means no reader
            continue
        reader = getattr(module, "read_image", None)
        if callable(reader):
            return reader
    return None


def _read_image(name: str, source: str | bytes, **image_options: Any) -> LoadedInput:
    """``image_options``: vision's ``size`` and ``corners`` (from --size / --corners), if given."""
    reader = _image_reader()
    if reader is None:
        raise InputError(f"{name}: is an image; reading images needs the vision package")
    try:
        options = {key: value for key, value in image_options.items() if value is not None}
        reading = reader(source, **options)
    except Exception as err:  # the vision code's own errors; the CLI must never show a traceback
        raise InputError(f"{name}: cannot read the image ({_vision_message(err)})") from None
    return LoadedInput(reading.board, reading)


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
        lines.append("  Regions with crowns:")
        for region in crowned:
            r, c = region.cells[0]
            cells = "cell " if region.size == 1 else "cells"
            crowns = "crown " if region.crowns == 1 else "crowns"
            lines.append(
                f"    {region.terrain.value:<9} {region.size:>2} {cells} × {region.crowns} {crowns}"
                f" = {region.points:>3}   (from {where(r, c)})"
            )
    else:
        lines.append("  No region has a crown.")
    others = len(score.regions) - len(crowned)
    if others:
        lines.append(f"  {count(others, 'region')} without crowns score 0.")
    lines.append(f"  Base: {score.base}")
    for bonus in (score.middle_kingdom, score.harmony):
        lines.append(f"  {bonus.name}: +{bonus.points}. {bonus.reason}")
    lines.append(
        f"  Total: {score.total} (largest region {count(score.largest_region, 'cell')}, "
        f"{count(score.crowns, 'crown')})"
    )
    to_check = _cells_to_check(loaded)
    if to_check:
        from games.results import cells_text

        lines.append(
            f"  Provisional: check {cells_text(to_check)}, which the reader was unsure of or"
            f" decoding changed; the total counts {'it' if len(to_check) == 1 else 'them'} as"
            " read."
        )
    lines += [f"  Warning: {warning}" for warning in _warnings(loaded, score)]
    return "\n".join(lines)


def _cells_to_check(loaded: LoadedInput) -> list[tuple[int, int]]:
    """(row, col) of a photo reading's cells the reader was unsure of or decoding changed;
    none for a typed board (the user's own)."""
    cells = getattr(loaded.reading, "cells", None)
    if cells is None:
        return []
    rows, cols = (cells.uncertain | cells.corrected).nonzero()
    return [(int(r), int(c)) for r, c in zip(rows, cols, strict=True)]


def _cmd_score(args: argparse.Namespace) -> int:
    rules = Rules(middle_kingdom=not args.no_middle_kingdom, harmony=not args.no_harmony)
    status = EXIT_OK
    if _corners_with_all(args):
        return EXIT_BAD_INPUT
    for path in args.files:
        name = "<stdin>" if path == "-" else path
        try:
            if args.kingdoms == "all" and _is_image_file(path):
                _score_table(name, _read_table(path, args.size), rules, args.json)
                continue
            loaded = load_input(path, size=args.size, corners=args.corners)
        except InputError as err:
            _error(str(err))
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
        _error("--corners gives one kingdom's corners: leave out --kingdoms all, or the corners")
        return True
    return False


def _score_table(name: str, table: Any, rules: Rules, as_json: bool) -> None:
    """Score every kingdom of a ``vision.pipeline.TableReading``: one JSON line (or block) each."""
    not_scored = [f"not scored: {sentence}" for sentence in table.cut_off]
    for number, reading in enumerate(table.kingdoms, start=1):
        loaded = LoadedInput(reading.board, reading)
        score = score_board(loaded.board, rules)
        if as_json:
            fields = _kingdom_fields(number, reading, table.photo_scale)
            result = {**_score_json(name, loaded, score), **fields}
            result["warnings"] = [*result["warnings"], *not_scored, *table.warnings]
            print(json.dumps(result), flush=True)
        else:
            text = _score_text(f"{name}, kingdom {number}", loaded, score)
            print(text, end="\n\n", flush=True)
    if not as_json:
        for warning in (*not_scored, *table.warnings):
            print(f"Warning ({name}): {warning}", end="\n\n", flush=True)


def _kingdom_fields(number: int, reading: Any, photo_scale: float) -> dict:
    """``kingdom`` (1, 2, ... in reading order) and its ``corners`` in the photo file's pixels."""
    corners = reading.location.corners * photo_scale if reading.location is not None else []
    return {"kingdom": number, "corners": [[round(x, 1), round(y, 1)] for x, y in corners]}


def _is_image_file(path: str) -> bool:
    file = Path(path)
    if path == "-" or not file.is_file():
        return False
    return file.suffix.lower() in IMAGE_SUFFIXES or _starts_like_image(file)


def _read_table(path: str, size: int | None) -> Any:
    """vision's reading of every complete kingdom in the photo at ``path``."""
    try:
        from vision.pipeline import read_table
    except ImportError as err:
        raise InputError(f"{path}: reading images needs the vision package ({err})") from None
    try:
        return read_table(path, size=size)
    except Exception as err:  # vision's own errors; the CLI must never show a traceback
        raise InputError(f"{path}: cannot read the image ({_vision_message(err)})") from None


# ---- rank ----------------------------------------------------------------------------------


def _cmd_rank(args: argparse.Namespace) -> int:
    rules = Rules(middle_kingdom=not args.no_middle_kingdom, harmony=not args.no_harmony)
    status = EXIT_OK
    kingdoms: dict[str, LoadedInput] = {}
    files: dict[str, str] = {}
    if args.photo is not None:
        try:
            kingdoms, files = _kingdoms_from_photo(args.photo, args.players)
        except InputError as err:
            _error(str(err))
            return EXIT_BAD_INPUT
    for argument in [] if args.photo is not None else args.players:
        name, sep, path = argument.partition("=")
        name = name.strip()
        if not sep or not name or not path:
            _error(f"{argument}: give each player as NAME=FILE, e.g. Anna=anna.txt")
            status = EXIT_BAD_INPUT
            continue
        if name in kingdoms:
            _error(f"{argument}: {name} is given twice; names must differ")
            status = EXIT_BAD_INPUT
            continue
        try:
            loaded = load_input(path)
        except InputError as err:
            _error(f"{name}: {err}")
            status = EXIT_BAD_INPUT
            continue
        kingdoms[name] = loaded
        files[name] = path
    kingdoms = _decoded_as_one_game(kingdoms)
    scores = {name: score_board(loaded.board, rules) for name, loaded in kingdoms.items()}
    try:
        ranking = rank_players(scores)
    except ValueError as err:
        _error(f"cannot rank: {err}")
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
        print(provisional)
    width = max(len(s.name) for s in ranking.standings)
    for s in ranking.standings:
        print(
            f"{s.place}. {s.name:<{width}}  {s.total:>3} points  "
            f"(largest region {count(s.largest_region, 'cell')}, {count(s.crowns, 'crown')})"
        )
    for sentence in ranking.explanations or ("The totals decide every place.",):
        print(sentence)
    for name, score in scores.items():
        for warning in score.warnings:
            print(f"Warning ({name}): {warning}")
    for warning in game_warnings:
        print(f"Warning: {warning}")
    return status


def _provisional(kingdoms: dict[str, LoadedInput]) -> str | None:
    """Why the ranking names no winner yet, with what to do: cells of photo-read kingdoms the
    reader was unsure of or its decoding changed. None when there are none."""
    from games.results import cells_text

    flagged = [
        f"{cells_text(cells)} of {name}'s kingdom"
        for name, cells in ((name, _cells_to_check(loaded)) for name, loaded in kingdoms.items())
        if cells
    ]
    if not flagged:
        return None
    return (
        f"Provisional, no winner named: check {'; '.join(flagged)} (kingdomino read shows"
        " them), write each corrected grid to a file and rank again with NAME=FILE."
    )


def _kingdoms_from_photo(
    photo: str, names: list[str]
) -> tuple[dict[str, LoadedInput], dict[str, str]]:
    """The photo's complete kingdoms, given to ``names`` in reading order (left to right)."""
    names = [name.strip() for name in names]
    if any(not name or "=" in name for name in names):
        raise InputError("with --photo, give only the players' names, in the kingdoms' order")
    if len(set(names)) != len(names):
        raise InputError("with --photo, each player's name must differ")
    if not _is_image_file(photo):
        raise InputError(f"{photo}: no such photo (--photo takes an image file)")
    table = _read_table(photo, None)
    if len(table.kingdoms) != len(names):
        cut = f" ({'; '.join(table.cut_off)})" if table.cut_off else ""
        raise InputError(
            f"{photo}: {len(table.kingdoms)} complete kingdom(s) found{cut} but"
            f" {len(names)} names given; give one name per kingdom, left to right"
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


def _cmd_read(args: argparse.Namespace) -> int:
    """Print what vision reads in each image: the board text, then the cells to double-check."""
    status = EXIT_OK
    if _corners_with_all(args):
        return EXIT_BAD_INPUT
    for path in args.images:
        try:
            if not Path(path).exists():
                raise InputError(f"{path}: no such file")
            if not Path(path).is_file():
                raise InputError(f"{path}: {NOT_REGULAR}")
            if args.kingdoms == "all":
                table = _read_table(path, args.size)
                _print_table(path, table, args.json)
                continue
            reading = _read_image_with_size(path, args.size, args.corners)
        except InputError as err:
            _error(str(err))
            status = EXIT_BAD_INPUT
            continue
        if args.json:
            print(json.dumps({**reading.to_json(), "file": path}), flush=True)
            continue
        size = reading.size
        lines = [f"{path} ({size}×{size})"] + [f"    {row}" for row in reading.board.rows_text()]
        uncertain = [cell for cell in reading.cells.cells_json() if cell["uncertain"]]
        for cell in uncertain:
            token = reading.board[cell["row"], cell["col"]].token
            lines.append(
                f"  Uncertain: row {cell['row'] + 1}, column {cell['col'] + 1} read as {token}"
                f" (confidence {cell['confidence']:.2f})"
            )
        if not uncertain:
            lines.append("  No uncertain cells.")
        if reading.cells.corrected.any():
            lines.append(f"  Decoding: {reading.cells.decoding}")
        lines += [f"  Warning: {warning}" for warning in reading.warnings]
        print("\n".join(lines), end="\n\n", flush=True)
    return status


def _print_table(path: str, table: Any, as_json: bool) -> None:
    """``read --kingdoms all``: each kingdom's board (or JSON line), then the cut-off ones."""
    not_scored = [f"not read: {sentence}" for sentence in table.cut_off]
    for number, reading in enumerate(table.kingdoms, start=1):
        if as_json:
            fields = _kingdom_fields(number, reading, table.photo_scale)
            result = {**reading.to_json(), "file": path, **fields}
            result["warnings"] = [*result["warnings"], *not_scored, *table.warnings]
            print(json.dumps(result), flush=True)
            continue
        lines = [f"{path}, kingdom {number} ({reading.size}×{reading.size})"]
        lines += [f"    {row}" for row in reading.board.rows_text()]
        lines += [f"  Warning: {warning}" for warning in reading.warnings]
        print("\n".join(lines), end="\n\n", flush=True)
    if not as_json:
        for warning in (*not_scored, *table.warnings):
            print(f"Warning ({path}): {warning}", end="\n\n", flush=True)


def _read_image_with_size(path: str, size: int | None, corners: Any = None) -> Any:
    """vision's whole reading of one image: ``read`` needs every cell, not just the board."""
    try:
        from vision.pipeline import read_image
    except ImportError as err:
        raise InputError(f"{path}: reading images needs the vision package ({err})") from None
    try:
        return read_image(path, size=size, corners=corners)
    except Exception as err:  # vision's own errors; the CLI must never show a traceback
        raise InputError(f"{path}: cannot read the image ({_vision_message(err)})") from None


# ---- entry point ---------------------------------------------------------------------------


def _error(message: str) -> None:
    print(f"kingdomino: {' '.join(message.split())}", file=sys.stderr)


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        # One line instead of argparse's usage block: scripts read the message, people --help.
        _error(f"{message} (see {self.prog} --help)")
        raise SystemExit(EXIT_BAD_INPUT)


def _parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="kingdomino", description="Score Kingdomino kingdoms and rank players.")
    commands = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    # Keep the docstring's usage lines as written in each command's --help.
    layout = {"description": __doc__, "formatter_class": argparse.RawDescriptionHelpFormatter}

    def add_rules(command: argparse.ArgumentParser) -> None:
        command.add_argument("--json", action="store_true", help="print JSON, one object a line")
        command.add_argument(
            "--no-middle-kingdom", action="store_true", help="play without the +10 castle bonus"
        )
        command.add_argument(
            "--no-harmony", action="store_true", help="play without the +5 full-kingdom bonus"
        )

    def add_image_options(command: argparse.ArgumentParser) -> None:
        command.add_argument(
            "--kingdoms",
            choices=("one", "all"),
            default="one",
            help="photos: the largest kingdom (one, default) or every complete kingdom (all)",
        )
        command.add_argument(
            "--size", type=int, choices=(5, 7), help="cells per side of photos (default: found)"
        )
        command.add_argument(
            "--corners",
            type=_corners,
            metavar="X1,Y1,X2,Y2,X3,Y3,X4,Y4",
            help="the kingdom's four corners in the photo, in pixels (any order): skip the search",
        )

    score = commands.add_parser("score", help="score each kingdom", **layout)
    score.add_argument("files", nargs="+", metavar="FILE", help="board text/JSON file; - = stdin")
    add_rules(score)
    add_image_options(score)
    score.set_defaults(run=_cmd_score)

    rank = commands.add_parser("rank", help="rank 2-4 players of one game", **layout)
    rank.add_argument(
        "players",
        nargs="+",
        metavar="NAME=FILE",
        help="a player and their board (with --photo: only the names, left to right)",
    )
    rank.add_argument(
        "--photo", metavar="PHOTO", help="one photo of every kingdom: given to the names in order"
    )
    add_rules(rank)
    rank.set_defaults(run=_cmd_rank)

    read = commands.add_parser("read", help="read the cells of kingdom images", **layout)
    read.add_argument("images", nargs="+", metavar="IMAGE", help="a photo or straightened board")
    read.add_argument("--json", action="store_true", help="print JSON, one object a line")
    add_image_options(read)
    read.set_defaults(run=_cmd_read)
    return parser


def _vision_message(err: Exception) -> str:
    """vision's message on one line, its advice to tap corners (in the app) as the option here."""
    message = " ".join(str(err).split()) or type(err).__name__
    return re.sub(r"\btap\b", "use --corners to give", message)


def _corners(text: str) -> list[tuple[float, float]]:
    """``--corners x1,y1,...,x4,y4``: four (x, y) points in photo pixels."""
    try:
        numbers = [float(part) for part in text.replace(" ", "").split(",")]
    except ValueError:
        numbers = []
    if len(numbers) != 8:
        raise argparse.ArgumentTypeError(
            f"'{text}': give 8 numbers, x,y of the four corners, e.g. 10,20,900,25,890,910,15,905"
        )
    if not all(math.isfinite(number) for number in numbers):
        raise argparse.ArgumentTypeError(
            f"'{text}': the corners must be finite numbers of pixels (no nan or inf)"
        )
    return [(numbers[i], numbers[i + 1]) for i in range(0, 8, 2)]


def main(argv: Sequence[str] | None = None) -> int:
    # Reasons contain "×" and "–"; a terminal without UTF-8 gets an escape, not a crash.
    if hasattr(sys.stdout, "reconfigure"):
        sys.stdout.reconfigure(errors="backslashreplace")
    args = _parser().parse_args(argv)
    try:
        return args.run(args)
    except BrokenPipeError:  # e.g. `kingdomino score ... | head -1`
        sys.stderr.close()
        return EXIT_OK


if __name__ == "__main__":
    raise SystemExit(main())
