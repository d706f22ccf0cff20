#!/usr/bin/env bash
# End-to-end checks on the real node, after demo.sh (its cluster, operator and orders-api profile).
# Each check reads what the kernel, the kubelet or the JVM itself reports, never only the pod spec:
#   1. the tuned flags as the running JVM reports them (attach API), in every new pod;
#   1b. an image's entrypoint overriding the planned heap, or blinding the JVM to its container: SettingsEffective=False,
#       from the JVMs' own readings, on JDK 17 and 21;
#   2. deleting the profile rolls the pods back to the user's own JVM options;
#   3. a flag no JVM knows: refused by the flag policy before any pod sees it; then settings the
#      application cannot start with: a real CrashLoopBackOff, rolled back to the user's template;
#   3c. a pod restarting while its CPU is boosted: the boost ended at the restart, the settings rolled back;
#   3d. an incident after the rollback window and a user's own crashing release: reported, the tuning kept; the fix runs tuned;
#   3e. a CPU limit cut with the boost on: the old pods, never boosted at their own limit, keep it;
#   3f. releases onto an older JDK whose JVMs refuse an option the operator rendered: that option dropped, the rest kept;
#   4. settings the pods do not fit in: a real OOM kill, rolled back to the user's template;
#   4b. an image's own -Xmx beyond the plan, its heap growing: an OOM kill put down to that heap (HEAP_NOT_PLANNED), no budget answer;
#   5. a CPU quota under load: real CFS throttling in the container's cgroup and the CPUThrottled condition;
#   5b. the operator pod's own /q/metrics carries the demo profile's series;
#   6. two operator replicas: the leader's pod deleted, the other takes the Lease and keeps reconciling;
#   7. three watched namespaces and three restarts: every profile back Ready with fresh metrics within 30 s;
#   8. mode Auto under real load: steps kept while they help, a step that made things worse reverted,
#      then held, with the threads read from the running JVM;
#   9. virtual threads blocked inside synchronized: VirtualThreadPinning with the frame on JDK 21, not on JDK 25;
#   10. ZGC on JDK 21 and 25: a soft maximum heap under the ceiling and no pinned initial heap, in the running JVMs;
#   11-14. beside other actors: admission (a LimitRange, a MutatingAdmissionPolicy), a GitOps re-apply loop, the real VPA
#      (recommender, updater, admission controller) and an HPA, both reading metrics-server (autoscalers.sh);
#   15. a container sized with the JVM (spec.sizing): an oversized template's pod runs the limit its heap needs, the JVM the
#      planned heap; the profile's delete gives the template its own resources back;
#   16. an OOM kill of a sized container: the part that ran over and the limit around it raised, the heap kept, the demand held.
# Every wait is bounded; load is bounded in requests and time, to pod addresses only.
# The checks are JUnit tests of the systemtest module (systemtest/src/test/java, one class a check, tagged check-NUMBER,
# each asserting in Java): this script picks the ones asked for, runs them in one Maven run and reports each, then clears
# what the checks left on the demo's cluster.
# Usage: e2e.sh [CHECK-NUMBER...]   (default: all, in order)
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
export KUBECONFIG="$KUBECONFIG_FILE"
NS="${NAMESPACE:-shop}"
ONLY=" $* "
failures=0
ran=0

selected() { [ "$ONLY" = "  " ] || [[ "$ONLY" == *" $1 "* ]]; } # CHECK-NUMBER: asked for, or all are
# verdict NAME STATUS SECONDS OUTPUT: reports a check that ran and counts it. A failed check's verdict and last lines (of the
# file OUTPUT) also go to $E2E_FAILURES when it is set: test-node.sh prints them last, where a run's tail shows them.
verdict() {
  local line
  ran=$((ran + 1))
  if [ "$2" -eq 0 ]; then printf -- '--- PASS %s (%d s)\n' "$1" "$3"
  else
    line="$(printf -- '--- FAIL %s (%d s, exit %d)' "$1" "$3" "$2")"
    echo "$line"
    failures=$((failures + 1))
    [ -z "${E2E_FAILURES:-}" ] || { echo "$line; its last lines:"; tail -n 25 "$4"; } >>"$E2E_FAILURES"
  fi
}

# The checks of the systemtest module (JUnit, systemtest/src/test/java), each tagged check-NUMBER: the ones asked for run in
# one Maven run (its start-up costs about as much as a short check), in their numbers' order, each printing its lines as it
# goes. Each leaves its log and its result (PASS or FAIL, its seconds, its name) in $JAVA_RESULTS; a check asked for that
# left no result (the module did not compile, the run was stopped) failed.
JAVA_RESULTS="$REPO_ROOT/systemtest/target/checks"
java_checks() {
  local number tags=() status seconds name code
  for number in $(grep -rhoP '@Tag\("check-\K[^"]+' "$REPO_ROOT/systemtest/src/test/java" | sort -V); do
    if selected "$number"; then tags+=("check-$number"); fi
  done
  [ "${#tags[@]}" -gt 0 ] || return 0
  rm -rf "$JAVA_RESULTS"
  # Run after the demo alone, before test.sh ever did, the module's test launcher is not in the Maven cache yet: fetched
  # once (a run selecting no check), so the checks' own run stays offline.
  maven -o -pl systemtest test -Dsystemtest -Dgroups=no-check-has-this-tag >/dev/null 2>&1 ||
    retry "the systemtest module's test launcher" maven -pl systemtest test -Dsystemtest -Dgroups=no-check-has-this-tag
  maven -o -pl systemtest test -Dsystemtest -Dgroups="$(IFS=,; echo "${tags[*]}")" ||
    echo "the systemtest module's run failed (its checks' verdicts below)"
  for number in "${tags[@]#check-}"; do
    if [ -f "$JAVA_RESULTS/$number.result" ]; then
      read -r status seconds < "$JAVA_RESULTS/$number.result"
      name="$(sed -n 2p "$JAVA_RESULTS/$number.result")"
      code=1
      if [ "$status" = PASS ]; then code=0; fi
      verdict "$name" "$code" "$seconds" "$JAVA_RESULTS/$number.log"
    else
      mkdir -p "$JAVA_RESULTS"
      echo "check $number gave no result: the Maven run above says why" > "$JAVA_RESULTS/$number.log"
      verdict "$number. (systemtest)" 1 0 "$JAVA_RESULTS/$number.log"
    fi
  done
}

java_checks
# The other controllers of checks 13 and 14 go, their webhook first, where a stopped run left them: the demo's cluster runs without them.
if kubectl get deployment -n kube-system vpa-admission-controller >/dev/null 2>&1; then
  "$REPO_ROOT/deploy/local/autoscalers.sh" down || echo "could not take the autoscalers down (deploy/local/autoscalers.sh down)" >&2
fi
E2E_OBJECTS=(imager17 blind17 imager21 blind21 refuser rebooter releaser cutter oomer xmxer throttled looper pinner21 pinner25 zgc21 zgc25 limited admitted synced synced-ssa synced-recipe resized scaled downgraded repushed sized raised)
kubectl delete tp -n "$NS" "${E2E_OBJECTS[@]}" --ignore-not-found --wait=false >/dev/null
kubectl delete deployment -n "$NS" "${E2E_OBJECTS[@]}" --ignore-not-found --wait=false >/dev/null
printf '\n%d of %d end-to-end checks failed\n' "$failures" "$ran"
[ "$failures" -eq 0 ]
