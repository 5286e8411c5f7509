"""``python -m kingdomino`` is the ``kingdomino`` command."""

from kingdomino.cli import command

command()
