#!/usr/bin/env bash
# Steady-state benchmark: PROFILES profiles with PODS fake pods each (Ready on their own 127.x addresses,
# one small healthy metrics endpoint behind each), metrics every 30 s, resync every minute, leader election
# on; the real build as the operator in a JVM of its own. Once every profile shows a metrics window, counts
# for MINUTES the API requests the API server served for the operator's kinds (by verb), the operator's CPU
# seconds and the writes per idle resync. kube-api-test's API server: nothing of up.sh is used.
# Usage: deploy/local/steady-state.sh [PROFILES [PODS [MINUTES]]]   (default 1000 3 5; BENCH_HEAP, default 256m)
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
out="$REPO_ROOT/target/steady-state"
step "build: the operator and the benchmark's harness"
tools_build
step "steady state: ${1:-1000} profiles x ${2:-3} pods, ${3:-5} min measured"
tools_run dev.jvmtuning.operator.drills.SteadyStateBenchmark "${1:-1000}" "${2:-3}" "${3:-5}" "$OPERATOR_APP/quarkus-run.jar" "${BENCH_HEAP:-256m}" "$out"
