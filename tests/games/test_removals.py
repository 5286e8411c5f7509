"""Players taken out of the game with their kingdoms entered (issue 55, item 4): told, with a
way back."""

from games.removals import Removal, after_count_change

NAMES = ["Anna", "Ben", "Carla", "Dora"]


def test_a_player_taken_out_with_a_kingdom_entered_is_a_removal_to_tell():
    found = after_count_change(3, 2, NAMES, entered={0, 2}, pending=None, new_id="a")
    assert found == Removal("a", 3, ((2, "Carla"),))
    assert found.pending(2) and not found.pending(3)
    assert Removal.from_data(found.to_data()) == found


def test_a_player_with_nothing_entered_goes_without_a_word():
    assert after_count_change(3, 2, NAMES, entered={0, 1}, pending=None, new_id="a") is None
    assert after_count_change(2, 3, NAMES, entered={0, 1, 2}, pending=None, new_id="a") is None


def test_removals_add_up_until_the_players_are_back():
    first = after_count_change(4, 3, NAMES, entered={3}, pending=None, new_id="a")
    second = after_count_change(3, 2, NAMES, entered={2, 3}, pending=first, new_id="b")
    assert second == Removal("b", 4, ((2, "Carla"), (3, "Dora")))
    # Set back to four by hand: nothing is out any more.
    assert after_count_change(2, 4, NAMES, entered={2, 3}, pending=second, new_id="c") is None
    # Back to three: Dora alone is still out, still the same removal's player.
    third = after_count_change(2, 3, NAMES, entered={2, 3}, pending=second, new_id="c")
    assert third.players == ((3, "Dora"),) and third.count == 4


def test_a_damaged_flag_is_no_removal():
    assert Removal.from_data({"id": "x"}) is None
    assert Removal.from_data("Carla") is None
