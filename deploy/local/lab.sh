#!/usr/bin/env bash
# The tuning lab: does the planner find settings near the best ones on a real server? For each
# scenario (io-bound, cpu-bound, mixed, allocation-heavy, pool-bound on Spring Boot/Tomcat; quarkus-pool-bound,
# overload on Quarkus; jetty-mixed on Spring Boot/Jetty) the workload app runs as a real process in a cgroup with the scenario's container limits, under closed-loop HTTP
# load on 127.0.0.1: with the defaults, every point of a sweep, the planner's settings, and the
# closed loop's (defaults -> observe -> plan, twice). Writes lab/results/RESULTS.md, runs.csv and
# a PNG per scenario. About 28 minutes on 2 cores for all five (longer when the VM steals CPU). Needs root (it creates cgroups).
# Usage: deploy/local/lab.sh [SCENARIO ...]
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
[ "$(id -u)" -eq 0 ] || die "lab.sh creates cgroups for the workload's container limits: run it as root"
cd "$REPO_ROOT"
out="$REPO_ROOT/target/lab"
mkdir -p "$out"
step "build: the agent, the workload app, the lab and the operator"
if stale agent/target/jvm-tuning-agent.jar agent/src agent/pom.xml; then
  maven -f agent/pom.xml package -DskipTests
fi
if stale lab/workload-app/target/lab-workload.jar lab/workload-app/src lab/work/src lab/workload-app/pom.xml; then
  maven -f lab/workload-app/pom.xml package -DskipTests
fi
if stale lab/workload-app/target/lab-workload-jetty.jar lab/workload-app/src lab/work/src lab/workload-app/pom.xml; then
  maven -f lab/workload-app/pom.xml -Pjetty package -DskipTests
fi
if stale lab/quarkus-app/target/lab-workload-quarkus-runner.jar lab/quarkus-app/src lab/work/src lab/quarkus-app/pom.xml; then
  maven -f lab/quarkus-app/pom.xml package -DskipTests
fi
lab_build driver
step "the lab: ${*:-all scenarios}"
# LAB_OPTS passes -Dlab.runs=N, -Dlab.run-seconds=S or -Dlab.warmup-seconds=S for a quicker, rougher run.
exec java ${LAB_OPTS:-} -Djava.awt.headless=true -Dlab.app=lab/workload-app/target/lab-workload.jar \
  -Dlab.app.SpringBootJetty=lab/workload-app/target/lab-workload-jetty.jar -Dlab.app.Quarkus=lab/quarkus-app/target/lab-workload-quarkus-runner.jar \
  -Dlab.agent=agent/target/jvm-tuning-agent.jar \
  -Dlab.logs="$out/logs" \
  -cp "$(lab_classpath driver)" dev.jvmtuning.lab.TuningLab lab/results "$@"
