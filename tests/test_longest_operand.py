"""Which operand lengths fit the position IDs: one function (``PositionScheme.longest_operand``), pinned
against brute force, and every place that asks the question agrees with it."""
import numpy as np
import pytest

from lengen_utils.lab import bench, zoo
from lengen_utils.core.formats import FormatError, encode
from lengen_utils.core.positions import PositionRangeError, PositionScheme
from lengen_utils.core.problems import Problem, sample_exact_length
from lengen_utils.core.tasks import ConfigError, Task, TaskConfig
from lengen_utils.lab.zoo.flagship import LENGTHS, ape_recipe

# (positions, format, op, multiplier digits, frame width, max_position): the IDs bind, or the format does
CASES = [
    ("consecutive", "cho", "+", None, None, 40),
    ("consecutive", "plain", "+", None, None, 30),
    ("coupled", "cho", "+", None, None, 64),
    ("coupled", "reversed", "+", None, None, 17),
    ("coupled_sink", "cho", "+", None, None, 64),
    ("abacus", "cho", "+", None, None, 20),
    ("consecutive", "cho_hints", "+", None, None, 255),
    ("consecutive", "cho_hints", "+", None, None, 1000),     # the 64 index hints bind, not the IDs
    ("coupled", "cho", "*", 2, None, 40),
    ("coupled", "cho", "*", None, None, 40),
    ("consecutive", "sabbaghi", "+", None, 12, 100),          # the frame binds
    ("consecutive", "sabbaghi", "*", 3, 30, 33),
]
IDS = [f"{p}-{f}-{op}{k or ''}-{m}" for p, f, op, k, _, m in CASES]


def _worst(width: int, op: str, k: int | None) -> Problem:
    return Problem(10**width - 1, 10 ** (k or width) - 1, op)


def _fits(scheme: PositionScheme, problem: Problem, fmt: str, k: int | None, frame: int | None,
          rng: np.random.Generator | None = None) -> bool:
    """Brute force: encode the problem and let the scheme place it (at the evaluation start, or a random one)."""
    try:
        ids = scheme.assign(encode(problem, fmt, frame_width=frame, multiplier_digits=k), rng)
    except (PositionRangeError, FormatError):
        return False
    assert max(ids) <= scheme.max_position
    return True


@pytest.mark.parametrize("positions, fmt, op, k, frame, max_position", CASES, ids=IDS)
def test_longest_operand_is_the_brute_force_limit(positions, fmt, op, k, frame, max_position):
    scheme = PositionScheme(positions, max_position=max_position)
    longest = scheme.longest_operand(op, fmt, multiplier_digits=k, frame_width=frame)
    fitting = [w for w in range(1, max_position + 3) if _fits(scheme, _worst(w, op, k), fmt, k, frame)]
    assert fitting == list(range(1, longest + 1)) and longest > 0
    # no problem of the longest width needs more IDs than the all-nines one
    for p in sample_exact_length(np.random.default_rng(0), longest, 20, op, k):
        assert _fits(scheme, p, fmt, k, frame)
    # a random training start places the longest width, and never the next one
    drawn = PositionScheme(positions, random_start=True, max_position=max_position)
    rng = np.random.default_rng(1)
    assert all(_fits(drawn, _worst(longest, op, k), fmt, k, frame, rng) for _ in range(20))
    assert not _fits(drawn, _worst(longest + 1, op, k), fmt, k, frame, rng)


@pytest.mark.parametrize("positions, max_position, pack", [("coupled", 64, 4), ("coupled_sink", 128, 4),
                                                           ("coupled", 40, 3), ("coupled_sink", 30, 2)])
def test_packed_problems_fit_up_to_the_longest_operand(positions, max_position, pack):
    """Brute force through the packing code: ``pack`` problems of one width, each in its own block of IDs."""
    task = Task(TaskConfig(positions=positions, max_digits=1, max_position=max_position, pack=pack))
    longest = task.scheme.longest_operand(pack=pack)
    rng = np.random.default_rng(0)
    for width in range(1, longest + 2):
        problems = [_worst(width, "+", None)] * pack
        if width <= longest:
            batch = task.packed_batch(problems, rng)
            assert int(batch.position_ids.max()) <= max_position
        else:
            with pytest.raises(PositionRangeError):
                task.packed_batch(problems, rng)
    # the task's own check: the longest width trains, one digit more is refused with the IDs it needs
    TaskConfig(positions=positions, max_digits=longest, max_position=max_position, pack=pack)
    needed = task.scheme.ids_needed(longest + 1, pack=pack)
    assert needed > max_position
    with pytest.raises(ConfigError, match=f"needs position IDs up to {needed} "):
        TaskConfig(positions=positions, max_digits=longest + 1, max_position=max_position, pack=pack)


def test_a_task_checks_multiplication_with_its_trained_multiplier():
    task = TaskConfig(op="*", multiplier_digits=2, max_digits=10, max_position=40)
    longest = PositionScheme("coupled", max_position=40).longest_operand("*", multiplier_digits=2)
    task.with_(max_digits=longest)
    with pytest.raises(ConfigError, match="needs position IDs up to 41 "):
        task.with_(max_digits=longest + 1)
    assert Task(task).longest_operand() == longest


def test_the_bench_tests_the_lengths_the_table_places():
    ape = zoo.entry("flagship-ape")
    assert Task(ape.task).longest_operand() == 40
    assert bench.preflight(ape, (5, 40, 41, 70)) == (5, 40)
    with pytest.raises(PositionRangeError, match="a 41-digit .*max_position=124.* at most 40 digits"):
        bench.preflight(ape, (41, 70))


@pytest.mark.parametrize("digits", (15, 25, 40))
def test_the_ape_table_is_the_smallest_that_places_its_longest_test(digits):
    recipe = ape_recipe(max_length=digits)
    assert Task(recipe.task).longest_operand() == digits
    assert Task(recipe.task.with_(max_position=recipe.task.max_position - 1)).longest_operand() == digits - 1
    assert recipe.model.max_positions == recipe.task.max_position + 1
    assert recipe.eval_lengths == tuple(n for n in LENGTHS if n <= digits)


def test_the_flagship_ids_place_126_digit_operands():
    assert Task(zoo.entry("flagship-coupled").task).longest_operand() == 126


def test_every_arithmetic_entry_places_its_longest_test():
    for name, e in zoo.catalog().items():
        if e.task.task == "arithmetic":
            assert max(e.eval_lengths) <= Task(e.task).longest_operand(), name


def test_a_board_task_has_no_longest_operand():
    board = Task(TaskConfig(task="minesweeper", format="minesweeper", positions="coupled2d", max_digits=4))
    with pytest.raises(ConfigError, match="arithmetic tasks"):
        board.longest_operand()
