"""JSON from strangers (controller/bounded_json.py): a request body, an MQTT message or a
setup file is refused before the parser sees it when it is too long or nests too deep,
and a number out of a float's range is refused, each with a message naming the text and
why; everything else parses as json would."""
import random

import pytest

from controller.bounded_json import MAX_DEPTH, JsonError, loads, too_deep


def test_ordinary_json_parses_as_json_would():
    text = '{"game": "labyrinth", "setup": {"tiles": [[1, 2], [3, {"x": 0.5}]]}, "name": "B\\u00e9a [{"}'
    assert loads(text, "the setup", 1000) == {"game": "labyrinth", "setup": {"tiles": [[1, 2], [3, {"x": 0.5}]]},
                                              "name": "Béa [{"}
    assert loads(b"[1, 2.5, null, true]", "the body", 100) == [1, 2.5, None, True]


def test_a_text_longer_than_allowed_is_refused_with_its_size_before_parsing():
    with pytest.raises(JsonError, match=r"^the request body is 1,001 bytes; at most 1,000$"):
        loads(b" " * 991 + b'{"a": 1}  ', "the request body", 1000)
    assert loads(b" " * 992 + b'{"a": 1}', "the request body", 1000) == {"a": 1}  # exactly the limit reads


def test_nesting_deeper_than_the_limit_is_refused_without_recursing():
    at_limit = "[" * MAX_DEPTH + "]" * MAX_DEPTH
    assert loads(at_limit, "the message", 10_000) is not None
    over = "[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1)
    with pytest.raises(JsonError, match=f"^the message nests lists and objects more than {MAX_DEPTH} levels deep$"):
        loads(over, "the message", 10_000)
    with pytest.raises(JsonError, match="more than 32 levels"):  # Python's parser would end in RecursionError
        loads(b"[" * 30_000, "the message", 1_000_000)


def test_brackets_inside_strings_and_siblings_are_not_depth():
    assert not too_deep(('["' + "[" * 100 + '\\"{{"]').encode(), 4)  # in a string, with an escaped quote
    siblings = "[" + ", ".join(["[[]]"] * 50) + "]"  # many brackets, three levels
    assert not too_deep(siblings.encode(), 3) and too_deep(siblings.encode(), 2)


def test_depth_is_counted_exactly_on_random_nestings():
    rng = random.Random(29)
    for _ in range(200):
        depth = rng.randint(1, 12)
        opens = [rng.choice("[{") for _ in range(depth)]
        inner = "1"
        for o in reversed(opens):
            inner = f"[{inner}, 2]" if o == "[" else f'{{"k": {inner}}}'
        raw = inner.encode()
        assert too_deep(raw, depth - 1) and not too_deep(raw, depth), raw


@pytest.mark.parametrize("raw, words", [
    (b'{"seq": 1e400}', "the number 1e400 is out of range"),
    (b"[NaN]", "NaN is not a JSON number"), (b"[-Infinity]", "-Infinity is not a JSON number"),
    (b'{"a": 1,}', "not valid JSON (Expecting property name enclosed in double quotes, line 1 column 9)"),
    (b'{"a":\n  tru}', "line 2 column 3"),
    (b"\xff\xfe", "the event is not valid JSON"),
])
def test_what_is_not_json_is_refused_naming_the_text_and_where(raw, words):
    with pytest.raises(JsonError, match="^the event is not valid JSON") as refused:
        loads(raw, "the event", 1000)
    assert words in str(refused.value)
