"""Bad input gets a clear error: one parametrized case per input, by category.

Each case asserts the exception type and, with a regex, that the message names the problem and the
limit it breaks. Categories: configs (each config alone, then model vs task), checkpoints and resume,
operands and lengths, device settings.
"""
import json
import re

import numpy as np
import pytest
import torch

from lengen_utils.core.checkpoint import CheckpointError, load_model, save_model
from lengen_utils.core.compatibility import check_compatible
from lengen_utils.core.device import pick_device, set_cpu_threads
from lengen_utils.core.formats import VOCAB, FormatError, decode_answer, encode, ids_to_tokens
from lengen_utils.core.model import ConfigError, ModelConfig, Transformer
from lengen_utils.core.problems import (Problem, ProblemError, max_str_digits, sample_balanced, sample_exact_length,
                                   sample_uniform, shift_with_zeros)
from lengen_utils.core.tasks import Task, TaskConfig
from lengen_utils.core.train import TrainConfig, fit
from safetensors_edit import edit_metadata

LIMIT = max_str_digits()
RNG = np.random.default_rng(0)
SABBAGHI = dict(format="sabbaghi", positions="consecutive", random_start=False, frame_width=6)

# -- configs, each alone -----------------------------------------------------------------------------
CONFIGS = {
    "n_heads=0": (lambda: ModelConfig(n_heads=0), r"n_heads must be >= 1, got 0"),
    "d_model/n_heads": (lambda: ModelConfig(d_model=30, n_heads=4), r"d_model=30 must be divisible by n_heads=4"),
    "negative rpe_max_distance": (lambda: ModelConfig(rpe_max_distance=-1), r"rpe_max_distance must be >= 0, got -1"),
    "float d_model": (lambda: ModelConfig(d_model=32.0), r"d_model must be a whole number >= 1, got 32\.0"),
    "string causal": (lambda: ModelConfig(causal="yes"), r"causal must be True or False, got the string 'yes'"),
    "dropout 1.5": (lambda: ModelConfig(dropout=1.5), r"dropout must be a probability in \[0, 1\), got 1\.5"),
    "unknown encoding": (lambda: ModelConfig(encoding="kerple"), r"unknown position encoding 'kerple'.*choose one of"),
    "tiny vocab": (lambda: ModelConfig(vocab_size=10), r"vocab_size=10 is smaller than the course vocabulary \(80"),
    "odd rope head": (lambda: ModelConfig(encoding="rope", d_model=6, n_heads=2), r"rope needs an even head .* = 3"),
    "zero rope_base": (lambda: ModelConfig(rope_base=0), r"rope_base must be a finite number > 0, got 0"),
    "ModelConfig unknown key": (lambda: ModelConfig.from_dict({"d_model": 32, "n_head": 2}),
                                r"unknown ModelConfig field\(s\) \['n_head'\]; valid fields are .*'n_heads'"),
    "TaskConfig unknown key": (lambda: TaskConfig.from_dict({"max_digit": 5}),
                               r"unknown TaskConfig field\(s\) \['max_digit'\]; valid fields are .*'max_digits'"),
    "TrainConfig unknown key": (lambda: TrainConfig.from_dict({"step": 5}),
                                r"unknown TrainConfig field\(s\) \['step'\]; valid fields are .*'steps'"),
    "from_dict of a list": (lambda: TaskConfig.from_dict([("op", "+")]), r"TaskConfig.from_dict needs a dict, got list"),
    "float frame_width": (lambda: TaskConfig(**{**SABBAGHI, "frame_width": 2.5}),
                          r"frame_width must be a whole number >= 1, got 2\.5"),
    "sabbaghi without frame": (lambda: TaskConfig(format="sabbaghi", positions="consecutive"),
                               r"sabbaghi format needs frame_width"),
    "operands wider than frame": (lambda: TaskConfig(**SABBAGHI, max_digits=8),
                                  r"max_digits=8 exceeds the frame: frame_width l=6"),
    "min > max digits": (lambda: TaskConfig(min_digits=5, max_digits=3), r"min_digits=5 exceeds max_digits=3"),
    "operands beyond max_position": (lambda: TaskConfig(max_digits=25, positions="consecutive"),
                                     r"25 digits\) needs position IDs up to 79 under 'consecutive'.*max_position=64"),
    "coupled operands beyond max_position": (lambda: TaskConfig(max_digits=70),
                                             r"operands of 70 digits cannot fit position IDs: .*max_position=64"),
    "packed beyond max_position": (lambda: TaskConfig(max_digits=10, pack=4, max_position=40),
                                   r"4 packed per sequence\) needs position IDs up to \d+ .*max_position=40"),
    "unknown op": (lambda: TaskConfig(op="-"), r"unknown operation '-'.*choose one of \('\+', '\*'\)"),
    "multiplier_digits on +": (lambda: TaskConfig(multiplier_digits=2), r"multiplier_digits=2 is for multiplication"),
    "complexity sampler on *": (lambda: TaskConfig(op="*", sampler="uniform_complexity", max_digits=3),
                                r"'uniform_complexity' is defined for addition only"),
    "pack=0": (lambda: TaskConfig(pack=0), r"pack must be >= 1, got 0"),
    "shift room too small": (lambda: TaskConfig(shift_augment=True, shift_max_width=3, max_digits=5),
                             r"shift_max_width=3 is narrower than max_digits=5"),
    "unknown position scheme": (lambda: TaskConfig(positions="spiral"), r"unknown position scheme 'spiral'"),
    "steps=0": (lambda: TrainConfig(steps=0), r"steps must be >= 1, got 0"),
    "steps=-5": (lambda: TrainConfig(steps=-5), r"steps must be >= 1, got -5"),
    "lr=0": (lambda: TrainConfig(lr=0), r"lr must be a finite number > 0, got 0"),
    "lr=nan": (lambda: TrainConfig(lr=float("nan")), r"lr must be a finite number > 0, got nan"),
    "batch_size=0": (lambda: TrainConfig(batch_size=0), r"batch_size must be >= 1, got 0"),
    "beta >= 1": (lambda: TrainConfig(betas=(0.9, 1.5)), r"betas must be a finite number >= 0 and < 1, got 1\.5"),
    "negative seed": (lambda: TrainConfig(seed=-1), r"seed must be >= 0, got -1"),
    "min_lr_ratio 2": (lambda: TrainConfig(min_lr_ratio=2), r"min_lr_ratio must be a finite number >= 0 and <= 1"),
    "Task of a dict": (lambda: Task({"op": "+"}), r"Task needs a TaskConfig, got dict"),
}


