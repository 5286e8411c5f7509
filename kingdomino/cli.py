"""The ``kingdomino`` command: score kingdoms and rank players from board files (or photos).

    kingdomino score FILE... [--json] [--no-middle-kingdom] [--no-harmony]
    kingdomino rank NAME=FILE... [--json] [--no-middle-kingdom] [--no-harmony]
    kingdomino rank --photo PHOTO NAME... [--json]
    kingdomino read IMAGE... [--size 5|7] [--corners X1,Y1,...,X4,Y4] [--kingdoms one|all] [--json]

``score`` also takes photos and straightened board images (``--size``, ``--corners`` as ``read``).
``--kingdoms all`` reads every complete kingdom in a photo (numbered left to right, then top to
bottom); kingdoms cut by the photo's edge are named in a warning and not scored. ``rank --photo``
gives the photo's kingdoms to the players in that order.

``-`` reads standard input, for a board or a photo (``read -``, ``rank --photo -``). ``--lang``
goes before or after the command. Exit status 0 when every input was scored, 2 when some input
was bad (a one-line message on stderr per bad input; the good ones are still scored).
"""

from __future__ import annotations

import argparse
import math
import os
import sys
from collections.abc import Sequence
from typing import NoReturn

from kingdomino.files import is_image_file

# kingdomino.commands and translations are imported in ``main``, after the photo on the command
# line (if any) has begun decoding: they import the scoring modules, which need not wait.


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        from kingdomino.commands import EXIT_BAD_INPUT, print_error

        # One line instead of argparse's usage block: scripts read the message, people --help.
        print_error(f"{message} (see {self.prog} --help)")
        raise SystemExit(EXIT_BAD_INPUT)


def _parser() -> argparse.ArgumentParser:
    from kingdomino.commands import cmd_rank, cmd_read, cmd_score
    from translations import LANGUAGES

    lang_help = (
        "language of the printed text (default: from LANGUAGE/LANG, else en); JSON keys, "
        "values and board text stay the same in every language"
    )
    parser = _Parser(prog="kingdomino", description="Score Kingdomino kingdoms and rank players.")
    parser.add_argument("--lang", choices=tuple(LANGUAGES), help=lang_help)
    # --lang after the command too (`kingdomino score --lang pl ...`): the command's own option
    # leaves the value given before the command alone when it is not given itself.
    lang_after = argparse.ArgumentParser(add_help=False)
    lang_after.add_argument(
        "--lang", choices=tuple(LANGUAGES), default=argparse.SUPPRESS, help=lang_help
    )
    commands = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    # Keep the docstring's usage lines as written in each command's --help.
    layout = {
        "description": __doc__,
        "formatter_class": argparse.RawDescriptionHelpFormatter,
        "parents": [lang_after],
    }

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
    score.set_defaults(run=cmd_score)

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
    rank.set_defaults(run=cmd_rank)

    read = commands.add_parser("read", help="read the cells of kingdom images", **layout)
    read.add_argument("images", nargs="+", metavar="IMAGE", help="a photo or straightened board")
    read.add_argument("--json", action="store_true", help="print JSON, one object a line")
    add_image_options(read)
    read.set_defaults(run=cmd_read)
    return parser


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


def photo_to_decode(argv: Sequence[str]) -> str | None:
    """The photo a command line reads first, decoded reduced, as written in it: the first
    file of ``score`` or ``read``, or ``rank --photo``'s; None when there is none or the
    kingdom's corners are given (the photo is then decoded whole). A guess from the words alone,
    before argparse: a wrong one only decodes a photo that is not used."""
    if any(word == "--corners" or word.startswith("--corners=") for word in argv):
        return None
    words: list[str] = []
    photo = None
    value_of = None
    for word in argv:
        if value_of is not None:
            photo = word if value_of == "--photo" else photo
            value_of = None
        elif word in _TAKES_A_VALUE:
            value_of = word
        elif word.startswith("--photo="):
            photo = word.split("=", 1)[1]
        elif not word.startswith("-"):
            words.append(word)
    command, rest = (words[0], words[1:]) if words else (None, [])
    if command == "rank":
        candidate = photo
    else:
        candidate = rest[0] if command in ("score", "read") and rest else None
    return candidate if candidate is not None and is_image_file(candidate) else None


_TAKES_A_VALUE = {"--lang", "--size", "--kingdoms", "--corners", "--photo"}

