"""One game on several devices, headless: each AppTest is its own browser session on one server's
games database (the browser tests in tests/e2e/test_table.py drive the same with chromium)."""

from __future__ import annotations

from streamlit.testing.v1 import AppTest

from tests.app.conftest import APP
from tests.app_boards import BOARD_51, FOREST_16


def _apply(at: AppTest, slot: int, text: str) -> None:
    at.text_area(key=f"text_5_{slot}").set_value(text).run()
    at.button(key=f"apply_{slot}").click().run()
    assert not at.exception


def _host(app: AppTest) -> str:
    app.text_input(key="setup_name_0").set_value("Anna").run()
    app.text_input(key="setup_name_1").set_value("Ben").run()
    app.toggle(key="invite_table").set_value(True).run()
    assert not app.exception
    return app.session_state["draft_id"]


def _phone(draft_id: str, phone: AppTest | None = None) -> AppTest:
    if phone is None:  # (an AppTest not run yet is falsy)
        phone = AppTest.from_file(APP, default_timeout=60)
    phone.query_params["draft"] = draft_id
    phone.query_params["join"] = "1"
    phone.run()
    assert not phone.exception
    return phone


def _totals(at: AppTest) -> dict[str, str]:
    return {m.label.removesuffix("'s total"): m.value for m in at.metric if "total" in m.label}


def test_the_invite_shows_the_address_and_a_qr_code_and_a_local_server_says_so(app):
    draft_id = _host(app)
    address = app.code[0].value
    assert f"?draft={draft_id}&join=1" in address
    assert len(app.get("image")) == 1  # the QR code (decoded in tests/games/test_invite.py)
    # The test server listens on this computer only (AppTest's default): said, with the fix.
    assert any("answers only on this computer" in w.value for w in app.warning)
    assert any(c.value == "streamlit run app.py --server.address 0.0.0.0" for c in app.code)


def test_a_phone_joins_as_a_new_player_and_its_kingdom_reaches_the_host(app):
    draft_id = _host(app)
    phone = _phone(draft_id)
    assert [b.label for b in phone.button if b.key and b.key.startswith("seat_")] == [
        "Anna",
        "Ben",
    ]
    phone.text_input(key="new_player_name").set_value("Carla")
    phone.button[-1].click().run()  # the form's "Add me"
    assert phone.session_state["seat"] == 2 and phone.query_params["player"] == "3"
    assert not phone.text_area(key="text_5_2").disabled
    assert [t.key for t in phone.text_area if t.key.startswith("text_")] == ["text_5_2"]
    _apply(phone, 2, BOARD_51)
    assert _totals(phone)["Carla"] == "51"

    app.run()  # the host's next look (its page also redraws by itself every few seconds)
    assert app.session_state["setup_count"] == 3
    assert app.text_input(key="setup_name_2").value == "Carla"
    assert _totals(app)["Carla"] == "51"
    # A player added on top of the names the host set is the table filling up: nothing to tell.
    assert not any("changed on another phone" in w.value for w in app.warning)


def test_a_name_already_at_the_table_is_refused(app):
    phone = _phone(_host(app))
    phone.text_input(key="new_player_name").set_value("Anna")
    phone.button[-1].click().run()
    assert "seat" not in phone.session_state
    assert phone.error and "Anna" in phone.error[0].value


def test_the_replaced_kingdom_is_told_and_can_be_put_back(app):
    draft_id = _host(app)
    phone = _phone(draft_id)
    phone.button(key="seat_0").click().run()
    _apply(app, 0, BOARD_51)
    phone.run()
    _apply(phone, 0, FOREST_16)

    app.run()
    assert _totals(app)["Anna"] == "39"  # the last change wins
    assert any("changed on another phone" in w.value for w in app.warning)
    app.button(key="put_back_kingdom_0").click().run()
    assert _totals(app)["Anna"] == "51" and "kingdom_0" not in app.session_state["draft_conflicts"]

    phone.run()  # now the phone is told in turn, its own version kept
    assert _totals(phone)["Anna"] == "51"
    kept = phone.session_state["draft_conflicts"]["kingdom_0"]
    assert kept.part["boards"]["5_0"] == FOREST_16


