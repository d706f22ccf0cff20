#!/usr/bin/env bash
# Runs each end-to-end check (e2e.sh) against an operator with the behaviour that check names broken
# on purpose: a check that still passes could not fail, and this script fails with it. Each breakage
# is one edit to the operator's source, rebuilt into its image and rolled out; the source is put
# back and the operator rebuilt from it at the end, whatever happens. Needs the demo's cluster up
# (demo.sh) and clean operator sources (api, core, operator). Prints a table: check, breakage, result.
# Usage: e2e-breakages.sh [CHECK...]   (default: every breakage)
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
export KUBECONFIG="$KUBECONFIG_FILE"
cd "$REPO_ROOT"
sources=(api/src core/src operator/src)
git diff --quiet -- "${sources[@]}" || die "${sources[*]} have uncommitted changes: this script edits and restores them"
core=core/src/main/java/dev/jvmtuning/operator
operator=operator/src/main/java/dev/jvmtuning/operator

# CHECKS TO RUN | THE CHECK THAT MUST FAIL | FILE | sed EXPRESSION | WHAT IS BROKEN
BREAKAGES=(
  "1|1|$core/render/DeploymentTuning.java|s/new EnvVar(rendering.jvmOptionsVariable(), /new EnvVar(rendering.jvmOptionsVariable() + \"_UNREAD\", /|the flags are rendered into a variable no JVM reads"
  "1b|1b|$core/model/Attestation.java|s/return Math.abs(effective - value) <= tolerance.of(value);/return true;/|every option a JVM reports is taken as the planned value"
  "1 2|2|$operator/reconciler/TargetWrites.java|s/context.resourceOperations().update(restore.restored());/LOG.info(\"not restoring\");/|a deleted profile does not restore the Deployment"
  "3|3|$core/flags/FlagPolicy.java|s/problems.add(\"jvmOptions\[\" + i + \"\] \" + shown(entry) + \" \" + problem.get());/problem.get();/|the flag policy passes every flag"
  "3 3b|3b|$core/rollout/RolloutHealth.java|s/if (waiting != null \&\& FAILING_WAITING_REASONS.contains(waiting.getReason()))/if (false)/; s/if (restarts >= MAX_RESTARTS)/if (false)/|crash loops and restarts are not seen as a failed rollout"
  "3c|3c|$core/rollout/StartupBoosts.java|s/: pod.restarts() > 0 ? \"its container/: false ? \"its container/|a boosted pod that restarts keeps its boost"
  "3d|3d|$core/rollout/RolloutJudge.java|s/f -> !f.restarting() .. (settingsOnly .. f.jvmRefusal())/f -> !f.restarting()/|a release that crashes for its own reasons takes the settings back"
  "3d|3d|$core/rollout/RolloutJudge.java|s/now.isBefore(Instant.parse(tracked.getCompletedAt()).plus(window))/true/|failures long after the rollout take the settings back"
  "3e|3e|$core/rollout/StartupBoosts.java|s/boosts.get(p.getMetadata().getName())))/boosts.getOrDefault(p.getMetadata().getName(), new BoostedPod(p.getMetadata().getName(), p.getMetadata().getUid(), facts.template().getName(), facts.template().getResources().getLimits().get(\"cpu\").toString(), \"2\", facts.now().toString()))))/|every pod above the template's CPU limit taken for a boosted one and lowered to it (boosts not recorded)"
  "3f|3f|$core/decision/ApplyStep.java|s/if (status.refusedOption() == null) {/if (false) {/|a refused option takes the whole tuning back until the next release"
  "4|4|$core/rollout/RolloutHealth.java|s/KERNEL_KILL_REASON.equals(terminated.getReason())/false/; s/KERNEL_KILL_REASON.equals(last.getReason())/false/|an OOM kill is not seen as a failed rollout"
  "4b|4b|$core/model/OomKill.java|s/return Optional.of(heapNotPlanned(plannedHeapBytes, reportedHeapMax)/return Optional.of(false/|a kill is judged against the planned heap, not the one the JVM reports"
  "5|5|$core/pressure/PressureDetector.java|s/new Finding(CPU_THROTTLED, TRUE, Reason.THROTTLED/new Finding(CPU_THROTTLED, FALSE, Reason.THROTTLED/|throttling above the threshold is reported False"
  "5b|5b|$operator/reconciler/ProfileSeries.java|s/\"jvm.tuning.profile.condition\"/\"jvm.tuning.profile.state\"/|the per-profile condition series is not published under its name"
  "6|6|$operator/config/LeaderElection.java|s/.build()).orElse(null);/.build()).filter(configuration -> false).orElse(null);/|the operator runs without leader election"
  "7|7|$operator/reconciler/Watches.java|s/getEffectiveNamespaces().size() == 1;/getEffectiveNamespaces().size() > 0;/|the informers of a namespace list share one item store"
  "8|8|$core/closedloop/AutoLoop.java|s/Optional<String> worse = Measures.regression(in.spec(), pending.get().getBefore(), period);/Optional<String> worse = Optional.empty();/|a step that made things worse is kept, never reverted"
  "8|8|$core/closedloop/AutoLoop.java|s/return new AutoSettings(own(loop.getThreads(), target.getThreads(), inForce.getThreads()),/return new AutoSettings(inForce.getThreads(),/|a step sets the threads in force, not its target: steps kept that never raised the threads"
  "9|9|$core/pressure/CarrierPinning.java|s/if (share < PINNED_SHARE_PERCENT) {/if (true) {/|pinning above the threshold is reported False"
  "10|10|$core/planner/HeapTarget.java|s/if (gc.effective() != Collector.ZGC) {/if (true) {/|ZGC's heap pinned at -Xms = -Xmx, without a soft maximum"
  "10|10|$core/planner/HeapTarget.java|s/return new HeapTarget(null, softMax, List.of(/return new HeapTarget(null, null, List.of(/|ZGC without a soft maximum: the JVM takes its maximum heap as one"
  "10|10|$core/planner/HeapTarget.java|s/return new HeapTarget(null, softMax, List.of(/return new HeapTarget(softMax \/ 2, softMax, List.of(/|ZGC given an -Xms of half its soft maximum, under the ceiling"
  "11|11|$core/preview/Preview.java|s/TargetContainer.facts(deployment, userContainer, pod, /TargetContainer.facts(deployment, userContainer, Optional.empty(), /|the plan is for the template, not for the pod as admitted"
  "12|12|$core/decision/TakeBacks.java|s/static final int STOPPING = 2;/static final int STOPPING = 1000;/|every take-back of the operator's fields is answered with a write"
  "13|13|$core/preview/Preview.java|s/Renderer.render(plan.values(), planned, facts, owned,/Renderer.render(plan.values(), planned, facts, Renderer.Owned.NONE,/|the heap fixed in megabytes beside a VPA that moves memory"
  "13|13|$core/preview/Preview.java|s/v.minAllowedMemoryBytes()).or(/(Long) null).or(/|the heap's share planned at the template's limit, not the least the VPA may give"
  "14|14|$core/deployment/TargetContainer.java|s/.max(Integer::compare).orElse(/.filter(max -> false).max(Integer::compare).orElse(/|the pool planned for today's replicas, not the autoscaler's most"
  "15|15|$core/render/DeploymentTuning.java|s/container.setResources(resources);/container.setResources(null);/|the sized resources planned, never written into the template"
  "15|15|$core/render/DeploymentTuning.java|s/setResource(resources, field, original.isEmpty() ? null : original);/setResource(resources, field, recorded.applied().get(field));/|the sized resources kept, not the user's given back"
  "16|16|$core/planner/Planner.java|s/return oomKill.map(answer -> budget.withPart(answer.cause(), answer.raised(budget.part(answer.cause())))).orElse(budget);/return budget;/|an OOM kill answered within the sized limit, the limit not raised"
)
ONLY=" $* "

