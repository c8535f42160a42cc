"""The zoo: build -> manifest -> load -> verify; the flagship entries; nothing lost on failure or Ctrl-C;
clear one-line refusals from the command line before anything trains."""
from __future__ import annotations

import hashlib
import json
import os
import shutil
import signal
import subprocess
import sys
import threading
import time
from dataclasses import replace
from pathlib import Path

import pytest
from planted_records import full_record

from lengen_utils.lab import zoo
from lengen_utils.core.checkpoint import CheckpointError
from lengen_utils.core.model import ModelConfig
from lengen_utils.core.tasks import Task, TaskConfig
from lengen_utils.core.train import TrainConfig
from lengen_utils.lab.zoo import builder as zoo_build
from lengen_utils.lab.zoo import manifest as zoo_manifest
from lengen_utils.lab.zoo import store as zoo_store
from cli_run import run_cli

ROOT = Path(__file__).resolve().parents[1]
TINY = zoo.ZooEntry(
    recipe="test-tiny", seeded=False, description="a few steps, for tests",
    task=TaskConfig(format="cho", positions="coupled", max_digits=2, max_position=8),
    model=ModelConfig(d_model=16, n_heads=2, d_ff=32, max_positions=9),
    train=TrainConfig(steps=30, batch_size=16, lr=3e-3, warmup_steps=3, seed=1),
    eval_lengths=(1, 2), eval_n=50,
)


@pytest.fixture()
def tiny_zoo(tmp_path, monkeypatch):
    monkeypatch.setitem(zoo.catalog(), TINY.name, TINY)
    zoo.build(TINY.name, progress=False, assets=tmp_path)
    return tmp_path


def _snapshot(folder: Path) -> dict[str, str]:
    """Every file under ``folder`` (hidden temporaries included, the writers' empty lock file not) with
    its sha256."""
    return {str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file() and p.name != zoo_manifest.LOCK}


# -- build / load / verify ------------------------------------------------------------------------
def test_build_records_everything(tiny_zoo):
    rec = zoo.manifest_record(TINY.name, tiny_zoo)
    assert rec["command"] == "python -m lengen_utils.lab.zoo train test-tiny"
    assert rec["seed"] == 1 and rec["task"]["max_digits"] == 2 and rec["model"]["d_model"] == 16
    assert rec["metrics"]["eval_seed"] == 999 and rec["train"]["seed"] == 1
    assert set(rec["metrics"]["em"]) == {"1", "2"} and len(rec["sha256"]) == 64
    assert rec["file"] == "zoo/test-tiny.safetensors"
    model, task = zoo.load(TINY.name, assets=tiny_zoo)
    assert model.cfg == TINY.model and task.config == TINY.task
    assert sorted(_snapshot(tiny_zoo)) == ["manifest.json", "zoo/test-tiny.safetensors"]  # no temporaries


def test_verify_reproduces_from_scratch(tiny_zoo):
    report = zoo.verify(TINY.name, tolerance=0.0, assets=tiny_zoo)
    assert report["retrained"] == report["recorded"] == report["cached"]


def test_tampered_asset_names_the_rebuild_command(tiny_zoo):
    path = tiny_zoo / zoo.manifest_record(TINY.name, tiny_zoo)["file"]
    data = bytearray(path.read_bytes())
    data[-1] ^= 1
    path.write_bytes(bytes(data))
    with pytest.raises(CheckpointError, match="python -m lengen_utils.lab.zoo train test-tiny"):
        zoo.load(TINY.name, assets=tiny_zoo)


def test_missing_asset(tiny_zoo):
    (tiny_zoo / zoo.manifest_record(TINY.name, tiny_zoo)["file"]).unlink()
    with pytest.raises(CheckpointError, match="no checkpoint at .*Rebuild it with"):
        zoo.load(TINY.name, assets=tiny_zoo)


def test_rebuilding_one_entry_keeps_the_others(tiny_zoo):
    zoo.record_in_manifest("other", full_record(), tiny_zoo)
    zoo.build(TINY.name, progress=False, assets=tiny_zoo)
    manifest = json.loads((tiny_zoo / "manifest.json").read_text())
    assert set(manifest) == {"other", TINY.name}


def test_unknown_names_are_clear(tmp_path):
    with pytest.raises(zoo.ZooError, match="unknown zoo entry 'nope'.*`python -m lengen_utils.lab.zoo list` lists the"):
        zoo.entry("nope")
    with pytest.raises(zoo.ZooError, match="'x' is not built.*python -m lengen_utils.lab.zoo train x"):
        zoo.manifest_record("x", tmp_path)


