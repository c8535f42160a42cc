"""Notebooks 03 and 05, "at paper scale": the GPU entries' live evaluation, figure, prose and claim checks."""
import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import pytest  # noqa: E402

from lengen_utils.claims import ClaimFailed  # noqa: E402
from lengen_utils.sections import paper_scale as ps  # noqa: E402


def test_the_specs_name_built_recipes_and_lengths_they_were_recorded_at():
    for spec in (ps.COUPLED, ps.RPE):
        rec = ps.recorded(spec)
        assert rec, spec.recipe
        for points in rec.values():
            assert set(spec.live_lengths) <= set(points), (spec.recipe, sorted(points))


def test_an_unbuilt_or_unknown_recipe_is_named():
    with pytest.raises(KeyError, match="no zoo recipe"):
        ps.seeds(ps.PaperScale("no-such-recipe", (5,), 10, "paper"))


def test_live_evaluation_figure_and_text_on_the_rpe_encoder():
    live = ps.live_figure(ps.RPE, n=30)                     # 30 problems per length: seconds on the CPU
    assert list(live) == list(ps.recorded(ps.RPE))
    assert live["sabbaghi-rpe-addition-5to50-s0"][5] == 1.0
    fig = plt.gcf()
    labels = [t.get_text() for t in fig.axes[0].get_legend().get_texts()]
    assert any("recorded on the GPU" in t for t in labels) and any("live" in t for t in labels)
    plt.close(fig)
    text = ps.text(ps.RPE, live)
    assert "NVIDIA" in text and "Sabbaghi" in text and "30 digits" in text


def _live(points):
    return {"some-entry-s0": points}


def test_the_coupled_check_fails_with_a_teaching_message():
    ps.check_coupled(_live({30: 1.0, 100: 1.0, 200: 0.96}))
    with pytest.raises(ClaimFailed, match="trained range"):
        ps.check_coupled(_live({30: 0.9, 100: 1.0, 200: 1.0}))
    with pytest.raises(ClaimFailed, match="200-digit"):
        ps.check_coupled(_live({30: 1.0, 100: 1.0, 200: 0.5}))


def test_the_rpe_check_holds_the_prose_to_the_numbers():
    ps.check_rpe(_live({5: 1.0, 10: 0.9, 20: 0.5, 30: 0.0}))
    with pytest.raises(ClaimFailed, match="generalize past"):
        ps.check_rpe(_live({5: 1.0, 10: 0.5, 20: 0.1, 30: 0.0}))
    with pytest.raises(ClaimFailed, match="update the prose"):
        ps.check_rpe(_live({5: 1.0, 10: 1.0, 20: 1.0, 30: 0.9}))
