"""The minesweeper generator (Cho et al. Section 6.2): boards, their format, the 2-D coupled IDs, the
task, the two-channel model, and evaluation through the usual path."""
from __future__ import annotations

import numpy as np
import pytest
import torch

from lengen_utils.core.boards.format import decode_board, encode_board
from lengen_utils.core.boards.board import Board, BoardError, neighbour_counts, sample_boards, sample_square_boards
from lengen_utils.core.compatibility import check_compatible
from lengen_utils.core.constants import IGNORE_INDEX
from lengen_utils.core.evaluate import evaluate_lengths
from lengen_utils.core.formats import TOKEN_ID, VOCAB, FormatError, encode
from lengen_utils.core.model import ConfigError, ModelConfig, Transformer, greedy_decode
from lengen_utils.core.positions import PositionRangeError
from lengen_utils.core.positions2d import BoardPositions, board_ids
from lengen_utils.core.problems import Problem, ProblemError
from lengen_utils.core.tasks import Task, TaskConfig
from lengen_utils.core.train import TrainConfig, fit

GOLDEN = Board.parse(["*M*", "M**"])


def board_task(**kw) -> TaskConfig:
    base = dict(task="minesweeper", format="minesweeper", positions="coupled2d", min_digits=2, max_digits=4,
                max_position=8)
    return TaskConfig(**{**base, **kw})


def board_model(**kw) -> ModelConfig:
    base = dict(vocab_size=TOKEN_ID["M"] + 1, d_model=32, n_layers=2, n_heads=2, d_ff=64, max_positions=9,
                position_channels=2)
    return ModelConfig(**{**base, **kw})


# -- problems: boards and their exact answer --------------------------------------------------------
def test_golden_board_answer():
    assert GOLDEN.height == 2 and GOLDEN.width == 3
    assert GOLDEN.answer == (("2", "M", "1"), ("M", "2", "1"))
    ring = Board.parse(["MMM", "M*M", "MMM"])
    assert ring.answer[1][1] == "8"
    assert Board.parse(["***", "***"]).answer == (("0",) * 3,) * 2


def test_neighbour_counts_match_brute_force():
    rng = np.random.default_rng(1)
    for _ in range(20):
        h, w = rng.integers(1, 7, size=2)
        mines = (rng.random((h, w)) < 0.3).astype(int)
        fast = neighbour_counts(mines)
        for r in range(h):
            for c in range(w):
                slow = sum(mines[rr, cc] for rr in range(max(0, r - 1), min(h, r + 2))
                           for cc in range(max(0, c - 1), min(w, c + 2)) if (rr, cc) != (r, c))
                assert fast[r, c] == slow


def test_samplers_draw_sides_apart_and_square_tests():
    rng = np.random.default_rng(0)
    boards = sample_boards(rng, 300, 3, 5)
    sides = {(b.height, b.width) for b in boards}
    assert sides == {(h, w) for h in (3, 4, 5) for w in (3, 4, 5)}       # width and height drawn apart
    ratio = np.mean([m for b in boards for row in b.mines for m in row])
    assert 0.1 < ratio < 0.25                                              # the reference's mine ratios
    assert all(b.height == b.width == 7 for b in sample_square_boards(rng, 7, 10))


@pytest.mark.parametrize("bad, match", [
    (["*M", "*"], "every row must have"), (["*X"], "strings of 'M'"), ([], "list of row strings"),
    ([""], "non-empty strings"), ("", "list of row strings"),
])
def test_board_errors(bad, match):
    with pytest.raises(BoardError, match=match):
        Board.parse(bad)


def test_board_error_is_a_problem_error_with_limits():
    with pytest.raises(ProblemError, match="min_side=5 exceeds max_side=3"):
        sample_boards(np.random.default_rng(0), 4, 5, 3)
    with pytest.raises(BoardError, match=r"width=0 is outside 1\.\.64"):
        sample_square_boards(np.random.default_rng(0), 0, 4)


# -- format --------------------------------------------------------------------------------------
def test_golden_format():
    ex = encode_board(GOLDEN)
    assert ex.text() == "$*M*M**=2M1M21$"
    assert ex.roles == ("bos",) + ("cell",) * 6 + ("eq",) + ("answer",) * 6 + ("eos",)
    assert [ex.targets[i] for i in ex.supervised] == list("2M1M21$")          # from '=' to the closing '$'
    assert ex.supervised[0] == ex.tokens.index("=")
    assert decode_board(ex) == GOLDEN.answer
    assert ex.causal and ex.problem is GOLDEN


