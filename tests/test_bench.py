"""The flagship benchmark's code path end to end, at a tiny budget (a few seconds on 2 cores)."""
from __future__ import annotations

import contextlib
import io
import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from lengen_utils.lab import bench, zoo
from lengen_utils.core.checkpoint import load_model
from lengen_utils.core.tasks import Task, TaskConfig

ROOT = Path(__file__).resolve().parents[1]
LENGTHS = (5, 10, 15, 20, 30, 40, 70, 100)
APE_LENGTHS = (5, 10, 15, 20, 30, 40)        # the APE table places 40-digit problems; 70 and 100 are skipped


def _check_results(results: dict, n_eval: int) -> None:
    assert results["benchmark"] == "flagship"
    assert isinstance(results["command"], str) and "flagship" in results["command"]
    cfg = results["config"]
    assert cfg["lengths"] == list(LENGTHS) and cfg["n_eval"] == n_eval
    for name, tested in (("coupled", LENGTHS), ("ape", APE_LENGTHS)):
        r = results[name]
        assert r["train_seconds"] > 0
        assert set(r["em"]) == {str(n) for n in tested}
        assert r["skipped_lengths"] == [n for n in LENGTHS if n not in tested]
        assert all(0.0 <= v <= 1.0 for v in r["em"].values())
        assert {"task", "model", "train"} <= set(r["recipe"])
    assert results["coupled"]["recipe"]["task"]["positions"] == "coupled_sink"
    ape = results["ape"]["recipe"]
    assert ape["task"]["positions"] == "consecutive" and not ape["task"]["random_start"]
    assert results["coupled"]["steps"] == results["ape"]["steps"]


def test_flagship_quick_in_process(tmp_path):
    results = bench.flagship(quick=True, steps=3, n_eval=8, out=tmp_path, progress=False,
                             command="python -m lengen_utils.lab.bench flagship --quick")
    _check_results(results, n_eval=8)
    saved = json.loads((tmp_path / "results.json").read_text())
    assert saved["coupled"]["em"] == results["coupled"]["em"]
    for name in ("coupled", "ape"):
        model, meta = load_model(tmp_path / f"{name}.safetensors")
        assert meta["name"] == name and meta["seed"] == 0 and meta["command"].endswith("--quick")
        assert {"task_config", "train_config", "metrics"} <= set(meta)
        assert (tmp_path / f"{name}.safetensors").stat().st_size < 5_000_000
    # the APE table places 40-digit problems ($ + 40 + 1 + 40 + 1 + 41 + $ = 125 tokens), and no more
    assert results["ape"]["recipe"]["model"]["max_positions"] == 125


def test_flagship_cli_json_parses():
    proc = subprocess.run([sys.executable, "-m", "lengen_utils.lab.bench", "flagship", "--quick", "--json",
                           "--steps", "2", "--n-eval", "5"],
                          cwd=ROOT, capture_output=True, text=True, timeout=120,
                          env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})
    # two steps master nothing: the JSON still prints, says why the comparison is void, and the exit status says so
    assert proc.returncode == bench.VOID_COMPARISON, proc.stderr
    results = json.loads(proc.stdout)
    _check_results(results, n_eval=5)
    assert results["comparison"]["void"] and results["comparison"]["reason"].startswith("comparison void:")


def _planted(coupled: dict, ape: dict | None = None) -> dict:
    results = {"coupled": {"em": {str(n): v for n, v in coupled.items()}}}
    if ape is not None:
        results["ape"] = {"em": {str(n): v for n, v in ape.items()}}
    return results


def test_void_reason_fair_when_both_master_their_range():
    assert bench.void_reason(_planted({5: 1.0, 10: 0.99, 40: 0.2}, {5: 0.999, 10: 0.96, 20: 0.0})) is None


def test_void_reason_names_the_baseline_that_misses_mastery():
    reason = bench.void_reason(_planted({5: 1.0, 10: 1.0, 100: 1.0}, {5: 1.0, 10: 0.11, 40: 0.0}))
    assert reason == ("comparison void: ape (11.0% at 10 digits) did not master the trained range 1-10 digits "
                      "(mastery: exact match > 95% at every tested length inside it)")
    assert "\n" not in reason


