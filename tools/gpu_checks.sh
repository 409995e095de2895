#!/usr/bin/env bash
# The GPU checks, in one run on a machine with an NVIDIA GPU and jax's CUDA build:
# device and versions, the jit practice table and the real-model benchmark on
# the GPU, then the default test suite with jax's GPU platform as the default
# backend; and, since that machine's CPU is otherwise idle, the per-call
# overhead table on its CPU. Results go to $OUT (default /tmp/msxla_gpu):
# device.txt, jit_practice.{md,json,png}, real_models.md, cpu_overhead.md,
# pytest.log. The two benchmarks write each table to the .md as soon as it is
# timed and rewrite their .json after every row, so a run cut short by its
# limit keeps what it measured; a row that disagrees with raw jax.jit or fails
# is kept in the table, marked and untimed, and the run goes on (rc=1 at the
# end says some row did).
#
#   OUT=/tmp/g tools/gpu_checks.sh [SECONDS_FOR_TESTS]
#
# Python packages missing on the machine (grain, ...) can be put as wheels in
# .whl/ beside this checkout; they are installed into /tmp/site first.
set -u
cd "$(dirname "$0")/.."
OUT=${OUT:-/tmp/msxla_gpu}
TEST_S=${1:-120}
PY=${PYTHON:-python3}
mkdir -p "$OUT"
if compgen -G ".whl/*.whl" > /dev/null; then
    $PY -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade \
        --target /tmp/site .whl/*.whl || exit 1
    export PYTHONPATH=/tmp/site
fi
export PYTHONPATH=${PYTHONPATH:+$PYTHONPATH:}$PWD
export XLA_PYTHON_CLIENT_PREALLOCATE=false PYTHONUNBUFFERED=1

{
    nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
    $PY -c "import sys, jax, jaxlib, numpy; print('python', sys.version.split()[0], \
'jax', jax.__version__, 'jaxlib', jaxlib.__version__, 'numpy', numpy.__version__); \
print(jax.devices())"
} > "$OUT/device.txt" 2>&1
cat "$OUT/device.txt"

echo "== jit practice (GPU)"
timeout 120 $PY benchmarks/jit_practice.py --device gpu --quick \
    --save-json "$OUT/jit_practice.json" --plot "$OUT/jit_practice.png" \
    > "$OUT/jit_practice.md" 2> "$OUT/jit_practice.err"
echo "rc=$?"; tail -5 "$OUT/jit_practice.err"

if [ -f benchmarks/real_models.py ]; then
    echo "== real models (GPU, quick)"
    timeout 150 $PY benchmarks/real_models.py --device gpu --quick \
        --save-json "$OUT/real_models.json" > "$OUT/real_models.md" 2> "$OUT/real_models.err"
    echo "rc=$?"; tail -5 "$OUT/real_models.err"
fi

echo "== per-call overhead on the idle CPU"
JAX_PLATFORMS=cpu timeout 60 $PY benchmarks/jit_overhead.py --quick \
    > "$OUT/cpu_overhead.md" 2> "$OUT/cpu_overhead.err"
echo "rc=$?"; tail -3 "$OUT/cpu_overhead.err"

# SIGINT at the limit: pytest stops and still prints the failures so far.
echo "== tests on the GPU"
timeout -s INT -k 30 "$TEST_S" $PY -m pytest -q -rf -p no:cacheprovider -n 12 \
    -m "not slow" --timeout 90 \
    tests/jit tests/ops tests/nn tests/autodiff tests/train tests/ge \
    tests/test_tensor_core.py tests/test_tensor_indexing.py tests/test_golden_promotion.py \
    tests/test_golden_tensor_core.py tests/test_golden_indexing.py tests/test_examples.py \
    > "$OUT/pytest.log" 2>&1
echo "rc=$?"; tail -30 "$OUT/pytest.log"

echo "== real-model agreement at O0 and O1 on the GPU (slow tests included)"
timeout -s INT -k 30 120 $PY -m pytest -q -rf -p no:cacheprovider -n 4 \
    tests/jit/test_real_models.py > "$OUT/pytest_models.log" 2>&1
echo "rc=$?"; tail -15 "$OUT/pytest_models.log"
