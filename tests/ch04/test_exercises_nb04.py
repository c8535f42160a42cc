"""Notebook 04's coding exercises (lengen_utils.course.ch04_upe.exercises), each checked three ways: the solution
passes, the untouched stub is "not attempted", and planted mistakes fail with the message that names them."""
from lengen_utils.course.ch04_upe import exercises as nb04, solutions
from lengen_utils.course.common.exercises import NOT_ATTEMPTED, PASSED, failure, stub


def test_which_vector():
    assert nb04.check_which_vector(solutions.which_vector, quiet=True).status == PASSED
    assert nb04.check_which_vector(stub, quiet=True).status == NOT_ATTEMPTED

    def diagonal(i, j, ids, slots):             # forgets j != i
        return f"c_{{{slots[j]}}}" if slots[j] else f"p_{{{ids[j] - ids[i]}}}"

    def reversed_offset(i, j, ids, slots):      # p_(i - j)
        return f"c_{{{slots[j]}}}" if slots[j] and i != j else f"p_{{{ids[i] - ids[j]}}}"

    def by_query(i, j, ids, slots):             # the query's slot instead of the key's
        return f"c_{{{slots[i]}}}" if slots[i] and i != j else f"p_{{{ids[j] - ids[i]}}}"

    def rpe_only(i, j, ids, slots):
        return f"p_{{{ids[j] - ids[i]}}}"

    def from_zero(i, j, ids, slots):
        return f"c_{{{slots[j] - 1}}}" if slots[j] and i != j else f"p_{{{ids[j] - ids[i]}}}"

    assert "looking at itself uses p_{0}" in failure(nb04.check_which_vector, diagonal)
    assert "The offset is reversed" in failure(nb04.check_which_vector, reversed_offset)
    assert "belongs to the key, not the query" in failure(nb04.check_which_vector, by_query)
    assert "whatever the distance" in failure(nb04.check_which_vector, rpe_only)
    assert "Slots count from 1" in failure(nb04.check_which_vector, from_zero)
    assert "Return a label such as" in failure(nb04.check_which_vector, lambda i, j, ids, slots: (i, j))


def test_frame():
    good = solutions.sabbaghi_frame
    assert nb04.check_frame(good, quiet=True).status == PASSED
    assert nb04.check_frame(stub, quiet=True).status == NOT_ATTEMPTED

    def left_aligned(b, a, l):
        tokens, targets = good(b, a, l)
        k = len(str(b))
        return tokens[:k + 1] + list(str(a)) + ["pad"] * (l - len(str(a))), targets

    def padded_multiplier(b, a, l):
        tokens, targets = good(b, a, l)
        return ["pad"] + tokens, [None] + targets

    def only_frame(b, a, l):
        tokens, targets = good(b, a, l)
        answer = list(str(a * b))[-l:]
        return tokens, [None] * (len(tokens) - l) + ["pad"] * (l - len(answer)) + answer

    def units_first(b, a, l):
        tokens, targets = good(b, a, l)
        answer = list(str(a * b))
        return tokens, targets[:len(targets) - len(answer)] + answer[::-1]

    def no_pads(b, a, l):
        tokens, targets = good(b, a, l)
        return tokens, [None if t == "pad" else t for t in targets]

    assert "right-aligned in its frame" in failure(nb04.check_frame, left_aligned)
    assert "The multiplier comes first, unpadded" in failure(nb04.check_frame, padded_multiplier)
    assert "the last l + k positions" in failure(nb04.check_frame, only_frame)
    assert "most significant digit first" in failure(nb04.check_frame, units_first)
    assert "left-padded with 'pad'" in failure(nb04.check_frame, no_pads)
    assert "'*', not '×'" in failure(nb04.check_frame, lambda b, a, l: ([t.replace("*", "×") for t in good(b, a, l)[0]],
                                                                         good(b, a, l)[1]))