@pytest.mark.parametrize("name", list(CONFIGS))
def test_bad_config_is_refused_when_built(name):
    build, pattern = CONFIGS[name]
    with pytest.raises(ConfigError, match=pattern):
        build()


# -- configs that contradict each other: refused when model and task meet, before any training ---------
def _upe_pair():
    task = TaskConfig(op="*", sampler="uniform", max_digits=4, multiplier_digits=3, **SABBAGHI)
    return ModelConfig(encoding="upe", upe_slots=2, causal=False), task


PAIRS = {
    "encoder on cho": (lambda: (ModelConfig(causal=False), TaskConfig(format="cho")),
                       r"encoder \(causal=False\) on the decoder format 'cho' sees the answer .*causal=True"),
    "encoder on index_hints": (lambda: (ModelConfig(causal=False), TaskConfig(format="index_hints", positions="consecutive",
                                                                              max_digits=5, random_start=False)),
                               r"encoder \(causal=False\) on the decoder format 'index_hints'"),
    "decoder on sabbaghi": (lambda: (ModelConfig(causal=True), TaskConfig(**SABBAGHI, max_digits=4)),
                            r"decoder \(causal=True\) on the encoder format 'sabbaghi'.*causal=False"),
    "IDs beyond the table": (lambda: (ModelConfig(max_positions=32), TaskConfig(max_digits=5)),
                             r"max_position=64 but the model's learned table has max_positions=32 rows \(IDs 0..31\)"),
    "IDs one past the table": (lambda: (ModelConfig(max_positions=64), TaskConfig()),
                               r"max_position=64 .* max_positions=64 rows \(IDs 0..63\).*max_positions=65"),
    "too few UPE slots": (_upe_pair, r"multiplier has up to 3 digits but .*upe_slots=2"),
}


