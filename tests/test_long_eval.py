"""Long inputs at bounded memory (lengen_utils.core.model.blocked): a decoder read in blocks of queries gives the
logits of one full pass, greedy decoding with a blocked prompt gives the same tokens, shared position IDs
give the same results as per-row ones, and no [B, T, T]-sized tensor is built at T ~ 2000."""
from __future__ import annotations

import copy
import json
from dataclasses import replace

import pytest
import torch
from torch.utils._python_dispatch import TorchDispatchMode

import lengen_utils.core.evaluate.lengths as lengths_module
from lengen_utils.lab.bench import main as bench_main
from lengen_utils.core.constants import IGNORE_INDEX
from lengen_utils.core.evaluate import evaluate_length, teacher_forced_predictions
from lengen_utils.core.formats import TOKEN_ID
from lengen_utils.lab.long_eval import main as long_eval_main
from lengen_utils.core.model import ENCODINGS, ModelConfig, Transformer, greedy_decode
from lengen_utils.core.model.blocked import QUERY_BLOCK, blocked_forward, row_bytes, rows_within_budget, shared_rows
from lengen_utils.core.problems import Problem
from lengen_utils.core.tasks import Task, TaskConfig

VARIANTS = [(e, False) for e in ENCODINGS] + [("learned", True), ("rpe", True), ("none", True)]
NAMES = [e + ("+bias" if b else "") for e, b in VARIANTS]
ADDITION = TaskConfig(format="cho", positions="coupled", max_digits=12, max_position=40)
MULTIPLICATION = TaskConfig(op="*", format="cho", positions="coupled", multiplier_digits=2, max_digits=8,
                            max_position=40, random_start=False)
BOARDS = TaskConfig(task="minesweeper", format="minesweeper", positions="coupled2d_next", min_digits=2,
                    max_digits=4, max_position=8)


def model(seed: int = 0, **kw) -> Transformer:
    torch.manual_seed(seed)
    cfg = dict(d_model=32, n_heads=2, d_ff=64, n_layers=2, max_positions=48, rpe_max_distance=6,
               relative_bias_max_distance=5)
    cfg.update(kw)
    m = Transformer(ModelConfig(**cfg)).eval()
    with torch.no_grad():   # larger weights than the init: sharper, more varied outputs
        for p in m.parameters():
            p.add_(0.5 * torch.randn_like(p))
    return m


def mixed_batch(encoding: str):
    """Right-padded problems of mixed lengths (UPE: N x 2 multiplication, whose keys have slots)."""
    if encoding == "upe":
        return Task(MULTIPLICATION).batch([Problem(a, b, "*") for a, b in [(12345678, 97), (3, 5), (905, 40)]])
    return Task(ADDITION).batch([Problem(a, b) for a, b in [(999999999999, 1), (5, 7), (123, 98765), (0, 0)]])


def assert_blocked_matches(m: Transformer, batch, blocks=(1, 5, 16)):
    """Every block size (and IDs shared by the batch, where they are) gives the full pass's logits: within
    1e-9 in float64 (so that a wrong mask or bias cannot hide in rounding), within 1e-4 in float32 (where
    the kernels differ: a causal flag in one pass, a boolean mask in blocks)."""
    keep = batch.key_padding
    for dtype, tol in ((torch.float64, 1e-9), (torch.float32, 1e-4)):
        m = copy.deepcopy(m).to(dtype)
        with torch.no_grad():
            full = m(**batch.model_inputs())[keep]
            for block in blocks:
                for ids, slots in ((batch.position_ids, batch.uniform_slots),
                                   (shared_rows(batch.position_ids), shared_rows(batch.uniform_slots))):
                    out = blocked_forward(m, batch.tokens, ids, batch.key_padding, slots, block)
                    torch.testing.assert_close(out[keep], full, atol=tol, rtol=tol)


@pytest.mark.parametrize("encoding, relative_bias", VARIANTS, ids=NAMES)
def test_blocked_forward_equals_a_full_pass(encoding, relative_bias):
    assert_blocked_matches(model(encoding=encoding, relative_bias=relative_bias), mixed_batch(encoding))


