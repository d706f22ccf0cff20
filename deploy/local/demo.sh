#!/usr/bin/env bash
# The main job: a local control plane, the TuningProfile CRD, the example service and its profile.
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

step "CRD"
kubectl apply --server-side -f "$REPO_ROOT/crds/tuningprofiles.jvmtuning.dev-v1.yml"
kubectl wait --for=condition=Established --timeout=60s crd/tuningprofiles.jvmtuning.dev

step "example: $EXAMPLE in namespace $NAMESPACE"
kubectl create namespace "$NAMESPACE" --dry-run=client -o yaml | kubectl apply -f -
kubectl apply -n "$NAMESPACE" -f "$EXAMPLE"
"$REPO_ROOT/deploy/local/mark-pods-ready.sh" "$NAMESPACE" --watch 5
kubectl rollout status -n "$NAMESPACE" deployment --timeout=60s

step "kubectl get tp -n $NAMESPACE"
kubectl get tp -n "$NAMESPACE"
cat <<MSG

The control plane keeps running. Use it with:  export KUBECONFIG=$KUBECONFIG_FILE
Stop it with:                                   deploy/local/down.sh
MSG
