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

# The local node (up.sh): containerd, runc and the kubelet run real pods. Node and pod addresses sit
# on two bridges that up.sh creates, in documentation ranges (RFC 5737) that no real network routes:
# the node's address alone on one (the CNI bridge plugin wants its own bridge to hold no other
# IPv4 address), the pods' on the other.
NODE_LINK="${NODE_LINK:-jto-node}"
POD_BRIDGE="${POD_BRIDGE:-jto0}"
NODE_IP="${NODE_IP:-192.0.2.1}"
POD_CIDR="${POD_CIDR:-198.51.100.0/24}"
POD_GATEWAY="${POD_GATEWAY:-198.51.100.1}"
SERVICE_CIDR="${SERVICE_CIDR:-10.96.0.0/24}"
NODE_NAME="${NODE_NAME:-jto-node}"
KUBELET_PORT="${KUBELET_PORT:-10250}"
KUBELET_HEALTHZ_PORT="${KUBELET_HEALTHZ_PORT:-10248}"
SCHEDULER_PORT="${SCHEDULER_PORT:-10259}"
# Marks the iptables rule up.sh adds, so down.sh removes exactly it.
IPTABLES_COMMENT="jvm-tuning-operator local node"
# Kernel settings the kubelet and the CNI bridge change, restored by down.sh.
NODE_SYSCTLS="kernel.panic kernel.panic_on_oops vm.overcommit_memory vm.panic_on_oom kernel.keys.root_maxkeys kernel.keys.root_maxbytes net.ipv4.ip_forward"
# Host directories the kubelet, containerd and the CNI plugins create; down.sh removes the ones up.sh did not find.
NODE_HOST_DIRS="/var/lib/kubelet /var/lib/cni /run/containerd /run/netns /var/log/containers /var/log/pods /var/lib/containerd /opt/containerd /etc/cni /opt/cni /etc/kubernetes /run/kubernetes"
# The kubelet's cgroup parent, created in every cgroup v1 hierarchy by up.sh and removed by down.sh.
NODE_CGROUP="${NODE_CGROUP:-jto}"
# containerd keeps its images in the cache, so imported images survive down.sh; its runtime state
# (socket, shims) lives under /run and goes with down.sh.
CONTAINERD_ROOT="$JTO_CACHE/containerd"
CONTAINERD_STATE="${CONTAINERD_STATE:-/run/jto-containerd}"
CONTAINERD_SOCK="$CONTAINERD_STATE/containerd.sock"
# Images built by deploy/local/images.sh; pods find them in containerd by these names, never pull.
IMAGE_VERSION="${IMAGE_VERSION:-0.1.0}"
OPERATOR_IMAGE="localhost/jvm-tuning-operator:$IMAGE_VERSION"
AGENT_IMAGE="localhost/jvm-tuning-agent:$IMAGE_VERSION"
# The lab workload's tag (localhost/jvm-tuning-workload) on a JRE: 17, 21 or 25.
workload_tag() { if [ "${1:-17}" = 17 ]; then echo "$IMAGE_VERSION"; else echo "$IMAGE_VERSION-jre$1"; fi; }
PAUSE_IMAGE="localhost/pause:$IMAGE_VERSION"
AUTOSCALERS_IMAGE="localhost/autoscalers:$IMAGE_VERSION"
# The releases of the other controllers the end-to-end checks run beside the operator.
METRICS_SERVER_MODULE="sigs.k8s.io/metrics-server@v0.8.0"
VPA_MODULE="k8s.io/autoscaler/vertical-pod-autoscaler@v1.8.1"

# ---- Helpers of the scripts: functions only, so sourcing this file still starts nothing ----