@pytest.mark.parametrize("encoding, relative_bias", [("none", True), ("alibi", False), ("upe", False)])
def test_shared_ids_equal_per_row_ids(encoding, relative_bias):
    """Problems of one length at a fixed start share their IDs: one row, broadcast, same logits."""
    m = model(encoding=encoding, relative_bias=relative_bias)
    task = Task(MULTIPLICATION if encoding == "upe" else ADDITION)
    batch = task.batch(task.eval_problems(6, 5))
    ids = shared_rows(batch.position_ids)
    assert ids.shape[0] == 1
    with torch.no_grad():
        full = m(**batch.model_inputs())
        shared = m(batch.tokens, ids, batch.key_padding, shared_rows(batch.uniform_slots))
    torch.testing.assert_close(shared, full, atol=1e-6, rtol=1e-6)


def test_two_position_channels_blocked():
    """The minesweeper decoder: IDs [B, T, 2] and a relative bias over the pair of differences."""
    m = model(vocab_size=TOKEN_ID["M"] + 1, max_positions=9, position_channels=2, encoding="none",
              relative_bias=True, relative_bias_max_distance=2)
    task = Task(BOARDS)
    batch = task.batch(task.eval_problems(3, 3, seed=1) + task.eval_problems(4, 2, seed=1))
    assert batch.position_ids.dim() == 3
    assert_blocked_matches(m, batch)
    same = task.batch(task.eval_problems(4, 3, seed=2))
    assert shared_rows(same.position_ids).shape == (1, same.tokens.shape[1], 2)
    assert_blocked_matches(m, same)


def test_uniform_multiplier_bias_blocked():
    """relative_bias_uniform on N x 2 multiplication: the multiplier keys' scalars, per block."""
    m = model(max_positions=41, relative_bias=True, relative_bias_max_distance=3, relative_bias_uniform=True)
    task = Task(replace(MULTIPLICATION, max_digits=4))
    assert_blocked_matches(m, task.batch([Problem(4321, 56, "*"), Problem(7, 89, "*"), Problem(12, 3, "*")]))
    assert_blocked_matches(m, task.batch(task.eval_problems(4, 3)))


@pytest.mark.parametrize("encoding, relative_bias", [("none", True), ("upe", False), ("rope", False),
                                                     ("learned", True)])
def test_greedy_with_a_blocked_prompt_gives_the_same_tokens(encoding, relative_bias):
    m = model(encoding=encoding, relative_bias=relative_bias)
    batch = mixed_batch(encoding)
    supervised = batch.targets != IGNORE_INDEX
    args = (batch.tokens, batch.position_ids, supervised, batch.key_padding, batch.uniform_slots)
    one_pass = greedy_decode(m, *args)                   # these prompts fit one block of QUERY_BLOCK
    assert torch.equal(greedy_decode(m, *args, block=3), one_pass)
    assert torch.equal(greedy_decode(m, *args, use_cache=False), one_pass)
    task = Task(MULTIPLICATION if encoding == "upe" else ADDITION)
    same = task.batch(task.eval_problems(7, 4))
    sup = same.targets != IGNORE_INDEX
    plain = greedy_decode(m, same.tokens, same.position_ids, sup, same.key_padding, same.uniform_slots)
    shared = greedy_decode(m, same.tokens, shared_rows(same.position_ids), sup, same.key_padding,
                           shared_rows(same.uniform_slots), block=4)
    assert torch.equal(shared, plain)


def test_evaluation_results_do_not_depend_on_blocks_or_batch_cuts(monkeypatch):
    """teacher forcing and greedy decoding through evaluate_length: the same EM and per-digit accuracy with
    blocks of 8 queries and batches cut to 3 rows as with one pass over the whole batch."""
    m = model(encoding="none", relative_bias=True)
    task = Task(ADDITION)
    before = [evaluate_length(m, task, 9, n=10, greedy=g) for g in (False, True)]
    monkeypatch.setattr(lengths_module, "QUERY_BLOCK", 8)
    monkeypatch.setattr(lengths_module, "rows_within_budget", lambda cfg, T, requested: 3)
    after = [evaluate_length(m, task, 9, n=10, greedy=g) for g in (False, True)]
    assert before == after
    batch = task.batch([Problem(123456789, 987654321), Problem(5, 7)])
    blocked = teacher_forced_predictions(m, batch)
    monkeypatch.setattr(lengths_module, "QUERY_BLOCK", 10 ** 6)
    assert torch.equal(blocked, teacher_forced_predictions(m, batch))


def test_shared_rows_only_when_every_row_is_the_same():
    ids = torch.arange(6).expand(3, 6).clone()
    assert shared_rows(ids).shape == (1, 6) and shared_rows(None) is None
    ids[2, 5] = 9
    assert shared_rows(ids) is ids
    meta = torch.zeros(3, 6, device="meta")
    assert shared_rows(meta) is meta                       # off the CPU: no value is read


