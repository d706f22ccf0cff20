#!/usr/bin/env bash
# Tests of the scripts' own machinery, each in a cache of its own: retried downloads, the cache's
# checksums and locks, and images.sh's handling of a damaged archive, a failing build step and two
# runs into one empty cache; the benchmarks' summaries of synthetic results. Needs Go and umoci (install-tools.sh).
# Prints "N passed, N failed".
# Usage: test-scripts.sh [TEXT]   (only the tests whose name contains TEXT)
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
only="${1:-}"
passed=0
failed=0
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# check NAME COMMAND...: one test; its output is shown only when it fails.
check() {
  local name="$1"; shift
  [[ "$name" == *"$only"* ]] || return 0
  if ("$@") >"$work/out" 2>&1; then
    passed=$((passed + 1)); echo "ok   $name"
  else
    failed=$((failed + 1)); echo "FAIL $name"; sed 's/^/     /' "$work/out"
  fi
}
# fresh_cache: a new, empty cache for one test, with no containerd to import into.
fresh_cache() {
  export JTO_CACHE CONTAINERD_STATE="$work/no-containerd"
  JTO_CACHE="$(mktemp -d "$work/cache.XXXXXX")"
}
# fails_then_succeeds N FILE: fails the first N times it is run (counted in FILE), then succeeds.
fails_then_succeeds() {
  local count
  count=$(($(cat "$2" 2>/dev/null || echo 0) + 1))
  echo "$count" >"$2"
  [ "$count" -gt "$1" ]
}

retry_passes_after_two_failures() {
  JTO_RETRY_DELAY=0 retry "a flaky download" fails_then_succeeds 2 "$work/flaky" 2>"$work/log"
  [ "$(cat "$work/flaky")" = 3 ] && grep -q 'a flaky download failed (attempt 2 of 4)' "$work/log"
}

retry_names_what_it_gave_up_on() {
  ! JTO_RETRY_DELAY=0 retry "the Maven distribution" false 2>"$work/log" &&
    grep -q 'giving up on the Maven distribution after 4 attempts' "$work/log"
}

quiet_unless_it_fails() {
  [ -z "$(quietly "$work/q.log" echo chatter 2>&1)" ] && grep -q chatter "$work/q.log" || return 1
  quietly "$work/q.log" sh -c 'echo why it failed; exit 3' 2>"$work/shown"
  [ $? = 3 ] && grep -q 'why it failed' "$work/shown"
}

cache_refuses_damaged_entries() {
  fresh_cache
  local file="$JTO_CACHE/artefact" damage
  for damage in 'printf garbage >>"$file"' 'truncate -s 10 "$file"' 'rm "$file.sha256"'; do
    head -c 100000 /dev/urandom >"$work/new" && cache_put "$work/new" "$file"
    cache_ok "$file" || return 1
    eval "$damage"
    ! cache_ok "$file" 2>"$work/log" || { echo "not refused after: $damage"; return 1; }
    [ ! -e "$file" ] && grep -q rebuilding "$work/log" || return 1
  done
}

# A builder that fails when another is inside it at the same time.
exclusive_builder() {
  mkdir "$work/inside" || return 1
  sleep 1
  rmdir "$work/inside"
  echo built >>"$work/builds"
}
lock_serialises_builders() {
  fresh_cache
  with_lock thing exclusive_builder 2>"$work/log-a" &
  local first=$!
  sleep 0.3
  with_lock thing exclusive_builder 2>"$work/log-b"
  wait "$first" && [ "$(wc -l <"$work/builds")" = 2 ] && grep -q 'another run is building thing: waiting for it' "$work/log-b"
}

images() { "$REPO_ROOT/deploy/local/images.sh" "$@"; }

damaged_archive_is_rebuilt() {
  fresh_cache
  images pause 2>/dev/null || return 1
  printf 'trailing bytes' >>"$JTO_CACHE/images/pause.tar"
  images pause 2>"$work/log" || return 1
  grep -q 'images/pause.tar does not match the checksum recorded when it was built: rebuilding it' "$work/log" &&
    grep -q 'building pause' "$work/log" && cache_ok "$JTO_CACHE/images/pause.tar"
}