# workload_deployment NAME REPLICAS [CONTAINER-YAML] [POD-YAML] [LABELS]: a Deployment of the lab workload as the
# end-to-end checks and drills run it, for `kubectl apply -f -`; the container's extra YAML indented 8, the pod's 6,
# the labels as a flow map's entries. WORKLOAD_JAVA picks its JRE (17 unless set).
workload_deployment() {
  cat <<YAML
apiVersion: apps/v1
kind: Deployment
metadata: {name: $1, labels: {${5:-}}}
spec:
  replicas: $2
  selector: {matchLabels: {app: $1}}
  template:
    metadata: {labels: {app: $1}}
    spec:
      securityContext: {runAsNonRoot: true, runAsUser: 10001, runAsGroup: 10001, seccompProfile: {type: RuntimeDefault}}
      containers:
      - name: app
        image: localhost/jvm-tuning-workload:$(workload_tag "${WORKLOAD_JAVA:-17}")
        imagePullPolicy: Never
        ports: [{name: http, containerPort: 8080}]
        readinessProbe: {httpGet: {path: /actuator/health, port: http}, periodSeconds: 2, failureThreshold: 150}
        securityContext: {allowPrivilegeEscalation: false, capabilities: {drop: [ALL]}}
${3:-}
${4:-}
YAML
}

# A line on stderr, named after the script; die says it and stops the script.
log() { printf '[%s] %s\n' "$(basename "$0" .sh)" "$*" >&2; }
die() { log "$*"; exit 1; }
# A stage of a longer script.
step() { printf '\n==> %s\n' "$*"; }

# retry WHAT COMMAND...: runs COMMAND until it succeeds, at most $JTO_ATTEMPTS times (4), waiting 5, 15
# and 45 s between attempts, so that one network hiccup does not end a run; when every attempt has
# failed it says which download it gave up on. COMMAND runs as a condition, where `set -e` is off:
# give it one command, or a function that checks each of its steps itself.
retry() {
  local what="$1" attempt=1 delay="${JTO_RETRY_DELAY:-5}"; shift
  until "$@"; do
    if [ "$attempt" -ge "${JTO_ATTEMPTS:-4}" ]; then
      log "giving up on $what after $attempt attempts"
      return 1
    fi
    log "$what failed (attempt $attempt of ${JTO_ATTEMPTS:-4}); trying again in ${delay}s"
    sleep "$delay"
    attempt=$((attempt + 1)) delay=$((delay * 3))
  done
}

# quietly LOG COMMAND...: runs COMMAND with its output kept in LOG, and shown (its last lines) only when it fails.
quietly() {
  local log="$1" status=0; shift
  mkdir -p "$(dirname "$log")"
  "$@" >"$log" 2>&1 || status=$?
  [ "$status" -eq 0 ] || { tail -n 30 "$log" >&2; log "failed: $* (whole output in $log)"; }
  return "$status"
}

# ---- The cache ($JTO_CACHE) is shared by every run on this machine, from any checkout, at once ----
# Each artefact is built under a lock of its own, written under a name no other run uses, checked,
# and only then moved into place with its checksum beside it; whatever fails that check is rebuilt.

# with_lock NAME COMMAND...: runs COMMAND holding the cache's lock NAME; while another run holds it,
# says so and waits. COMMAND runs in a subshell with `set -e` on.
with_lock() {
  local name="$1"; shift
  mkdir -p "$JTO_CACHE/locks"
  (
    exec 9>"$JTO_CACHE/locks/$name.lock"
    if ! flock -n 9; then
      log "another run is building $name: waiting for it"
      flock 9
    fi
    "$@"
  )
}

# cache_put TEMPORARY FILE: moves TEMPORARY into place as FILE, then records its checksum: the
# checksum is written last, so a run stopped in between leaves an entry that cache_ok refuses.
cache_put() {
  local temporary="$1" file="$2" sum
  sum="$(sha256sum "$temporary" | cut -c1-64)"
  mv -f "$temporary" "$file"
  echo "$sum" >"$file.sha256.$$" && mv -f "$file.sha256.$$" "$file.sha256"
}

# cache_ok FILE: true when FILE is in the cache whole (its checksum is the one recorded when it was
# put). A damaged or unrecorded entry is removed, with a line saying so, for the caller to rebuild.
cache_ok() {
  local file="$1"
  [ -e "$file" ] || return 1
  if [ ! -f "$file.sha256" ]; then
    log "cached ${file#"$JTO_CACHE"/} has no recorded checksum (its build was cut short, or an older script built it): rebuilding it"
  elif [ "$(sha256sum "$file" | cut -c1-64)" != "$(cat "$file.sha256")" ]; then
    log "cached ${file#"$JTO_CACHE"/} does not match the checksum recorded when it was built: rebuilding it"
  else
    return 0
  fi
  rm -f "$file" "$file.sha256"
  return 1
}

