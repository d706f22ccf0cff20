package dev.jvmtuning.operator.decision;

import dev.jvmtuning.operator.api.v1alpha1.AdmittedPod;
import dev.jvmtuning.operator.api.v1alpha1.AutoStatus;
import dev.jvmtuning.operator.api.v1alpha1.RollBack;
import dev.jvmtuning.operator.api.v1alpha1.Recommendation;
import dev.jvmtuning.operator.api.v1alpha1.VerticalScaling;
import dev.jvmtuning.operator.model.Attestation;
import dev.jvmtuning.operator.model.MetricsReport;
import dev.jvmtuning.operator.model.ProfileEvent;
import dev.jvmtuning.operator.model.Reason;
import dev.jvmtuning.operator.planner.PlanResult;
import dev.jvmtuning.operator.pressure.Finding;
import dev.jvmtuning.operator.pressure.MemoryAccount;
import dev.jvmtuning.operator.pressure.Verdict;
import dev.jvmtuning.operator.render.Rendering;
import dev.jvmtuning.operator.rollout.Rollout;
import dev.jvmtuning.operator.rollout.StartupBoosts;
import io.fabric8.kubernetes.api.model.Container;
import java.util.List;
import java.util.Optional;
import lombok.With;

/**
 * What a reconcile's steps found and decided, each its own part: the status is assembled from it once ({@link StatusBuilder#assemble}),
 * and no step reads another's back from a status under construction. A part left null is one this reconcile did not look at: status
 * keeps it as the last reconcile left it.
 *
 * @param writes         the writes to make, in order
 * @param applied        what the Applied and Ready conditions say
 * @param remembered     what status carries to the next reconcile of the rollouts and the JVMs
 * @param admitted       how the newest pod differs from the template, which the plan followed
 * @param verticalScaling the stance beside the target's VerticalPodAutoscaler, null for none
 * @param planned        the plan in force and its rendering, null for none
 * @param auto           status.auto as this reconcile leaves it
 * @param autoEvents     mode Auto's Events
 * @param metrics        the latest poll judged against the plan, null without a poll
 * @param memory         the pods' memory against the plan's budget, null where not looked at
 * @param heapFit        each pod's heap against its own limit, null without a verdict
 * @param scaleDown      a memory-scaling autoscaler's stance, null where not looked at
 * @param tuned          the container and the settings a startup boost is judged against, null where nothing tunes it
 * @param boost          spec.startupBoost's verdict on the pods
 */
@With
record Findings(List<Write> writes, Applied applied, Remembered remembered, Optional<AdmittedPod> admitted, VerticalScaling verticalScaling,
        Planned planned, AutoStatus auto, List<ProfileEvent> autoEvents, Metrics metrics, Memory memory, Finding heapFit,
        Optional<Finding> scaleDown, Tuned tuned, StartupBoosts.Verdict boost) {

    Findings {
        writes = List.copyOf(writes);
        autoEvents = List.copyOf(autoEvents);
    }

    /** Nothing found yet: status as the last reconcile left it, and what this one says of Applied. */
    static Findings start(Remembered remembered, AutoStatus auto, Applied applied) {
        return new Findings(List.of(), applied, remembered, Optional.empty(), null, null, auto, List.of(), null, null, null, null, null, null);
    }

    /** What the Applied and Ready conditions say. */
    sealed interface Applied {
        /** Applied's reason. */
        Reason reason();

        /** Nothing is applied: the target is missing, the profile conflicts, is invalid, does not fit, or its writes stopped. */
        record NotApplied(Reason reason, String message) implements Applied {
        }

        /** Mode Recommend: status.settings shows what Apply would render. */
        record RecommendOnly() implements Applied {
            @Override
            public Reason reason() {
                return Reason.RECOMMEND_ONLY;
            }
        }

        /**
         * The settings are written and roll out.
         *
         * @param unheld      a failing pod the settings are not held to account for, and why
         * @param attestation what the JVMs of a completed rollout report they run; null until it completed
         */
        record Rolling(String message, Rollout rollout, Optional<String> unheld, Attestation attestation) implements Applied {
            @Override
            public Reason reason() {
                return Reason.APPLIED;
            }
        }

        /** The pods of these settings failed and the template went back. */
        record RolledBack(RollBack rollBack) implements Applied {
            @Override
            public Reason reason() {
                return Reason.ROLLED_BACK;
            }
        }
    }

    /** The plan in force as status shows it, and the poll whose JVMs say what runs the requests. */
    record Planned(PlanResult.Plan plan, Rendering rendering, Optional<MetricsReport> polled) {
    }

    /** A metrics poll as status shows it, the detector's verdict (null until a window exists) and the closed loop's recommendations. */
    record Metrics(MetricsReport report, Verdict verdict, List<Recommendation> remeasured) {
    }

    /** The pods' memory against the plan's budget; a null judgement: nothing to judge against, and nothing shown. */
    record Memory(MemoryAccount.Judgement judgement) {
        static final Memory NOT_JUDGED = new Memory(null);
    }

    /** The tuned container and the hash of the settings in force; null for settings not applied. */
    record Tuned(Container userContainer, String settingsHash) {
    }
}
