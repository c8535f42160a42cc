"""The flagship's retrain button (notebooks 00 and 05), driven without a browser."""
import pytest

pytest.importorskip("ipywidgets")

from lengen_utils.course.widgets import flagship_retrain as FR  # noqa: E402

RECORD = {"train_seconds": 31.0, "threads": 1, "device": "cpu"}


@pytest.fixture
def recorded(monkeypatch):
    monkeypatch.setattr(FR.zoo, "entry_record", lambda name: RECORD)


CACHED = {"flagship-minute-s0": {10: 1.0, 1000: 1.0}, "flagship-minute-s3": {10: 1.0, 1000: 0.5}}


def test_the_button_promises_the_recorded_time_and_the_seed_menu_switches_entry(recorded):
    w = FR.FlagshipRetrainer(cached=CACHED.get, retrain=lambda *a, **k: {})
    assert "flagship-minute-s0" in w.status.value and "31 s on 1 thread" in w.status.value
    assert "<td>1000</td><td>100.0%</td>" in w.table.value
    w.seed.value = 3
    assert w.name == "flagship-minute-s3" and "flagship-minute-s3" in w.status.value
    assert "<td>1000</td><td>50.0%</td>" in w.table.value


def test_a_retrain_shows_its_time_its_steps_and_both_models(recorded):
    seen = []

    def fake(name, n, on_step):
        on_step(100, 600)
        seen.append((name, n, w.progress.value, w.progress.max, w.button.disabled and w.seed.disabled))
        return {"seconds": 12.4, "steps": 600, "em": {10: 1.0, 1000: 0.905}}

    w = FR.FlagshipRetrainer(n=20, cached=CACHED.get, retrain=fake)
    out = w.retrain()
    assert seen == [("flagship-minute-s0", 20, 100, 600, True)]
    assert out["em"] == {10: 1.0, 1000: 0.905} and not w.button.disabled
    assert w.progress.layout.visibility == "hidden"
    assert "12 s" in w.status.value and "600 steps" in w.status.value
    assert "<td>1000</td><td>100.0%</td><td>90.5%</td>" in w.table.value


def test_a_failed_retrain_reenables_the_button(recorded):
    def broken(name, n, on_step):
        raise RuntimeError("out of memory")

    w = FR.FlagshipRetrainer(cached=CACHED.get, retrain=broken)
    with pytest.raises(RuntimeError, match="out of memory"):
        w.retrain()
    assert not w.button.disabled and not w.seed.disabled and w.progress.layout.visibility == "hidden"


def test_bad_arguments_are_refused_by_name(recorded):
    with pytest.raises(ValueError, match="no zoo recipe 'no-such-model'"):
        FR.FlagshipRetrainer("no-such-model", cached=CACHED.get)
    with pytest.raises(KeyError, match="seed"):
        FR.FlagshipRetrainer(seed=7, cached=CACHED.get)
    with pytest.raises(ValueError, match="n \\(live test problems per length\\)"):
        FR.FlagshipRetrainer(n=0, cached=CACHED.get)


def test_retrain_flagship_trains_the_zoo_recipe_here():
    out = FR.retrain_flagship(lengths=(5,), n=10, steps=50, device="cpu")
    assert out["steps"] == 50 and out["seconds"] > 0
    assert set(out["em"]) == {5} and 0.0 <= out["em"][5] <= 1.0
