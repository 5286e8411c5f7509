"""``python -m kingdomino`` is the ``kingdomino`` command."""

from kingdomino.cli import main

raise SystemExit(main())
