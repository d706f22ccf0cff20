package dev.jvmtuning.operator.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jvmtuning.operator.api.v1alpha1.LastRecommendations;
import dev.jvmtuning.operator.api.v1alpha1.Mode;
import dev.jvmtuning.operator.api.v1alpha1.Recommendation;
import dev.jvmtuning.operator.api.v1alpha1.RecommendedAction;
import dev.jvmtuning.operator.api.v1alpha1.TuningProfile;
import dev.jvmtuning.operator.api.v1alpha1.TuningProfileSpec;
import dev.jvmtuning.operator.api.v1alpha1.TuningProfileStatus;
import dev.jvmtuning.operator.decision.Decide;
import dev.jvmtuning.operator.model.Setting;
import dev.jvmtuning.operator.model.Units;
import dev.jvmtuning.operator.render.DeploymentTuning;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** The settings as literal environment variables of the target container, for a Git repository that no controller may write to. */
@Command(name = "export", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
        description = {"The settings as a Kustomize patch or Helm values, for a Git repository.",
                "The settings the operator would render, as literal environment variables of the target container: a Kustomize "
                        + "strategic-merge patch (default) or a Helm values fragment, for teams whose Deployments belong to Argo CD or Flux.",
                "None where the operator's decision, in mode Apply, keeps them off the Deployment (settings rolled back, OOM kills "
                        + "no budget answers, an older profile tuning the Deployment): an error that says why.",
                "--recommended plans with the workload figures the operator measured (status.recommendations, or "
                        + "status.lastRecommendations once the load stopped) instead of the declared ones; advice that is no value for a "
                        + "setting of the profile is listed as comments."},
        exitCodeListHeading = "%nExit status:%n", exitCodeList = {"0:the settings", "1:an error (no such profile, no recommendations, "
                + "settings the operator keeps out, the cluster unreachable)", "2:bad usage or input"})
final class ExportCommand implements Callable<Integer> {
    /** Status setting names that are also spec paths, so a recommendation for them can be planned with. */
    private static final List<String> SPEC_SETTINGS = List.of(Setting.THREADS_MAX.key(), Setting.POOL_MAX_SIZE.key(), Setting.HEAP_SIZE.key());

    enum Format {
        KUSTOMIZE, HELM;

        /** As typed on the line, and as help, errors and completion show it. */
        @Override
        public String toString() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    @Mixin
    private ProfileArgument profile;

    @Mixin
    private ClusterOptions cluster;

    @Option(names = "--format", paramLabel = "FORMAT", defaultValue = "kustomize",
            description = "kustomize (a strategic-merge patch of the Deployment, the default) or helm (an env: list for a chart's values, "
                    + "and resources: where the profile sizes them).")
    private Format format;

    @Option(names = "--recommended", description = "Plan with the recommendations in the profile's status instead of its declared workload.")
    private boolean recommended;

    @Spec
    private CommandSpec spec;

    /** Recommendations left out, with why. */
    private final List<String> skipped = new ArrayList<>();
    /** Where the exported recommendations came from, when not from status.recommendations. */
    private final List<String> notes = new ArrayList<>();

    @Override
    public Integer call() {
        profile.requireOne();
        if (recommended && profile.fromFile()) {
            throw new ParameterException(spec.commandLine(), "--recommended reads the profile's status: name a profile in the cluster");
        }
        try (KubernetesClient client = cluster.client()) {
            String namespace = cluster.namespace();
            Decide.Installation installation = cluster.installed(client, spec.commandLine().getErr());
            TuningProfile loaded = profile.load(client, namespace);
            Planned planned = Planned.of(appliedFromGit(recommended ? withRecommendations(loaded) : loaded), client, namespace, installation);
            planned.notApplied().ifPresent(why -> {
                throw new Refusal("the operator keeps the settings of TuningProfile " + planned.profile().getMetadata().getName() + " off Deployment "
                        + planned.live().getMetadata().getName() + ": " + why);
            });
            DeploymentTuning.TunedEnv tuned = DeploymentTuning.tunedEnv(planned.tuned(), planned.profile().getMetadata().getName())
                    .orElseThrow(() -> new IllegalStateException("an applied decision leaves the Deployment untuned"));
            // Literal values: the JVM variable as rendered (the user's own flags first), each server property from its ConfigMap.
            List<Map<String, String>> entries = tuned.values(name -> planned.configMap(name).orElseThrow().getData()).entrySet().stream()
                    .map(e -> ExportCommand.<String>ordered("name", e.getKey(), "value", e.getValue())).toList();
            StringBuilder source = new StringBuilder("# " + (recommended ? "recommended" : "planned") + " by TuningProfile "
                    + planned.profile().getMetadata().getName() + " for Deployment " + planned.live().getMetadata().getName() + "\n");
            notes.forEach(n -> source.append("# ").append(n).append('\n'));
            skipped.forEach(s -> source.append("# left out, no value for a setting of the profile: ").append(s).append('\n'));
            Map<String, Map<String, String>> resources = DeploymentTuning.sizedResources(planned.tuned(), planned.profile().getMetadata().getName());
            Map<String, Object> values = ordered("env", entries);
            if (!resources.isEmpty()) {
                values.put("resources", resources);
            }
            Map<String, Object> container = ordered("name", tuned.container());
            container.putAll(values);
            Object document = format == Format.HELM ? values
                    : ordered("apiVersion", "apps/v1", "kind", "Deployment", "metadata", Map.of("name", planned.live().getMetadata().getName()),
                            "spec", Map.of("template", Map.of("spec", Map.of("containers", List.of(container)))));
            spec.commandLine().getOut().print(source + Documents.yaml(document));
            return 0;
        }
    }

