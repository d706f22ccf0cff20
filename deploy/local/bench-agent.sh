#!/usr/bin/env bash
# Agent scrape benchmark: a JVM with THREADS threads (half spinning on every CPU, half sleeping and
# waking once a second) runs the agent; each round times a GET of the agent's real /metrics (served
# from its background collection) from a thread of that JVM and from a JVM in a session of its own (a
# scraper with its own CPU share, as in another container), and one collection on the measuring thread
# (what a scrape cost when the endpoint collected on request), in a rotating order. Prints every round, then the median, p25,
# p75 and max of each in milliseconds, and the data age, collection time and threads reached that the
# responses reported.
# Usage: deploy/local/bench-agent.sh [THREADS [ROUNDS]]   (default: 2000 15)
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"

step "build the agent and its test classes"
maven -f agent/pom.xml package -DskipTests

step "benchmark"
java -cp "$REPO_ROOT/agent/target/test-classes:$REPO_ROOT/agent/target/jvm-tuning-agent.jar" \
  dev.jvmtuning.agent.ScrapeBenchmark "${1:-2000}" "${2:-15}"
