#!/usr/bin/env bash
# Renders the chart with its defaults into deploy/manifests/, for users without Helm:
#   kubectl apply --server-side -f deploy/manifests/jvm-tuning-operator.yaml
# and its monitoring objects (off by default in the chart) into deploy/manifests/monitoring.yaml, with
# the alerting rules also as a plain Prometheus rules file in deploy/prometheus/alerts.yaml.
# Tests fail when the committed files differ from this rendering.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/local/env.sh"
chart="$REPO_ROOT/charts/jvm-tuning-operator"
mkdir -p "$REPO_ROOT/deploy/manifests" "$REPO_ROOT/deploy/prometheus"
{
  echo "# Rendered from charts/jvm-tuning-operator by deploy/render-manifests.sh; do not edit."
  helm template jvm-tuning-operator "$chart" --namespace jvm-tuning-system \
    --include-crds --kube-version "$K8S_VERSION"
} >"$REPO_ROOT/deploy/manifests/jvm-tuning-operator.yaml"
{
  echo "# Rendered from charts/jvm-tuning-operator by deploy/render-manifests.sh; do not edit."
  helm template jvm-tuning-operator "$chart" --namespace jvm-tuning-system --kube-version "$K8S_VERSION" \
    --set prometheusRule.enabled=true --set grafanaDashboard.enabled=true \
    --show-only templates/prometheusrule.yaml --show-only templates/grafana-dashboard.yaml
} >"$REPO_ROOT/deploy/manifests/monitoring.yaml"
cp "$chart/files/alerts.yaml" "$REPO_ROOT/deploy/prometheus/alerts.yaml"
