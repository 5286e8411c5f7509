"""The ``kingdomino`` command line (``kingdomino.cli``); ``python -m kingdomino`` runs it too."""