def test_void_reason_threshold_is_strict_and_lengths_past_the_range_do_not_count():
    # exactly 95% is not above the threshold (the leaderboard's rule); 0% at 40 digits is outside the range
    reason = bench.void_reason(_planted({5: 0.95, 10: 1.0}, {5: 1.0, 10: 1.0, 40: 0.0}))
    assert reason is not None and "coupled (95.0% at 5 digits)" in reason and "ape" not in reason


def test_void_reason_without_a_trained_length_refuses_and_one_model_compares_nothing():
    reason = bench.void_reason(_planted({20: 1.0, 40: 1.0}, {20: 0.0, 40: 0.0}))
    assert reason is not None and "mastery was not measured" in reason
    assert bench.void_reason(_planted({5: 0.0, 10: 0.0})) is None


def test_void_line_printed_in_the_table_run():
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        status = bench.main(["flagship", "--quick", "--steps", "1", "--n-eval", "2", "--lengths", "5,10",
                             "--threads", "1", "--no-progress"])
    assert status == 0
    void_lines = [line for line in out.getvalue().splitlines() if line.startswith("comparison void:")]
    assert len(void_lines) == 1 and "did not master the trained range 1-10 digits" in void_lines[0]


def test_overrides_reach_the_recipe():
    r = bench.with_overrides(bench.flagship_recipe(), ["model.d_model=32", "train.lr=0.01", "task.pack=2"])
    assert (r.model.d_model, r.train.lr, r.task.pack) == (32, 0.01, 2)
    with pytest.raises(ValueError, match="no field 'no_such_field'"):
        bench.with_overrides(r, ["model.no_such_field=1"])
    with pytest.raises(ValueError, match="unknown position encoding 'bogus'"):
        bench.with_overrides(r, ["model.encoding=bogus"])


def test_the_bench_trains_the_zoo_recipes():
    """One registry: the bench's default recipes are the zoo's flagship entries."""
    recipes = bench.flagship_recipes()
    assert recipes["coupled"].configs() == zoo.entry("flagship-coupled").configs()
    assert recipes["ape"].configs() == zoo.entry("flagship-ape").configs()
    # each model gets the budget under which it masters 1-10 digits (the fair-comparison rule)
    assert (recipes["coupled"].model.n_layers, recipes["coupled"].train.steps) == (1, 2000)
    assert (recipes["ape"].model.n_layers, recipes["ape"].train.steps) == (3, 10000)
    assert recipes["coupled"].train.batch_size * recipes["coupled"].task.pack == recipes["ape"].train.batch_size
    assert not hasattr(bench, "Recipe") and not hasattr(bench, "record_flagship")
    assert not hasattr(bench, "load_flagship")


def test_out_writes_only_inside_its_folder(tmp_path):
    manifest = (ROOT / "assets" / "manifest.json").read_bytes()
    out = tmp_path / "run"
    bench.flagship(steps=2, batch_size=8, n_eval=4, lengths=(5,), out=out, progress=False, command="test")
    assert sorted(p.name for p in tmp_path.rglob("*")) == ["ape.safetensors", "coupled.safetensors",
                                                          "results.json", "run"]
    assert (ROOT / "assets" / "manifest.json").read_bytes() == manifest


def test_lengths_past_a_table_are_skipped_and_reported(capsys):
    assert bench.main(["flagship", "--quick", "--steps", "1", "--n-eval", "2", "--lengths", "5,70", "--threads", "1",
                       "--no-progress"]) == 0
    out = capsys.readouterr().out
    assert "- : past the model's position table, not tested (ape: 70 digits)" in out.splitlines()   # (then a void
    # comparison line: one step masters nothing)
    ape_row = next(line for line in out.splitlines() if line.startswith("ape "))
    assert ape_row.split()[-1] == "-"
    with pytest.raises(ValueError, match="the ape model cannot run this benchmark: a 70-digit .* max_position=124"):
        bench.flagship(steps=1, lengths=(70,), models=("ape",), progress=False)


