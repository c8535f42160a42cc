#!/usr/bin/env bash
# The GPU checks in one bounded run on an NVIDIA GPU machine (docs/scale.md, "On a GPU").
#
#   OUT=/some/folder BUDGET_S=540 bash scripts/gpu_checks.sh [ENTRY ...]
#
# SKIP_BENCH=1 skips stages 2-3 (already recorded in docs/logs/gpu-log.md); VERIFY="NAME ..." re-measures those
# cached GPU entries on CUDA (`zoo verify --no-retrain`; the device then needs them under assets/).
# MAX_SECONDS=S stops each training after about S seconds (`zoo train --max-seconds`, recorded as stopped early);
# RECORD_ONLY="NAME ..." names entries too large to come back (their manifest record does, in results.tar).
# 1. the GPU's name; 2. throughput of the three named shapes on CUDA (clean timings, nothing else running);
# 3. the batched-seed speed-up (multiseed --k 4); 4. the paper-scale zoo entries (tag gpu, default: all of
# the unbuilt ones), trained side by side on the one GPU, each into its own assets folder, while `pytest -m cuda`
# runs. The device gets the working tree without assets/ (its 64 MiB limit), so name the entries there.
# Every stage has a deadline inside BUDGET_S, so the packing step always runs: $OUT gets results.tar (logs,
# JSON records, manifests) and one .safetensors per finished entry, to be imported into assets/ with
# `python -m lengen_utils.lab.zoo import FOLDER NAME` (docs/scale.md, "On a GPU").
set -u
OUT=${OUT:?set OUT to the folder for the results}
BUDGET_S=${BUDGET_S:-540}
PY=${PYTHON:-python3}
export PYTHONUNBUFFERED=1
start=$(date +%s)
left() { local s=$(( BUDGET_S - ($(date +%s) - start) - 15 )); echo $(( s > 1 ? s : 1 )); }   # seconds to packing
work=$(mktemp -d)
mkdir -p "$work/logs"
ENTRIES=("$@")
if [ ${#ENTRIES[@]} -eq 0 ]; then
  mapfile -t ENTRIES < <($PY -c "from lengen_utils.lab.zoo import catalog, read_manifest
built = read_manifest()
print('\n'.join(n for n, e in sorted(catalog().items()) if e.needs_gpu and n not in built))")
fi

{ nvidia-smi -L; $PY -c "import torch; print(torch.__version__, torch.cuda.get_device_name())"; } >"$work/logs/device.txt" 2>&1

if [ "${SKIP_BENCH:-0}" != 1 ]; then
  for config in flagship cho-1to30 sabbaghi-rpe-l50; do
    timeout 50 $PY -m lengen_utils.lab.throughput --config "$config" --device cuda --json \
      >"$work/logs/throughput-$config.json" 2>"$work/logs/throughput-$config.err"
  done
  timeout 50 $PY -m lengen_utils.lab.multiseed_bench --k 4 --device cuda --json >"$work/logs/multiseed.json" \
    2>"$work/logs/multiseed.err"
fi

pids=()
# side by side, each run gets its share of the CPU threads: with 16 threads each, four runs spent most of their
# time contending for the cores (docs/logs/gpu-log.md)
share=$(( $(nproc) / (${#ENTRIES[@]} + 1) > 0 ? $(nproc) / (${#ENTRIES[@]} + 1) : 1 ))
export LENGEN_THREADS=${LENGEN_THREADS:-$share}
export LENGEN_DATA_WORKERS=${LENGEN_DATA_WORKERS:-$share}   # batch-drawing processes per run (per-step data seeding)
for name in "${ENTRIES[@]}"; do
  mkdir -p "$work/assets-$name/zoo"
  LENGEN_ASSETS="$work/assets-$name" timeout "$(left)" $PY -m lengen_utils.lab.zoo train --device cuda "$name" \
    ${MAX_SECONDS:+--max-seconds "$MAX_SECONDS"} >"$work/logs/train-$name.log" 2>&1 &
  pids+=($!)
done
timeout "$(( $(left) > 300 ? 300 : $(left) ))" $PY -m pytest -m cuda ${CUDA_TESTS:-tests/test_cuda.py tests/test_fire.py} -q -p no:nbval \
  >"$work/logs/pytest-cuda.log" 2>&1
if [ -n "${VERIFY:-}" ]; then
  # shellcheck disable=SC2086
  timeout "$(( $(left) > 200 ? 200 : $(left) ))" $PY -m lengen_utils.lab.zoo verify --no-retrain $VERIFY \
    >"$work/logs/verify-cuda.log" 2>&1
fi
for pid in "${pids[@]}"; do wait "$pid"; done

for name in "${ENTRIES[@]}"; do
  f="$work/assets-$name/zoo/$name.safetensors"
  [ -f "$work/assets-$name/manifest.json" ] && cp "$work/assets-$name/manifest.json" "$work/logs/manifest-$name.json"
  case " ${RECORD_ONLY:-} " in *" $name "*) continue ;; esac
  [ -f "$f" ] && cp "$f" "$OUT/"
done
tar -C "$work" -cf "$OUT/results.tar" logs
echo "done in $(( $(date +%s) - start )) s"; ls -la "$OUT"; tail -n 3 "$work"/logs/*.log
