"""Notebook 04, section 4 (the 3-digit multiplier): the search table, the mastery check and where the errors sit,
each claim shown holding and failing on planted data."""
import pytest

from lengen_utils.course.common.claims import ClaimFailed
from lengen_utils.core.evaluate.columns import ColumnScore
from lengen_utils.course.ch04_upe import upe_m3, upe_m3_best
from lengen_utils.lab.zoo import entry


def planted_sites(low=1.0, middle=0.3, top=0.95, lengths=(5, 10)):
    """``{length: {significance: accuracy}}``: the two lowest digits, the middle ones 2..L, the top two."""
    return {L: {s: low if s < 2 else middle if s <= L else top for s in range(L + 3)} for L in lengths}


def test_search_entries_are_the_catalogs_3_digit_upe_models():
    for name in upe_m3.SEARCH.values():
        e = entry(name)
        assert e.task.multiplier_digits == 3 and e.model.encoding == "upe" and e.task.max_digits == 5
    assert sum(entry(n).task.curriculum == "multiplier" for n in upe_m3.SEARCH.values()) == 8
    assert entry(upe_m3.CARRY_MODEL).task.carry_targets and entry(upe_m3.CARRY_MODEL).model.carry_classes == 27


def test_site_groups_average_the_lowest_middle_and_top_digits():
    g = upe_m3.site_groups(planted_sites(low=0.9, middle=0.4, top=0.8), 5)
    assert g == pytest.approx({"lowest two": 0.9, "middle": 0.4, "top two": 0.8})


def test_check_sites_holds_and_fails():
    upe_m3.check_sites(planted_sites())
    with pytest.raises(ClaimFailed, match="two lowest answer digits.*got 80.0%"):
        upe_m3.check_sites(planted_sites(low=0.8))
    upe_m3.check_sites(planted_sites(middle=0.85))
    with pytest.raises(ClaimFailed, match="middle answer digits.*got 93.0%.*the weak spot moved"):
        upe_m3.check_sites(planted_sites(middle=0.93))
    falling = {**planted_sites(middle=0.5, lengths=(5,)), **planted_sites(middle=0.2, lengths=(10,))}
    with pytest.raises(ClaimFailed, match="hardly change with the length.*got 50.0%, 20.0%"):
        upe_m3.check_sites(falling)


def test_check_mastery_holds_and_fails():
    live = {"a": {5: 0.05}, "b": {5: 0.2}}
    upe_m3.check_mastery(live, 5)
    with pytest.raises(ClaimFailed, match=r"should master 5-digit.*got 96\.0% for b"):
        upe_m3.check_mastery({**live, "b": {5: 0.96}}, 5)
    assert "the best is 20.0% exact match at 5 digits (`b`)" in upe_m3.mastery_text(live, 5)


def test_sites_text_renders_the_live_numbers(monkeypatch):
    monkeypatch.setattr(upe_m3, "per_digit", lambda name: {10: {0: 1.0, 1: 0.61}})
    text = upe_m3.sites_text(planted_sites(middle=0.34), "m", control="c")
    assert "(`m`, live)" in text and "(at least 100.0%)" in text
    assert "34.0% at 5, 34.0% at 10" in text and "`c`: 61.0% at 10 digits" in text


def test_search_table_reads_the_manifest(monkeypatch):
    name = upe_m3.SEARCH["+ curriculum, 8 layers"]
    monkeypatch.setattr(upe_m3, "read_manifest", lambda: {name: {}})
    monkeypatch.setattr(upe_m3, "manifest_record", lambda n: {"train_seconds": 1800.0})
    monkeypatch.setattr(upe_m3, "metrics", lambda n: {1: 1.0, 2: 0.5, 3: 0.25, 5: 0.125})
    rows = upe_m3.search_table()
    assert list(rows) == ["+ curriculum, 8 layers"]
    assert rows["+ curriculum, 8 layers"] == {"layers x d_model": "8 x 128", "steps x batch": "9,000 x 64",
                                              "train min": "30", "1 dig": "100.0%", "2 dig": "50.0%",
                                              "3 dig": "25.0%", "5 dig": "12.5%"}
    assert upe_m3.best_model() == name


def test_next_steps_reads_the_longest_runs_learning_curve(monkeypatch):
    name = upe_m3.SEARCH["+ curriculum, twice the steps"]
    curve = {"length": 5, "steps": [500, 1000, 1500, 2000], "em": [0.0, 0.05, 0.2, 0.43]}
    monkeypatch.setattr(upe_m3_best, "read_manifest", lambda: {name: {}})       # the curves are read there
    monkeypatch.setattr(upe_m3_best, "manifest_record", lambda n: {"learning_curve": curve})
    text = upe_m3.next_steps_text()
    assert f"without read-outs (`{name}`) was at 5.0% exact match on 5-digit multiplicands after 1,000 steps" in text
    assert "at 43.0% after 2,000" in text
    monkeypatch.setattr(upe_m3_best, "read_manifest", lambda: {})
    assert upe_m3.next_steps_text().startswith("**What we would try next.**")


def planted_columns(carry=0.92, digit=0.5, digit_if_carry=0.53, lengths=(5, 10)):
    """``{length: {s: ColumnScore}}``: the two lowest columns right, the middle ones as given."""
    right = ColumnScore(1.0, 1.0, 1.0)
    return {L: {s: right if s < 2 else ColumnScore(digit, carry, digit_if_carry) for s in range(L + 3)}
            for L in lengths}


