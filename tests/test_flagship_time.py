"""``bench flagship-time``: per-seed seconds, steps and reach of the one-minute flagship, and the targets' verdicts."""
from __future__ import annotations

import json

import pytest

from lengen_utils.lab.bench import main as bench_main
from lengen_utils.lab.flagship_time import format_flagship_time, summarize
from lengen_utils.lab.zoo import entry


def _row(seed, seconds, em):
    return {"seed": seed, "seconds": seconds, "steps": 800, "em": em}


def test_targets_are_judged_from_the_rows():
    good = {5: 1.0, 100: 0.996, 500: 0.95, 1000: 0.97}
    rows = [_row(0, 20.0, good), _row(1, 29.0, good), _row(2, 25.0, {**good, 1000: 0.96})]
    s = summarize(rows)
    assert s["median_seconds"] == 25.0 and s["max_seconds"] == 29.0
    assert s["median_em"][1000] == pytest.approx(0.97) and s["worst_em"][1000] == pytest.approx(0.96)
    assert s["worst_seed"] == {"seed": 0, "length": 500, "em": 0.95, "seconds": 20.0}
    assert all(s["targets"].values())
    slow = summarize(rows + [_row(3, 31.0, good)])["targets"]
    assert not slow["every seed trains in <= 30 s"]
    # one seed of ten below 95% at 1000 digits fails the target, whatever the median says
    lottery = summarize([_row(k, 20.0, good) for k in range(9)] + [_row(9, 20.0, {**good, 1000: 0.582})])
    assert lottery["median_em"][1000] == pytest.approx(0.97)
    assert not lottery["targets"]["every seed >= 95% at 1000 digits"]
    assert lottery["worst_seed"] == {"seed": 9, "length": 1000, "em": 0.582, "seconds": 20.0}
    weak = summarize([_row(0, 10.0, {**good, 100: 0.99}), _row(1, 10.0, good)])["targets"]
    assert not weak["every seed >= 99.5% at every length to 100"] and weak["every seed >= 95% at 1000 digits"]
    assert summarize([_row(0, 10.0, {5: 1.0})])["targets"]["every seed >= 95% at 1000 digits"] is None


def test_the_table_names_the_worst_seed_and_the_verdicts():
    good = {5: 1.0, 100: 1.0, 1000: 1.0}
    rows = [_row(0, 20.0, good), _row(1, 21.0, {**good, 1000: 0.582})]
    result = {"seeds": rows, "summary": summarize(rows),
              "config": {"recipe": "flagship-minute", "lr": 3e-3, "steps": 800, "batch_problems": 96, "pack": 16,
                         "n": 1000, "n_long": 200}}
    text = format_flagship_time(result, threads=1)
    assert "worst seed: seed 1, 58.2% at 1000 digits" in text
    assert "FAILS: every seed >= 95% at 1000 digits" in text and "holds: every seed trains in <= 30 s" in text


def test_a_short_run_prints_seconds_steps_and_exact_match(capsys):
    assert bench_main(["flagship-time", "--seeds", "2", "--steps", "60", "--lengths", "5,20", "--n", "20",
                       "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert [r["seed"] for r in out["seeds"]] == [0, 1]
    for r in out["seeds"]:
        assert r["seconds"] > 0 and 1 <= r["steps"] <= 60 and set(r["em"]) == {"5", "20"}
    assert out["config"]["threads"] == 1 and out["config"]["recipe"] == "flagship-minute"


def test_the_bench_trains_the_zoo_recipe():
    e = entry("flagship-minute-s3")
    assert e.train.seed == 3 and e.task.max_digits == 10 and e.model.length_scale and e.model.encoding == "none"


@pytest.mark.parametrize("args, message", [
    (["--lengths", "5,5000"], "past the recipe's IDs"),
    (["--seeds", "0"], "--seeds"),
    (["--pack", "0"], "--pack"),
    (["--lengths", "five"], "not an integer"),
])
def test_bad_arguments_get_one_line(args, message, capsys):
    try:
        status = bench_main(["flagship-time", *args])
    except SystemExit as exit_:               # argparse's own refusals exit
        status = exit_.code
    assert status == 2
    err = capsys.readouterr().err.strip()
    assert message in err and len(err.splitlines()) == 1


def test_pack_and_batch_size_knobs_change_only_the_run():
    from lengen_utils.lab.zoo.flagship import MINUTE_BATCH, MINUTE_PACK, minute_recipe
    tried = minute_recipe(seed=2, batch_size=64, pack=32)
    assert tried.task.pack == 32 and tried.train.batch_size * tried.task.pack == 64
    assert "32 to a sequence" in tried.description
    default = minute_recipe(seed=2)
    assert default.task.pack == MINUTE_PACK and default.train.batch_size * default.task.pack == MINUTE_BATCH
    # the zoo entries keep the recipe's own packing
    assert entry("flagship-minute-s2").configs() == default.configs()

