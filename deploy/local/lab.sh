#!/usr/bin/env bash
# The tuning lab: does the planner find settings near the best ones on a real server? For each
# scenario (io-bound, cpu-bound, mixed, allocation-heavy, pool-bound on Spring Boot/Tomcat; quarkus-pool-bound
# and overload on Quarkus; jetty-mixed on Spring Boot/Jetty; undertow-mixed on Spring Boot/Undertow; vt-pool-bound,
# vt-jetty-pool-bound and vt-pool-bound-jdk25 on virtual threads) the workload app runs as a real process in a cgroup with the scenario's container limits on CPU 1, under
# closed-loop HTTP load on 127.0.0.1 from the lab's JVM on CPU 0: with the defaults, every point of
# a sweep, the planner's settings, the closed loop's (defaults -> observe -> plan, twice) and mode
# Auto's, the settings of a phase measured in interleaved rounds. Writes the run into lab/results/runs/DATE-TIME/
# (report.md, runs.csv, a PNG per scenario), then lab/results/RESULTS.md from the latest run of each scenario, so
# the scenarios can run in parts that fit the machine. A scenario takes minutes even in quick mode (dated timings
# in docs/development/lab.md). Needs root (it creates cgroups) and 2 CPUs.
# Usage: [LAB_QUICK=1] [LAB_RESULTS=DIR] deploy/local/lab.sh [SCENARIO ...]
#   LAB_QUICK=1 is a rougher run for development (3 rounds of 2 s instead of 4 of 3 s, no extra rounds for a
#   wide ratio, shorter warm-ups) that writes under target/lab/quick instead of lab/results.
#   LAB_RESULTS=DIR writes a full run's results there instead of lab/results.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
[ "$(id -u)" -eq 0 ] || die "lab.sh creates cgroups for the workload's container limits: run it as root"
cd "$REPO_ROOT"
# The workload's cgroups (jvm-tuning-lab-N in each controller) go with the lab, and so does an app the lab left
# running in one when it was stopped.
remove_lab_cgroups() {
  local groups
  groups="$(find /sys/fs/cgroup -mindepth 1 -maxdepth 6 -type d -name 'jvm-tuning-lab-*')"
  [ -n "$groups" ] || return 0
  # shellcheck disable=SC2086 # one path a line, none with blanks
  cat $(printf '%s/cgroup.procs\n' $groups) 2>/dev/null | sort -u | xargs -r kill 2>/dev/null || true
  local tries left group
  for tries in 1 2 3 4 5; do
    left=""
    for group in $groups; do
      [ ! -d "$group" ] || rmdir "$group" 2>/dev/null || left="$left $group"
    done
    [ -n "$left" ] || return 0
    groups="$left"
    sleep "$tries"
  done
  echo "lab.sh: could not remove$left" >&2
}
trap remove_lab_cgroups EXIT
out="$REPO_ROOT/target/lab"
mkdir -p "$out"
results="${LAB_RESULTS:-lab/results}"
quick=()
if [ -n "${LAB_QUICK:-}" ]; then
  results="$out/quick"
  quick=(-Dlab.quick=true)
fi
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
if stale lab/workload-app/target/lab-workload-undertow.jar lab/workload-app/src lab/work/src lab/workload-app/pom.xml; then
  maven -f lab/workload-app/pom.xml -Pundertow package -DskipTests
fi
if stale lab/quarkus-app/target/lab-workload-quarkus-runner.jar lab/quarkus-app/src lab/work/src lab/quarkus-app/pom.xml; then
  maven -f lab/quarkus-app/pom.xml package -DskipTests
fi
lab_build driver
# The virtual-thread scenarios run on Java 21 and 25: the JREs of the node's images (Debian's packages, built by
# images.sh), unpacked here and started by their own file system's dynamic loader, so they need nothing of the host's glibc.
java_launchers=()
for release in 21 25; do
  "$REPO_ROOT/deploy/local/images.sh" "jre$release"
  tar_file="$JTO_CACHE/images/rootfs/jre$release.tar"
  root="$out/jre$release"
  if [ "$(cat "$root/unpacked.sha256" 2>/dev/null)" != "$(cat "$tar_file.sha256")" ]; then
    rm -rf "$root" && mkdir -p "$root/fs"
    tar -C "$root/fs" -xf "$tar_file" ./usr ./etc
    # Debian links the JRE's configuration and JFR settings to /etc by absolute paths: point them into this file system.
    find "$root/fs" -type l -lname '/*' | while read -r link; do ln -sfn "$root/fs$(readlink "$link")" "$link"; done
    cat >"$root/java" <<LAUNCHER
#!/bin/sh
exec "$root/fs/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2" --library-path "$root/fs/usr/lib/x86_64-linux-gnu" \\
  "$root/fs/usr/lib/jvm/java-$release-openjdk-amd64/bin/java" "\$@"
LAUNCHER
    chmod +x "$root/java"
    cp "$tar_file.sha256" "$root/unpacked.sha256"
  fi
  java_launchers+=("-Dlab.java.$release=$root/java")
done
step "the lab: ${*:-all scenarios}"
# LAB_OPTS passes -Dlab.rounds=N, -Dlab.extra-rounds=N, -Dlab.run-seconds=S or -Dlab.warmup-seconds=S to change the method.
# The lab's JVM (the load generator) keeps CPU 0 to itself against the app (the app's cgroup pins it to CPU 1),
# and a higher priority against other work on the machine, as the app's cgroup has.
started=$SECONDS
nice -n -10 taskset -c 0 java ${LAB_OPTS:-} "${quick[@]}" "${java_launchers[@]}" -Djava.awt.headless=true -Dlab.app-cpus=1 \
  -Dlab.app=lab/workload-app/target/lab-workload.jar \
  -Dlab.app.SpringBootJetty=lab/workload-app/target/lab-workload-jetty.jar \
  -Dlab.app.SpringBootUndertow=lab/workload-app/target/lab-workload-undertow.jar -Dlab.app.Quarkus=lab/quarkus-app/target/lab-workload-quarkus-runner.jar \
  -Dlab.agent=agent/target/jvm-tuning-agent.jar \
  -Dlab.logs="$out/logs" \
  -cp "$(lab_classpath driver)" dev.jvmtuning.lab.TuningLab "$results" "$@"
step "the lab took $(( (SECONDS - started) / 60 )) min $(( (SECONDS - started) % 60 )) s; results in $results"
