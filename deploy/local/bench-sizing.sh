#!/usr/bin/env bash
# Measures spec.sizing.memory on the real node after demo.sh, against the template as given and against the real Vertical
# Pod Autoscaler alone: two services of the lab workload (one given about four times the memory it needs, one too little
# for its own -Xmx), three Deployments each, side by side under the same load. The systemtest module's
# ContainerSizedAgainstTheVpaBenchmarkTest says what runs and what it prints; it brings metrics-server and the VPA up
# (autoscalers.sh) and takes them down at the end, and deletes its own objects however it ends.
# Usage: bench-sizing.sh   (about 25 minutes with the defaults on 2 cores: 6 of warm-up, 10 of measured load)
# Knobs: BENCH_SIZING_WARMUP_SECONDS (240), BENCH_SIZING_SETTLE_SECONDS (120), BENCH_SIZING_MINUTES (10),
#        BENCH_SIZING_RESULTS (a new directory under /tmp: "throughput", the lines "DEPLOYMENT REQUESTS-A-SECOND" of each
#        one-minute slice, and "summary", their medians and ratios with bootstrap 95% intervals; kept).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
export KUBECONFIG="$KUBECONFIG_FILE"
export BENCH_SIZING_RESULTS="${BENCH_SIZING_RESULTS:-$(mktemp -d /tmp/bench-sizing.XXXXXX)}"
maven -o -pl systemtest test -Dsystemtest -Dgroups=bench-sizing
echo "figures kept in $BENCH_SIZING_RESULTS"
