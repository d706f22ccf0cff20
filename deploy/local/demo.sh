#!/usr/bin/env bash
# The main job: a local control plane, `helm install` of the chart (CRD, ServiceAccount, RBAC), the
# operator running under the chart's ServiceAccount, the example service and its profile; waits until
# the profile is Ready and prints it with the Deployment's rendered environment.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
NAMESPACE="${NAMESPACE:-shop}"
EXAMPLE="${EXAMPLE:-$REPO_ROOT/examples/orders-api.yaml}"

step() { printf '\n==> %s\n' "$*"; }

step "toolchain (built once, then cached)"
"$REPO_ROOT/deploy/local/install-tools.sh"

step "local control plane"
"$REPO_ROOT/deploy/local/up.sh"
export KUBECONFIG="$KUBECONFIG_FILE"

step "helm install jvm-tuning-operator (watching namespace $NAMESPACE)"
kubectl create namespace "$NAMESPACE" --dry-run=client -o yaml | kubectl apply -f -
helm upgrade --install jvm-tuning-operator "$REPO_ROOT/charts/jvm-tuning-operator" -n jvm-tuning-system --create-namespace \
  --set "watchNamespaces={$NAMESPACE}"
kubectl wait --for=condition=Established --timeout=60s crd/tuningprofiles.jvmtuning.dev

step "operator, authenticated as the chart's ServiceAccount"
# No kubelet runs the chart's pod here, so the same operator runs as a local process with that
# ServiceAccount's token: what it may do is exactly what the chart grants.
operator_kubeconfig="$JTO_STATE/operator.kubeconfig"
kubectl config view --raw --minify --flatten >"$operator_kubeconfig"
KUBECONFIG="$operator_kubeconfig" kubectl config set-credentials admin \
  --token="$(kubectl create token jvm-tuning-operator -n jvm-tuning-system --duration=24h)" >/dev/null
kubectl --kubeconfig "$operator_kubeconfig" auth can-i list secrets -n "$NAMESPACE" >/dev/null 2>&1 &&
  { echo "the operator's identity can read Secrets: RBAC is too broad" >&2; exit 1; }
OPERATOR_KUBECONFIG="$operator_kubeconfig" WATCH_NAMESPACES="$NAMESPACE" "$REPO_ROOT/deploy/local/run-operator.sh"

step "example: $EXAMPLE in namespace $NAMESPACE"
kubectl apply -n "$NAMESPACE" -f "$EXAMPLE"
profile="$(kubectl get -f "$EXAMPLE" -n "$NAMESPACE" -o jsonpath='{range .items[?(@.kind=="TuningProfile")]}{.metadata.name}{end}')"
deployment="$(kubectl get tp "$profile" -n "$NAMESPACE" -o jsonpath='{.spec.targetRef.name}')"
# No kubelet here: report the rolled-out pods Ready while the operator's rollout proceeds.
"$REPO_ROOT/deploy/local/mark-pods-ready.sh" "$NAMESPACE" --watch 90 &
kubelet_pid=$!
trap 'kill $kubelet_pid 2>/dev/null || true' EXIT
kubectl wait --for=condition=Ready --timeout=90s -n "$NAMESPACE" "tp/$profile"

step "kubectl get tp -n $NAMESPACE -o wide"
kubectl get tp -n "$NAMESPACE" -o wide

step "conditions of tp/$profile"
kubectl get tp "$profile" -n "$NAMESPACE" -o jsonpath='{range .status.conditions[*]}{.type}{"\t"}{.status}{"\t"}{.reason}{"\t"}{.message}{"\n"}{end}' | column -t -s $'\t'

step "rendered settings of tp/$profile"
kubectl get tp "$profile" -n "$NAMESPACE" -o jsonpath='{range .status.settings[*]}{.name}{"\t"}{.value}{"\t"}{.rule}{"\t"}{.rationale}{"\n"}{end}' | column -t -s $'\t'

step "environment of deployment/$deployment"
kubectl set env "deployment/$deployment" -n "$NAMESPACE" --list --resolve
cat <<MSG

The control plane and the operator keep running (operator log: $JTO_STATE/logs/operator.log).
Use them with:  export KUBECONFIG=$KUBECONFIG_FILE
Stop them with: deploy/local/down.sh
MSG