@pytest.mark.parametrize("name", list(PAIRS))
def test_contradictory_pair_is_refused(name):
    make, pattern = PAIRS[name]
    model_config, task_config = make()
    with pytest.raises(ConfigError, match=pattern):
        check_compatible(model_config, task_config)
    model = Transformer(model_config)
    before = {k: v.clone() for k, v in model.state_dict().items()}
    with pytest.raises(ConfigError, match=pattern):        # fit refuses it too, before any step
        fit(model, Task(task_config), TrainConfig(steps=1, batch_size=2), progress=False)
    assert all(torch.equal(v, model.state_dict()[k]) for k, v in before.items())


# -- checkpoints and resume ------------------------------------------------------------------------------
TINY_MODEL = ModelConfig(d_model=16, n_heads=2, d_ff=32, max_positions=17)
TINY_TASK = TaskConfig(max_digits=3, max_position=16)
TINY_TRAIN = TrainConfig(steps=4, batch_size=8, warmup_steps=1, seed=0)


def _set_config(key, value):
    def change(meta):
        cfg = json.loads(meta["model_config"])
        cfg[key] = value
        meta["model_config"] = json.dumps(cfg)
    return change


def _legacy(change=None):
    def edit(meta):   # what a file saved before the record checksum looks like, optionally edited
        meta["lengen_format"] = "1"
        del meta["record_sha256"]
        if change:
            change(meta)
    return edit


HEADER_EDITS = {
    "config edited (causal flipped)": (_set_config("causal", False), r"model config or metadata in its header differ"),
    "config edited (rpe_scale)": (_set_config("rpe_scale", 5.0), r"model config or metadata in its header differ"),
    "metadata edited": (lambda m: m.update(metadata=json.dumps({"note": "forged"})),
                        r"model config or metadata in its header differ"),
    "record checksum removed": (lambda m: m.pop("record_sha256"), r"model config or metadata in its header differ"),
    "unknown format version": (lambda m: m.update(lengen_format="9"),
                               r"not a lengen checkpoint \(format '9'; this library reads formats \('1', '2'\)"),
    "legacy file, header unchecked": (_legacy(), r"is a format-1 checkpoint: its header \(model config and "
                                                 r"metadata\) has no checksum.*allow_unchecked_header=True"),
    "legacy file, decoder edited to encoder": (_legacy(_set_config("causal", False)),
                                               r"format-1 checkpoint.*an edited config would load as another model"),
}
LEGACY_EDITS = {   # loaded with allow_unchecked_header=True: the shapes are still checked
    "legacy file, config of another shape": (_legacy(_set_config("d_model", 32)),
                                             r"does not fit the model it describes \(RuntimeError: .*size mismatch"),
    "legacy file, unknown config key": (_legacy(_set_config("n_head", 2)),
                                        r"does not fit the model it describes \(ConfigError: unknown ModelConfig field"),
}


@pytest.fixture()
def saved_model(tmp_path):
    torch.manual_seed(0)
    return save_model(tmp_path / "m.safetensors", Transformer(TINY_MODEL), {"task": TINY_TASK.to_dict()})


@pytest.mark.parametrize("name", list(HEADER_EDITS))
def test_edited_header_is_refused(saved_model, name):
    change, pattern = HEADER_EDITS[name]
    edit_metadata(saved_model, change)
    with pytest.raises(CheckpointError, match=pattern):
        load_model(saved_model)


@pytest.mark.parametrize("name", list(LEGACY_EDITS))
def test_trusted_legacy_file_of_another_shape_is_refused(saved_model, name):
    change, pattern = LEGACY_EDITS[name]
    edit_metadata(saved_model, change)
    with pytest.raises(CheckpointError, match=pattern):
        load_model(saved_model, allow_unchecked_header=True)


def test_save_refuses_metadata_that_is_not_json(tmp_path):
    with pytest.raises(CheckpointError, match=r"metadata for .* must be JSON-serialisable \(TypeError"):
        save_model(tmp_path / "m.safetensors", Transformer(TINY_MODEL), {"lengths": {1, 2}})


@pytest.fixture(scope="module")
def saved_state(tmp_path_factory):
    path = tmp_path_factory.mktemp("state") / "state.pt"
    torch.manual_seed(0)
    fit(Transformer(TINY_MODEL), Task(TINY_TASK), TINY_TRAIN, progress=False, log_every=2, state_path=path)
    return path


