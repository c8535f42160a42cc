"""FIRE (Li et al. 2024): the bias against a hand-computed case, its interpolation, and its place in a decoder."""
import math

import pytest
import torch

from lengen_utils.core.model import ConfigError, ModelConfig, Transformer
from lengen_utils.core.model.encodings import FireBias

HEADS = 2


def fixed_fire(threshold: float = 4.0, device: str = "cpu") -> FireBias:
    """A FIRE module with weights set by hand: hidden width 2, c = 0.5, L = ``threshold``."""
    fire = FireBias(ModelConfig(encoding="fire", n_heads=HEADS, d_model=32, fire_mlp_width=2,
                                fire_threshold=threshold))
    with torch.no_grad():
        first, second = fire.mlp[0], fire.mlp[2]
        first.weight.copy_(torch.tensor([[2.0], [-1.0]]))          # hidden = relu(2x - 0.5), relu(-x + 1)
        first.bias.copy_(torch.tensor([-0.5, 1.0]))
        second.weight.copy_(torch.tensor([[1.0, 0.0], [0.5, -2.0]]))   # head 0 = h0; head 1 = 0.5 h0 - 2 h1 + 0.25
        second.bias.copy_(torch.tensor([0.0, 0.25]))
        fire.c.fill_(0.5)
    return fire.to(device)


def by_hand(i: int, j: int, threshold: float = 4.0) -> tuple[float, float]:
    """The bias of both heads for query ID ``i`` and key ID ``j``, from the definition with plain floats."""
    psi = lambda x: math.log(0.5 * x + 1)                                # noqa: E731
    x = psi(max(i - j, 0)) / psi(max(threshold, i))
    h0, h1 = max(2 * x - 0.5, 0.0), max(-x + 1, 0.0)
    return h0, 0.5 * h0 - 2 * h1 + 0.25


@pytest.mark.parametrize("device", ["cpu", pytest.param("cuda", marks=pytest.mark.cuda)])
def test_bias_matches_the_hand_computed_case(device):
    if device == "cuda" and not torch.cuda.is_available():
        pytest.skip("no GPU")
    fire = fixed_fire(device=device)
    ids = torch.tensor([[0, 1, 2, 3, 7, 12]], device=device)
    q = torch.zeros(1, HEADS, 6, 16, device=device)
    with torch.no_grad():
        bias = fire(q, ids, ids).cpu()
    assert bias.shape == (1, HEADS, 6, 6)
    for a, i in enumerate(ids[0].tolist()):
        for b, j in enumerate(ids[0].tolist()[: a + 1]):
            want = by_hand(i, j)
            for h in range(HEADS):
                assert bias[0, h, a, b].item() == pytest.approx(want[h], abs=1e-5), (i, j, h)
    # two values worked out on paper: i = 12, j = 0: x = 1 (the whole context): h0 = 1.5, h1 = 0 -> 1.5, 1.0;
    # i = j: x = 0 -> h0 = 0, h1 = 1 -> 0.0, -1.75
    assert bias[0, :, 5, 0].tolist() == pytest.approx([1.5, 1.0], abs=1e-5)
    assert bias[0, :, 4, 4].tolist() == pytest.approx([0.0, -1.75], abs=1e-5)


def test_progressive_interpolation_maps_the_whole_context_to_one():
    """Past the threshold, the distance to the first key is 1 whatever the query's position: a longer test lands
    inside the trained interval; below the threshold the normaliser is L, so FIRE is a function of the distance."""
    fire = fixed_fire(threshold=4.0)
    with torch.no_grad():
        for i in (5, 50, 500):
            ids = torch.tensor([[0, i]])
            bias = fire(torch.zeros(1, HEADS, 2, 16), ids, ids)
            assert bias[0, :, 1, 0].tolist() == pytest.approx([1.5, 1.0], abs=1e-5)
        near = [fire(torch.zeros(1, HEADS, 2, 16), torch.tensor([[s, s + 2]]))[0, 0, 1, 0].item() for s in (0, 1)]
    assert near[0] == pytest.approx(near[1])                             # i = 2 and 3, both below L = 4


def test_fire_is_a_decoder_encoding_with_learned_parameters():
    with pytest.raises(ConfigError, match="'fire' is defined for causal attention"):
        ModelConfig(encoding="fire", causal=False)
    with pytest.raises(ConfigError, match="fire_threshold must be a finite number > 0"):
        ModelConfig(encoding="fire", fire_threshold=0)
    model = Transformer(ModelConfig(encoding="fire", d_model=32, n_heads=2, d_ff=64, n_layers=2))
    names = {n for n, _ in model.named_parameters()}
    assert sum(n.endswith(".c") for n in names) == 2 and sum(n.endswith(".threshold") for n in names) == 2
    tokens = torch.randint(1, 15, (2, 9))
    out = model(tokens, torch.arange(9).expand(2, 9))
    out.logsumexp(-1).mean().backward()
    assert all(p.grad is not None for n, p in model.named_parameters() if ".mlp." in n or n.endswith(".c"))


def test_a_fire_model_saves_and_loads_in_half_precision(tmp_path):
    """FIRE's learned c and L are 0-dim parameters: the checkpoint's checksum must read them too."""
    from lengen_utils.core.checkpoint import load_model, save_model
    torch.manual_seed(0)
    model = Transformer(ModelConfig(encoding="fire", d_model=32, n_heads=2, d_ff=64, n_layers=1)).eval()
    save_model(tmp_path / "fire.safetensors", model, {}, half=True)
    loaded, _ = load_model(tmp_path / "fire.safetensors")
    tokens, ids = torch.randint(1, 15, (2, 7)), torch.arange(7).expand(2, 7)
    with torch.no_grad():
        torch.testing.assert_close(loaded(tokens, ids), model.half().float()(tokens, ids), atol=1e-4, rtol=1e-4)
