"""Random spaces, the scratchpad and the sub-tasks of addition: hand-worked strings, position IDs, round trips
and the task's refusals."""
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lengen_utils.core.addition_steps import TARGETS, columns, target_value
from lengen_utils.core.compatibility import check_compatible
from lengen_utils.core.formats import BLANK, COLUMN_FORMATS, FORMATS, TOKEN_ID, VOCAB, FormatError, decode_answer, encode, render_columns
from lengen_utils.core.model import ModelConfig
from lengen_utils.core.positions import PositionScheme
from lengen_utils.core.problems import Problem
from lengen_utils.core.spaces import add_spaces
from lengen_utils.core.tasks import ConfigError, Task, TaskConfig

P = Problem(653, 49)
SUBTASKS = {"align": "cho_align", "modsum": "cho_modsum", "carries": "cho_carries"}
operands = st.integers(min_value=0, max_value=10**12)


# -- hand-worked examples ------------------------------------------------------------------------------
def test_columns_of_653_plus_49():
    cols = columns(P)
    assert [(c.a, c.b, c.carry, c.digit) for c in cols] == [(3, 9, 0, 2), (5, 4, 1, 0), (6, 0, 1, 7), (0, 0, 0, 0)]
    assert [c.modsum for c in cols] == [2, 9, 6, 0]


@pytest.mark.parametrize("name, text, columns_text", [
    ("cho_scratchpad", "$653+049=3902541060170000$", "$653+049= 3902 5410 6017 0000 $"),
    ("cho_align", "$653+049=39546000$", "$653+049= 39 54 60 00 $"),
    ("cho_modsum", "$653+049=2960$", "$653+049= 2 9 6 0 $"),
    ("cho_carries", "$653+049=0110$", "$653+049= 0 1 1 0 $"),
])
def test_hand_worked_strings(name, text, columns_text):
    ex = encode(P, name)
    assert ex.text() == text
    assert render_columns(ex) == columns_text
    # supervised from '=' to the last output token, next-token targets
    assert ex.supervised == list(range(ex.tokens.index("="), len(ex) - 1))


def test_scratchpad_roles_and_carry_chain():
    ex = encode(Problem(999, 1), "cho_scratchpad")           # a cascade through every column
    assert ex.text() == "$999+001=" + "9100" + "9010" + "9010" + "0011" + "$"   # pair, carry in, digit
    out = ex.roles[ex.tokens.index("=") + 1:-1]
    assert out == ("pair_a", "pair_b", "carry", "answer") * 4
    assert decode_answer(ex) == 1000


def test_decode_answer_reads_only_the_answer_digits_of_a_scratchpad():
    ex = encode(P, "cho_scratchpad")
    predicted = list(ex.targets)
    first = ex.supervised[0]                  # '=' predicts pair_a of column 0: a wrong scratch token ...
    predicted[first] = "7"
    assert decode_answer(ex, predicted) == 702     # ... leaves the answer read back unchanged


def test_spaces_hand_worked():
    ex = encode(P, "cho")

    class Always:                               # a generator whose every draw is below p
        def random(self):
            return 0.0

    spaced = add_spaces(ex, Always(), 0.5)
    assert spaced.text() == f"$6{BLANK}5{BLANK}3+0{BLANK}4{BLANK}9=2070$"
    assert spaced.targets[spaced.tokens.index("="):] == ex.targets[ex.tokens.index("="):]
    assert decode_answer(spaced) == 702
    assert add_spaces(ex, np.random.default_rng(0), 0) is ex


def test_blank_comes_after_the_text_tokens_so_older_ids_stay():
    """New tokens go at the end: the blank follows the filler words, and only later tokens follow it."""
    assert TOKEN_ID[BLANK] == TOKEN_ID["then"] + 1 and TOKEN_ID[BLANK] == VOCAB.index(BLANK) < len(VOCAB)


# -- round trips and composition -------------------------------------------------------------------
@settings(max_examples=60, deadline=None)
@given(a=operands, b=operands)
def test_round_trips(a, b):
    p = Problem(a, b)
    assert decode_answer(encode(p, "cho_scratchpad")) == a + b
    for target, name in SUBTASKS.items():
        assert decode_answer(encode(p, name)) == target_value(p, target)
    cols = columns(p)
    assert all(c.digit == (c.modsum + c.carry) % 10 for c in cols)       # the sub-tasks compose the sum
    assert int("".join(str(c.digit) for c in reversed(cols))) == a + b
    assert target_value(p, "sum") == a + b


def test_target_values_of_653_plus_49():
    assert [target_value(P, t) for t in TARGETS] == [702, 605439, 692, 110]


def test_column_formats_refuse_multiplication():
    for name in ("cho_scratchpad", *SUBTASKS.values()):
        with pytest.raises(FormatError, match="column steps of an addition"):
            encode(Problem(12, 3, "*"), name, multiplier_digits=1)


