#!/usr/bin/env bash
# Runs every test: installs the toolchain on first use (cached afterwards), then the agent's build
# and the operator's: unit and property tests, and tests against a real local kube-apiserver, etcd
# and controller manager, real helm, real Prometheus and real JVMs under pressure.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
"$REPO_ROOT/deploy/local/install-tools.sh"
cd "$REPO_ROOT"
# The agent and the lab's Spring Boot app first: the operator's tests run them as real workload JVMs.
./mvnw -B -ntp -f agent/pom.xml verify
./mvnw -B -ntp -q -f lab/workload-app/pom.xml package
./mvnw -B -ntp verify "$@"
# kubectl finds the plugin on the PATH, and the plugin prints its answer and nothing else.
tp_err="$(mktemp)"
PATH="$REPO_ROOT/deploy:$PATH" kubectl tp plan -f examples/orders-api.yaml -o json >/dev/null 2>"$tp_err" \
  || die "kubectl tp plan failed: $(cat "$tp_err")"
[ ! -s "$tp_err" ] || die "kubectl tp plan wrote to stderr: $(cat "$tp_err")"
rm -f "$tp_err"
# The lab driver and the benchmark build against the operator's classes: a change that breaks them fails here.
# Only the lab's own tests run (its statistics and report); the operator's ran above.
./mvnw -B -ntp -q -f lab/pom.xml -pl driver,bench -am package -Dtest='dev.jvmtuning.lab.*Test' -Dsurefire.failIfNoSpecifiedTests=false
# The lab's workload on Jetty and on Quarkus: built when their sources changed (a Quarkus build takes a minute).
if stale lab/workload-app/target/lab-workload-jetty.jar lab/workload-app/src lab/work/src lab/workload-app/pom.xml; then
  ./mvnw -B -ntp -q -f lab/workload-app/pom.xml -Pjetty package
fi
if stale lab/quarkus-app/target/lab-workload-quarkus-runner.jar lab/quarkus-app/src lab/work/src lab/quarkus-app/pom.xml; then
  ./mvnw -B -ntp -q -f lab/quarkus-app/pom.xml package
fi
# Last, the real node: the demo and the end-to-end checks on real pods, the host compared before
# up.sh and after down.sh (deploy/local/test-node.sh).
"$REPO_ROOT/deploy/local/test-node.sh"
