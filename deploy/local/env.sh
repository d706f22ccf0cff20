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
