package dev.jvmtuning.operator.cli;

import dev.jvmtuning.operator.api.v1alpha1.Setting;
import dev.jvmtuning.operator.api.v1alpha1.TuningProfile;
import dev.jvmtuning.operator.model.ConditionType;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** The settings a profile's status lists, each planned value beside what the pods' JVMs report they run. */
@Command(name = "settings", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
        description = {"The planned settings of a TuningProfile beside what its pods' JVMs run.",
                "Read from the profile's status, as the operator last wrote it: each setting's planned value, where it is rendered, "
                        + "what the JVMs of the settings in force report they run of it (for the JVM flags the jvm-tuning agent reports, "
                        + "once their rollout completed) and the rule behind it; then the SettingsEffective condition."},
        exitCodeListHeading = "%nExit status:%n", exitCodeList = {"0:the settings", "1:an error (no such profile, the cluster unreachable)",
                "2:bad usage"})
final class SettingsCommand implements Callable<Integer> {
    @Parameters(paramLabel = "NAME", description = "A TuningProfile in the cluster.")
    private String name;

    @Mixin
    private ClusterOptions cluster;

    @Option(names = {"-o", "--output"}, paramLabel = "FORMAT", defaultValue = "text", description = "text (the default), or yaml or json for scripts.")
    private PlanCommand.Output output;

    @Spec
    private CommandSpec spec;

    @Override
    public Integer call() {
        TuningProfile profile;
        try (KubernetesClient client = cluster.client()) {
            profile = ProfileArgument.inCluster(client, cluster.namespace(), name);
        }
        List<Setting> settings = profile.getStatus() == null ? List.of() : Objects.requireNonNullElse(profile.getStatus().getSettings(), List.of());
        Optional<Condition> effective = profile.getStatus() == null ? Optional.empty() : profile.getStatus().getConditions().stream()
                .filter(c -> ConditionType.SETTINGS_EFFECTIVE.text().equals(c.getType())).findFirst();
        PrintWriter out = spec.commandLine().getOut();
        if (output != PlanCommand.Output.TEXT) {
            Map<String, Object> document = structured(settings, effective);
            out.print(output == PlanCommand.Output.JSON ? Documents.json(document) : Documents.yaml(document));
            return 0;
        }
        if (settings.isEmpty()) {
            out.println("TuningProfile " + name + " lists no settings in its status yet: the operator has not planned it");
        } else {
            List<String[]> rows = new ArrayList<>();
            rows.add(new String[] {"SETTING", "PLANNED", "RENDERED AS", "EFFECTIVE", "RULE"});
            settings.forEach(s -> rows.add(new String[] {s.getName(), s.getValue(), orDash(s.getRenderedAs()), orDash(s.getEffective()),
                    orDash(s.getRule())}));
            Table.print(rows, out);
        }
        out.println();
        out.println(effective.map(c -> ConditionType.SETTINGS_EFFECTIVE.text() + ": " + c.getStatus() + " (" + c.getReason() + "): "
                + c.getMessage()).orElse(ConditionType.SETTINGS_EFFECTIVE.text() + ": not judged (not applied, mode Recommend, or the "
                        + "rollout of the settings in force not complete)"));
        return 0;
    }

    /** The table as data, for -o yaml and -o json: the same columns, and the condition (null when not judged). */
    private Map<String, Object> structured(List<Setting> settings, Optional<Condition> effective) {
        Map<String, Object> document = new LinkedHashMap<>();
        document.put("profile", name);
        document.put("namespace", cluster.namespace());
        document.put("settings", settings.stream().map(s -> {
            Map<String, String> row = new LinkedHashMap<>();
            row.put("name", s.getName());
            row.put("planned", s.getValue());
            row.put("renderedAs", s.getRenderedAs());
            row.put("effective", s.getEffective());
            row.put("rule", s.getRule());
            return row;
        }).toList());
        document.put("settingsEffective", effective.map(c -> {
            Map<String, String> condition = new LinkedHashMap<>();
            condition.put("status", c.getStatus());
            condition.put("reason", c.getReason());
            condition.put("message", c.getMessage());
            return condition;
        }).orElse(null));
        return document;
    }

    private static String orDash(String cell) {
        return cell == null || cell.isEmpty() ? "-" : cell;
    }
}
