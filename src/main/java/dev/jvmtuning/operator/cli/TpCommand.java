package dev.jvmtuning.operator.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator;
import com.github.difflib.DiffUtils;
import com.github.difflib.UnifiedDiffUtils;
import dev.jvmtuning.operator.api.v1alpha1.LastRecommendations;
import dev.jvmtuning.operator.api.v1alpha1.Mode;
import dev.jvmtuning.operator.api.v1alpha1.Recommendation;
import dev.jvmtuning.operator.api.v1alpha1.RecommendedAction;
import dev.jvmtuning.operator.api.v1alpha1.TuningProfile;
import dev.jvmtuning.operator.api.v1alpha1.TuningProfileSpec;
import dev.jvmtuning.operator.api.v1alpha1.TuningProfileStatus;
import dev.jvmtuning.operator.config.OperatorSettings;
import dev.jvmtuning.operator.config.PublishedSettings;
import dev.jvmtuning.operator.flags.FlagPolicy;
import dev.jvmtuning.operator.metrics.GuardrailQueries;
import dev.jvmtuning.operator.model.LabelsAndAnnotations;
import dev.jvmtuning.operator.model.Setting;
import dev.jvmtuning.operator.model.Units;
import dev.jvmtuning.operator.preview.Preview;
import dev.jvmtuning.operator.render.DeploymentTuning;
import dev.jvmtuning.operator.render.Rendering;
import dev.jvmtuning.operator.render.TuningConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * {@code kubectl tp}: the operator's planner and renderer at a user's terminal. {@code plan} previews a
 * profile from files; {@code diff} shows what the operator would change in the live Deployment, as the
 * API server itself would merge it (a server-side dry run); {@code export} writes the settings as a
 * Kustomize patch or Helm values for a Git repository that no controller may write to.
 */
