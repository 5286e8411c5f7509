"""Finding kingdoms in a photo, one module per stage (``vision.find_board`` runs them)."""
