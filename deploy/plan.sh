#!/usr/bin/env bash
# Previews what the operator would render for a TuningProfile, without a cluster (kubectl tp plan):
#   deploy/plan.sh -f examples/orders-api.yaml
#   deploy/plan.sh -f profile.yaml --cpu 2 --memory 2Gi
exec "$(dirname "${BASH_SOURCE[0]}")/kubectl-tp" plan "$@"
