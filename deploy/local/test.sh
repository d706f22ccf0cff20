#!/usr/bin/env bash
# Runs every test: installs the toolchain on first use (cached afterwards), then the Maven build
# with unit tests and the tests against a real local kube-apiserver, etcd and controller manager.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
"$REPO_ROOT/deploy/local/install-tools.sh"
cd "$REPO_ROOT"
./mvnw -B -ntp verify "$@"