failed_step_leaves_no_image() {
  fresh_cache
  # umoci that fails at the step that puts the program into the image.
  mkdir -p "$work/bin"
  printf '#!/bin/sh\n[ "$1" = insert ] && { echo "umoci: injected failure" >&2; exit 1; }\nexec %s "$@"\n' "$(command -v umoci)" >"$work/bin/umoci"
  chmod +x "$work/bin/umoci"
  ! PATH="$work/bin:$PATH" images pause 2>"$work/log" &&
    grep -q 'step failed (exit 1): umoci insert' "$work/log" &&
    [ ! -e "$JTO_CACHE/images/pause.tar" ] && [ ! -e "$JTO_CACHE/images/pause.inputs" ]
}

two_runs_share_an_empty_cache() {
  fresh_cache
  images pause 2>"$work/log-a" &
  local first=$!
  images pause 2>"$work/log-b"
  wait "$first" || return 1
  cache_ok "$JTO_CACHE/images/pause.tar" && tar -tf "$JTO_CACHE/images/pause.tar" >/dev/null &&
    [ "$(cat "$work/log-a" "$work/log-b" | grep -c 'building pause')" = 1 ]
}

# boost_run DIR BOOST NAIVE [BOOST-LATENCY]: bench-boost.sh's files of a run of 6 load rounds, none's latencies,
# throttled periods and CPU time random, boost's and naive's none's scaled by a factor a round (BOOST and NAIVE: six,
# separated by commas; boost's latencies by BOOST-LATENCY when given); before them each pod's warm-up, round 0,
# boost's and naive's ten times as slow and throttled as none's.
boost_run() {
  python3 - "$@" <<'PY'
import os, random, sys
directory, factors = sys.argv[1], {"none": [1.0] * 6, "boost": sys.argv[2].split(","), "naive": sys.argv[3].split(",")}
latency_factors = dict(factors, boost=sys.argv[4].split(",")) if len(sys.argv) > 4 and sys.argv[4] else factors
os.makedirs(directory)
rng = random.Random(7)
with open(os.path.join(directory, "startup"), "w") as startup:
    startup.writelines(f"{variant} {seconds}\n" for variant, seconds in (("none", 19), ("naive", 7), ("boost", 7)))
rounds = []
for _ in range(6):
    busy = rng.uniform(0.8, 1.3)  # what else the machine ran in the round, alike for every variant
    rounds.append(([rng.lognormvariate(-3, 0.5) * busy for _ in range(300)], 75 * busy))
for variant, scale in factors.items():
    with open(os.path.join(directory, variant + ".latency"), "w") as latency, \
            open(os.path.join(directory, variant + ".throttled"), "w") as throttled:
        cold = 1 if variant == "none" else 10
        latency.writelines(f"0 200 {s * cold:.6f}\n" for s in rounds[0][0])
        throttled.write(f"0 300 {min(300, 20 * cold)} {9000000 * cold}\n")
        for r, ((seconds, periods), factor, slower) in enumerate(zip(rounds, map(float, scale), map(float, latency_factors[variant])), 1):
            latency.writelines(f"{r} 200 {s * slower:.6f}\n" for s in seconds)
            throttled.write(f"{r} 300 {round(periods * factor)} {round(9000000 * periods / 75 * factor)}\n")
PY
}
boost_verdicts() { # NAME BOOST NAIVE BOOST-LATENCY EXPECTED-LINES...
  local name="$1"; boost_run "$work/$1" "$2" "$3" "$4" || return 1; shift 4
  "$REPO_ROOT/deploy/local/bench-boost.sh" --summarize "$work/$name" >"$work/$name.out" || return 1
  local expected
  for expected in "$@"; do
    grep -q -- "$expected" "$work/$name.out" || { echo "no line matching: $expected"; cat "$work/$name.out"; return 1; }
  done
}
boost_summary_verdicts() {
  boost_verdicts same 1,1,1,1,1,1 1.2,1.2,1.2,1.2,1.2,1.2 "" \
    '^boost/none: throttled fraction 1.00 (1.00-1.00), p99 1.00 (1.00-1.00), CPU per request 1.00 (1.00-1.00), .*; at most 5% worse: yes$' \
    '^naive/none: throttled fraction 1.20 .* CPU per request 1.20 .*; at most 5% worse: no$' '^boost/naive: .*; better than naive: yes$' \
    '^none .*; 1800 of 1800 answered 200, 6 rounds$' &&
  boost_verdicts within 1.04,1.04,1.04,1.04,1.04,1.04 1,1,1,1,1,1 "" '^boost/none: .*; at most 5% worse: yes$' &&
  boost_verdicts worse 1.1,1.1,1.1,1.1,1.1,1.1 1.2,1.2,1.2,1.2,1.2,1.2 "" \
    '^boost/none: .*; at most 5% worse: no$' '^boost/naive: .*; better than naive: yes$' &&
  boost_verdicts slower 1,1,1,1,1,1 1,1,1,1,1,1 1.06,1.06,1.06,1.06,1.06,1.06 \
    '^boost/none: throttled fraction 1.00 .* p99 1.06 .*; at most 5% worse: no$' &&
  boost_verdicts throttles 1.06,1.06,1.06,1.06,1.06,1.06 1,1,1,1,1,1 1,1,1,1,1,1 \
    '^boost/none: throttled fraction 1.06 .* p99 1.00 .*; at most 5% worse: no$' &&
  boost_verdicts better 0.8,0.8,0.8,0.8,0.8,0.8 1,1,1,1,1,1 "" '^boost/none: throttled fraction 0.80 .*; at most 5% worse: yes$' &&
  boost_verdicts noisy 0.9,1.1,0.95,1.05,1.1,0.9 0.9,1.3,1,1.1,1.4,0.8 "" \
    '^boost/none: .*; at most 5% worse: yes, but the intervals reach above 1.05$' \
    '^boost/naive: throttled fraction 0.9.*; better than naive: not shown$'
}