def test_format_errors():
    with pytest.raises(FormatError, match="needs a Board"):
        encode_board(Problem(1, 2))
    with pytest.raises(FormatError, match="unknown board format"):
        encode_board(GOLDEN, "cho")
    with pytest.raises(FormatError, match="needs a Problem"):
        encode(GOLDEN, "cho")
    ex = encode_board(GOLDEN)
    wrong = list(ex.targets)
    wrong[ex.supervised[-1]] = "0"
    with pytest.raises(FormatError, match="should end with"):
        decode_board(ex, wrong)


def test_mine_token_is_appended_to_the_vocabulary():
    assert VOCAB[80] == "M" and TOKEN_ID["M"] == 80                         # after the 80 arithmetic tokens
    assert TOKEN_ID["*"] < 80 and TOKEN_ID["$"] < 80                        # older IDs unchanged
    assert ModelConfig().vocab_size == 80                                     # arithmetic models as before


# -- two-channel coupled IDs -------------------------------------------------------------------------
def test_golden_ids_fixed_start():
    ids = BoardPositions().assign(encode_board(GOLDEN))
    cells = [(2, 2), (2, 3), (2, 4), (3, 2), (3, 3), (3, 4)]
    assert ids == [(0, 0), *cells, (1, 1), *cells, (0, 0)]                  # cell and answer coupled


def test_golden_ids_given_starts():
    ids = board_ids(encode_board(GOLDEN), row_start=5, col_start=3)
    assert ids[1:4] == [(6, 4), (6, 5), (6, 6)] and ids[7] == (5, 3) and ids[8] == (6, 4)


def test_golden_ids_predicting_next_cell():
    """coupled2d_next: '=' and each answer token carry the pair of the cell they predict; the last answer token
    the pair one row below the board (first column); the input cells keep Cho's pairs."""
    ids = BoardPositions("coupled2d_next").assign(encode_board(GOLDEN))
    cells = [(2, 2), (2, 3), (2, 4), (3, 2), (3, 3), (3, 4)]
    assert ids == [(0, 0), *cells, (2, 2), *cells[1:], (4, 2), (0, 0)]
    # the offset from the predicting position to the predicted cell is (0, 0) everywhere, also across rows
    ex = encode_board(GOLDEN)
    for i in ex.supervised[:-1]:
        predicted_cell = i + 1 - (len(cells) + 2)                       # index of the answer cell written next
        assert ids[i] == cells[predicted_cell]


def test_next_cell_scheme_needs_one_more_row_id():
    scheme = BoardPositions("coupled2d_next", random_start=True, max_position=8)
    ex = encode_board(GOLDEN)                                                # 2 rows, 3 columns
    starts = {scheme.starts(ex, np.random.default_rng(s)) for s in range(300)}
    assert {r for r, _ in starts} == set(range(1, 6)) and {c for _, c in starts} == set(range(1, 6))
    assert max(r for r, _ in scheme.assign(ex, np.random.default_rng(1))) <= 8
    with pytest.raises(PositionRangeError, match=r"7 rows needs row IDs up to 9 .*max_position=8"):
        BoardPositions("coupled2d_next", max_position=8).assign(encode_board(Board.parse(["*"] * 7)))
    with pytest.raises(ConfigError, match=r"IDs up to 9 in each channel \(coupled2d_next\).*max_position=8"):
        board_task(positions="coupled2d_next", max_digits=7)
    board_task(positions="coupled2d", max_digits=7)                           # Cho's IDs fit: 1 + 7


def test_two_channel_relative_bias_indexes_the_offset_vector():
    """One scalar per head for each vector of clipped (row, column) differences: (2K+1)**2 entries."""
    from lengen_utils.core.model.encodings import RelativeScalarBias
    cfg = board_model(encoding="none", relative_bias=True, relative_bias_max_distance=2, n_heads=2)
    module = RelativeScalarBias(cfg)
    assert module.bias.shape == (2, 25)
    with torch.no_grad():
        module.bias.copy_(torch.arange(50.0).view(2, 25))
    query = torch.tensor([[[5, 5]]])
    keys = torch.tensor([[[5, 5], [4, 6], [9, 5], [1, 1], [6, 3]]])       # (0,0) (-1,+1) (+4,0) (-4,-4) (+1,-2)
    bias = module(torch.zeros(1, 2, 1, 16), query, keys)
    want = [(2 + dr) * 5 + (2 + dc) for dr, dc in [(0, 0), (-1, 1), (2, 0), (-2, -2), (1, -2)]]
    assert bias[0, 0, 0].tolist() == want and bias[0, 1, 0].tolist() == [w + 25 for w in want]


