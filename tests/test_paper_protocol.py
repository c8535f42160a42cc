"""The papers' training protocol as options: BERT's post-LN block with dropout, a fixed training set, checkpoint
selection on longer lengths, a time bound, and the operator hidden from an encoder's queries."""
from __future__ import annotations

import dataclasses

import numpy as np
import pytest
import torch

from lengen_utils.core.config_checks import ConfigError
from lengen_utils.core.model import ModelConfig, Transformer
from lengen_utils.core.tasks import Task, TaskConfig
from lengen_utils.core.train import TrainConfig, fit
from lengen_utils.core.vocab import TOKEN_ID

ENCODER_TASK = TaskConfig(op="+", format="sabbaghi", positions="consecutive", sampler="uniform", max_digits=3,
                          frame_width=6, random_start=False, max_position=14, eval_sampler="uniform")
ENCODER = ModelConfig(d_model=32, n_layers=2, n_heads=4, d_ff=64, causal=False, encoding="rpe",
                      rpe_max_distance=13, max_positions=15)


def _batch(task: Task, n: int = 4):
    return task.batch(task.eval_problems(3, n))


def test_post_norm_is_berts_block():
    """Post-LN: each block's output is normalised (zero mean, unit variance per token with LayerNorm's identity
    weights), the embeddings are normalised, and the read-out has no norm of its own."""
    torch.manual_seed(0)
    model = Transformer(dataclasses.replace(ENCODER, norm_placement="post")).eval()
    assert isinstance(model.norm, torch.nn.Identity) and model.embed_norm is not None
    b = _batch(Task(ENCODER_TASK))
    x = model.embed_norm(model.embed(b.tokens))
    out, _ = model.blocks[0](x, b.position_ids, b.key_padding)
    assert torch.allclose(out.mean(-1), torch.zeros(out.shape[:2]), atol=1e-5)
    assert torch.allclose(out.var(-1, unbiased=False), torch.ones(out.shape[:2]), atol=1e-3)
    pre = Transformer(ENCODER)
    assert pre.embed_norm is None and isinstance(pre.norm, torch.nn.LayerNorm)


def test_post_norm_needs_a_norm():
    with pytest.raises(ConfigError, match="norm_placement='post'.*norm='none'"):
        dataclasses.replace(ENCODER, norm_placement="post", norm="none")
    with pytest.raises(ConfigError, match="norm_placement"):
        dataclasses.replace(ENCODER, norm_placement="middle")


def test_dropout_acts_in_training_only():
    torch.manual_seed(0)
    model = Transformer(dataclasses.replace(ENCODER, dropout=0.5, norm_placement="post"))
    b = _batch(Task(ENCODER_TASK))
    model.train()
    assert not torch.equal(model(**b.model_inputs()), model(**b.model_inputs()))
    model.eval()
    assert torch.equal(model(**b.model_inputs()), model(**b.model_inputs()))


def test_fixed_training_set_is_drawn_once_and_reused():
    task = Task(dataclasses.replace(ENCODER_TASK, train_set_size=50))
    pool = task.train_set()
    assert len(pool) == 50 and task.train_set() is pool
    again = Task(dataclasses.replace(ENCODER_TASK, train_set_size=50)).train_set()
    assert pool == again                                 # the same set for every run of the config
    drawn = task.sample_train_problems(np.random.default_rng(0), 200)
    assert set(drawn) <= set(pool) and len(set(drawn)) > 20
    fresh = Task(ENCODER_TASK).sample_train_problems(np.random.default_rng(0), 200)
    assert not set(fresh) <= set(pool)


def test_fixed_training_set_refuses_a_curriculum():
    with pytest.raises(ConfigError, match="train_set_size=10.*curriculum"):
        dataclasses.replace(ENCODER_TASK, train_set_size=10, curriculum="length", min_digits=1)
    with pytest.raises(ConfigError, match="train_set_size"):
        dataclasses.replace(ENCODER_TASK, train_set_size=-1)


def test_selection_config_needs_lengths_and_interval_together():
    with pytest.raises(ConfigError, match="select_every > 0 and select_lengths together"):
        TrainConfig(select_every=10)
    with pytest.raises(ConfigError, match="select_every > 0 and select_lengths together"):
        TrainConfig(select_lengths=(5,))
    with pytest.raises(ConfigError, match="select_lengths"):
        TrainConfig(select_lengths=(0,), select_every=1)
    assert TrainConfig(select_lengths=[4, 6], select_every=5).select_lengths == (4, 6)


def test_selection_keeps_the_best_checkpoint_and_the_curve():
    torch.manual_seed(0)
    model = Transformer(ENCODER)
    task = Task(ENCODER_TASK)
    cfg = TrainConfig(steps=60, batch_size=32, lr=3e-3, select_lengths=(3, 4), select_n=30, select_every=20)
    result = fit(model, task, cfg, progress=False)
    sel = result.selection
    assert sel.steps == [20, 40, 60] and set(sel.curve) == {3, 4} and all(len(v) == 3 for v in sel.curve.values())
    means = [np.mean([sel.curve[k][i] for k in (3, 4)]) for i in range(3)]
    assert sel.selected_step == sel.steps[int(np.argmax(means))]        # the first of the best
    assert sel.best == pytest.approx(max(means))
    assert set(sel.state) == set(model.state_dict())
    record = sel.record()
    assert record["selected_step"] == sel.selected_step and "state" not in record
    assert fit(Transformer(ENCODER), task, dataclasses.replace(cfg, select_every=0, select_lengths=()),
               progress=False).selection is None