    /** A map that keeps the order its keys are given in, as a reader expects them in YAML. */
    private static <V> Map<String, V> ordered(Object... keysAndValues) {
        Map<String, V> map = new LinkedHashMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            @SuppressWarnings("unchecked")
            V value = (V) keysAndValues[i + 1];
            map.put((String) keysAndValues[i], value);
        }
        return map;
    }

    /**
     * The profile with status.recommendations written into its spec: the workload figures the operator
     * measured, and the thread, pool and heap sizes its pressure conditions ask for. Advice that is no
     * value for a setting of the profile (a CPU limit, a leak to investigate) stays out, and is listed in {@code skipped}.
     */
    private TuningProfile withRecommendations(TuningProfile profile) {
        List<Recommendation> recommendations = shownLast(profile);
        ObjectNode spec = Documents.YAML.valueToTree(profile.getSpec());
        for (Recommendation r : recommendations) {
            boolean setting = r.getField().startsWith("workload.") || SPEC_SETTINGS.contains(r.getField());
            if (!setting || r.getAction() != RecommendedAction.Set) {
                skipped.add(r.getField() + " -> " + describe(r) + ": " + r.getReason());
                continue;
            }
            String[] path = r.getField().split("\\.");
            ObjectNode parent = spec;
            for (int i = 0; i < path.length - 1; i++) {
                parent = parent.has(path[i]) && parent.get(path[i]).isObject() ? (ObjectNode) parent.get(path[i]) : parent.putObject(path[i]);
            }
            // Written as text; binding the spec converts it to the field's type (an integer for threads.max).
            parent.put(path[path.length - 1], r.getRecommended());
        }
        return withSpec(profile, Documents.YAML.convertValue(spec, TuningProfileSpec.class));
    }

    /**
     * The profile as the operator would decide on it once its settings are in Git: a Recommend profile as mode Apply, so that
     * what keeps Apply's settings off the Deployment (a rollback, OOM kills no budget answers, an older profile) keeps them
     * out of the export too.
     */
    private static TuningProfile appliedFromGit(TuningProfile profile) {
        if (profile.getSpec().getMode() != Mode.Recommend) {
            return profile;
        }
        TuningProfileSpec spec = Documents.YAML.convertValue(profile.getSpec(), TuningProfileSpec.class);
        spec.setMode(Mode.Apply);
        return withSpec(profile, spec);
    }

    private static TuningProfile withSpec(TuningProfile profile, TuningProfileSpec spec) {
        TuningProfile copy = new TuningProfile();
        copy.setMetadata(profile.getMetadata());
        copy.setStatus(profile.getStatus());
        copy.setSpec(spec);
        return copy;
    }

    /** The advice as a person reads it in the export's comments; status an earlier operator version wrote has no action. */
    private static String describe(Recommendation r) {
        if (r.getAction() == null) {
            return r.getRecommended();
        }
        return switch (r.getAction()) {
            case Set -> r.getRecommended();
            case Scale -> "x" + Units.number(r.getFactor());
            case Keep -> "keep " + r.getRecommended();
            case Investigate -> "investigate";
        };
    }

    /**
     * status.recommendations, or once a window without advice (the load stopped) emptied them, the advice shown
     * last, as long as the spec it was given for is still the profile's.
     */
    private List<Recommendation> shownLast(TuningProfile profile) {
        TuningProfileStatus status = profile.getStatus();
        String name = profile.getMetadata().getName();
        if (status != null && status.getRecommendations() != null && !status.getRecommendations().isEmpty()) {
            return status.getRecommendations();
        }
        LastRecommendations last = status == null ? null : status.getLastRecommendations();
        if (last == null || last.getRecommendations() == null || last.getRecommendations().isEmpty()) {
            throw new Refusal("TuningProfile " + name + " has no recommendations in its status yet");
        }
        if (last.getGeneration() != null && !last.getGeneration().equals(profile.getMetadata().getGeneration())) {
            throw new Refusal("TuningProfile " + name + " was changed (generation " + profile.getMetadata().getGeneration()
                    + ") since its last recommendations (generation " + last.getGeneration() + ", window ending " + last.getWindowEnd()
                    + "); a metrics window under load gives new ones");
        }
        notes.add("status.recommendations is empty (the latest window gave no advice, as when the load stopped): "
                + "these are the last recommendations shown, from the window ending " + last.getWindowEnd());
        return last.getRecommendations();
    }
}