public final class TpCommand {
    static final String USAGE = """
            usage: kubectl tp plan -f FILE [-f FILE ...] [--cpu CORES] [--memory QUANTITY] [--replicas N] [--java VERSION] [--allow PREFIX ...]
                                   [-o text|yaml|json]
                   kubectl tp diff (NAME | -f FILE) [-n NAMESPACE] [--kubeconfig FILE] [--operator-namespace NAMESPACE] [--agent-image IMAGE]
                   kubectl tp export (NAME | -f FILE) [-n NAMESPACE] [--kubeconfig FILE] [--operator-namespace NAMESPACE]
                                     [--format kustomize|helm] [--recommended]
            Options: -v prints the client's log lines to stderr.

              plan    the settings the operator would render for a profile, and why, without a cluster
              diff    the change the operator would make to the live Deployment, as a unified diff;
                      exit status 0 no change, 1 changes, 2 error (as kubectl diff)
              export  the settings as literal environment variables of the target container: a Kustomize
                      strategic-merge patch (default) or a Helm values fragment; --recommended plans with the
                      workload figures the operator measured (status.recommendations) instead of the declared ones
            NAME is a TuningProfile in the cluster; -f FILE reads it from a file (its Deployment is read from the cluster).
            diff and export plan with the settings the operator publishes in ConfigMap %s of its namespace
            (--operator-namespace, default %s): its flag allow-list, guardrail queries and agent image.
            """.formatted(PublishedSettings.CONFIG_MAP, Target.DEFAULT_OPERATOR_NAMESPACE);
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory()
            .disable(YAMLGenerator.Feature.WRITE_DOC_START_MARKER).enable(YAMLGenerator.Feature.MINIMIZE_QUOTES)
            .enable(YAMLGenerator.Feature.ALWAYS_QUOTE_NUMBERS_AS_STRINGS));
    private static final int CONTEXT_LINES = 3;
    /** Status setting names that are also spec paths, so a recommendation for them can be planned with. */
    private static final List<String> SPEC_SETTINGS = List.of(Setting.THREADS_MAX.key(), Setting.POOL_MAX_SIZE.key(), Setting.HEAP_SIZE.key());

    private TpCommand() {
    }

    public static void main(String[] args) {
        System.exit(run(args, System.out, System.err));
    }

    static int run(String[] args, PrintStream out, PrintStream err) {
        List<String> rest = new ArrayList<>(Arrays.asList(args));
        rest.remove("-v");
        if (rest.isEmpty() || rest.get(0).equals("-h") || rest.get(0).equals("--help")) {
            (rest.isEmpty() ? err : out).print(USAGE);
            return rest.isEmpty() ? 2 : 0;
        }
        String verb = rest.remove(0);
        String[] verbArgs = rest.toArray(String[]::new);
        try {
            return switch (verb) {
                case "plan" -> PlanCommand.run(verbArgs, out, err);
                case "diff" -> diff(Target.parse(verbArgs), out, err);
                case "export" -> export(Target.parse(verbArgs), out, err);
                default -> throw new IllegalArgumentException("unknown command " + verb + "; use plan, diff or export");
            };
        } catch (IllegalArgumentException | PlanCommand.InputException e) {
            err.println("kubectl tp " + verb + ": " + e.getMessage());
            return 2;
        } catch (KubernetesClientException e) {
            err.println("kubectl tp " + verb + ": " + (e.getStatus() != null && e.getStatus().getMessage() != null ? e.getStatus().getMessage()
                    : e.getMessage()));
            return 2;
        }
    }

    /** What the operator would write: the live Deployment and ConfigMap before, and after as a server-side dry run merges them. */
    private static int diff(Target target, PrintStream out, PrintStream err) {
        Prediction prediction = predict(target, err);
        List<String> diff = new ArrayList<>();
        if (prediction.values() != null && prediction.liveValues() == null) {
            diff.addAll(unified("configmap/" + prediction.values().getMetadata().getName(), null, prediction.values()));
        }
        if (prediction.deployment() != null) {
            diff.addAll(unified("deployment/" + prediction.live().getMetadata().getName(), prediction.live(), prediction.deployment()));
        }
        diff.forEach(out::println);
        return diff.isEmpty() ? 0 : 1;
    }

    /**
     * What the operator would write, as the API server would store it: the Deployment (null when it would write none)
     * and the ConfigMap of values (null when it would write none; the live one when it is there already: its name is
     * the hash of its data), beside the live objects.
     */
    record Prediction(Deployment live, Deployment deployment, ConfigMap liveValues, ConfigMap values) {
    }

    /** {@code diff}'s prediction for its arguments, as objects. */
    static Prediction predict(String[] diffArguments, PrintStream err) {
        return predict(Target.parse(diffArguments), err);
    }

    private static Prediction predict(Target target, PrintStream err) {
        try (KubernetesClient client = target.client()) {
            Installed installed = target.installed(client, err);
            Planned planned = target.plan(client, false, installed);
            Deployment live = planned.live();
            String profile = planned.profile().getMetadata().getName();
            if (!planned.apply()) {
                return new Prediction(live, DeploymentTuning.tunedBy(live, profile) ? DeploymentTuning.restored(live, profile) : null, null, null);
            }
            ConfigMap values = TuningConfigMap.desired(planned.profile(), planned.rendering());
            if (planned.profile().getMetadata().getUid() == null) {
                // A profile from a file that is not in the cluster yet: nothing to own the ConfigMap so far.
                values.getMetadata().setOwnerReferences(null);
            }
            ConfigMap liveValues = client.configMaps().inNamespace(target.namespace()).withName(values.getMetadata().getName()).get();
            ConfigMap storedValues = liveValues != null ? liveValues : client.resource(values).inNamespace(target.namespace()).dryRun().create();
            Deployment after = client.resource(DeploymentTuning.desired(live, planned.userContainer(), profile, planned.rendering(),
                            values.getMetadata().getName(), installed.agent(planned.profile(), target.agentImage)))
                    .inNamespace(target.namespace()).dryRun().fieldManager(LabelsAndAnnotations.OPERATOR).forceConflicts().serverSideApply();
            return new Prediction(live, after, liveValues, storedValues);
        }
    }

    private static int export(Target target, PrintStream out, PrintStream err) {
        try (KubernetesClient client = target.client()) {
            Planned planned = target.plan(client, target.recommended, target.installed(client, err));
            Container container = planned.userContainer();
            // The rendered value already starts with the user's own flags.
            Map<String, String> env = new LinkedHashMap<>();
            env.put(planned.rendering().jvmOptionsVariable(), planned.rendering().jvmOptionsValue());
            env.putAll(planned.rendering().serverEnvironment());
            List<Map<String, String>> entries = env.entrySet().stream()
                    .map(e -> TpCommand.<String>ordered("name", e.getKey(), "value", e.getValue())).toList();
            StringBuilder source = new StringBuilder("# " + (target.recommended ? "recommended" : "planned") + " by TuningProfile "
                    + planned.profile().getMetadata().getName() + " for Deployment " + planned.live().getMetadata().getName() + "\n");
            target.notes.forEach(n -> source.append("# ").append(n).append('\n'));
            target.skipped.forEach(s -> source.append("# left out, no value for a setting of the profile: ").append(s).append('\n'));
            Object document = target.format.equals("helm")
                    ? Map.of("env", entries)
                    : ordered("apiVersion", "apps/v1", "kind", "Deployment", "metadata", Map.of("name", planned.live().getMetadata().getName()),
                            "spec", Map.of("template", Map.of("spec", Map.of("containers",
                                    List.of(ordered("name", container.getName(), "env", entries))))));
            out.print(source + YAML.writeValueAsString(document));
            return 0;
        } catch (IOException e) {
            throw new IllegalStateException("export writes plain data", e);
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

    /** A unified diff of two objects as YAML, without the fields the server owns; empty when they are the same. */
    private static List<String> unified(String name, HasMetadata before, HasMetadata after) {
        List<String> beforeLines = before == null ? List.of() : yaml(before);
        List<String> afterLines = yaml(after);
        return UnifiedDiffUtils.generateUnifiedDiff("live/" + name, "planned/" + name, beforeLines, DiffUtils.diff(beforeLines, afterLines),
                CONTEXT_LINES);
    }

    private static List<String> yaml(HasMetadata object) {
        ObjectNode tree = YAML.valueToTree(object);
        tree.remove("status");
        ObjectNode metadata = (ObjectNode) tree.get("metadata");
        for (String serverOwned : List.of("managedFields", "resourceVersion", "uid", "generation", "creationTimestamp")) {
            metadata.remove(serverOwned);
        }
        try {
            return YAML.writeValueAsString(tree).lines().toList();
        } catch (IOException e) {
            throw new IllegalStateException("a Kubernetes object is plain data", e);
        }
    }

    /** A profile, its live Deployment and what the operator would render for it. */
    private record Planned(TuningProfile profile, Deployment live, Container userContainer, Rendering rendering, boolean apply) {
    }

    /** What the operator was installed with, as far as a preview needs it. */
    private record Installed(Preview.Installation installation, String agentImage, String agentJarPath) {
        /** Without the operator's settings: the standard flag policy, no guardrail check, the default agent image. */
        static final Installed DEFAULTS = new Installed(new Preview.Installation(FlagPolicy.standard(), guardrail -> Optional.empty()),
                OperatorSettings.Agent.DEFAULT_IMAGE, OperatorSettings.Agent.DEFAULT_JAR_PATH);

        static Installed from(PublishedSettings published) {
            return new Installed(new Preview.Installation(FlagPolicy.bundled(published.flagPolicyAllow()),
                    GuardrailQueries.of(published.guardrailQueries())::refusal), published.agentImage(), published.agentJarPath());
        }

        /** The agent the operator would inject for the profile, in the image --agent-image names if given. */
        DeploymentTuning.Agent agent(TuningProfile profile, String imageOverride) {
            return DeploymentTuning.Agent.ifInjected(profile.getSpec(), Objects.requireNonNullElse(imageOverride, agentImage), agentJarPath);
        }
    }

    /** Which profile, where, and how to print it. */
    private static final class Target {
        static final String DEFAULT_OPERATOR_NAMESPACE = "jvm-tuning-system";
        String name;
        Path file;
        String namespace;
        Path kubeconfig;
        String operatorNamespace = DEFAULT_OPERATOR_NAMESPACE;
        /** The agent image to inject instead of the one the operator was installed with. */
        String agentImage;
        String format = "kustomize";
        boolean recommended;
        /** Recommendations export left out, with why. */
        final List<String> skipped = new ArrayList<>();
        /** Where the exported recommendations came from, when not from status.recommendations. */
        final List<String> notes = new ArrayList<>();

        static Target parse(String[] args) {
            Target t = new Target();
            for (int i = 0; i < args.length; i++) {
                String arg = args[i];
                switch (arg) {
                    case "-f", "--file" -> t.file = Path.of(value(args, ++i, arg));
                    case "-n", "--namespace" -> t.namespace = value(args, ++i, arg);
                    case "--kubeconfig" -> t.kubeconfig = Path.of(value(args, ++i, arg));
                    case "--agent-image" -> t.agentImage = value(args, ++i, arg);
                    case "--operator-namespace" -> t.operatorNamespace = value(args, ++i, arg);
                    case "--format" -> t.format = value(args, ++i, arg);
                    case "--recommended" -> t.recommended = true;
                    default -> {
                        if (arg.startsWith("-") || t.name != null) {
                            throw new IllegalArgumentException("unknown argument " + arg);
                        }
                        t.name = arg;
                    }
                }
            }
            if ((t.name == null) == (t.file == null)) {
                throw new IllegalArgumentException("name the TuningProfile, or give it with -f FILE (one of the two)");
            }
            if (!List.of("kustomize", "helm").contains(t.format)) {
                throw new IllegalArgumentException("--format takes kustomize or helm, got " + t.format);
            }
            if (t.recommended && t.file != null) {
                throw new IllegalArgumentException("--recommended reads the profile's status: name a profile in the cluster");
            }
            return t;
        }

        KubernetesClient client() {
            try {
                Config config = kubeconfig == null ? Config.autoConfigure(null) : Config.fromKubeconfig(Files.readString(kubeconfig));
                if (namespace == null) {
                    namespace = Objects.requireNonNullElse(config.getNamespace(), "default");
                }
                return new KubernetesClientBuilder().withConfig(config).build();
            } catch (IOException e) {
                throw new IllegalArgumentException("cannot read " + kubeconfig + ": " + e.getMessage());
            }
        }

        String namespace() {
            return namespace;
        }

        /**
         * The settings the operator publishes in its namespace; when they cannot be read, the defaults, said on
         * stderr: a preview that silently used other settings than the operator's would show what it never does.
         */
        Installed installed(KubernetesClient client, PrintStream err) {
            String why;
            try {
                ConfigMap published = client.configMaps().inNamespace(operatorNamespace).withName(PublishedSettings.CONFIG_MAP).get();
                if (published != null) {
                    return Installed.from(PublishedSettings.from(Objects.requireNonNullElse(published.getData(), Map.of())));
                }
                why = "not found";
            } catch (KubernetesClientException e) {
                why = e.getStatus() != null && e.getStatus().getMessage() != null ? e.getStatus().getMessage() : e.getMessage();
            } catch (IllegalArgumentException e) {
                why = e.getMessage();
            }
            err.println("kubectl tp: warning: the operator's settings (ConfigMap " + operatorNamespace + "/" + PublishedSettings.CONFIG_MAP
                    + ") cannot be read: " + why + ". Planning with the standard flag policy (no allow-list), no guardrail check and the "
                    + "default agent image: what the operator does may differ. --operator-namespace names the namespace the operator runs in.");
            return Installed.DEFAULTS;
        }

        Planned plan(KubernetesClient client, boolean withRecommendations, Installed installed) {
            TuningProfile profile = file != null ? read(file) : client.resources(TuningProfile.class).inNamespace(namespace).withName(name).get();
            if (file != null) {
                // The same profile in the cluster owns what it rendered; its identity makes the dry run exact.
                TuningProfile live = client.resources(TuningProfile.class).inNamespace(namespace).withName(profile.getMetadata().getName()).get();
                profile.getMetadata().setUid(live == null ? null : live.getMetadata().getUid());
            }
            if (profile == null) {
                throw new IllegalArgumentException("no TuningProfile " + name + " in namespace " + namespace);
            }
            if (withRecommendations) {
                profile = withRecommendations(profile);
            }
            String targetName = profile.getSpec().getTargetRef().getName();
            Deployment live = client.apps().deployments().inNamespace(namespace).withName(targetName).get();
            if (live == null) {
                throw new IllegalArgumentException("no Deployment " + targetName + " in namespace " + namespace);
            }
            // The operator lays mode Auto's settings (status.auto) over the profile: so does the preview.
            Preview preview = Preview.of(profile.getMetadata().getName(), profile.getSpec(),
                    profile.getStatus() == null ? null : profile.getStatus().getAuto(), live, null, installed.installation());
            if (preview instanceof Preview.NoContainer missing) {
                throw new IllegalArgumentException(missing.problem());
            }
            if (preview instanceof Preview.Rejected rejected) {
                throw new IllegalArgumentException(rejected.reason() + ": " + String.join("; ", rejected.messages()));
            }
            Preview.Rendered rendered = (Preview.Rendered) preview;
            return new Planned(profile, live, rendered.userContainer(), rendered.rendering(), profile.getSpec().getMode() != Mode.Recommend);
        }

        private static TuningProfile read(Path file) {
            List<TuningProfile> profiles = new ArrayList<>();
            PlanCommand.readObjects(file, profiles, new ArrayList<>());
            if (profiles.size() != 1 || profiles.get(0).getSpec() == null || profiles.get(0).getSpec().getTargetRef() == null) {
                throw new IllegalArgumentException("expected one TuningProfile with a spec.targetRef in " + file + ", found " + profiles.size());
            }
            return profiles.get(0);
        }

        /**
         * The profile with status.recommendations written into its spec: the workload figures the operator
         * measured, and the thread, pool and heap sizes its pressure conditions ask for. Advice that is no
         * value for a setting of the profile (a CPU limit, a leak to investigate) stays out, and is listed in {@code skipped}.
         */
        private TuningProfile withRecommendations(TuningProfile profile) {
            List<Recommendation> recommendations = shownLast(profile);
            ObjectNode spec = YAML.valueToTree(profile.getSpec());
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
            TuningProfile copy = new TuningProfile();
            copy.setMetadata(profile.getMetadata());
            copy.setStatus(profile.getStatus());
            copy.setSpec(YAML.convertValue(spec, TuningProfileSpec.class));
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
                throw new IllegalArgumentException("TuningProfile " + name + " has no recommendations in its status yet");
            }
            if (last.getGeneration() != null && !last.getGeneration().equals(profile.getMetadata().getGeneration())) {
                throw new IllegalArgumentException("TuningProfile " + name + " was changed (generation " + profile.getMetadata().getGeneration()
                        + ") since its last recommendations (generation " + last.getGeneration() + ", window ending " + last.getWindowEnd()
                        + "); a metrics window under load gives new ones");
            }
            notes.add("status.recommendations is empty (the latest window gave no advice, as when the load stopped): "
                    + "these are the last recommendations shown, from the window ending " + last.getWindowEnd());
            return last.getRecommendations();
        }

        private static String value(String[] args, int i, String flag) {
            if (i >= args.length) {
                throw new IllegalArgumentException(flag + " needs a value");
            }
            return args[i];
        }
    }
}