def test_max_seconds_stops_at_a_logged_step():
    model = Transformer(ENCODER)
    result = fit(model, Task(ENCODER_TASK), TrainConfig(steps=10_000, batch_size=8), progress=False,
                 log_every=5, max_seconds=1e-9)
    assert result.steps == 5
    with pytest.raises(ConfigError, match="max_seconds"):
        fit(model, Task(ENCODER_TASK), TrainConfig(steps=5), progress=False, max_seconds=0)


def test_mask_operator_hides_the_operator_key_only():
    task = Task(dataclasses.replace(ENCODER_TASK, mask_operator=True))
    b, plain = _batch(task), _batch(Task(ENCODER_TASK))
    is_op = b.tokens == TOKEN_ID["+"]
    assert is_op.sum(1).eq(1).all()
    assert not b.key_padding[is_op].any()
    assert torch.equal(b.key_padding | is_op, plain.key_padding)
    with pytest.raises(ConfigError, match="mask_operator=True.*decoder"):
        TaskConfig(mask_operator=True)


def test_window_offsets_add_centres_to_the_window():
    from lengen_utils.core.model.encodings import AttentionWindow
    cfg = dataclasses.replace(ENCODER, attention_window=1, window_offsets=(5, -5))
    ids = torch.arange(12)[None]
    bias = AttentionWindow(cfg)(torch.zeros(1, 1, 12, 4), ids)[0, 0]          # [Tq, Tk]: 0 inside, -inf outside
    seen = {(q, k) for q in range(12) for k in range(12) if bias[q, k] == 0}
    expected = {(q, k) for q in range(12) for k in range(12)
                if min(abs(k - q), abs(k - q - 5), abs(k - q + 5)) <= 1}
    assert seen == expected
    with pytest.raises(ConfigError, match="window_offsets.*attention_window > 0"):
        dataclasses.replace(ENCODER, window_offsets=(5,))
    with pytest.raises(ConfigError, match="window_offsets must be a list of whole numbers"):
        dataclasses.replace(ENCODER, attention_window=1, window_offsets=(1.5,))
    assert ModelConfig.from_dict(cfg.to_dict() | {"window_offsets": [5, -5]}) == cfg      # a manifest's list


def test_the_leaderboard_shows_selected_and_final_rows(tmp_path, monkeypatch):
    from lengen_utils.lab import leaderboard as lb
    from lengen_utils.lab.zoo.registry import recipe_entries
    names = recipe_entries("a2-select")
    em = {"5": 1.0, "10": 0.5}
    manifest = {name: {"command": "c", "file": f"zoo/{name}.safetensors", "sha256": "0" * 64, "task": {},
                       "model": {}, "metrics": {"em": em},
                       "selection": {"final_metrics": {"em": {"5": 1.0, "10": 0.25}}}} for name in names.values()}
    monkeypatch.setattr(lb, "read_measured", lambda assets=None: manifest)
    board = lb.leaderboard("sabbaghi-a2")
    sel, fin = board["methods"]["a2-select"], board["methods"]["a2-select" + " (final)"]
    assert sel["checkpoint"] == "selected" and fin["checkpoint"] == "final"
    assert sel["lengths"][10]["median"] == 0.5 and fin["lengths"][10]["median"] == 0.25
    rows = lb.leaderboard_rows(board)
    assert rows["a2-select"]["checkpoint"] == "selected"
    assert "(selected)" in lb.format_leaderboard(board)


def test_a_resumed_run_keeps_its_selection(tmp_path):
    task = Task(ENCODER_TASK)
    cfg = TrainConfig(steps=40, batch_size=16, lr=3e-3, select_lengths=(4,), select_n=10, select_every=10)
    torch.manual_seed(0)
    whole = fit(Transformer(ENCODER), task, cfg, progress=False, log_every=10).selection
    torch.manual_seed(0)
    model = Transformer(ENCODER)
    state = tmp_path / "state.pt"
    short = TrainConfig.from_dict({**cfg.to_dict(), "steps": 40})
    fit(model, task, short, progress=False, log_every=10, state_path=state, save_every=20, max_seconds=1e-9)
    resumed = fit(model, task, short, progress=False, log_every=10, state_path=state, resume=True).selection
    assert resumed.steps == whole.steps and resumed.curve == whole.curve
    assert resumed.selected_step == whole.selected_step


def test_zoo_import_of_a_record_only_entry_adds_the_record_alone(tmp_path):
    import json
    from lengen_utils.lab.zoo.importing import import_entry
    from lengen_utils.lab.zoo.records import read_records, recorded
    name = "sabbaghi-a2-paper-s0"
    source = tmp_path / "gpu"
    source.mkdir()
    (source / f"manifest-{name}.json").write_text(json.dumps({name: {k: v for k, v in recorded(name).items()
                                                                      if k != "stored"}}))
    assets = tmp_path / "assets"
    (assets / "zoo").mkdir(parents=True)
    rec = import_entry(name, source, assets)
    assert rec["stored"] is False and read_records(assets)[name] == rec
    assert not list((assets / "zoo").iterdir())               # no weights were written
