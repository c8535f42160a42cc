"""Formats: golden examples from the papers, round trips, and clear errors."""
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lengen_utils.core.formats import FORMATS, FormatError, decode_answer, encode, render
from lengen_utils.core.problems import Problem, ProblemError

FRAME = 20


def test_sabbaghi_eq_3_1_addition_golden():
    # "123 + 4095 = 4218" at l = 20 (Sabbaghi eq. 3.1)
    ex = encode(Problem(123, 4095), "sabbaghi", frame_width=FRAME)
    assert list(ex.tokens) == ["pad"] * 17 + list("123") + ["+"] + ["pad"] * 16 + list("4095")
    # output read at the rightmost l+1 positions: pads, then 4 2 1 8; the rest unsupervised ("_")
    assert list(ex.targets) == [None] * 20 + ["pad"] * 17 + list("4218")
    assert decode_answer(ex) == 4218


def test_sabbaghi_eq_3_2_multiplication_golden():
    # "56 x 4297": multiplier first and unpadded, multiplicand padded to l; 16 pads then 240632
    ex = encode(Problem(4297, 56, "*"), "sabbaghi", frame_width=FRAME)
    assert list(ex.tokens) == list("56") + ["*"] + ["pad"] * 16 + list("4297")
    assert list(ex.targets) == [None] + ["pad"] * 16 + list("240632")
    assert decode_answer(ex) == 4297 * 56


def test_cho_format_golden():
    ex = encode(Problem(653, 49), "cho")
    assert ex.text() == "$653+049=2070$"
    # next-token targets from '=' on: 2 0 7 0 $
    assert render(ex.targets) == "________2070$_"


@pytest.mark.parametrize("name,text", [
    ("plain", "653+49=702"), ("reversed", "653+49=207"), ("padded", "653+049=0702"),
    ("bos_eos", "$653+49=702$"), ("index_hints", "a0b6c5d3+a0b0c4d9=a0b7c0d2"),
    ("cho_hints", "$a0b6c5d3+a0b0c4d9=d2c0b7a0$"),
])
def test_decoder_formats(name, text):
    assert encode(Problem(653, 49), name).text() == text


def test_cho_n_by_2_multiplication():
    assert encode(Problem(1234, 56, "*"), "cho", multiplier_digits=2).text() == "$1234*56=401960$"
    assert encode(Problem(7, 5, "*"), "cho", multiplier_digits=2).text() == "$7*05=530$"


operands = st.integers(min_value=0, max_value=10**30)


@settings(max_examples=200, deadline=None)
@given(a=operands, b=operands, name=st.sampled_from(sorted(n for n in FORMATS if n not in ("sabbaghi", "index_hints", "cho_hints"))))
def test_round_trip_addition(a, b, name):
    ex = encode(Problem(a, b), name)
    assert decode_answer(ex) == a + b


@settings(max_examples=200, deadline=None)
@given(a=st.integers(0, 10**20 - 1), b=st.integers(0, 10**20 - 1))
def test_round_trip_sabbaghi(a, b):
    assert decode_answer(encode(Problem(a, b), "sabbaghi", frame_width=FRAME)) == a + b


@settings(max_examples=200, deadline=None)
@given(a=st.integers(0, 10**25), b=st.integers(0, 99))
def test_round_trip_multiplication(a, b):
    assert decode_answer(encode(Problem(a, b, "*"), "cho", multiplier_digits=2)) == a * b
    assert decode_answer(encode(Problem(a % 10**20, b, "*"), "sabbaghi", frame_width=FRAME)) == (a % 10**20) * b


def test_decode_uses_predictions():
    ex = encode(Problem(653, 49), "cho")
    wrong = list(ex.targets)
    wrong[ex.supervised[0]] = "3"  # least significant digit 2 -> 3
    assert decode_answer(ex, wrong) == 703


@pytest.mark.parametrize("a,b,match", [("12a", "3", "character 'a'"), ("-5", "3", "negative"), ("", "1", "nothing"),
                                       ("1.5", "2", "character '.'")])
def test_bad_operands_are_named(a, b, match):
    with pytest.raises(ProblemError, match=match):
        Problem.parse(a, b)


def test_frame_too_small_names_the_limit():
    with pytest.raises(FormatError, match="frame width l is 5"):
        encode(Problem(123456, 1), "sabbaghi", frame_width=5)


def test_unknown_format():
    with pytest.raises(FormatError, match="unknown format"):
        encode(Problem(1, 2), "klingon")


@settings(max_examples=100, deadline=None)
@given(a=st.integers(0, 10**40), b=st.integers(0, 10**40), name=st.sampled_from(["index_hints", "cho_hints"]))
def test_round_trip_with_index_hints(a, b, name):
    assert decode_answer(encode(Problem(a, b), name)) == a + b


def test_index_hints_start_at_a_random_letter_in_training_only():
    """Zhou et al. (and Cho's index-hinting baseline) draw the first hint letter in training, so that every
    hint token is trained; evaluation starts at 'a'. Each number of one problem starts at the same letter."""
    import numpy as np
    from lengen_utils.core.formats import HINTS
    from lengen_utils.core.tasks import Task, TaskConfig
    task = Task(TaskConfig(format="cho_hints", positions="consecutive", max_position=200))
    problem = Problem(653, 49)
    assert render(task.example(problem).tokens) == "$a0b6c5d3+a0b0c4d9=d2c0b7a0$"
    rng = np.random.default_rng(0)
    firsts = set()
    for _ in range(200):
        hints = [t for t in task.example(problem, rng).tokens if t in HINTS]
        offset = HINTS.index(hints[0])
        assert hints == [HINTS[offset + k] for k in range(4)] * 2 + [HINTS[offset + k] for k in (3, 2, 1, 0)]
        firsts.add(offset)
    assert min(firsts) == 0 and max(firsts) == len(HINTS) - 4          # every start, up to the last letter
    fixed = Task(TaskConfig(format="cho_hints", positions="consecutive", max_position=200, random_start=False))
    assert render(fixed.example(problem, rng).tokens) == "$a0b6c5d3+a0b0c4d9=d2c0b7a0$"
