#!/usr/bin/env bash
# Runs every test: installs the toolchain on first use (cached afterwards), the scripts' own tests,
# then the agent's build and the operator's: unit and property tests, and tests against a real local
# kube-apiserver, etcd and controller manager, real helm, real Prometheus and real JVMs under
# pressure; last the demo and the end-to-end checks on the real node. Everything the Maven builds
# need is fetched first, with retries, and the suites then run offline: a network hiccup in the
# middle of a suite cannot end the run.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
"$REPO_ROOT/deploy/local/install-tools.sh"
"$REPO_ROOT/deploy/local/test-scripts.sh"
cd "$REPO_ROOT"

# Every build below, once, with one quick unit test each: this resolves their plugins and
# dependencies, the test framework's launcher among them (surefire loads it only to run a test).
# The end-to-end checks of the systemtest module need the node: their run here selects none, for the launcher, and
# e2e.sh runs them offline. Its Maven steps are chained with && because retry runs them where `set -e` is off.
resolve_builds() {
  local no_it=(-Dit.test=NoTestIsNamedSo -Dfailsafe.failIfNoSpecifiedTests=false)
  maven -f agent/pom.xml verify -Dtest=AgentArgumentsTest "${no_it[@]}" &&
    maven -f lab/workload-app/pom.xml package -DskipTests &&
    maven verify -Dtest=PlannerRulesTest &&
    maven -pl systemtest test -Dsystemtest -Dgroups=no-check-has-this-tag &&
    maven -f lab/pom.xml -pl driver,bench -am package -Dtest=StatsTest -Dsurefire.failIfNoSpecifiedTests=false &&
    lab_runtimes
}
# The lab's workload on Jetty, on Undertow and on Quarkus: built when their sources changed (a Quarkus build takes a minute).
lab_runtimes() {
  if stale lab/workload-app/target/lab-workload-jetty.jar lab/workload-app/src lab/work/src lab/workload-app/pom.xml; then
    maven -f lab/workload-app/pom.xml -Pjetty package -DskipTests || return
  fi
  if stale lab/workload-app/target/lab-workload-undertow.jar lab/workload-app/src lab/work/src lab/workload-app/pom.xml; then
    maven -f lab/workload-app/pom.xml -Pundertow package -DskipTests || return
  fi
  if stale lab/quarkus-app/target/lab-workload-quarkus-runner.jar lab/quarkus-app/src lab/work/src lab/quarkus-app/pom.xml; then
    maven -f lab/quarkus-app/pom.xml package -DskipTests || return
  fi
}
retry "Maven's plugins and dependencies for the builds" resolve_builds
offline() { ./mvnw -o -B -ntp "$@"; }

# The agent and the lab's Spring Boot app first: the operator's tests run them as real workload JVMs.
offline -f agent/pom.xml verify
offline -q -f lab/workload-app/pom.xml package
offline verify "$@"
# kubectl finds the plugin on the PATH, and the plugin prints its answer and nothing else.
tp_err="$(mktemp)"
PATH="$REPO_ROOT/deploy:$PATH" kubectl tp plan -f examples/orders-api.yaml -o json >/dev/null 2>"$tp_err" \
  || die "kubectl tp plan failed: $(cat "$tp_err")"
[ ! -s "$tp_err" ] || die "kubectl tp plan wrote to stderr: $(cat "$tp_err")"
rm -f "$tp_err"
# The lab driver and the benchmark build against the operator's classes: a change that breaks them fails here.
# Only the lab's own tests run (its statistics and report); the operator's ran above.
offline -q -f lab/pom.xml -pl driver,bench -am package -Dtest='dev.jvmtuning.lab.*Test' -Dsurefire.failIfNoSpecifiedTests=false
# Last, the real node: the demo and the end-to-end checks on real pods, the host compared before
# up.sh and after down.sh (deploy/local/test-node.sh).
"$REPO_ROOT/deploy/local/test-node.sh"