def test_carry_split_averages_the_middle_columns():
    split = upe_m3.carry_split(planted_columns())
    assert split[5] == pytest.approx({"answer digit": 0.5, "carry read-out": 0.92, "answer digit, carry right": 0.53})


def test_check_carry_split_holds_and_fails():
    upe_m3.check_carry_split(planted_columns())
    with pytest.raises(ClaimFailed, match="carry head should know.*got 70.0%.*the carry is \\(also\\) the weak"):
        upe_m3.check_carry_split(planted_columns(carry=0.7))
    with pytest.raises(ClaimFailed, match="fail often where the carry is right.*got 90.0%.*column sums are learned"):
        upe_m3.check_carry_split(planted_columns(digit_if_carry=0.9))


def test_carry_text_renders_the_live_split(monkeypatch):
    monkeypatch.setattr(upe_m3, "read_manifest", lambda: {})
    text = upe_m3.carry_text(planted_columns(), "m")
    assert "`m` was trained with a second read-out" in text
    assert "at 10 digits the carry head is right in 92.0% of the middle columns, the answer digit in 50.0%" in text
    assert "wrong in 47.0% of the middle columns whose carry it knows (at 10 digits)" in text
    assert "right in 100.0%" in text and "manifest" not in text


def test_check_heads_holds_and_fails():
    names = list(upe_m3.HEADS.values())
    live = {n: {5: v} for n, v in zip(names, (0.05, 0.15, 0.44))}
    upe_m3.check_heads(live)
    with pytest.raises(ClaimFailed, match="products on top should beat.*carry head 15.0%, carry and product heads "
                                          "12.0%.*do not help in this order"):
        upe_m3.check_heads({**live, names[2]: {5: 0.12}})


def test_heads_text_renders_the_live_numbers(monkeypatch):
    monkeypatch.setattr(upe_m3, "read_manifest", lambda: {})
    live = {n: {5: v} for n, v in zip(upe_m3.HEADS.values(), (0.05, 0.15, 0.44))}
    text = upe_m3.heads_text(live)
    assert "5.0% exact match with no read-out, 15.0% with the carry head, 44.0% with the carry and product" in text
    assert "twice as long" not in text


def test_the_best_recipe_is_checked_against_the_bar_and_the_search():
    from lengen_utils.course.common.claims import ClaimFailed
    from lengen_utils.course.ch04_upe import upe_m3_best as best

    search = {"a-search-model": {1: 1.0, 5: 0.44}}
    best.check_best({"s0": {1: 1.0, 5: 0.82}, "s1": {1: 1.0, 5: 0.7}, "s2": {1: 1.0, 5: 0.6}}, search)
    with pytest.raises(ClaimFailed, match="master"):
        best.check_best({"s0": {1: 1.0, 5: 0.97}}, search)                 # mastered: the text would under-report
    with pytest.raises(ClaimFailed, match="beat every model"):
        best.check_best({"s0": {1: 1.0, 5: 0.40}}, search)
    with pytest.raises(ClaimFailed, match="1-digit"):
        best.check_best({"s0": {1: 0.9, 5: 0.8}}, search)


def test_the_best_recipes_table_and_weakest_columns():
    from lengen_utils.course.ch04_upe import upe_m3_best as best

    rows = best.seeds_table()
    assert "median (range)" in rows and len(rows) == len(best.seeds()) + 1
    weak = best.weakest_columns(planted_columns(digit=0.6))
    assert weak == {5: (2, 0.6), 10: (2, 0.6)}
    assert best._values([0.29, 0.436]) == "29.0%-43.6% over 2 seeds" and best._values([]) == "(not built)"


def test_rpe_at_the_same_budget_is_checked_against_mastery_and_the_gap():
    upe = {"u0": {1: 1.0, 5: 0.85, 10: 0.6}, "u1": {1: 1.0, 5: 0.8, 10: 0.5}}
    upe_m3_best.check_rpe({"r0": {1: 1.0, 5: 0.86, 10: 0.5}}, upe)           # close to UPE: the text holds
    with pytest.raises(ClaimFailed, match="master"):
        upe_m3_best.check_rpe({"r0": {1: 1.0, 5: 0.97, 10: 0.5}}, upe)
    with pytest.raises(ClaimFailed, match="not be clearly below"):
        upe_m3_best.check_rpe({"r0": {1: 1.0, 5: 0.86, 10: 0.2}}, upe)       # the paper's gap: the text would be wrong


def test_the_comparison_table_and_text_read_both_recipes():
    rows = upe_m3_best.comparison_table()
    assert set(rows) == {"UPE", "RPE"} and rows["UPE"]["seeds"] == str(len(upe_m3_best.seeds()))
    assert rows["RPE"]["seeds"] == str(len(upe_m3_best.seeds(upe_m3_best.RPE_SAME)))
    text = upe_m3_best.rpe_text({"r0": {1: 1.0, 5: 0.861, 10: 0.5}}, {"u0": {1: 1.0, 5: 0.8, 10: 0.6}})
    assert "86.1% at 5 digits against UPE's 80.0%" in text and "50.0% at 10 digits against 60.0%" in text