def _resume(path, model=TINY_MODEL, task=TINY_TASK, train=TINY_TRAIN, **kw):
    return fit(Transformer(model), Task(task), train, progress=False, state_path=path, resume=True, **kw)


RESUMES = {
    "another seed": (dict(train=TrainConfig(**{**TINY_TRAIN.to_dict(), "seed": 1})),
                     r"another run \(TrainConfig differs: seed=0 there, 1 here\).*resume=False to start fresh"),
    "another lr": (dict(train=TrainConfig(**{**TINY_TRAIN.to_dict(), "lr": 2e-3})), r"lr=0\.001 there, 0\.002 here"),
    "another batch size": (dict(train=TrainConfig(**{**TINY_TRAIN.to_dict(), "batch_size": 4})),
                           r"batch_size=8 there, 4 here"),
    "another number of steps": (dict(train=TrainConfig(**{**TINY_TRAIN.to_dict(), "steps": 8})), r"steps=4 there, 8 here"),
    "model of another shape": (dict(model=ModelConfig(d_model=32, n_heads=2, d_ff=32, max_positions=17)),
                               r"ModelConfig differs: d_model=16 there, 32 here"),
    "another task": (dict(task=TaskConfig(max_digits=4, max_position=16)), r"TaskConfig differs: max_digits=3 there, 4 here"),
    "another log interval": (dict(log_every=3), r"logged the loss every 2 steps, this run every 3"),
}


@pytest.mark.parametrize("name", list(RESUMES))
def test_resume_from_another_run_is_refused(saved_state, name):
    changes, pattern = RESUMES[name]
    with pytest.raises(CheckpointError, match=pattern):
        _resume(saved_state, **changes)


def test_resume_from_a_mistyped_path_is_refused(tmp_path):
    with pytest.raises(CheckpointError, match=r"no training state at .*stat\.pt .*resume=False to start fresh"):
        _resume(tmp_path / "stat.pt")


def test_resume_without_a_path_is_refused():
    with pytest.raises(ConfigError, match=r"resume=True needs state_path"):
        _resume(None)


def test_resume_from_a_file_that_is_not_a_state(tmp_path):
    path = tmp_path / "other.pt"
    torch.save({"x": 1}, path)
    with pytest.raises(CheckpointError, match=r"not a training state saved by fit \(missing \['model'"):
        _resume(path)


def test_state_of_another_shape_without_configs_gives_checkpoint_error(saved_state, tmp_path):
    state = torch.load(saved_state, weights_only=True)
    for key in ("model_config", "task_config", "train_config"):   # as a state saved by an older version
        state.pop(key)
    path = tmp_path / "old.pt"
    torch.save(state, path)
    wider = ModelConfig(d_model=32, n_heads=2, d_ff=32, max_positions=17)
    with pytest.raises(CheckpointError, match=r"does not fit this model \(RuntimeError: .*size mismatch"):
        _resume(path, model=wider)


