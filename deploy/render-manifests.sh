#!/usr/bin/env bash
# Renders the chart with its defaults into deploy/manifests/, for users without Helm:
#   kubectl apply --server-side -f deploy/manifests/jvm-tuning-operator.yaml
# A test fails when the committed file differs from this rendering.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/local/env.sh"
mkdir -p "$REPO_ROOT/deploy/manifests"
{
  echo "# Rendered from charts/jvm-tuning-operator by deploy/render-manifests.sh; do not edit."
  helm template jvm-tuning-operator "$REPO_ROOT/charts/jvm-tuning-operator" --namespace jvm-tuning-system \
    --include-crds --kube-version "$K8S_VERSION"
} >"$REPO_ROOT/deploy/manifests/jvm-tuning-operator.yaml"
