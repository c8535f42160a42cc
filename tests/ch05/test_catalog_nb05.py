"""Fast checks of notebook 05's zoo entries: each group differs from its reference only where it says."""
import pytest

from lengen_utils.lab import zoo
from lengen_utils.core.tasks import Task
from types import SimpleNamespace

# the settings of notebook 05's tables (lengen_utils/course/ch05_coupling/recipes.py) that these checks read
C = SimpleNamespace(NB05_SEEDS=(0, 1, 2), NB05_DEPTHS=(2, 3), NB05_MUL_LONG_STEPS=6000, NB05_TRAINED=(5, 10, 15),
                    NB05_TRAINED_MAX_POSITION=128, NB05_METHODS=("plain", "bias", "pack", "both"))
MUL_STEPS = 8000


def configs(name):
    return zoo.entry(name).configs()


@pytest.mark.parametrize("seed", C.NB05_SEEDS)
@pytest.mark.parametrize("layers", C.NB05_DEPTHS)
def test_depth_entries_change_only_the_layers(layers, seed):
    deep, plain = configs(f"nb05-plain-{layers}l-s{seed}"), configs(f"nb05-plain-s{seed}")
    assert deep["model"]["n_layers"] == layers and plain["model"]["n_layers"] == 1
    deep["model"]["n_layers"] = 1
    assert deep == plain                                     # same task, budget, seed: equal budget
    assert zoo.entry(f"nb05-plain-{layers}l-s{seed}").tags == ("nb05-depth",)


@pytest.mark.parametrize("seed", C.NB05_SEEDS)
def test_mul_entries_are_cho_n_by_2_at_equal_budget(seed):
    one, two = zoo.entry(f"nb05-mul-1l-s{seed}"), zoo.entry(f"nb05-mul-2l-s{seed}")
    for e in (one, two):
        t = e.task
        assert (t.op, t.format, t.positions, t.multiplier_digits, t.max_digits) == ("*", "cho", "coupled", 2, 10)
        assert t.pack == 1 and not e.model.relative_bias and e.model.encoding == "learned"
        assert max(e.eval_lengths) >= 30
        assert max(e.eval_lengths) <= Task(t).longest_operand()   # at the evaluation start
    assert (one.model.n_layers, two.model.n_layers) == (1, 2)
    assert one.train == two.train and one.task == two.task   # equal budget, same data
    long1, long2 = zoo.entry(f"nb05-mul-1l-long-s{seed}"), zoo.entry(f"nb05-mul-2l-long-s{seed}")
    assert long1.train.steps == long2.train.steps == C.NB05_MUL_LONG_STEPS > two.train.steps


@pytest.mark.parametrize("digits", C.NB05_TRAINED)
def test_trained_length_entries_reach_their_longest_test(digits):
    e = zoo.entry(f"nb05-len{digits}-s0")
    both = zoo.entry("nb05-both-s0")
    assert e.task.max_digits == digits and e.task.max_position == C.NB05_TRAINED_MAX_POSITION
    assert e.model.max_positions == e.task.max_position + 1
    assert e.train == both.train and e.task.pack == both.task.pack and e.model.relative_bias
    assert max(e.eval_lengths) <= Task(e.task).longest_operand()


def test_new_groups_do_not_join_the_ablation_leaderboard():
    ablation = [n for n, e in zoo.catalog().items() if "nb05" in e.tags]
    assert len(ablation) == len(C.NB05_METHODS) * len(C.NB05_SEEDS)


@pytest.mark.parametrize("seed", (0, 1, 2))
def test_our_n_by_2_entries_differ_from_plain_coupling_only_where_the_log_says(seed):
    """nb05-mulu: the same N x 2 task and problems per step as plain coupling, plus the three changes of
    docs/logs/nx2-log.md (uniform multiplier bias, no packing, no absolute table); 1 and 2 layers at equal budget."""
    plain = zoo.entry(f"nb05-mul-2l-s{seed}")
    one, two = zoo.entry(f"nb05-mulu-1l-s{seed}"), zoo.entry(f"nb05-mulu-2l-s{seed}")
    for e in (one, two):
        assert e.task == plain.task and e.tags == ("nb05-mul",) and e.seed == seed
        m = e.model
        assert (m.encoding, m.relative_bias, m.relative_bias_uniform) == ("none", True, True)
        assert e.train.batch_size * e.task.pack == plain.train.batch_size * plain.task.pack   # problems per step
        assert e.train.steps == MUL_STEPS and e.model.n_heads == 8
    assert (one.model.n_layers, two.model.n_layers) == (1, 2)
    assert one.train == two.train and one.task == two.task
    assert plain.tags == ("nb05-mul-cho",)
