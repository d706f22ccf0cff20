package dev.jvmtuning.operator.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.kubernetes.api.model.Condition;
import java.util.ArrayList;
import java.util.List;
import lombok.Data;

@Data
public class TuningProfileStatus {
    @JsonPropertyDescription("The metadata.generation this status describes.")
    private Long observedGeneration;

    @JsonPropertyDescription("Ready, Applied, RolloutComplete, MetricsAvailable and the pressure conditions.")
    private List<Condition> conditions = new ArrayList<>();

    @JsonPropertyDescription("Each rendered value, where it went, and the rule and numbers behind it.")
    private List<Setting> settings = new ArrayList<>();

    @JsonPropertyDescription("The threading model the settings were planned for, and where it came from.")
    private ThreadingStatus threading;

    @JsonPropertyDescription("The Java feature version (17, 21, 25) the target's Ready pods report running, from their metrics "
            + "(jvm_runtime_info or jvm_info); the lowest when they differ, and kept when a poll reports none. The plan's JDK-specific "
            + "rules (R21) and the flag policy check against it; absent until a pod reports one.")
    private Integer javaVersion;

    @JsonPropertyDescription("The AOT cache or CDS archive the target's pods' JVMs report being given (option AOTCache or "
            + "SharedArchiveFile), and on how many of the pods that report their options, e.g. \"-XX:AOTCache on 2 of 2 pods\"; "
            + "kept when a poll reports no options, absent when they report none given. Set in the image (its ENTRYPOINT or "
            + "JAVA_TOOL_OPTIONS) it is invisible in the pod spec; the plan's checks of a cache's options apply to it all the same.")
    private String aotCache;

    @JsonPropertyDescription("The images of the target's containers whose JVMs reported javaVersion and aotCache, read only once every "
            + "Ready pod ran them. A rollback of pods of other images forgets both: the next plan checks its flags against every "
            + "supported JDK until the new images' JVMs report.")
    private String jvmImages;

    @JsonPropertyDescription("The target container as its newest pod was admitted, where that differs from the template (a LimitRange "
            + "default, a VerticalPodAutoscaler, a mutating admission policy, an in-place resize): the settings are planned for the "
            + "pod's resources. Absent when the pod runs what the template says.")
    private AdmittedPod admitted;

    @JsonPropertyDescription("Another field manager took back the fields the operator wrote into the Deployment (a GitOps controller "
            + "re-applying from Git): who, which fields, when; once stopped, the operator writes them no more until the profile or "
            + "the Deployment's own template changes. Absent when nothing was taken back in the last ten minutes.")
    private TakenBack takenBack;

    @JsonPropertyDescription("The VerticalPodAutoscaler of the target, what it moves of the container's limits, and the stance taken "
            + "beside it. Absent without one.")
    private VerticalScaling verticalScaling;

    @JsonPropertyDescription("What the container overrides of the rendered settings, and what the runtime could not take.")
    private List<String> warnings = new ArrayList<>();

    @JsonPropertyDescription("Figures of the last metrics window.")
    private Observed observed;

    @JsonPropertyDescription("Changes the metrics suggest, with their reasons.")
    private List<Recommendation> recommendations = new ArrayList<>();

    @JsonPropertyDescription("The recommendations shown last, with the window they came from, kept once a window without advice "
            + "(the load stopped) emptied recommendations: what kubectl tp export --recommended exports then.")
    private LastRecommendations lastRecommendations;

    @JsonPropertyDescription("The last settings whose rollout completed with every pod available: what a failed rollout goes back to.")
    private AppliedSettings lastHealthy;

    @JsonPropertyDescription("The rollout of the template in force: whether the operator's write or the Deployment's own template "
            + "started it, and when it completed. Decides which failures take the settings back (spec.rollback).")
    private TrackedRollout rollout;

    @JsonPropertyDescription("The last settings taken back because their pods failed.")
    private RollBack rolledBack;

    @JsonPropertyDescription("A VM option the operator rendered that the target's JVM refused to start with (\"Unrecognized VM "
            + "option\", \"Improperly specified VM option\"): the settings that carried it were rolled back, and are rendered without "
            + "it and rolled out once more; should those fail too, they are rolled back as any others. Forgotten when the profile "
            + "or the Deployment's own template (a release) changes; absent otherwise.")
    private RefusedOption refusedOption;

    @JsonPropertyDescription("The last OOM kill of a pod's tuned container the operator saw, with its most likely cause and figures; "
            + "each new kill also raises an OOMKilled Event.")
    private LastOomKill lastOomKill;

    @JsonPropertyDescription("The pods spec.startupBoost raised that still run the boost: only these are lowered, each back to its "
            + "own CPU limit, also when the profile is deleted or its namespace no longer watched.")
    private List<BoostedPod> startupBoosts = new ArrayList<>();

    @JsonPropertyDescription("Mode Auto: the loop's state, its settings and its last iterations.")
    private AutoStatus auto;
}