def test_text_with_a_mistake_stays_when_another_phone_enters_that_kingdom(app):
    phone = _phone(_host(app))
    phone.button(key="seat_0").click().run()
    typo = FOREST_16.replace("F0", "Q0", 1)
    app.text_area(key="text_5_0").set_value(typo).run()  # not a board: it stays in the box
    assert app.error
    _apply(phone, 0, BOARD_51)
    app.run()
    assert _totals(app)["Anna"] == "51"  # the kingdom from the phone
    assert app.text_area(key="text_5_0").value == typo  # and the host's text, kept to fix
    assert not any("changed on another phone" in w.value for w in app.warning)


def _in_language(code: str) -> AppTest:
    """A new session whose language was picked before its first page. (AppTest cannot run a page
    with the setup twice in another language: it formats the size choice outside the run.)"""
    at = AppTest.from_file(APP, default_timeout=60)
    at.session_state["setup_language"] = code
    return at


def test_a_phone_joins_in_its_own_language_and_the_hosts_stays_its_own(app):
    draft_id = _host(app)
    phone = _phone(draft_id, _in_language("pl"))
    assert [s.value for s in phone.subheader] == [
        "Ten telefon dołączył do gry przy stole. Którym graczem jesteś?"
    ]
    assert phone.text_input(key="new_player_name").label == "Albo dodaj siebie"
    phone.button(key="seat_0").click().run()
    assert any(i.value.startswith("Grasz jako **Anna**") for i in phone.info)
    _apply(phone, 0, BOARD_51)  # the phone writes the game's parts: not its language

    app.run()
    assert _totals(app)["Anna"] == "51"
    assert app.toggle(key="invite_table").label == "Invite the table"
    assert app.session_state["setup_language"] == ""  # still following its own browser


def test_a_phones_language_pick_stays_in_its_address_through_a_reload(app):
    draft_id = _host(app)
    phone = _phone(draft_id, _in_language("it"))  # as if picked on the phone
    assert phone.query_params["lang"] == "it"
    assert "lang" not in app.query_params  # the host's pick is kept in the draft instead

    reloaded = AppTest.from_file(APP, default_timeout=60)
    reloaded.query_params.update(phone.query_params)
    reloaded.run()
    assert reloaded.session_state["setup_language"] == "it"
    assert reloaded.subheader[0].value.endswith("Quale giocatore sei?")


# Issue 55: seats checked where the draft is written; players taken out told everywhere ----------


def test_a_seat_another_phone_holds_is_disabled_and_an_edited_address_does_not_take_it(app):
    draft_id = _host(app)
    first = _phone(draft_id)
    first.button(key="seat_0").click().run()
    assert first.session_state["seat"] == 0 and first.query_params["key"]

    second = AppTest.from_file(APP, default_timeout=60)
    second.query_params["player"] = "1"  # Anna's seat, typed into the address
    second = _phone(draft_id, second)
    assert "seat" not in second.session_state
    assert second.button(key="seat_0").disabled and not second.button(key="seat_1").disabled

    reloaded = AppTest.from_file(APP, default_timeout=60)  # the first phone's own reload
    reloaded.query_params.update(first.query_params)
    reloaded.run()
    assert reloaded.session_state["seat"] == 0

    app.run()
    app.button(key="release_seat_0").click().run()  # the host gives Anna's seat free
    second.run()
    assert not second.button(key="seat_0").disabled
    second.button(key="seat_0").click().run()
    assert second.session_state["seat"] == 0


def test_the_address_without_join_is_a_phone_and_the_hosts_reload_is_the_host(app):
    draft_id = _host(app)
    guest = AppTest.from_file(APP, default_timeout=60)
    guest.query_params["draft"] = draft_id
    guest.run()
    assert not guest.exception
    assert [t.key for t in guest.text_input] == ["new_player_name"]  # no setup of the host's
    forged = AppTest.from_file(APP, default_timeout=60)
    forged.query_params.update({"draft": draft_id, "host": "A" * 16})
    forged.run()
    assert [t.key for t in forged.text_input] == ["new_player_name"]

    host = AppTest.from_file(APP, default_timeout=60)
    host.query_params.update(app.query_params)  # the host's own address: id and host's key
    host.run()
    assert host.text_input(key="setup_name_0").value == "Anna"