def test_steps_are_what_was_asked(tmp_path):
    results = bench.flagship(steps=3, batch_size=8, n_eval=4, lengths=(5,), models=("coupled",), progress=False)
    assert results["coupled"]["steps"] == 3 and results["config"]["steps"] == {"coupled": 3}
    for bad in (0, -5):
        with pytest.raises(ValueError, match=f"steps must be a positive integer .>= 1., got {bad}"):
            bench.flagship(steps=bad, progress=False)


def test_packed_training_sequences_use_disjoint_coupled_ranges():
    task = Task(TaskConfig(pack=4, max_position=64))
    batch = task.train_batch(np.random.default_rng(0), 16)
    assert batch.tokens.shape[0] == 16
    for b, ex in enumerate(batch.examples):
        ids = batch.position_ids[b, :len(ex)].tolist()
        assert ex.text().count("=") == 4 and max(ids) <= 64
        # split at the closing $ of each problem; the ID ranges (without the $'s 0) must not overlap
        ranges, cur = [], []
        for tok, i in zip(ex.tokens, ids):
            if tok != "$":
                cur.append(i)
            elif cur:
                ranges.append((min(cur), max(cur)))
                cur = []
        assert len(ranges) == 4
        ranges.sort()
        assert all(hi < lo2 for (_, hi), (lo2, _) in zip(ranges, ranges[1:]))
    # evaluation is never packed
    assert Task(TaskConfig(pack=4)).batch(task.eval_problems(5, 3)).examples[0].text().count("=") == 1



# == bench leaderboard: median [min-max] over seeds from the manifest =====================================
def _fake_record(name: str, em: dict, seconds: float) -> dict:
    return {"command": f"python -m lengen_utils.lab.zoo train {name}", "file": f"zoo/{name}.safetensors",
            "sha256": "0" * 64, "task": {}, "model": {}, "train_seconds": seconds,
            "metrics": {"em": {str(k): v for k, v in em.items()}}}


def _fake_assets(tmp_path: Path) -> Path:
    curves = {
        "nb05-plain-s0": {5: 1.0, 10: 1.0, 15: 0.74, 20: 0.19},
        "nb05-plain-s1": {5: 1.0, 10: 1.0, 15: 0.97, 20: 0.39},
        "nb05-plain-s2": {5: 1.0, 10: 0.99, 15: 0.98, 20: 0.50},
        "nb05-both-s1": {5: 1.0, 10: 1.0, 15: 1.0, 20: 0.99},
        "flagship-coupled": {5: 1.0, 10: 1.0, 15: 1.0, 20: 1.0},     # another tag: not on the board
    }
    manifest = {name: _fake_record(name, em, 100.0 + i) for i, (name, em) in enumerate(curves.items())}
    (tmp_path / "manifest.json").write_text(json.dumps(manifest))
    return tmp_path


def test_leaderboard_groups_seeds_and_finds_the_generalizable_length(tmp_path):
    from lengen_utils.lab.leaderboard import format_leaderboard, leaderboard
    board = leaderboard("nb05", assets=_fake_assets(tmp_path))
    assert list(board["methods"]) == ["nb05-plain", "nb05-both"]          # catalog order
    plain = board["methods"]["nb05-plain"]
    assert plain["seeds"] == [0, 1, 2] and plain["train_seconds"] == [100.0, 101.0, 102.0]
    assert plain["lengths"][15] == {"median": 0.97, "min": 0.74, "max": 0.98}
    assert plain["generalizable_length"] == 15
    assert board["methods"]["nb05-both"]["generalizable_length"] == 20
    assert "nb05-plain-s0" not in board["missing"] and "nb05-bias-s0" in board["missing"]
    text = format_leaderboard(board)
    assert "97.0 [74.0-98.0]" in text and "flagship-coupled" not in text and "not built" in text


