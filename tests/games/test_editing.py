"""Board text with the wrong separators gets a hint (issue 55, item 10)."""

from games.editing import separator_hint

BOARD = "L1 L0 L0 L0 L0\nF0 S1 G0 F0 L1\nM2 S0 C F0 L1\nM1 M0 G0 G2 L1\nW0 W1 W0 W0 W0"


def test_commas_or_semicolons_get_the_hint_to_use_spaces():
    assert "not commas" in separator_hint(BOARD.replace(" ", ","))
    assert "not commas" in separator_hint(BOARD.replace(" ", ", "))
    assert "not commas" in separator_hint(BOARD.replace(" ", ";"))


def test_cells_written_together_get_the_hint_to_put_spaces():
    assert "Put a space between the cells" in separator_hint(BOARD.replace(" ", ""))
    assert "Put a space" in separator_hint("l1l0 L0 L0 L0\n" + BOARD.split("\n", 1)[1])


def test_spaces_and_comments_get_no_hint():
    assert separator_hint(BOARD) is None
    assert separator_hint("# Anna, game 1\n" + BOARD.replace("L1", "X9", 1)) is None


def test_a_7x7_photo_asks_before_switching_when_another_kingdom_is_in_at_5x5():
    from games.editing import photo_size_choice

    assert photo_size_choice(5, 7, 2, may_follow=True, others_entered=False) == "switch"
    assert photo_size_choice(5, 7, 2, may_follow=True, others_entered=True) == "ask"
    assert photo_size_choice(5, 7, 2, may_follow=False, others_entered=False) == "mismatch"
    assert photo_size_choice(5, 7, 3, may_follow=True, others_entered=False) == "mismatch"
    assert photo_size_choice(7, 7, 2, may_follow=True, others_entered=True) == "same"
