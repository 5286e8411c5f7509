"""The command line begins decoding the photo it names before it imports the rest of itself."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from kingdomino.cli import main, photo_to_decode

REPO = Path(__file__).resolve().parents[2]
SAMPLE = REPO / "sample_images" / "aau-board-1.jpg"


@pytest.mark.parametrize(
    ("words", "expected"),
    [
        (["score", "{photo}"], "{photo}"),
        (["score", "--json", "{photo}", "{board}"], "{photo}"),
        (["--lang", "pl", "score", "--size", "5", "{photo}"], "{photo}"),
        (["read", "--kingdoms", "all", "{photo}"], "{photo}"),
        (["rank", "--photo", "{photo}", "Anna", "Ben"], "{photo}"),
        (["rank", "--photo={photo}", "Anna", "Ben"], "{photo}"),
        (["score", "{board}", "{photo}"], None),  # the first file is a board: no photo first
        (["score", "--corners", "1,2,3,4,5,6,7,8", "{photo}"], None),  # decoded whole
        (["score", "-"], None),
        (["score", "missing.jpg"], None),
        (["rank", "Anna={board}"], None),
        ([], None),
    ],
)
def test_the_photo_to_decode_first(tmp_path, words, expected):
    board = tmp_path / "board.txt"
    board.write_text("W0 W0 W0 W0 W0\n" * 5)
    names = {"photo": str(SAMPLE), "board": str(board)}
    argv = [word.format(**names) for word in words]
    assert photo_to_decode(argv) == (expected.format(**names) if expected else None)


def test_the_begun_decode_is_the_one_read(monkeypatch, capsys):
    """``score`` reads the photo from the decode begun before its imports, not a second one."""
    import vision.load_image as load_image

    made = []
    real = load_image.LoadingImage

    class Counted(real):
        def __init__(self, *args, **kwargs):
            made.append(args[0])
            super().__init__(*args, **kwargs)

    monkeypatch.setattr(load_image, "LoadingImage", Counted)
    assert main(["score", "--json", str(SAMPLE)]) == 0
    assert made == [str(SAMPLE)]
    assert json.loads(capsys.readouterr().out)["size"] == 5
    assert load_image.begun(str(SAMPLE)) is None  # taken, not left behind


def test_the_decode_begins_before_the_scoring_modules_import():
    """In a fresh process, ``vision.load_image`` (which begins the decode) is imported before
    the scoring package: the decode overlaps the scoring and command modules' imports."""
    done = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "kingdomino", "score", "--json", str(SAMPLE)],
        capture_output=True,
        text=True,
        check=True,
        cwd=REPO,
    )
    finished = [line.rsplit("|", 1)[-1].strip() for line in done.stderr.splitlines()]
    assert finished.index("vision.load_image") < finished.index("scoring")


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc's mallopt")
def test_a_photo_run_keeps_the_memory_it_frees_for_its_next_arrays():
    """After ``keep_freed_memory`` an array freed and made again is not faulted in again page
    by page (a fresh process, so that nothing before has tuned its malloc)."""
    # numpy asks for transparent huge pages for big arrays, and whether the kernel has one
    # free decides how many faults a run counts (12,910 or 8,311 for the same run): without
    # them (PR_SET_THP_DISABLE, 41) every page counts, the same in every run.
    code = (
        "import ctypes; ctypes.CDLL(None).prctl(41, 1, 0, 0, 0)\n"
        "import resource, sys, numpy as np\n"
        "from kingdomino.cli import keep_freed_memory\n"
        "if sys.argv[1] == 'keep': assert keep_freed_memory()\n"
        "before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt\n"
        "for mb in range(2, 22): np.ones(mb << 17)\n"  # 2, 3, ... 21 MB, each made and freed
        "print(resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before)\n"
    )
    faults = _page_faults_kept_and_not(code)
    # Kept, only the growth to 21 MB is faulted in (5,342 pages); else each array (58,900).
    assert faults["keep"] < faults["default"] / 2


def _page_faults_kept_and_not(code: str) -> dict[str, int]:
    """The page faults ``code`` prints, run in a fresh process with ``keep`` and ``default`` as
    its argument (with and without ``keep_freed_memory``)."""
    faults = {}
    for how in ("keep", "default"):
        done = subprocess.run(
            [sys.executable, "-c", code, how], capture_output=True, text=True, check=True, cwd=REPO
        )
        faults[how] = int(done.stdout)
    return faults


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc's mallopt")
def test_the_reader_threads_reuse_the_memory_the_run_freed():
    """After ``keep_freed_memory`` an array made in another thread (the finder's helper, the
    decode) comes from the memory the main thread freed, not from a fresh heap of its own
    faulted in page by page."""
    code = (
        "import ctypes; ctypes.CDLL(None).prctl(41, 1, 0, 0, 0)\n"  # no huge pages, as above
        "import resource, sys, threading, numpy as np\n"
        "from kingdomino.cli import keep_freed_memory\n"
        "if sys.argv[1] == 'keep': assert keep_freed_memory()\n"
        "np.ones(20 << 17)\n"  # 20 MB made and freed by the main thread
        "before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt\n"
        "thread = threading.Thread(target=lambda: [np.ones(5 << 17) for _ in range(3)])\n"
        "thread.start(); thread.join()\n"
        "print(resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before)\n"
    )
    faults = _page_faults_kept_and_not(code)
    # Kept, the thread's three 5 MB arrays fault in 5 pages; else 3,846.
    assert faults["keep"] < faults["default"] / 10


def test_numpys_blas_keeps_to_one_thread_unless_the_user_says(monkeypatch):
    from kingdomino.cli import one_blas_thread

    monkeypatch.delenv("OPENBLAS_NUM_THREADS", raising=False)
    one_blas_thread()
    assert os.environ["OPENBLAS_NUM_THREADS"] == "1"
    monkeypatch.setenv("OPENBLAS_NUM_THREADS", "3")
    one_blas_thread()
    assert os.environ["OPENBLAS_NUM_THREADS"] == "3"


def test_the_command_loads_openblas_with_one_thread():
    """The setting is made before numpy loads OpenBLAS (which reads it then): its worker
    threads would spin on the core the reader's own threads use."""
    code = (
        "import ctypes, sys\n"
        "from kingdomino.cli import main\n"
        "assert 'numpy' not in sys.modules\n"
        "main(['score', '--json', sys.argv[1]])\n"
        "lib = next((line.split()[-1] for line in open('/proc/self/maps')\n"
        "            if 'scipy_openblas' in line.rsplit('/', 1)[-1]), None)\n"
        "name = 'scipy_openblas_get_num_threads64_'\n"
        "get = getattr(ctypes.CDLL(lib), name, None) if lib else None\n"
        "print(get() if get else 'unknown', file=sys.stderr)\n"
    )
    env = {k: v for k, v in os.environ.items() if k != "OPENBLAS_NUM_THREADS"}
    done = subprocess.run(
        [sys.executable, "-c", code, str(SAMPLE)],
        capture_output=True,
        text=True,
        check=True,
        cwd=REPO,
        env=env,
    )
    threads = done.stderr.strip().splitlines()[-1]
    if threads == "unknown":
        pytest.skip("numpy's BLAS is not scipy-openblas")
    assert threads == "1"
