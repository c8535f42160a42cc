"""One contract for configs: defaults work together, dicts round-trip, every trained recipe is consistent."""
import pytest

from lengen_utils.core.compatibility import check_compatible
from lengen_utils.core.model import ConfigError, ModelConfig, Transformer
from lengen_utils.core.tasks import DEFAULT_MAX_POSITION, Task, TaskConfig
from lengen_utils.core.train import TrainConfig, fit


def test_default_configs_train_together():
    result = fit(Transformer(ModelConfig()), Task(TaskConfig()), TrainConfig(steps=2, batch_size=8), progress=False)
    assert result.steps == 2 and len(result.losses) == 1


def test_default_table_holds_every_default_position_id():
    assert TaskConfig().max_position == DEFAULT_MAX_POSITION
    assert ModelConfig().max_positions == DEFAULT_MAX_POSITION + 1
    check_compatible(ModelConfig(), TaskConfig())


@pytest.mark.parametrize("cls", [ModelConfig, TaskConfig, TrainConfig])
def test_from_dict_round_trips_and_refuses_unknown_keys(cls):
    cfg = cls()
    assert cls.from_dict(cfg.to_dict()) == cfg
    with pytest.raises(ConfigError, match=rf"unknown {cls.__name__} field\(s\) \['bogus'\]; valid fields are"):
        cls.from_dict({**cfg.to_dict(), "bogus": 1})


def test_train_config_betas_from_json_list():
    assert TrainConfig.from_dict({"betas": [0.9, 0.95]}).betas == (0.9, 0.95)


def test_every_zoo_entry_is_a_consistent_pair():
    from lengen_utils.lab.zoo import catalog
    for entry in catalog().values():
        check_compatible(entry.model, entry.task)
