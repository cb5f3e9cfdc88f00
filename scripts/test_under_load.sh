#!/usr/bin/env bash
# Runs the README's test command several times in a row while a CPU hog keeps every core
# busy, and prints each run's duration and result: the suite must pass on a loaded
# machine (no test may depend on the machine's speed).
#
#   bash scripts/test_under_load.sh [RUNS]     default 3; run it in a clean clone
#
# The hog is one busy Python process per core, started here and stopped on exit.
set -uo pipefail
cd "$(dirname "$0")/.."
runs="${1:-3}"

hogs=()
stop_hogs() {
  for pid in "${hogs[@]}"; do kill "$pid" 2>/dev/null; done
}
trap stop_hogs EXIT
for ((core = 0; core < $(nproc); core++)); do
  python3 -c "while True: pass" &
  hogs+=($!)
done

failed=0
for ((run = 1; run <= runs; run++)); do
  start=$(date +%s)
  if bash scripts/test.sh >"test_under_load.$run.log" 2>&1; then result=passed; else
    result=FAILED
    failed=1
  fi
  elapsed=$(($(date +%s) - start))
  summary="$(grep -E '^[0-9]+ (passed|failed)|^=+ .*(passed|failed)' "test_under_load.$run.log" | tail -n 1)"
  printf 'run %d: %s in %d min %02d s (%s)\n' "$run" "$result" $((elapsed / 60)) $((elapsed % 60)) "$summary"
done
exit "$failed"
