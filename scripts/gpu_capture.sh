#!/usr/bin/env bash
# The GPU capture in one command, on a machine lent through the device tool (CONTRIBUTING: "Capturing on
# a lent GPU"). Prepared here with `make gpu-bundle`; run there, from the repository root, as
#
#     bash scripts/gpu_capture.sh [capture.py arguments, default --force]
#                                            (with carry [".gpu-bundle"]; $OUT is the folder that comes back)
#
# It installs the bundle's wheels without a registry, runs every example with `capture.py --force` (all
# shards of capture.yml in one go, $PN_JOBS at once; the examples that require CUDA first and alone; at most
# $PN_DEADLINE_S seconds when set), validates the new records, and packs into $OUT:
#   records.tgz  the new records and failure markers of this device kind (never the CPU records)
#   capture.log  everything printed;  changes.md  what changed in each example's outputs;
#   summary.md   devices and versions (validate_outputs.py);  status.txt  the exit statuses.
# Then, here: make gpu-unpack ARCHIVE=<files_at>/records.tgz
#
# The dry run that `make test` runs on a CPU machine is the same script with PN_GPU_KIND=cpu and
# PN_EXAMPLES pointing at a copy of some examples (tests/commands/test_gpu_run.py).
set -uo pipefail
cd "$(dirname "$0")/.."
OUT="${OUT:?set OUT: the folder whose files the device tool brings back}"
KIND="${PN_GPU_KIND:-cuda}"
EXAMPLES="${PN_EXAMPLES:-examples}"
JOBS="${PN_JOBS:-4}"
BUNDLE="${PN_BUNDLE:-$PWD/.gpu-bundle}"
mkdir -p "$OUT"
log="$OUT/capture.log"
PYTHON="${PYTHON:-python3}"
# Arguments, if any, go to capture.py instead of --force: e.g. `--force examples/gpu` (one chapter), or
# `examples` (every example without a fresh record of this kind, after an earlier run's records came in).
CAPTURE_ARGS=("$@")
[ "$#" -gt 0 ] || CAPTURE_ARGS=(--force)

capture_status=0
validate_status=0
setup_status=0
{
  echo "gpu_capture: $(date -u +%Y-%m-%dT%H:%M:%SZ), $KIND, examples in $EXAMPLES, $JOBS job(s)"
  "$PYTHON" --version
  command -v nvidia-smi >/dev/null && nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
  if [ -d "$BUNDLE/wheels" ] && ls "$BUNDLE"/wheels/*.whl >/dev/null 2>&1; then
    PYTHONPATH="$PWD/scripts" "$PYTHON" -m pytorch_notes.capture.gpu "$BUNDLE/wheels" "$BUNDLE/site"
    export PYTHONPATH="$BUNDLE/site${PYTHONPATH:+:$PYTHONPATH}"
  fi
  if ! command -v bwrap >/dev/null && [ -x "$BUNDLE/bin/bwrap" ]; then
    export PATH="$BUNDLE/bin:$PATH"  # this machine's bwrap, brought in the bundle: capture tries it, or falls back
  fi
  setup_status=0
  if [ "$KIND" = cuda ] && ! "$PYTHON" -c "import torch; assert torch.cuda.is_available(), 'torch sees no CUDA device'; print(torch.__version__, torch.version.cuda, torch.cuda.get_device_name(0))"; then
    echo "gpu_capture: no GPU for torch here; nothing captured"
    setup_status=3
  else
    # PN_DEADLINE_S: stop the capture after so many seconds with SIGINT (it stops every run and keeps what
    # finished), so that what was captured is still validated and packed inside the device tool's limit.
    deadline=()
    [ -n "${PN_DEADLINE_S:-}" ] && deadline=(timeout -s INT --kill-after=60 "$PN_DEADLINE_S")
    "${deadline[@]}" "$PYTHON" scripts/capture.py --examples-dir "$EXAMPLES" "${CAPTURE_ARGS[@]}" -j "$JOBS" \
      --report "$OUT/changes.md"
    capture_status=$?
    "$PYTHON" scripts/validate_outputs.py --examples "$EXAMPLES" --device "$KIND" --summary "$OUT/summary.md"
    validate_status=$?
  fi
  echo "gpu_capture: capture exited $capture_status, validation $validate_status"
} > "$log" 2>&1

# Pack this kind's records and failure markers, whatever happened: a failure marker says why.
(cd "$EXAMPLES/.." && find "$(basename "$EXAMPLES")/_outputs" -name "$KIND.json" -o -name "$KIND.failed.json" \
   | sort | tar czf "$OUT/records.tgz" --files-from=- --transform "s|^$(basename "$EXAMPLES")/|examples/|")
printf 'setup %s\ncapture %s\nvalidate %s\n' "$setup_status" "$capture_status" "$validate_status" > "$OUT/status.txt"
tail -n 5 "$log"
[ "$setup_status" -eq 0 ] && [ "$capture_status" -eq 0 ] && [ "$validate_status" -eq 0 ]
