# Shared settings of the local control-plane scripts; sourced, not run.
K8S_VERSION="${K8S_VERSION:-1.36.3}"
HELM_VERSION="${HELM_VERSION:-3.22.0}"
JTO_CACHE="${JTO_CACHE:-$HOME/.cache/jvm-tuning-operator}"
K8S_BIN="$JTO_CACHE/k8s/v$K8S_VERSION"
HELM_BIN="$JTO_CACHE/helm/v$HELM_VERSION"
REPO_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
# Where a running local control plane keeps its certificates, data, logs and pids.
JTO_STATE="${JTO_STATE:-$REPO_ROOT/.local-cluster}"
APISERVER_PORT="${APISERVER_PORT:-16443}"
ETCD_PORT="${ETCD_PORT:-12379}"
KUBECONFIG_FILE="$JTO_STATE/kubeconfig"
export PATH="$K8S_BIN:$HELM_BIN:/usr/local/go/bin:$PATH"

# ---- Helpers of the scripts: functions only, so sourcing this file still starts nothing ----

# A line on stderr, named after the script; die says it and stops the script.
log() { printf '[%s] %s\n' "$(basename "$0" .sh)" "$*" >&2; }
die() { log "$*"; exit 1; }
# A stage of a longer script.
step() { printf '\n==> %s\n' "$*"; }

# Maven, quietly, from the repository root: maven ARGS...
maven() { (cd "$REPO_ROOT" && ./mvnw -q -B -ntp "$@"); }

# stale OUTPUT SOURCE...: true when OUTPUT is missing or older than a file under a SOURCE, so due for a build.
stale() {
  local output="$1"; shift
  [ ! -e "$output" ] || [ -n "$(find "$@" -newer "$output" -print -quit)" ]
}

# lab_build MODULE: builds lab/MODULE with what it depends on, the operator among them (lab/pom.xml's
# reactor). Always run: Maven skips what is current, about 15 s when nothing changed.
lab_build() { maven -f lab/pom.xml -pl "$1" -am package -Dmaven.test.skip=true; }
# lab_classpath MODULE: what the main class of lab/MODULE runs with, once lab_build has written it.
lab_classpath() { echo "$REPO_ROOT/lab/$1/target/classes:$(cat "$REPO_ROOT/lab/$1/target/classpath.txt")"; }

# wait_for [--pid PID] SECONDS COMMAND...: runs COMMAND twice a second until it succeeds; fails after
# SECONDS, or as soon as process PID has exited.
wait_for() {
  local pid=""
  if [ "$1" = --pid ]; then pid="$2"; shift 2; fi
  local deadline=$((SECONDS + $1)); shift
  until "$@"; do
    { [ -z "$pid" ] || kill -0 "$pid" 2>/dev/null; } && [ "$SECONDS" -lt "$deadline" ] || return 1
    sleep 0.5
  done
}
