#!/usr/bin/env bash
# Agent scrape benchmark, as the operator meets it: each application is a JVM with THREADS threads (half
# spinning, half sleeping and waking once a second) in a cgroup of its own with a CPU limit of APP_CPUS
# (a container saturated by its own threads), running the agent; the scraper is a JVM in another cgroup
# without a limit (the operator's pod). Each round GETs every application's /metrics from the scraper and
# from a thread of the application itself, in a rotating order. Prints every round, then the median,
# p25, p75 and max of each in milliseconds, and what the responses reported (data age, collection time,
# /proc pass time, threads reached).
# With BASELINE=<git ref>, the agent as of that commit runs too, in an application and cgroup of its own
# at the same time, so both variants meet the same machine; APP_CPUS applies to each application.
# APP_JAVA_OPTS is added to the applications' JVM options (%name% becomes the variant's name), e.g.
# APP_JAVA_OPTS='-Xlog:safepoint:file=/tmp/safepoints-%name%.log'.
# Needs root: it creates cgroups under /sys/fs/cgroup (v2, or the v1 cpu hierarchy) and removes them.
# Usage: [BASELINE=REF] [APP_CPUS=1] deploy/local/bench-agent.sh [THREADS [ROUNDS]]   (default: 2000 20)
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"

THREADS="${1:-2000}"
ROUNDS="${2:-20}"
export APP_CPUS="${APP_CPUS:-1}"
CFS_PERIOD_MICROS=100000
[[ $EUID -eq 0 ]] || die "needs root to create cgroups"

step "build the agent and its test classes"
maven -f agent/pom.xml package -DskipTests
variants=("current=$REPO_ROOT/agent/target/jvm-tuning-agent.jar")
work="$(mktemp -d)"
if [[ -n "${BASELINE:-}" ]]; then
  step "build the agent as of $BASELINE"
  (cd "$REPO_ROOT" && git archive "$BASELINE" agent mvnw .mvn) | tar -x -C "$work"
  (cd "$work" && ./mvnw -q -B -ntp -f agent/pom.xml package -DskipTests)
  variants+=("baseline=$work/agent/target/jvm-tuning-agent.jar")
fi

step "cgroups"
if grep -qw cpu /sys/fs/cgroup/cgroup.controllers 2>/dev/null; then
  parent="/sys/fs/cgroup/jvmtuning-bench-$$"
  limit() { echo "$(awk -v c="$APP_CPUS" -v p=$CFS_PERIOD_MICROS 'BEGIN { printf "%d", c * p }') $CFS_PERIOD_MICROS" >"$1/cpu.max"; }
  mkdir "$parent"
  echo +cpu >"$parent/cgroup.subtree_control"
else
  parent="/sys/fs/cgroup/cpu/jvmtuning-bench-$$"
  limit() {
    echo $CFS_PERIOD_MICROS >"$1/cpu.cfs_period_us"
    awk -v c="$APP_CPUS" -v p=$CFS_PERIOD_MICROS 'BEGIN { printf "%d\n", c * p }' >"$1/cpu.cfs_quota_us"
  }
  mkdir "$parent"
fi
cleanup() {
  for group in "$parent"/*/; do
    [[ -f "$group/cgroup.procs" ]] || continue
    while read -r pid; do kill -9 "$pid" 2>/dev/null || true; done <"$group/cgroup.procs"
  done
  sleep 1
  for group in "$parent"/*/; do [[ -d "$group" ]] && rmdir "$group" 2>/dev/null || true; done
  rmdir "$parent" 2>/dev/null || log "could not remove $parent"
  rm -rf "$work"
}
trap cleanup EXIT
mkdir "$parent/scraper"
args=()
for variant in "${variants[@]}"; do
  name="${variant%%=*}"
  mkdir "$parent/app-$name"
  limit "$parent/app-$name"
  args+=("$variant=$parent/app-$name/cgroup.procs")
done
log "applications limited to $APP_CPUS CPUs each in $parent/app-*, scraper in $parent/scraper"

step "benchmark: ${#variants[@]} applications x $THREADS threads, $ROUNDS rounds"
sh -c 'echo $$ >"$1" && shift && exec "$@"' sh "$parent/scraper/cgroup.procs" \
  java -cp "$REPO_ROOT/agent/target/test-classes" dev.jvmtuning.agent.ScrapeBenchmark "$THREADS" "$ROUNDS" "${args[@]}"
