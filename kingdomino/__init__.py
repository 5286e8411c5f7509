"""The ``kingdomino`` command line: ``cli`` parses the arguments and runs one of ``commands``,
which read their inputs through ``inputs``. ``python -m kingdomino`` runs it too."""