def test_one_row_of_ids_is_broadcast_and_a_wrong_count_is_refused():
    m = model(encoding="learned")
    tokens = torch.randint(1, 15, (3, 10))
    ids = torch.arange(10)
    with torch.no_grad():
        torch.testing.assert_close(m(tokens, ids[None]), m(tokens, ids.expand(3, 10)))
    with pytest.raises(ValueError, match="one row shared by the batch"):
        m(tokens, ids.expand(2, 10))


def test_blocked_forward_refuses_an_encoder_and_a_bad_block():
    enc = model(encoding="rpe", causal=False)
    tokens, ids = torch.randint(1, 15, (2, 6)), torch.arange(6).expand(2, 6)
    with pytest.raises(ValueError, match="causal decoder"):
        blocked_forward(enc, tokens, ids)
    with pytest.raises(ValueError, match="block must be an integer >= 1"):
        blocked_forward(model(), tokens, ids, block=0)


def test_batch_size_rule():
    cfg = ModelConfig(d_model=64, n_layers=1, n_heads=4, d_ff=256, encoding="none", relative_bias=True)
    assert rows_within_budget(cfg, 300, 500) == 500 or row_bytes(cfg, 300) * 500 > 1 << 30
    long = rows_within_budget(cfg, 3000, 500)
    assert 1 <= long < 200 and long * row_bytes(cfg, 3000) <= 1 << 30
    assert rows_within_budget(cfg, 10 ** 6, 500) == 1                  # never 0
    assert rows_within_budget(cfg, 30, 7) == 7                         # never more than asked
    assert row_bytes(replace(cfg, causal=False), 3000) > row_bytes(cfg, 3000)   # an encoder is not blocked


class LargestTensor(TorchDispatchMode):
    """Records the most elements of any tensor an aten op creates."""

    def __init__(self):
        super().__init__()
        self.largest = 0

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        out = func(*args, **(kwargs or {}))
        for t in out if isinstance(out, (tuple, list)) else (out,):
            if isinstance(t, torch.Tensor):
                self.largest = max(self.largest, t.numel())
        return out


def test_a_2000_token_evaluation_builds_no_quadratic_tensor():
    """Teacher forcing and greedy decoding at T ~ 2000 with a relative bias: no tensor has even B*T*T/4
    elements (a full pass builds B*H*T*T); the detector sees the full pass's."""
    task = Task(TaskConfig(format="cho", positions="coupled", max_digits=10, max_position=700))
    m = model(d_model=16, d_ff=32, n_layers=1, encoding="none", relative_bias=True)
    batch = task.batch(task.eval_problems(660, 2))
    B, T = batch.tokens.shape
    assert T > 1900 and T > 4 * QUERY_BLOCK
    quadratic = B * T * T // 4
    with LargestTensor() as seen:
        preds = teacher_forced_predictions(m, batch)
    assert seen.largest < quadratic
    supervised = batch.targets != IGNORE_INDEX
    with LargestTensor() as seen_greedy:
        greedy = greedy_decode(m, batch.tokens, shared_rows(batch.position_ids), supervised, batch.key_padding)
    assert seen_greedy.largest < quadratic
    assert preds.shape == greedy.shape == (B, T)
    with LargestTensor() as seen_full, torch.no_grad():
        m(batch.tokens[:, :600], batch.position_ids[:, :600])
    assert seen_full.largest >= B * 600 * 600                      # the detector catches a quadratic tensor


def test_long_eval_benchmark_runs_and_refuses_lengths_past_its_ids(capsys):
    assert bench_main(["long-eval", "--lengths", "12,5", "--n", "3", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert [r["length"] for r in result["rows"]] == [5, 12] and result["config"]["n"] == 3
    assert all(r["seconds"] >= 0 and r["peak_rss_mb"] > 0 and r["batch"] == 3 for r in result["rows"])
    assert long_eval_main(["--lengths", "5000"]) == 2
    assert "past --max-position 3100" in capsys.readouterr().err


def test_long_eval_names_its_own_flag_when_the_position_limit_is_too_small(capsys):
    assert long_eval_main(["--lengths", "30", "--max-position", "50"]) == 2
    err = capsys.readouterr().err
    assert "--max-position 50 is too small" in err and "give a larger --max-position" in err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1