rollout_summary_ratio() {
  printf 'plain 27.5\nboost 20.1\nboost 19.0\nplain 28.3\nplain 24.7\nboost 18.2\nboost 22.0\nplain 41.0\nplain 26.0\nboost 17.5\n' >"$work/times"
  "$REPO_ROOT/deploy/local/bench-rollout.sh" --summarize "$work/times" >"$work/rollout.out" || return 1
  cat "$work/rollout.out"
  grep -q '^plain  median   27.5 s  95% interval 24.7-41.0  (n 5, min 24.7, max 41.0)$' "$work/rollout.out" &&
    grep -q '^boost  median   19.0 s ' "$work/rollout.out" && grep -q '^boost/plain: 0.69 (95% interval 0.[0-9][0-9]-0.[0-9][0-9])$' "$work/rollout.out"
}

check "retry: a download that fails twice is tried again and passes" retry_passes_after_two_failures
check "retry: gives up after the last attempt, naming the download" retry_names_what_it_gave_up_on
check "quietly: output kept in a log, shown only on failure, with the exit status" quiet_unless_it_fails
check "cache: trailing bytes, a truncation, a missing checksum are refused" cache_refuses_damaged_entries
check "cache: two builders of one artefact run one after the other" lock_serialises_builders
check "images.sh: a damaged archive is rebuilt, saying so" damaged_archive_is_rebuilt
check "images.sh: a failing step stops the build, named, with no image or digest left" failed_step_leaves_no_image
check "images.sh: two runs into one empty cache build once and both pass" two_runs_share_an_empty_cache
check "bench-boost.sh --summarize: at most 5% worse than none and better than naive, read from paired intervals, the warm-up left out" boost_summary_verdicts
check "bench-rollout.sh --summarize: per variant the median and its interval, and boost/plain" rollout_summary_ratio
echo "scripts: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
