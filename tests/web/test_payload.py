"""What the JSON API reads from a request (web/payload.py): the body as form fields or a
JSON object, each field checked with a 400 naming it and what was expected, and the
tokens: the admin's, a seat's (derived from the admin's, so a phone link lasts the
evening), a wrong one refused with a 403 and counted against its address. The real app
over a real Service; each request as Flask builds it (`test_request_context`). The
routes' answers: tests/web/test_api.py, tests/web/test_hardening.py."""
import pytest

from web import create_app
from web.payload import (ApiError, body, given_token, int_field, is_admin, player_token, points_field,
                         require_admin, seat_of, text_field)


@pytest.fixture
def app(service):
    return create_app(service)


def refused(call, *args, status: int = 400) -> str:
    with pytest.raises(ApiError) as error:
        call(*args)
    assert error.value.status == status
    return str(error.value)  # the English (a page gets its own language: test_api_languages.py)


def test_a_body_is_form_fields_or_a_json_object_and_an_empty_one_is_no_fields(app):
    with app.test_request_context("/api/move", method="POST", data={"text": "e4", "seat": "1"}):
        assert body() == {"text": "e4", "seat": "1"}
    with app.test_request_context("/api/move", method="POST", json={"text": "e4", "seat": 1}):
        assert body() == {"text": "e4", "seat": 1}
    with app.test_request_context("/api/undo", method="POST", data=b"  \n", content_type="application/json"):
        assert body() == {}


@pytest.mark.parametrize("raw, words", [
    (b'["e4"]', "the request body must be a JSON object, not a list"),
    (b"null", "the request body must be a JSON object, not null"),
    (b'"e4"', "the request body must be a JSON object, not a string"),
    (b"true", "the request body must be a JSON object, not true/false"),
    (b'{"text": "e4",}', "the request body is not valid JSON (Expecting property name enclosed in double quotes, "
                         "line 1 column 15)"),
    (b"[" * 5000, "the request body nests lists and objects more than 32 levels deep"),
    (b'{"seat": 1e999}', "the number 1e999 is out of range"),
])
def test_a_body_that_is_no_json_object_is_a_400_saying_what_it_is(app, raw, words):
    with app.test_request_context("/api/move", method="POST", data=raw, content_type="application/json"):
        assert words in refused(body)


@pytest.mark.parametrize("data, words", [
    ({}, "field 'text' is required"), ({"text": ""}, "field 'text' is required"),
    ({"text": "   "}, "field 'text' must not be blank"), ({"text": 4}, "field 'text' must be a string, not a number"),
    ({"text": ["e4"]}, "field 'text' must be a string, not a list"),
    ({"text": "e" * 201}, "field 'text' is 201 characters long; at most 200"),
])
def test_a_text_field_is_named_when_it_is_missing_blank_not_text_or_too_long(data, words):
    assert refused(text_field, data, "text") == words


def test_a_text_field_is_trimmed_and_an_optional_one_may_be_missing():
    assert text_field({"text": "  Nf3 \n"}, "text") == "Nf3"
    assert text_field({}, "name", required=False) is None and text_field({"name": ""}, "name", required=False) is None


@pytest.mark.parametrize("data, words", [
    ({}, "field 'seat' is required"), ({"seat": "one"}, "field 'seat' must be a whole number, not 'one'"),
    ({"seat": "1.5"}, "field 'seat' must be a whole number, not '1.5'"), ({"seat": 1.0}, "field 'seat' must be a whole number, not a number"),
    ({"seat": True}, "field 'seat' must be a whole number, not true/false"),
    ({"seat": None}, "field 'seat' is required"),
])
def test_a_whole_number_field_takes_a_number_or_its_digits_and_names_anything_else(data, words):
    assert refused(int_field, data, "seat") == words


def test_a_whole_number_from_a_form_or_json():
    assert int_field({"seat": " 2 "}, "seat") == 2 and int_field({"seat": 3}, "seat") == 3
    assert int_field({"seat": "-1"}, "seat") == -1 and int_field({}, "seat", required=False) is None


def test_four_points_from_json_pairs_or_a_form_s_text():
    corners = [[10, 20], [300.5, 20], [300, 400], [10, 400]]
    assert points_field({"points": corners}) == [[10.0, 20.0], [300.5, 20.0], [300.0, 400.0], [10.0, 400.0]]
    assert points_field({"points": "10,20 300.5,20  300,400 10,400"}) == points_field({"points": corners})


@pytest.mark.parametrize("value, words", [
    (None, "field 'points' is required: four [x, y] points"),
    ("10,20 30,x 1,1 2,2", "field 'points' must read \"x,y x,y x,y x,y\""),
    ([[1, 2]] * 3, "field 'points' must be a list of four [x, y] points"),
    ({"a": 1}, "field 'points' must be a list of four [x, y] points"),
    ([[1, 2], [3, 4], [5, True], [7, 8]], "field 'points' point 3 must be [x, y] with two numbers, got [5, True]"),
    ([[1, 2], [3, 4], [5, 6], [float("nan"), 8]], "point 4 must be [x, y] with two numbers"),
    ([[1, 2], [3, 4, 5], [5, 6], [7, 8]], "point 2 must be [x, y]"),
])
def test_points_that_are_not_four_pairs_of_numbers_are_named(value, words):
    assert words in refused(points_field, {"points": value})


def test_the_token_comes_from_the_header_or_else_the_field(app, service):
    with app.test_request_context("/api/undo", method="POST", headers={"Authorization": "Bearer  abc "}):
        assert given_token({"token": "xyz"}) == "abc"
    with app.test_request_context("/api/undo", method="POST"):
        assert given_token({"token": "xyz"}) == "xyz" and given_token({"token": ""}) is None
        assert given_token({"token": 5}) is None and given_token() is None


def test_each_seat_has_its_own_token_for_the_evening(app, service):
    tokens = [player_token(service.admin_token, seat) for seat in range(4)]
    assert len(set(tokens)) == 4 and all(len(t) == 16 for t in tokens)
    assert tokens == [player_token(service.admin_token, seat) for seat in range(4)]  # the same all evening
    assert player_token("another evening's admin token", 0) not in tokens
    snapshot = service.snapshot()
    seats = len(snapshot["seats"])
    with app.test_request_context("/api/state"):
        assert [seat_of(t, snapshot) for t in tokens[:seats]] == list(range(seats))
        assert seat_of(tokens[seats], snapshot) is None  # a seat not in this game
        assert seat_of(service.admin_token, snapshot) is None and seat_of(None, snapshot) is None
        assert is_admin(service.admin_token) and not is_admin(tokens[0]) and not is_admin(None)


def test_the_admin_token_is_required_and_a_wrong_one_counted_against_its_address(app, service):
    addr = {"REMOTE_ADDR": "10.0.0.7"}
    with app.test_request_context("/api/undo", method="POST", environ_base=addr):
        assert "this needs the admin token" in refused(require_admin, {}, status=403)
    for _ in range(5):
        with app.test_request_context("/api/undo", method="POST", environ_base=addr,
                                      headers={"Authorization": "Bearer guess"}):
            assert refused(require_admin, status=403) == "wrong admin token"
    with app.test_request_context("/api/undo", method="POST", environ_base=addr,
                                  headers={"Authorization": "Bearer guess"}):
        assert "too many wrong tokens from 10.0.0.7: wait" in refused(require_admin, status=429)
    with app.test_request_context("/api/undo", method="POST", environ_base={"REMOTE_ADDR": "10.0.0.8"},
                                  headers={"Authorization": f"Bearer {service.admin_token}"}):
        require_admin()  # another address is not held up