def test_leaderboard_cli_json_and_table(tmp_path):
    env = {"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin", "LENGEN_ASSETS": str(_fake_assets(tmp_path))}
    run = lambda *a: subprocess.run([sys.executable, "-m", "lengen_utils.lab.bench", "leaderboard", *a], cwd=ROOT,
                                    capture_output=True, text=True, timeout=120, env=env)
    proc = run("--json")
    assert proc.returncode == 0, proc.stderr
    board = json.loads(proc.stdout)
    assert board["tag"] == "nb05" and board["threshold"] == 0.95
    assert board["methods"]["nb05-plain"]["lengths"]["20"]["median"] == 0.39
    assert board["methods"]["nb05-plain"]["generalizable_length"] == 15
    proc = run("--threshold", "0.98")
    assert proc.returncode == 0 and "nb05-plain" in proc.stdout
    proc = run("--tag", "no-such-tag")
    assert proc.returncode == 2 and "no zoo entry is tagged 'no-such-tag'" in proc.stderr


def test_leaderboard_reports_the_budget_and_refuses_a_length_to_a_method_that_fails_in_distribution(tmp_path):
    from lengen_utils.lab.leaderboard import format_leaderboard, leaderboard
    assets = _fake_assets(tmp_path)
    board = leaderboard("nb05", assets=assets)
    plain = board["methods"]["nb05-plain"]
    assert plain["mastered"] and plain["trained_digits"] == 10
    assert plain["budget"] == {"layers": 1, "heads": 4, "d_model": 64, "steps": 2000, "problems_per_step": 128}
    # the same seeds, one of them failing at 10 digits: the median (0.5) no longer exceeds 95% in distribution
    manifest = json.loads((assets / "manifest.json").read_text())
    for name in ("nb05-plain-s0", "nb05-plain-s1"):
        manifest[name]["metrics"]["em"]["10"] = 0.5
    (assets / "manifest.json").write_text(json.dumps(manifest))
    board = leaderboard("nb05", assets=assets)
    assert not board["methods"]["nb05-plain"]["mastered"] and board["methods"]["nb05-both"]["mastered"]
    row = next(line for line in format_leaderboard(board).splitlines() if line.startswith("nb05-plain "))
    assert row.endswith("not mastered") and "1L x 2000 x 128" in row


def test_leaderboard_rows_for_a_notebook_table(tmp_path):
    from lengen_utils.lab.leaderboard import leaderboard, leaderboard_rows
    board = leaderboard("nb05", assets=_fake_assets(tmp_path))
    rows = leaderboard_rows(board, {"nb05-plain": "plain coupling"})
    assert list(rows) == ["plain coupling"]
    row = rows["plain coupling"]
    assert row["seeds"] == "3" and row["budget"] == "1L x 2000 x 128" and row["train s"] == "100–102"
    assert row["15 dig"] == "97.0 [74.0–98.0]" and row["gen. length"] == "15"
    assert set(leaderboard_rows(board)) == {"nb05-plain", "nb05-both"}     # every method under its own name


def test_median_bands_for_the_plot(tmp_path):
    from lengen_utils.lab.leaderboard import leaderboard, median_bands
    bands = median_bands(leaderboard("nb05", assets=_fake_assets(tmp_path)), {"nb05-plain": "plain"})
    assert bands == {"plain": {5: (1.0, 1.0, 1.0), 10: (1.0, 0.99, 1.0), 15: (0.97, 0.74, 0.98),
                               20: (0.39, 0.19, 0.5)}}


def test_leaderboard_reads_runs_recorded_without_their_weights():
    """Record-only GPU runs (assets/records.json) stand in their tag's leaderboard beside the stored ones."""
    from lengen_utils.lab.leaderboard import leaderboard
    from lengen_utils.lab.zoo.records import read_records
    board = leaderboard("sabbaghi-m2-k3")
    b256 = board["methods"]["sabbaghi-upe-m3-b256"]
    assert b256["seeds"] == [0, 1, 2] and all(name in read_records() for name in b256["entries"])
    at16 = sorted(read_records()[name]["metrics"]["em"]["16"] for name in b256["entries"])
    assert b256["lengths"][16]["median"] == pytest.approx(at16[1])
    assert "sabbaghi-upe-m3-9l" in board["methods"] and not board["missing"]