def test_catalog_entries_are_consistent():
    for name, e in zoo.catalog().items():
        assert e.name == name
        assert e.model.causal == (e.task.format != "sabbaghi"), name
        assert e.eval_n >= 100


# -- the manifest's shape ---------------------------------------------------------------------------
@pytest.mark.parametrize("content, problem", [
    ("[1, 2]", "holds a JSON list; the manifest must be a JSON object"),
    ('{"test-tiny": 3}', "are not JSON objects"),
    ("{not json", "is not valid JSON"),
])
def test_a_manifest_of_the_wrong_shape_is_named(tmp_path, content, problem):
    (tmp_path / "manifest.json").write_text(content)
    with pytest.raises(zoo.ZooError, match=problem):
        zoo.read_manifest(tmp_path)


@pytest.mark.parametrize("drop", ["sha256", "file", "metrics"])
def test_a_record_without_a_required_key_is_named(tiny_zoo, drop):
    manifest = json.loads((tiny_zoo / "manifest.json").read_text())
    del manifest[TINY.name][drop]
    (tiny_zoo / "manifest.json").write_text(json.dumps(manifest))
    with pytest.raises(zoo.ZooError, match=f"lacks '{drop}'.*zoo train test-tiny"):
        zoo.load(TINY.name, assets=tiny_zoo)
    with pytest.raises(zoo.ZooError, match=f"lacks '{drop}'"):
        zoo.metrics(TINY.name, assets=tiny_zoo)


# -- nothing is lost --------------------------------------------------------------------------------
def test_a_failed_manifest_write_keeps_the_old_asset(tiny_zoo, monkeypatch):
    before = _snapshot(tiny_zoo)
    real_replace = os.replace

    def failing_replace(src, dst):
        if Path(dst).name == "manifest.json":
            raise OSError(28, "No space left on device")
        return real_replace(src, dst)

    monkeypatch.setattr(os, "replace", failing_replace)
    with pytest.raises(zoo.ZooError, match="No space left"):       # one line naming the fault (issue 50)
        zoo.build(TINY.name, progress=False, assets=tiny_zoo)
    monkeypatch.setattr(os, "replace", real_replace)
    assert _snapshot(tiny_zoo) == before
    zoo.load(TINY.name, assets=tiny_zoo)          # the old asset still matches the old manifest


def test_a_failed_asset_write_changes_nothing(tiny_zoo, monkeypatch):
    before = _snapshot(tiny_zoo)

    def broken_save(*args, **kwargs):
        raise OSError(5, "Input/output error")

    monkeypatch.setattr(zoo_build, "save_model", broken_save)
    with pytest.raises(zoo.ZooError, match="Input/output error"):    # one line naming the fault (issue 50)
        zoo.build(TINY.name, progress=False, assets=tiny_zoo)
    assert _snapshot(tiny_zoo) == before


def test_ctrl_c_during_the_commit_is_held_until_both_files_are_written():
    with pytest.raises(KeyboardInterrupt):
        with zoo_store.sigint_deferred():
            os.kill(os.getpid(), signal.SIGINT)
            time.sleep(0.05)
            reached = True                     # the signal did not cut the block short
    assert reached


def test_build_refuses_an_unwritable_assets_folder_before_training(tmp_path, monkeypatch):
    monkeypatch.setitem(zoo.catalog(), TINY.name, TINY)
    monkeypatch.setattr(zoo_build, "train_entry", lambda *a, **k: pytest.fail("trained before checking"))
    blocker = tmp_path / "assets"
    blocker.write_text("a file where the assets folder should be")
    with pytest.raises(zoo.ZooError, match="cannot write to the assets folder"):
        zoo.build(TINY.name, progress=False, assets=blocker)


@pytest.mark.skipif(os.name != "posix" or os.geteuid() == 0, reason="root may write into a read-only folder")
def test_build_refuses_a_read_only_assets_folder_before_training(tmp_path, monkeypatch):
    monkeypatch.setitem(zoo.catalog(), TINY.name, TINY)
    monkeypatch.setattr(zoo_build, "train_entry", lambda *a, **k: pytest.fail("trained before checking"))
    tmp_path.chmod(0o555)
    try:
        with pytest.raises(zoo.ZooError, match="cannot write to the assets folder"):
            zoo.build(TINY.name, progress=False, assets=tmp_path)
    finally:
        tmp_path.chmod(0o755)