def test_two_channel_relative_bias_model_trains_and_decodes_with_the_cache():
    task = Task(board_task(positions="coupled2d_next"))
    torch.manual_seed(0)
    model = Transformer(board_model(encoding="none", relative_bias=True, relative_bias_max_distance=2))
    fit(model, task, TrainConfig(steps=3, batch_size=4, seed=0), progress=False)
    batch = task.batch(task.eval_problems(3, 4, seed=1))
    supervised = batch.targets != IGNORE_INDEX
    cached = greedy_decode(model, batch.tokens, batch.position_ids, supervised, batch.key_padding)
    uncached = greedy_decode(model, batch.tokens, batch.position_ids, supervised, batch.key_padding, use_cache=False)
    assert torch.equal(cached, uncached) and bool((cached[supervised] >= 0).all())


def test_random_starts_independent_per_channel_and_in_range():
    scheme = BoardPositions(random_start=True, max_position=8)
    ex = encode_board(GOLDEN)                                                # 2 rows, 3 columns
    rng = np.random.default_rng(0)
    starts = [scheme.starts(ex, rng) for _ in range(400)]
    rows, cols = {s[0] for s in starts}, {s[1] for s in starts}
    assert rows == set(range(1, 7)) and cols == set(range(1, 6))            # 1..max_position - side
    assert len(set(starts)) == len(rows) * len(cols)                         # every pair: drawn apart
    assert scheme.starts(ex) == (1, 1)                                       # no rng: the fixed start
    ids = scheme.assign(ex, np.random.default_rng(3))
    assert max(max(p) for p in ids) <= 8


def test_position_range_error_names_channel_and_limit():
    wide = encode_board(Board.parse(["*" * 9]))
    with pytest.raises(PositionRangeError, match=r"9 columns needs column IDs up to 10.*max_position=8"):
        BoardPositions(max_position=8).assign(wide)
    with pytest.raises(PositionRangeError, match="rows"):
        BoardPositions(random_start=True, max_position=8).assign(encode_board(Board.parse(["*"] * 9)),
                                                                 np.random.default_rng(0))


# -- task ------------------------------------------------------------------------------------------
def test_task_batches_two_channels():
    task = Task(board_task())
    batch = task.train_batch(np.random.default_rng(0), 8)
    B, T = batch.tokens.shape
    assert batch.position_ids.shape == (B, T, 2)
    assert {(e.problem.height, e.problem.width) for e in batch.examples} <= {(h, w) for h in (2, 3, 4) for w in (2, 3, 4)}
    ev = task.eval_problems(5, 6)
    assert all(b.height == b.width == 5 for b in ev) and ev == task.eval_problems(5, 6)   # fixed test set
    fixed = task.batch(ev)
    assert fixed.position_ids[0, 1].tolist() == [2, 2]                    # start 1 at evaluation


@pytest.mark.parametrize("kw, match", [
    (dict(shift_augment=True), r"\['shift_augment'\] are arithmetic options"),
    (dict(pack=2), r"2 packed boards of 4 rows need row IDs up to 14 \(2 free rows between boards\).*max_position=8"),
    (dict(max_digits=8), "need position IDs up to 9 in each channel.*max_position=8"),
    (dict(positions="coupled"), "unknown board position scheme"),
    (dict(format="cho"), "unknown board format"),
    (dict(min_digits=5), "min_digits=5 exceeds max_digits=4"),
    (dict(task="chess"), "unknown task"),
])
def test_task_config_errors(kw, match):
    with pytest.raises(ConfigError, match=match):
        board_task(**kw)


def test_packed_boards_lie_in_separate_row_bands():
    """Packing (as for addition): several boards per training sequence, each in its own band of row IDs, so that
    the model meets many more far cells in training than one board holds."""
    task = Task(board_task(positions="coupled2d_next", pack=3, max_position=30))
    batch = task.train_batch(np.random.default_rng(0), 4)
    for b, ex in enumerate(batch.examples):
        ids = batch.position_ids[b, :len(ex)].tolist()
        bands, current = [], []
        for role, pair in zip(ex.roles, ids):
            if role == "bos":
                current = []
            elif role == "eos":
                bands.append({r for r, _ in current})
            else:
                current.append(pair)
        assert len(bands) == 3
        for i in range(3):
            for j in range(i + 1, 3):                       # any two boards: at least 3 rows between their cells
                assert min(abs(r - q) for r in bands[i] for q in bands[j]) >= 3
    assert int(batch.position_ids.max()) <= 30


def test_task_config_round_trips():
    cfg = board_task()
    assert TaskConfig.from_dict(cfg.to_dict()) == cfg and TaskConfig().task == "arithmetic"


# -- model -----------------------------------------------------------------------------------------
def test_forward_two_channels_uses_both_tables():
    torch.manual_seed(0)
    model = Transformer(board_model()).eval()
    batch = Task(board_task()).batch([GOLDEN, Board.parse(["**", "M*"])])
    logits = model(**batch.model_inputs())
    assert logits.shape == (*batch.tokens.shape, TOKEN_ID["M"] + 1)
    swapped = batch.position_ids.flip(-1)                                     # rows <-> columns
    other = model(batch.tokens, swapped, batch.key_padding)
    assert not torch.allclose(logits, other)                                  # one table per channel