# ---- The local node: its bridges, ports and containerd are the host's, so one cluster at a time ----
# up.sh records the state directory of the cluster it starts here, whichever checkout it runs from.
NODE_OWNER="$JTO_CACHE/node-state"

# hold_node: holds the host's node lock for the rest of the calling script; while another run uses
# the node, says so and waits. A script that one holding it starts (test-node.sh runs demo.sh) goes on.
# The processes up.sh starts close the lock's descriptor (see its start), so the lock ends with the run.
hold_node() {
  [ -n "${JTO_NODE_HELD:-}" ] && return 0
  mkdir -p "$JTO_CACHE/locks"
  exec 8>"$JTO_CACHE/locks/node.lock"
  if ! flock -n 8; then
    log "another run is using the local node: waiting for it to finish"
    flock 8
  fi
  export JTO_NODE_HELD=1
}

# running_cluster: the state directory of a local cluster that is up, from this checkout or another; empty when none is.
running_cluster() {
  local state
  for state in "$(cat "$NODE_OWNER" 2>/dev/null)" "$JTO_STATE"; do
    if [ -n "$state" ] && [ -f "$state/pids" ]; then echo "$state"; return; fi
  done
}

# stop_cluster STATE WHY: brings the cluster of STATE down (down.sh) and says why.
stop_cluster() {
  log "stopping the local cluster of $1: $2"
  JTO_STATE="$1" "$REPO_ROOT/deploy/local/down.sh"
}

# Maven, quietly, from the repository root: maven ARGS...
maven() { (cd "$REPO_ROOT" && ./mvnw -q -B -ntp "$@"); }

# stale OUTPUT SOURCE...: true when OUTPUT is missing or older than a file under a SOURCE, so due for a build.
stale() {
  local output="$1"; shift
  [ ! -e "$output" ] || [ -n "$(find "$@" -newer "$output" -print -quit)" ]
}

# lab_build MODULE: builds lab/MODULE with what it depends on, the operator among them (lab/pom.xml's
# reactor). Always run: Maven skips what is current, about 15 s when nothing changed. Tests are compiled,
# not run: the operator's build resolves the core's test-jar.
lab_build() { maven -f lab/pom.xml -pl "$1" -am package -DskipTests; }
# lab_classpath MODULE: what the main class of lab/MODULE runs with, once lab_build has written it.
lab_classpath() { echo "$REPO_ROOT/lab/$1/target/classes:$(cat "$REPO_ROOT/lab/$1/target/classpath.txt")"; }

# The operator's real build, and what it is built from (its modules and the parent pom).
OPERATOR_APP="$REPO_ROOT/operator/target/quarkus-app"
OPERATOR_SOURCES=("$REPO_ROOT"/{api,core,operator}/src/main "$REPO_ROOT"/{api,core,operator}/pom.xml "$REPO_ROOT/pom.xml")

# tools_build: the operator's real build ($OPERATOR_APP) and the tools module, whose main classes (drills,
# benchmarks, generators) run on the operator's test harness (a local API server, fake pods on loopback
# addresses, their metrics endpoints); the reactor writes tools/target/classpath.txt.
tools_build() { maven -pl tools -am package -DskipTests; }
# tools_run CLASS ARGS...: runs a main class of the tools module, once tools_build has built it, from the repository's root.
tools_run() {
  local main="$1"; shift
  (cd "$REPO_ROOT" && java -cp "tools/target/classes:$(cat tools/target/classpath.txt)" "$main" "$@")
}

# wait_for [--pid PID] SECONDS WHAT COMMAND...: runs COMMAND (quietly) twice a second until it succeeds;
# fails with a message naming WHAT after SECONDS, or as soon as process PID has exited.
wait_for() {
  local pid=""
  if [ "$1" = --pid ]; then pid="$2"; shift 2; fi
  local seconds="$1" what="$2"; shift 2
  local deadline=$((SECONDS + seconds))
  until "$@" >/dev/null 2>&1; do
    if [ -n "$pid" ] && ! kill -0 "$pid" 2>/dev/null; then
      echo "gave up waiting for $what: process $pid exited" >&2
      return 1
    fi
    if [ "$SECONDS" -ge "$deadline" ]; then
      echo "timed out after ${seconds}s waiting for $what" >&2
      return 1
    fi
    sleep 0.5
  done
}