def _sigint_copy(tmp_path: Path) -> Path:
    assets = tmp_path / "assets"
    (assets / "zoo").mkdir(parents=True)
    shutil.copy(ROOT / "assets" / "manifest.json", assets / "manifest.json")
    smoke = ROOT / "assets" / "zoo" / "smoke-coupled-3.safetensors"
    if smoke.exists():
        shutil.copy(smoke, assets / "zoo" / smoke.name)
    return assets


@pytest.mark.slow
def test_an_interrupted_zoo_train_leaves_asset_and_manifest_as_they_were(tmp_path):
    assets = _sigint_copy(tmp_path)
    before = _snapshot(assets)
    env = {**os.environ, "LENGEN_ASSETS": str(assets), "LENGEN_THREADS": "1", "OMP_NUM_THREADS": "1",
           "PYTHONPATH": str(ROOT)}
    # a runner started in the background (`cmd &` without job control) ignores SIGINT, and a child would
    # inherit that and never see Ctrl-C: give the child the default handling, as a terminal would
    proc = subprocess.Popen([sys.executable, "-m", "lengen_utils.lab.zoo", "train", "--replace", "smoke-coupled-3"], cwd=ROOT,
                            env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    seen = bytearray()
    started = threading.Event()

    def read_stderr() -> None:
        for chunk in iter(lambda: proc.stderr.read1(256), b""):
            seen.extend(chunk)
            if b"smoke-coupled-3:" in seen and b"/400" in seen:     # the training bar has appeared
                started.set()

    threading.Thread(target=read_stderr, daemon=True).start()
    assert started.wait(120), f"training never started: {bytes(seen[-500:])!r}"
    time.sleep(0.5)                                                 # some steps into training
    proc.send_signal(signal.SIGINT)
    assert proc.wait(60) == 130, bytes(seen[-500:])
    assert b"interrupted; the assets and the manifest are as they were" in seen
    assert b"Traceback" not in seen
    assert _snapshot(assets) == before


# -- the flagship entries ---------------------------------------------------------------------------
def test_flagship_names_are_aliases_of_one_run_each():
    """flagship-coupled and flagship-ape are other names of nb05-sink-s0 and nb05-base-ape-s0: one training run,
    one checkpoint, one record each, whose configs are those of the bench's recipe functions."""
    coupled, ape = zoo.entry("flagship-coupled"), zoo.entry("flagship-ape")
    assert (coupled.name, ape.name) == ("nb05-sink-s0", "nb05-base-ape-s0")
    assert coupled.configs() == zoo.flagship_recipe().configs() and ape.configs() == zoo.ape_recipe().configs()
    assert coupled.task.positions == "coupled_sink" and ape.task.positions == "consecutive"
    assert set(zoo.flagship.LENGTHS) <= set(coupled.eval_lengths)
    assert max(ape.eval_lengths) <= Task(ape.task).longest_operand()      # the lengths its table places
    rec = zoo.manifest_record("flagship-coupled")
    assert rec == zoo.manifest_record("nb05-sink-s0") and rec["file"] == "zoo/nb05-sink-s0.safetensors"
    assert TrainConfig.from_dict(rec["train"]) == coupled.train        # a record older than a field lacks it
    assert not {"flagship-coupled", "flagship-ape"} & set(zoo.read_manifest())   # aliases: no record of their own
    assert zoo.resolve("flagship-ape") == "nb05-base-ape-s0" and zoo.resolve("nb05-sink-s1") == "nb05-sink-s1"
    with pytest.raises(ValueError, match="registered twice"):
        zoo.register(replace(coupled, recipe="flagship-coupled", seeded=False))


def test_the_flagship_is_the_sink_recipe_and_its_seeds_are_nb05_sink():
    """flagship-coupled = coupled_recipe with the sink and IDs to 128; nb05-sink-sN are its seeds."""
    flagship, variant = zoo.entry("flagship-coupled"), zoo.coupled_recipe()
    assert (flagship.task.max_position, flagship.model.max_positions) == (128, 129)
    assert flagship.task.with_(positions="coupled", max_position=64) == variant.task
    assert flagship.train == variant.train
    for seed in range(5):
        sink = zoo.entry(f"nb05-sink-s{seed}")
        assert sink.configs() == zoo.flagship_recipe(seed=seed).configs()


def test_flagship_load_and_metrics_as_the_notebooks_call_them():
    model, task = zoo.load("flagship-coupled")
    assert task.config == zoo.entry("flagship-coupled").task and model.cfg.relative_bias
    em = zoo.metrics("flagship-coupled")
    assert set(em) == set(zoo.entry("flagship-coupled").eval_lengths) and all(isinstance(v, float) for v in em.values())
    assert set(zoo.per_digit("flagship-coupled")) == set(em)
    assert set(zoo.per_digit("flagship-ape")) == set(zoo.metrics("flagship-ape")) == set(zoo.entry("flagship-ape").eval_lengths)


@pytest.mark.slow
def test_flagship_cached_files_reproduce_their_records():
    for name in ("flagship-coupled", "flagship-ape"):
        report = zoo.verify(name, retrain=False)
        assert report["cached"] == report["recorded"]


# -- the command line -------------------------------------------------------------------------------
def _zoo_cli(argv, capsys) -> tuple[int, str]:
    return run_cli(zoo.main, argv, capsys)


BAD_ZOO = [
    (["verify", "no-such-entry"], {}, ["unknown zoo entry 'no-such-entry'", "lists the"]),
    (["train", "nb05-plain-s9"], {}, ["unknown zoo entry 'nb05-plain-s9' (closest: nb05-plain-s2, nb05-plain-s1, nb05-plain-s0", "lists the"]),
    (["train", "smoke-coupled-3", "nope"], {}, ["unknown zoo entry 'nope'"]),
    (["train"], {}, ["name an entry, or use --all / --tag"]),
    (["train", "--tag", "nope"], {}, ["no entry has the tag 'nope'", "tags: ", "flagship"]),
    (["verify", "flagship-coupled", "--tolerance", "2"], {}, ["--tolerance", "between 0 and 1", "got 2"]),
    (["verify", "flagship-coupled", "--tolerance", "x"], {}, ["--tolerance", "'x'"]),
    (["verify"], {}, ["name the entries to verify, or use --all"]),
    (["verify", "--all", "flagship-coupled"], {}, ["verify --all checks every built entry; give it no names"]),
    (["frobnicate"], {}, ["invalid choice: 'frobnicate'"]),
    (["train", "smoke-coupled-3"], {"LENGEN_THREADS": "abc"}, ["LENGEN_THREADS must be a positive integer", "'abc'"]),
    (["train", "smoke-coupled-3"], {"LENGEN_THREADS": "0"}, ["LENGEN_THREADS", ">= 1", "got 0"]),
]


@pytest.mark.parametrize("argv, env, words", BAD_ZOO, ids=[" ".join(a) + "".join(e) for a, e, _ in BAD_ZOO])
def test_zoo_cli_refuses_bad_arguments_in_one_line(argv, env, words, capsys, monkeypatch):
    for k, v in env.items():
        monkeypatch.setenv(k, v)
    monkeypatch.setattr(zoo_build, "train_entry", lambda *a, **k: pytest.fail("trained before refusing"))
    code, err = _zoo_cli(argv, capsys)
    assert code == 2 and err.count("\n") == 1 and "Traceback" not in err, err
    for word in words:
        assert word in err, err
    assert "zoo train no-such-entry" not in err


_NO_SHA = {"smoke-coupled-3": {"command": "c", "file": "zoo/x", "task": {}, "model": {}, "metrics": {"em": {}}}}
BAD_ASSETS = [
    ("train", "[1, 2]", "holds a JSON list; the manifest must be a JSON object"),
    ("verify", "[1, 2]", "holds a JSON list; the manifest must be a JSON object"),
    ("verify", json.dumps(_NO_SHA), "the record of 'smoke-coupled-3' in "),
    ("verify", json.dumps(_NO_SHA), "lacks 'sha256'"),
    ("train", '{"smoke-coupled-3": [1]}', "are not JSON objects"),
]


@pytest.mark.parametrize("cmd, content, words", BAD_ASSETS)
def test_zoo_cli_names_a_broken_manifest(tmp_path, monkeypatch, capsys, cmd, content, words):
    (tmp_path / "manifest.json").write_text(content)
    monkeypatch.setenv("LENGEN_ASSETS", str(tmp_path))
    monkeypatch.setattr(zoo_build, "train_entry", lambda *a, **k: pytest.fail("trained before refusing"))
    code, err = _zoo_cli([cmd, "smoke-coupled-3"], capsys)
    assert code == 2 and words in err and err.count("\n") == 1 and "Traceback" not in err, err


def test_zoo_cli_refuses_an_unwritable_assets_folder(tmp_path, monkeypatch, capsys):
    blocker = tmp_path / "assets"
    blocker.write_text("not a folder")
    monkeypatch.setenv("LENGEN_ASSETS", str(blocker))
    monkeypatch.setattr(zoo_build, "train_entry", lambda *a, **k: pytest.fail("trained before refusing"))
    code, err = _zoo_cli(["train", "smoke-coupled-3"], capsys)
    assert code == 2 and "cannot write to the assets folder" in err, err


def test_zoo_list_shows_the_flagship_entries(capsys):
    assert zoo.main(["list"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert any(line.startswith("flagship-coupled ") and "built" in line and "another name of nb05-sink-s0" in line
               for line in lines)
    assert any(line.startswith("flagship-ape ") for line in lines)


def test_python_dash_m_zoo_runs_without_a_traceback():
    proc = subprocess.run([sys.executable, "-m", "lengen_utils.lab.zoo", "verify", "no-such-entry"], cwd=ROOT,
                          capture_output=True, text=True, timeout=120,
                          env={**os.environ, "PYTHONPATH": str(ROOT), "LENGEN_THREADS": "1"})
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert "unknown zoo entry 'no-such-entry'" in proc.stderr


def test_nb05_ablation_differs_from_the_flagship_only_where_it_says():
    """nb05-both-s0 trains exactly as coupled_recipe; plain/bias/pack drop bias and/or packing, same budget."""
    flagship = zoo.coupled_recipe()
    assert zoo.entry("nb05-both-s0").configs() == flagship.configs()
    for method in ("plain", "bias", "pack", "both"):
        for seed in (0, 1, 2):
            e = zoo.entry(f"nb05-{method}-s{seed}")
            assert e.tags[0] == "nb05" and e.seed == seed
            assert ("nb05-baselines" in e.tags) == (method in ("plain", "both"))   # section 5's leaderboard
            assert e.eval_lengths == (5, 10, 15, 20, 25, 30, 40)
            assert e.model.relative_bias == (method in ("bias", "both"))
            assert e.task.pack == (4 if method in ("pack", "both") else 1)
            assert e.train.batch_size * e.task.pack == 128 and e.train.steps == flagship.train.steps
            assert e.task.positions == "coupled" and e.task.random_start and e.model.n_layers == 1
            assert (e.task.max_digits, e.task.sampler, e.model.encoding) == (10, "balanced", "learned")


def test_concurrent_records_are_all_kept(tmp_path, monkeypatch):
    """Two writers recording at once (two `zoo train` runs) must not drop each other's records: the
    read-change-replace of the manifest runs under a lock. A slowed-down reader widens the race."""
    real_read = zoo_store.read_manifest

    def slow_read(assets=None):
        manifest = real_read(assets)
        time.sleep(0.002)
        return manifest

    monkeypatch.setattr(zoo_store, "read_manifest", slow_read)

    def writer(prefix: str) -> None:
        for i in range(20):
            zoo_store.record_in_manifest(f"{prefix}{i}", full_record(), tmp_path)

    threads = [threading.Thread(target=writer, args=(p,)) for p in "ab"]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(zoo_manifest.read_manifest(tmp_path)) == sorted(f"{p}{i}" for p in "ab" for i in range(20))


# -- migrate: format-1 checkpoints rewritten in the current format -------------------------------------
def _as_format_1(assets: Path) -> Path:
    """Turn the tiny entry's asset into a format-1 file, recorded in the manifest as a committed one."""
    from safetensors_edit import edit_metadata
    from lengen_utils.core.checkpoint import file_sha256

    path = assets / "zoo" / f"{TINY.name}.safetensors"
    edit_metadata(path, lambda meta: (meta.update(lengen_format="1"), meta.pop("record_sha256")))
    record = zoo.manifest_record(TINY.name, assets)
    zoo_store.record_in_manifest(TINY.name, {**record, "sha256": file_sha256(path)}, assets)
    return path


def test_zoo_migrate_rewrites_format_1_and_remeasures(tiny_zoo, monkeypatch, capsys):
    from lengen_utils.core.checkpoint import file_sha256, load_model, stored_format
    path = _as_format_1(tiny_zoo)
    with pytest.raises(CheckpointError, match="format-1 checkpoint"):
        load_model(path)
    monkeypatch.setenv("LENGEN_ASSETS", str(tiny_zoo))
    monkeypatch.setattr(zoo_build, "train_entry", lambda *a, **k: pytest.fail("migrate must not train"))
    assert zoo.main(["migrate"]) == 0
    out = capsys.readouterr().out
    assert f"{TINY.name}: " in out and "verified, EM 1: " in out
    assert "1 of 1 checkpoint(s) migrated, every one re-measured equal to the manifest" in out
    assert stored_format(path) == "2" and file_sha256(path) == zoo.manifest_record(TINY.name, tiny_zoo)["sha256"]
    load_model(path)                                                     # no flag needed any more
    assert zoo.main(["migrate"]) == 0                                    # nothing left to do
    assert "0 of 0 checkpoint(s) migrated" in capsys.readouterr().out


def test_zoo_migrate_refuses_a_file_that_differs_from_its_record(tiny_zoo, monkeypatch, capsys):
    path = _as_format_1(tiny_zoo)
    from safetensors_edit import edit_metadata
    edit_metadata(path, lambda meta: meta.update(metadata=json.dumps({"zoo_name": "forged"})))
    before = _snapshot(tiny_zoo)
    monkeypatch.setenv("LENGEN_ASSETS", str(tiny_zoo))
    code, err = _zoo_cli(["migrate", TINY.name], capsys)
    assert code == 1 and "does not match the sha256 recorded for 'test-tiny'" in err and "git checkout" in err, err
    assert _snapshot(tiny_zoo) == before


def test_a_mistyped_lengen_assets_is_named(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("LENGEN_ASSETS", str(tmp_path / "asets"))
    code, err = _zoo_cli(["list"], capsys)
    assert code == 2 and f"LENGEN_ASSETS='{tmp_path / 'asets'}' names no file or folder" in err, err
    assert "unset it to use" in err and "not built" not in err


# -- learning curves (notebook 08's sample efficiency) --------------------------------------------------
def test_an_entry_with_curve_every_records_its_learning_curve(tmp_path, monkeypatch):
    from dataclasses import replace
    curved = replace(TINY, recipe="test-curve", train=replace(TINY.train, steps=100), curve_every=50)
    monkeypatch.setitem(zoo.catalog(), curved.name, curved)
    zoo.build(curved.name, progress=False, assets=tmp_path)
    curve = zoo.manifest_record(curved.name, tmp_path)["learning_curve"]
    assert curve["steps"] == [50, 100] and curve["length"] == 2 and curve["n"] == 200
    assert all(0.0 <= em <= 1.0 for em in curve["em"])
    # the last point measures the final model (float32 then, so within a few problems of the stored EM at 2)
    model, task = zoo.load(curved.name, assets=tmp_path)
    from lengen_utils.core.evaluate import evaluate_lengths
    from lengen_utils.lab.zoo.builder import CURVE_N, CURVE_SEED
    live = evaluate_lengths(model, task, [2], n=CURVE_N, seed=CURVE_SEED)[2].exact_match
    assert abs(live - curve["em"][-1]) <= 0.05


def test_an_entry_without_curve_every_records_none(tiny_zoo):
    assert "learning_curve" not in zoo.manifest_record(TINY.name, tiny_zoo)


@pytest.mark.parametrize("bad", [-50, 30, 1.5])
def test_curve_every_must_be_a_multiple_of_the_logged_steps(bad):
    from dataclasses import replace
    with pytest.raises(ValueError, match="curve_every must be 0 or a positive multiple of 50"):
        replace(TINY, curve_every=bad)


def test_zoo_verify_all_re_measures_every_built_entry(tiny_zoo, monkeypatch, capsys):
    monkeypatch.setenv("LENGEN_ASSETS", str(tiny_zoo))
    assert zoo.main(["verify", "--all", "--no-retrain"]) == 0
    out = capsys.readouterr().out
    assert f"{TINY.name}: verified (" in out and "1 of 1 built entries verified" in out
    record = zoo.manifest_record(TINY.name, tiny_zoo)
    record["metrics"]["em"]["1"] = 0.5                                  # a record the file no longer reproduces
    zoo_store.record_in_manifest(TINY.name, record, tiny_zoo)
    assert zoo.main(["verify", "--all", "--no-retrain"]) == 1