# -- operands and lengths --------------------------------------------------------------------------------
OPERANDS = {
    "' 12 '": (lambda: Problem.parse(" 12 ", "3"), ProblemError, r"a=' 12 ' .*character ' '; use digits 0-9"),
    "'12 '": (lambda: Problem.parse("1", "12 "), ProblemError, r"b='12 ' .*character ' '"),
    "whitespace only": (lambda: Problem.parse(" ", "1"), ProblemError, r"character ' '"),
    "5,000-digit string": (lambda: Problem.parse("5" * 5000, "1"), ProblemError,
                           rf"a has 5000 digits, more than {LIMIT}, Python's limit for int-string conversion"),
    "5,000-digit int": (lambda: Problem(10**5000, 1), ProblemError, rf"operand a has more than {LIMIT} digits, Python's limit"),
    "answer past the limit": (lambda: Problem(10**LIMIT - 1, 1), ProblemError,
                              rf"answer of this \+ problem has more than {LIMIT} digits"),
    "negative int": (lambda: Problem.parse(-3, 1), ProblemError, r"a=-3 is negative; only non-negative"),
    "negative string": (lambda: Problem.parse("-3", "1"), ProblemError, r"a='-3' is negative"),
    "negative operand": (lambda: Problem(1, -2), ProblemError, r"operand b=-2 is negative"),
    "float operand": (lambda: Problem(1.5, 2), ProblemError, r"operand a=1\.5 must be an integer, got float"),
    "float to parse": (lambda: Problem.parse(2.0, 1), ProblemError, r"string of digits 0-9 or a non-negative int, got float"),
    "bool to parse": (lambda: Problem.parse(True, 1), ProblemError, r"got bool True"),
    "bool operand": (lambda: Problem(True, 1), ProblemError, r"must be an integer, got bool"),
    "None": (lambda: Problem.parse(None, 1), ProblemError, r"got NoneType None"),
    "empty string": (lambda: Problem.parse("", "1"), ProblemError, r"a='' .*contains nothing"),
    "decimal point": (lambda: Problem.parse("1.5", "2"), ProblemError, r"character '\.'"),
    "plus sign": (lambda: Problem.parse("+12", "1"), ProblemError, r"character '\+'"),
    "underscore": (lambda: Problem.parse("1_000", "1"), ProblemError, r"character '_'"),
    "Arabic-Indic digits": (lambda: Problem.parse("\u0661\u0662", "1"), ProblemError, r"character '\u0661'; use digits 0-9"),
    "unknown op": (lambda: Problem(1, 2, "-"), ProblemError, r"unknown operation '-'; expected one of"),
    "length 2.7": (lambda: sample_exact_length(RNG, 2.7, 5), ProblemError,
                   r"length must be a positive whole number .*got the float 2\.7"),
    "length 0": (lambda: sample_exact_length(RNG, 0, 5), ProblemError, r"length must be .*\(>= 1\), got 0"),
    "length 5000": (lambda: sample_uniform(RNG, 5000, 1), ProblemError, rf"max_digits=5000 digits exceeds {LIMIT}"),
    "multiplier_digits 0": (lambda: sample_exact_length(RNG, 3, 5, "*", 0), ProblemError, r"multiplier_digits must be .*got 0"),
    "negative count": (lambda: sample_balanced(RNG, 5, -1), ProblemError, r"number of problems n must be .*>= 0, got -1"),
    "fractional shift": (lambda: shift_with_zeros(Problem(1, 2), 1.5), ProblemError, r"shift must be a whole number .*1\.5"),
    "float frame_width": (lambda: encode(Problem(12, 3), "sabbaghi", frame_width=2.5), FormatError,
                          r"frame_width must be a whole number >= 1, got 2\.5"),
    "negative hint_offset": (lambda: encode(Problem(12, 3), "index_hints", hint_offset=-1), FormatError,
                             r"hint_offset must be a whole number >= 0, got -1"),
    "hint_offset past the hints": (lambda: encode(Problem(123, 4), "index_hints", hint_offset=62), FormatError,
                                   r"index hints cover 64 digits \(h0..h63\).*hint_offset=62 needs 66"),
    "string instead of Problem": (lambda: encode("12+3", "cho"), FormatError, r"encode needs a Problem, got str"),
    "multiplier_digits 0 in encode": (lambda: encode(Problem(123, 4, "*"), "cho", multiplier_digits=0), FormatError,
                                      r"multiplier_digits must be a whole number >= 1, got 0"),
    "multiplier wider than k": (lambda: encode(Problem(5, 123, "*"), "cho", multiplier_digits=2), FormatError,
                                r"multiplier 123 has 3 digits; this task allows at most 2"),
    "operand wider than frame": (lambda: encode(Problem(123456, 1), "sabbaghi", frame_width=5), FormatError,
                                 r"has 6 digits; the frame width l is 5"),
    "prediction of wrong length": (lambda: decode_answer(encode(Problem(653, 49), "cho"), ["2", "0", "7"]), FormatError,
                                   r"predicted has 3 symbols; the example has 14 positions"),
    "token id past the vocabulary": (lambda: ids_to_tokens([1, 999]), FormatError, rf"outside the vocabulary \(ids 0..{len(VOCAB) - 1}\)"),
    "unknown format": (lambda: encode(Problem(1, 2), "klingon"), FormatError, r"unknown format 'klingon'; choose one of"),
}