# -- position IDs of the new tokens -----------------------------------------------------------------
def test_scratchpad_position_ids():
    ex = encode(P, "cho_scratchpad")
    out = slice(ex.tokens.index("=") + 1, len(ex) - 1)
    coupled = PositionScheme("coupled").assign(ex, start=1)
    assert coupled[:9] == [0, 2, 3, 4, 5, 2, 3, 4, 5]              # Cho's IDs for the prompt ($653+049=)
    assert coupled[out] == [4] * 4 + [3] * 4 + [2] * 4 + [1] * 4    # a column's four tokens share its ID
    assert PositionScheme("abacus").assign(ex, start=0)[out] == [1] * 4 + [2] * 4 + [3] * 4 + [4] * 4
    assert PositionScheme("consecutive").assign(ex, start=0) == list(range(len(ex)))


def test_subtask_position_ids_follow_the_answer():
    ex = encode(P, "cho_align")
    out = slice(ex.tokens.index("=") + 1, len(ex) - 1)
    assert PositionScheme("coupled").assign(ex, start=1)[out] == [4, 4, 3, 3, 2, 2, 1, 1]


def test_blanks_take_consecutive_ids_and_coupled_ids_refuse_them():
    task = Task(TaskConfig(format="cho", positions="consecutive", spaces=1.0, max_digits=3, random_start=False,
                           max_position=20))
    batch = task.train_batch(np.random.default_rng(0), 4)
    for ex, ids in zip(batch.examples, batch.position_ids):
        assert ids[:len(ex)].tolist() == list(range(len(ex)))
        for k, role in enumerate(ex.roles):           # spaces=1: a blank in every gap of both operands
            if role in ("a", "b") and k + 1 < len(ex) and ex.roles[k + 1] == role:
                pytest.fail(f"adjacent digits without a blank in {ex.text()}")
    spaced = add_spaces(encode(P, "cho"), np.random.default_rng(0), 1.0)
    for scheme in ("coupled", "coupled_sink", "abacus"):
        with pytest.raises(FormatError, match="random spaces need positions='consecutive'"):
            PositionScheme(scheme).assign(spaced, start=1)


def test_test_problems_have_no_blanks():
    task = Task(TaskConfig(format="cho", positions="consecutive", spaces=1.0, max_digits=3, random_start=False,
                           max_position=20))
    batch = task.batch(task.eval_problems(3, 5))
    assert all(BLANK not in ex.tokens for ex in batch.examples)


def test_scratchpad_task_supervises_every_step():
    task = Task(TaskConfig(format="cho_scratchpad", positions="coupled", max_digits=5, max_position=30))
    batch = task.train_batch(np.random.default_rng(1), 8)
    for b, ex in enumerate(batch.examples):
        W = ex.answer_width
        assert int((batch.targets[b] >= 0).sum()) == 4 * W + 1       # 4 tokens per column and the closing $


# -- the task's refusals -----------------------------------------------------------------------------
@pytest.mark.parametrize("changes, message", [
    (dict(spaces=1.5), "probability in \\[0, 1\\]"),
    (dict(spaces=-0.1), "probability in \\[0, 1\\]"),
    (dict(spaces=float("nan")), "probability"),
    (dict(spaces=True), "probability"),
    (dict(spaces=0.5, positions="coupled"), "needs positions='consecutive'"),
    (dict(spaces=0.5, positions="abacus"), "needs positions='consecutive'"),
    (dict(spaces=0.5, format="cho_hints", positions="consecutive", max_position=255), "index hints"),
    (dict(spaces=0.5, format="sabbaghi", positions="consecutive", frame_width=12, max_position=30),
     "decoder formats"),
    (dict(spaces=0.5, positions="consecutive", max_digits=10, max_position=36), "blank in each of its 18 gaps"),
    (dict(format="cho_scratchpad", op="*", multiplier_digits=2), "column steps of an addition"),
    (dict(format="cho_modsum", positions="consecutive", max_digits=10, max_position=30), "position IDs"),
])
def test_task_refusals(changes, message):
    base = dict(format="cho", positions="consecutive", max_digits=5, random_start=False, max_position=64)
    with pytest.raises(ConfigError, match=message):
        TaskConfig(**{**base, **changes})


def test_model_vocabulary_must_hold_the_blank():
    task = TaskConfig(format="cho", positions="consecutive", spaces=0.3, max_digits=5, random_start=False)
    with pytest.raises(ConfigError, match="blank token"):
        check_compatible(ModelConfig(), task)
    check_compatible(ModelConfig(vocab_size=len(VOCAB)), task)


def test_every_column_format_is_registered_with_its_target():
    assert {COLUMN_FORMATS[n].target for n in SUBTASKS.values()} == set(SUBTASKS)
    assert COLUMN_FORMATS["cho_scratchpad"].scratchpad and COLUMN_FORMATS["cho_scratchpad"].target == "sum"
    assert not set(COLUMN_FORMATS) & set(FORMATS)          # the formats of any problem stay as they were
    assert all(not spec.column_output for spec in FORMATS.values())
