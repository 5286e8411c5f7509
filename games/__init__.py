"""A game night as data: who plays which variant, their boards, and keeping and sharing games.

Neither rules (those are in ``scoring``) nor pixels (``vision``) nor widgets (``ui``): the plain
logic between them, so that it can be tested without a browser.
"""
