"""``Task(config)`` builds the task class of ``config.task``: the arithmetic task and the 2-D board task are two
classes over one shared base, and the arithmetic module has no board branches."""
import ast
import pickle
from pathlib import Path

import numpy as np
import pytest

from lengen_utils.core.boards.task import BoardTask
from lengen_utils.core.config_checks import ConfigError
from lengen_utils.core.task_base import Task as TaskBase
from lengen_utils.core.tasks import ArithmeticTask, Task, TaskConfig

BOARD = TaskConfig(task="minesweeper", format="minesweeper", positions="coupled2d", min_digits=3, max_digits=4,
                   max_position=12)
SUM = TaskConfig(format="cho", positions="coupled", max_digits=3, max_position=16)


def test_task_builds_the_class_of_the_config():
    assert type(Task(SUM)) is ArithmeticTask and type(Task(BOARD)) is BoardTask
    assert Task is TaskBase and isinstance(Task(BOARD), Task) and isinstance(Task(SUM), Task)
    assert BoardTask(BOARD).sides == (3, 4)


def test_a_class_refuses_the_other_kind_by_name():
    with pytest.raises(ConfigError, match="BoardTask serves task='minesweeper', not 'arithmetic'"):
        BoardTask(SUM)
    with pytest.raises(ConfigError, match="ArithmeticTask serves task='arithmetic'"):
        ArithmeticTask(BOARD)
    with pytest.raises(ConfigError, match="needs a TaskConfig, got dict"):
        Task(SUM.to_dict())


def test_arithmetic_only_probes_name_the_task():
    with pytest.raises(ConfigError, match="at_start is for arithmetic tasks"):
        Task(BOARD).at_start(3)
    with pytest.raises(ConfigError, match="longest_operand is for arithmetic tasks"):
        Task(BOARD).longest_operand()
    assert Task(SUM).at_start(5).scheme.eval_start == 5


@pytest.mark.parametrize("config", [SUM, BOARD], ids=["arithmetic", "board"])
def test_a_task_survives_pickling_with_the_same_batches(config):
    """Data workers may pickle a task: the copy is of the same class and draws the same batches."""
    task = Task(config)
    copy = pickle.loads(pickle.dumps(task))
    assert type(copy) is type(task)
    a, b = task.train_batch(np.random.default_rng(0), 4), copy.train_batch(np.random.default_rng(0), 4)
    assert a.tokens.equal(b.tokens) and a.position_ids.equal(b.position_ids)


def test_the_arithmetic_module_has_no_board_branches():
    """The review's finding: board code woven into the arithmetic path. tasks.py may import BoardTask (so that
    ``Task(config)`` knows it) and nothing else about boards."""
    source = Path(__file__).resolve().parent.parent / "lengen_utils" / "core" / "tasks.py"
    tree = ast.parse(source.read_text())
    skipped = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Import, ast.ImportFrom)) or (isinstance(node, ast.Expr)
                                                              and isinstance(node.value, ast.Constant)):
            skipped |= set(map(id, ast.walk(node)))         # imports and docstrings
        if isinstance(node, ast.Assign) and any(getattr(t, "id", "") == "__all__" for t in node.targets):
            skipped |= set(map(id, ast.walk(node)))         # the re-exported names
    code = [n for n in ast.walk(tree) if id(n) not in skipped]
    words = ({n.id for n in code if isinstance(n, ast.Name)} | {n.attr for n in code if isinstance(n, ast.Attribute)}
             | {n.value for n in code if isinstance(n, ast.Constant) and isinstance(n.value, str)})
    assert not [w for w in words if "board" in w.lower() or "minesweeper" in w.lower()]


def test_a_subclass_of_the_shared_base_needs_a_kind():
    class Custom(Task):
        pass

    with pytest.raises(ConfigError, match="Custom subclasses the shared Task without a kind: subclass ArithmeticTask"):
        Custom(SUM)

    class Louder(ArithmeticTask):         # changing the arithmetic task: subclass it
        pass

    assert isinstance(Louder(SUM), ArithmeticTask)
