"""``bench flagship-time``: per-seed seconds, steps and reach of the one-minute flagship, and the targets' verdicts."""
from __future__ import annotations

import json

import pytest

from lengen_utils.lab.bench import main as bench_main
from lengen_utils.lab.flagship_time import summarize
from lengen_utils.lab.zoo import entry


def _row(seed, seconds, em):
    return {"seed": seed, "seconds": seconds, "steps": 800, "em": em}


def test_targets_are_judged_from_the_rows():
    good = {5: 1.0, 100: 0.996, 500: 0.95, 1000: 0.97}
    rows = [_row(0, 40.0, good), _row(1, 55.0, good), _row(2, 50.0, {**good, 1000: 0.10})]
    s = summarize(rows)
    assert s["median_seconds"] == 50.0 and s["max_seconds"] == 55.0
    assert s["median_em"][1000] == pytest.approx(0.97) and s["worst_em"][1000] == pytest.approx(0.10)
    assert all(s["targets"].values())
    slow = summarize(rows + [_row(3, 61.0, good)])["targets"]
    assert not slow["every seed trains in <= 60 s"]
    weak = summarize([_row(0, 10.0, {**good, 100: 0.99}), _row(1, 10.0, {**good, 500: 0.5})])["targets"]
    assert not weak["every seed >= 99.5% at every length to 100"] and not weak["worst seed >= 90% at 500 digits"]
    assert summarize([_row(0, 10.0, {5: 1.0})])["targets"]["median >= 95% at 1000 digits"] is None


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