@pytest.mark.parametrize("name", list(OPERANDS))
def test_bad_operand_or_length(name):
    call, error, pattern = OPERANDS[name]
    with pytest.raises(error, match=pattern):
        call()


# -- device settings -------------------------------------------------------------------------------------
@pytest.mark.parametrize("value", ["abc", "0", "-2", "1.5"])
def test_bad_lengen_threads(monkeypatch, value):
    monkeypatch.setenv("LENGEN_THREADS", value)
    with pytest.raises(ValueError, match=rf"LENGEN_THREADS={re.escape(repr(value))} is not a whole number of CPU threads >= 1"):
        set_cpu_threads()


def test_bad_thread_count_argument():
    with pytest.raises(ValueError, match=r"CPU threads must be a whole number >= 1, got 0"):
        set_cpu_threads(0)


def test_bad_device_name():
    with pytest.raises(ValueError, match=r"device 'gpu0' .*is not a device name; use 'cpu', 'cuda'"):
        pick_device("gpu0")


# -- a run's configs against its task and model, before the first step -----------------------------------------
SMALL_TASK = TaskConfig(format="cho", positions="coupled", max_digits=3, max_position=12)
SMALL_MODEL = ModelConfig(d_model=16, n_heads=2, d_ff=32, max_positions=13)


@pytest.fixture
def no_step(monkeypatch):
    """A training step fails the test: a refusal must come before the first one."""
    import lengen_utils.core.train as train

    def step(*args, **kwargs):
        raise AssertionError("a training step ran before the configs were refused")
    monkeypatch.setattr(train, "_step", step)


PLANS = {
    "select_lengths past the position IDs": (
        TrainConfig(steps=20, batch_size=4, select_lengths=(3, 40), select_every=10),
        r"TrainConfig\.select_lengths \[40\] exceed the longest operand this task can test: \d+ digits "
        r"\(position IDs up to max_position=12"),
    "stop_lengths past the trained lengths": (
        TrainConfig(steps=20, batch_size=4, stop_lengths=(5,), stop_every=10),
        r"stop_lengths \[5\] lie outside the trained lengths 1\.\.3"),
}


@pytest.mark.parametrize("name", list(PLANS))
def test_a_plan_that_cannot_work_is_refused_before_the_first_step(name, no_step):
    cfg, words = PLANS[name]
    with pytest.raises(ConfigError, match=words):
        fit(Transformer(SMALL_MODEL), Task(SMALL_TASK), cfg, progress=False)


def test_zoo_train_refuses_such_a_plan_before_training(monkeypatch, tmp_path):
    from lengen_utils.lab.zoo import ZooEntry, ZooError, registry
    from lengen_utils.lab.zoo.builder import check_buildable
    bad = ZooEntry("plan-test", SMALL_TASK, SMALL_MODEL, PLANS["select_lengths past the position IDs"][0],
                   eval_lengths=(1, 2, 3))
    monkeypatch.setitem(registry.ENTRIES, bad.name, bad)
    with pytest.raises(ZooError, match=r"plan-test-s0 cannot be built as declared: TrainConfig\.select_lengths \[40\]"):
        check_buildable(bad.name, assets=tmp_path)
    long_test = ZooEntry("plan-test-2", SMALL_TASK, SMALL_MODEL, TrainConfig(steps=20), eval_lengths=(3, 50))
    monkeypatch.setitem(registry.ENTRIES, long_test.name, long_test)
    with pytest.raises(ZooError, match=r"its eval_lengths \[50\] exceed the longest operand"):
        check_buildable(long_test.name, assets=tmp_path)


@pytest.mark.parametrize("task, most", [(dict(max_digits=1), 100), (dict(max_digits=2), 10_000),
                                        (dict(op="*", max_digits=2, multiplier_digits=1), 1000)])
def test_a_fixed_training_set_larger_than_the_distinct_problems_is_refused(task, most):
    config = dict(format="cho", positions="coupled", max_position=20, **task)
    TaskConfig(**config, train_set_size=most)                   # as many as there are: accepted
    with pytest.raises(ConfigError, match=rf"train_set_size={most + 1:,} exceeds the distinct training problems: "
                                          rf".* at most {most:,} \(a, b\) pairs"):
        TaskConfig(**config, train_set_size=most + 1)