def test_nope_ignores_ids():
    torch.manual_seed(0)
    model = Transformer(board_model(encoding="none")).eval()
    batch = Task(board_task()).batch([GOLDEN])
    a = model(**batch.model_inputs())
    b = model(batch.tokens, batch.position_ids + 3, batch.key_padding)
    assert torch.allclose(a, b)


def test_model_errors_name_channel_and_limit():
    model = Transformer(board_model())
    tokens = torch.zeros(1, 3, dtype=torch.long)
    ids = torch.tensor([[[1, 1], [1, 9], [2, 2]]])
    with pytest.raises(PositionRangeError, match=r"position ID 9 of channel 1 .*IDs 0\.\.8"):
        model(tokens, ids)
    with pytest.raises(ValueError, match=r"should have shape \(1, 3, 2\)"):
        model(tokens, ids[..., 0])
    with pytest.raises(ConfigError, match="position_channels=2 works with encoding 'learned'"):
        board_model(encoding="rope")
    with pytest.raises(ConfigError, match="position_channels=2 works with"):
        board_model(arithmetic_heads=1, causal=False)
    board_model(relative_bias=True)                                   # the 2-D bias: one scalar per offset vector


def test_compatibility_errors():
    with pytest.raises(ConfigError, match="2 position-ID channel.*position_channels=1"):
        check_compatible(ModelConfig(vocab_size=81, max_positions=9), board_task())
    with pytest.raises(ConfigError, match="token 'M'.*vocab_size=80"):
        check_compatible(board_model(vocab_size=80), board_task())
    with pytest.raises(ConfigError, match="1 position-ID channel.*position_channels=2"):
        check_compatible(board_model(), TaskConfig(max_digits=3, max_position=8))
    with pytest.raises(ConfigError, match="read left to right"):
        check_compatible(board_model(causal=False), board_task())
    with pytest.raises(ConfigError, match="max_positions=9"):
        check_compatible(board_model(), board_task(max_position=10))
    check_compatible(board_model(), board_task())


def test_cached_greedy_decoding_matches_full_with_two_channels():
    torch.manual_seed(1)
    model = Transformer(board_model()).eval()
    batch = Task(board_task()).batch([GOLDEN, Board.parse(["M*M*", "****", "*M**"])])
    sup = batch.targets != -100
    cached = greedy_decode(model, batch.tokens, batch.position_ids, sup, batch.key_padding)
    full = greedy_decode(model, batch.tokens, batch.position_ids, sup, batch.key_padding, use_cache=False)
    assert torch.equal(cached, full)


def test_evaluation_path_and_tiny_training():
    torch.manual_seed(0)
    task_cfg = board_task(min_digits=2, max_digits=3, max_position=6)
    model = Transformer(board_model(max_positions=7, d_model=32, n_layers=1))
    result = fit(model, Task(task_cfg), TrainConfig(steps=60, batch_size=16, lr=3e-3, warmup_steps=5, seed=0),
                 progress=False)
    assert result.losses[-1] < 0.75 * result.losses[0]                         # it learns something
    res = evaluate_lengths(model, Task(task_cfg), [2, 4], n=20)
    assert set(res) == {2, 4} and all(0.0 <= r.exact_match <= 1.0 for r in res.values())
    greedy = evaluate_lengths(model, Task(task_cfg), [2], n=20, greedy=True)[2].exact_match
    assert greedy == res[2].exact_match                                       # a decoder: same EM


def test_predict_refuses_boards_with_a_pointer_to_evaluate_lengths():
    """predict() decodes numbers; a board's answer is a grid, so it must refuse, not answer None."""
    from lengen_utils.core.evaluate import EvaluationError, predict
    model = Transformer(board_model())
    with pytest.raises(EvaluationError, match="item 0 is a minesweeper Board.*evaluate_lengths"):
        predict(model, Task(board_task()), [GOLDEN])


def test_cell_accuracy_reads_a_board_task_and_refuses_an_arithmetic_one():
    from lengen_utils.core.evaluate.boards import cell_accuracy, row_start_split

    torch.manual_seed(0)
    model = Transformer(board_model()).eval()
    grid = cell_accuracy(model, Task(board_task()), 3, 4)
    assert grid.shape == (3, 3) and ((grid >= 0) & (grid <= 1)).all()
    assert set(row_start_split(grid)) == {"first column (rows 2+)", "all other cells"}
    with pytest.raises(ValueError, match="cell_accuracy reads board tasks; this task is 'arithmetic'"):
        cell_accuracy(model, Task(TaskConfig(format="cho", positions="coupled", max_digits=2)), 3, 4)
