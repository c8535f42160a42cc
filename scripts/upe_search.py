"""UPE recipe search (docs/upe-log.md): one training run per call; prints a JSON line and appends it to
$UPE_OUT/results.jsonl (default /tmp/upe), and saves the weights to $UPE_OUT/TAG.pt."""
import argparse, json, os, time, sys
import torch
from lengen_utils.tasks import TaskConfig, Task
from lengen_utils.model import ModelConfig, Transformer
from lengen_utils.train import TrainConfig, fit
from lengen_utils.evaluate.lengths import evaluate_lengths

p = argparse.ArgumentParser()
p.add_argument("--tag", required=True)
p.add_argument("--enc", default="upe")
p.add_argument("--k", type=int, default=1)        # multiplier digits
p.add_argument("--trained", type=int, default=5)
p.add_argument("--frame", type=int, default=16)
p.add_argument("--d", type=int, default=64)
p.add_argument("--layers", type=int, default=2)
p.add_argument("--heads", type=int, default=4)
p.add_argument("--dff", type=int, default=128)
p.add_argument("--steps", type=int, default=2000)
p.add_argument("--bs", type=int, default=64)
p.add_argument("--lr", type=float, default=3e-3)
p.add_argument("--wd", type=float, default=0.0)
p.add_argument("--sampler", default="balanced")
p.add_argument("--shift", action="store_true")
p.add_argument("--exact", action="store_true")    # multiplier_exact: 1..9 (k=1) / 100..999 (k=3), as the paper
p.add_argument("--rpe_scale", type=float, default=1.0)
p.add_argument("--dropout", type=float, default=0.0)   # the paper's BERT uses 0.1
p.add_argument("--clip", type=int, default=0)
p.add_argument("--rb", type=int, default=0)
p.add_argument("--rbs", type=float, default=10.0)
p.add_argument("--val_every", type=int, default=0)
p.add_argument("--val_len", type=int, default=10)
p.add_argument("--val_n", type=int, default=100)
p.add_argument("--seed", type=int, default=0)
p.add_argument("--n", type=int, default=300)
p.add_argument("--maxlen", type=int, default=15)
a = p.parse_args()
OUT = os.environ.get("UPE_OUT", "/tmp/upe")
os.makedirs(OUT, exist_ok=True)
torch.set_num_threads(1)
F = a.frame
task_cfg = TaskConfig(op="*", format="sabbaghi", positions="consecutive", sampler=a.sampler, max_digits=a.trained,
                      multiplier_digits=a.k, frame_width=F, random_start=False, max_position=F + a.k + 2,
                      eval_sampler="exact", shift_augment=a.shift, multiplier_exact=a.exact, shift_max_width=(F - 1) if a.shift else None)
model_cfg = ModelConfig(d_model=a.d, n_layers=a.layers, n_heads=a.heads, d_ff=a.dff, causal=False, encoding=a.enc,
                        rpe_max_distance=a.clip or (F + a.k + 2), upe_slots=max(a.k, 1), max_positions=F + a.k + 3,
                        rpe_scale=a.rpe_scale, dropout=a.dropout, relative_bias=a.rb > 0, relative_bias_max_distance=max(a.rb, 1), relative_bias_scale=a.rbs)
train_cfg = TrainConfig(steps=a.steps, batch_size=a.bs, lr=a.lr, weight_decay=a.wd, warmup_steps=100, seed=a.seed)
torch.manual_seed(a.seed)
model = Transformer(model_cfg)
task = Task(task_cfg)
t0 = time.time()
import copy
from lengen_utils.evaluate.lengths import evaluate_length
best = {"em": -1.0, "step": 0, "state": None, "curve": []}
def cb(step, loss):
    if not a.val_every:
        return
    em = evaluate_length(model, task, a.val_len, a.val_n, seed=12345).exact_match
    best["curve"].append((step, round(100 * em, 1)))
    print(f"step {step} loss {loss:.4f} val EM {100 * em:.1f} ({time.time() - t0:.0f} s)", flush=True)
    if em >= best["em"]:
        best.update(em=em, step=step, state=copy.deepcopy(model.state_dict()))
    model.train()
res = fit(model, task, train_cfg, progress=False, log_every=a.val_every or None, callback=cb)
if best["state"] is not None:
    model.load_state_dict(best["state"])
secs = time.time() - t0
model.eval()
lengths = list(range(1, a.maxlen + 1))
em = {L: round(100 * r.exact_match, 1) for L, r in evaluate_lengths(model, task, lengths, n=a.n).items()}
ind = sum(em[L] for L in range(1, a.trained + 1)) / a.trained
rec = dict(vars(a), best_step=best["step"], val_curve=best["curve"], train_s=round(secs, 1), in_dist=round(ind, 1), em=em, final_loss=float(res.losses[-1]) if hasattr(res, "losses") and len(res.losses) else None)
print(json.dumps(rec))
with open(f"{OUT}/results.jsonl", "a") as f:
    f.write(json.dumps(rec) + "\n")
torch.save({"state": model.state_dict(), "args": vars(a)}, f"{OUT}/{a.tag}.pt")