# Rebuilds the operator's image from the source as it is and rolls the operator's pods onto it.
operator_from_source() {
  "$REPO_ROOT/deploy/local/images.sh" operator >/dev/null
  kubectl rollout restart deployment/jvm-tuning-operator -n jvm-tuning-system >/dev/null
  kubectl rollout status deployment/jvm-tuning-operator -n jvm-tuning-system --timeout=300s >/dev/null
}
# Each breakage starts where the checks expect to: no profile, no Deployment a broken build tuned.
fresh_namespace() {
  kubectl delete tp --all -n "${NAMESPACE:-shop}" --timeout=120s >/dev/null
  kubectl delete deployment --all -n "${NAMESPACE:-shop}" --timeout=120s >/dev/null
}
restore() {
  git checkout -q -- "${sources[@]}"
  log "source restored; rebuilding the operator from it"
  operator_from_source
  # The demo as demo.sh left it: each breakage began with an empty namespace.
  kubectl apply -n "${NAMESPACE:-shop}" -f "$REPO_ROOT/deploy/local/demo/orders-api.yaml" >/dev/null
}
trap restore EXIT

results="$(mktemp)"
could_not_fail=0
for entry in "${BREAKAGES[@]}"; do
  IFS='|' read -r checks check file expression what <<<"$entry"
  [ "$ONLY" = "  " ] || [[ "$ONLY" == *" $check "* ]] || continue
  sed -i "$expression" "$file"
  git diff --quiet -- "$file" && die "the breakage of check $check ($what) no longer applies to $file: update it"
  log "check $check with $what"
  operator_from_source
  fresh_namespace
  output="$(bash "$REPO_ROOT/deploy/local/e2e.sh" $checks 2>&1 || true)"
  git checkout -q -- "$file"
  if grep -q -- "^--- FAIL $check\. " <<<"$output"; then
    # Where it failed: a check that fails for another reason than its breakage shows it here.
    result="failed, as it must: $(grep -m1 -E '^(assertion failed|timed out|gave up)' <<<"$output" | cut -c1-160)"
  else
    result="PASSED: this check cannot fail"
    could_not_fail=$((could_not_fail + 1))
    echo "$output" | tail -n 20 >&2
  fi
  printf '%s\t%s\t%s\n' "$check" "$what" "$result" | tee -a "$results"
done
printf '\n'
column -t -s $'\t' "$results"
rm -f "$results"
[ "$could_not_fail" -eq 0 ] || die "$could_not_fail checks passed with the behaviour they name broken"