# glibc's mallopt parameters (malloc.h).
_M_TRIM_THRESHOLD, _M_MMAP_THRESHOLD, _M_ARENA_MAX = -1, -3, -8


def keep_freed_memory() -> bool:
    """Ask glibc's malloc to keep the memory this process frees for its next arrays; whether it
    was asked (Linux with glibc only).

    Reading a photo makes and drops many arrays of a few megabytes. By default glibc hands each
    back to the system when it is freed, and the next one is faulted in again page by page: a
    third of a ``score`` run's page faults on the 9 MP photo (17,700 -> 12,000 with the memory
    kept), and of the four-kingdom table's (22,000 -> 14,500), for 8-11 MB more at the peak.
    A run is short, so nothing is lost by keeping it. The reader's threads (the decode, the
    model's loading, the finder's helper) take their arrays from the same heap rather than
    from one fresh heap each, so they reuse that memory too (page faults of the table photo's
    run 18,400 -> 13,200, of the 9 MP photo's 13,200 -> 12,000).
    """
    if not sys.platform.startswith("linux"):
        return False
    import ctypes

    try:
        mallopt = ctypes.CDLL(None).mallopt
    except (OSError, AttributeError):  # not glibc
        return False
    mallopt.argtypes = (ctypes.c_int, ctypes.c_int)
    # Arrays up to 32 MB (glibc's ceiling) from the heap, and the heap never trimmed.
    return (
        bool(mallopt(_M_MMAP_THRESHOLD, 32 << 20))
        and bool(mallopt(_M_TRIM_THRESHOLD, 1 << 30))
        and bool(mallopt(_M_ARENA_MAX, 1))
    )


def one_blas_thread() -> None:
    """Keep numpy's OpenBLAS to one thread, unless the user's environment sets its number; to
    be called before numpy is imported (it reads the setting when it loads).

    Its worker threads spin while they wait for work: a process that only imports numpy and
    OpenCV and decodes the 9 MP photo spent 212 ms of CPU with them and 152 without, and a
    ``score --kingdoms all`` run on the table photo 786 and 641 (busy machine, medians of 5-8
    runs). The reader's few large products (the texture model's hidden layer) gain little from
    a second BLAS thread, and its own threads and OpenCV's want that core. The numbers are the
    same: the JSON of the reference photos is byte for byte as with OpenBLAS's threads.
    """
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")


def main(argv: Sequence[str] | None = None) -> int:
    # Reasons contain "×" and "–"; a terminal without UTF-8 gets an escape, not a crash.
    if hasattr(sys.stdout, "reconfigure"):
        sys.stdout.reconfigure(errors="backslashreplace")
    argv = sys.argv[1:] if argv is None else list(argv)
    one_blas_thread()
    photo = photo_to_decode(argv)
    if photo is None:
        return _run(argv)
    keep_freed_memory()
    # Decoding (in a thread, without Python's lock) while the rest of the command imports.
    from vision.load_image import begin_decoding, forget_begun

    begin_decoding(photo)
    try:
        return _run(argv)
    finally:
        forget_begun()


def command() -> NoReturn:
    """The ``kingdomino`` command as a process of its own (``python -m kingdomino``, the
    installed script): ``main``, then the process ends with its status as soon as its output
    is written, without Python's teardown.

    The teardown frees, one by one, everything a photo run leaves behind (numpy's and OpenCV's
    modules, the cell model's networks, the reader's arrays), and nothing of it is seen: it
    cost ``score --json --kingdoms all`` on the four-kingdom table photo 74 ms of its 678 ms
    of CPU, and on the 9 MP photo 42 ms of 302 (medians of 8, alternated, busy machine). Any
    thread still at work (the finder's helper fitting a blob the search no longer asks for)
    ends with the process. Output that cannot be written (a closed pipe) is left to Python's
    own ending, which says so as before.
    """
    status = main()
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except (OSError, ValueError):  # a closed pipe or stream
        raise SystemExit(status) from None
    os._exit(status)


def _run(argv: list[str]) -> int:
    from kingdomino.commands import EXIT_OK, use_language
    from translations import language_from_environment

    args = _parser().parse_args(argv)
    use_language(args.lang or language_from_environment())
    try:
        return args.run(args)
    except BrokenPipeError:  # e.g. `kingdomino score ... | head -1`
        sys.stderr.close()
        return EXIT_OK


if __name__ == "__main__":
    raise SystemExit(main())