def test_players_taken_out_are_told_on_every_screen_and_put_back_from_a_phone(app):
    draft_id = _host(app)
    phone = _phone(draft_id)
    phone.text_input(key="new_player_name").set_value("Carla")
    phone.button[-1].click().run()
    phone.run()
    _apply(phone, 2, BOARD_51)
    app.run()
    app.segmented_control(key="setup_count").set_value(2).run()
    phone.run()
    for screen in (app, phone):
        assert any("**Carla** was taken out of the game" in w.value for w in screen.warning)
        assert "Carla" not in _totals(screen)
    phone.button(key="removal_put_back").click().run()
    app.run()
    assert app.session_state["setup_count"] == 3 and _totals(app)["Carla"] == "51"
    assert not any("taken out" in w.value for w in app.warning)


def _notice(at: AppTest) -> str:
    """The new game's notice (or the previous game's put back), as the screen says it."""
    return " ".join(w.value for w in at.warning if "game was" in w.value)


def test_a_new_game_is_told_on_every_screen_and_put_back_from_a_phone(app):
    draft_id = _host(app)
    phone = _phone(draft_id)
    phone.button(key="seat_1").click().run()
    _apply(phone, 1, BOARD_51)
    app.run()
    _apply(app, 0, FOREST_16)
    assert _totals(app) == {"Anna": "39", "Ben": "51"}

    app.button(key="new_game").click().run()  # the host: "Yes, clear everything"
    phone.run()
    assert "**A new game was started here**" in _notice(app)
    assert "**A new game was started on another screen**" in _notice(phone)
    for screen in (app, phone):
        assert _totals(screen) == {}  # the kingdoms were cleared on every screen ...
        assert not any("changed on another phone" in w.value for w in screen.warning)
    phone.button(key="new_game_put_back").click().run()  # ... and a phone puts them back
    app.run()
    for screen in (app, phone):
        assert _totals(screen) == {"Anna": "39", "Ben": "51"}
        assert not _notice(screen)  # nothing entered since: no other game to tell of
    assert phone.text_area(key="text_5_1").value == BOARD_51


def test_putting_back_over_the_new_games_kingdoms_keeps_those_to_put_back_in_turn(app):
    draft_id = _host(app)
    phone = _phone(draft_id)
    phone.button(key="seat_1").click().run()
    _apply(app, 0, FOREST_16)
    app.button(key="new_game").click().run()
    phone.run()
    _apply(phone, 1, BOARD_51)  # Ben enters the new game's kingdom
    app.run()
    assert _totals(app) == {"Ben": "51"}
    app.button(key="new_game_put_back").click().run()
    phone.run()
    assert _totals(app) == _totals(phone) == {"Anna": "39"}
    assert "**The previous game was put back on another screen**" in _notice(phone)
    phone.button(key="new_game_put_back").click().run()  # "Put back the new game"
    app.run()
    assert _totals(app) == _totals(phone) == {"Ben": "51"}
    app.button(key="new_game_keep").click().run()  # this screen keeps it: told no more here
    assert not _notice(app) and _notice(phone)


def test_a_page_that_cannot_keep_a_draft_keeps_the_cleared_game_itself(tmp_path, monkeypatch):
    (tmp_path / "not-a-folder").write_text("")
    monkeypatch.setenv("KINGDOMINO_DB", str(tmp_path / "not-a-folder" / "games.db"))
    at = AppTest.from_file(APP, default_timeout=60)
    at.run()
    assert at.session_state["draft_id"] is None  # (the page says why it will not survive a reload)
    _apply(at, 0, FOREST_16)
    at.button(key="new_game").click().run()
    assert "**A new game was started here**" in _notice(at) and _totals(at) == {}
    at.button(key="new_game_put_back").click().run()
    assert _totals(at) == {"Player 1": "39"} and not _notice(at)
