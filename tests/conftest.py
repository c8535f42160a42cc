import torch

torch.set_num_threads(1)  # tests use tiny models; one thread avoids oversubscription on 2-core CI
