package dev.jvmtuning.operator.chart;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.jvmtuning.operator.testing.StartsProcesses;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The alerting rules with the real promtool (Debian's prometheus package): they parse, each fires
 * on its series and stays quiet on the others, and the chart's PrometheusRule, the plain rules
 * file and deploy/manifests/monitoring.yaml carry the same rules.
 */
@StartsProcesses
class MonitoringChartTest {
    private static final Path CHART_RULES = Path.of("charts/jvm-tuning-operator/files/alerts.yaml");
    private static final Path PLAIN_RULES = Path.of("deploy/prometheus/alerts.yaml");
    private static final Path RULE_TESTS = Path.of("deploy/prometheus/alerts-test.yaml");
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    static String promtool(String... args) throws IOException, InterruptedException {
        List<String> command = new java.util.ArrayList<>(List.of("promtool"));
        command.addAll(List.of(args));
        Process process;
        try {
            process = new ProcessBuilder(command).redirectErrorStream(true).start();
        } catch (IOException e) {
            throw new IOException("promtool is missing: deploy/local/install-tools.sh installs Debian's prometheus package", e);
        }
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(120, TimeUnit.SECONDS)).isTrue();
        assertThat(process.exitValue()).as("promtool %s:%n%s", String.join(" ", args), output).isZero();
        return output;
    }

    @Test
    void theRulesParseAndEveryAlertFiresWhereItShouldAndNowhereElse() throws Exception {
        assertThat(promtool("check", "rules", PLAIN_RULES.toString())).contains("SUCCESS: 6 rules found");
        assertThat(promtool("test", "rules", RULE_TESTS.toString())).contains("SUCCESS");
    }

    @Test
    void everyAlertHasAFiringAndAQuietCase() throws Exception {
        Set<String> alerts = new TreeSet<>();
        YAML.readTree(CHART_RULES.toFile()).path("groups")
                .forEach(g -> g.path("rules").forEach(r -> alerts.add(r.path("alert").asText())));
        Set<String> firing = new TreeSet<>();
        Set<String> quiet = new TreeSet<>();
        for (JsonNode test : YAML.readTree(RULE_TESTS.toFile()).path("tests")) {
            for (JsonNode check : test.path("alert_rule_test")) {
                (check.path("exp_alerts").isEmpty() ? quiet : firing).add(check.path("alertname").asText());
            }
        }
        assertThat(firing).as("alerts with a case that fires").isEqualTo(alerts);
        assertThat(quiet).as("alerts with a case that stays quiet").isEqualTo(alerts);
    }

    @Test
    void theChartThePlainFileAndTheManifestsCarryTheSameRules() throws Exception {
        assertThat(Files.readString(PLAIN_RULES)).as("deploy/prometheus/alerts.yaml is stale: run deploy/render-manifests.sh")
                .isEqualTo(Files.readString(CHART_RULES));
        String rendered = HelmChartTest.helm("template", "jvm-tuning-operator", "charts/jvm-tuning-operator", "--namespace", "jvm-tuning-system",
                "--kube-version", System.getProperty("k8s.version", "1.36.3"), "--set", "prometheusRule.enabled=true",
                "--show-only", "templates/prometheusrule.yaml");
        JsonNode rule = YAML.readTree(rendered);
        assertThat(rule.path("kind").asText()).isEqualTo("PrometheusRule");
        assertThat(rule.path("spec")).isEqualTo(YAML.readTree(CHART_RULES.toFile()));
        assertThat(Files.readString(Path.of("deploy/manifests/monitoring.yaml"))).contains(rendered.strip());
        assertThat(HelmChartTest.helm("template", "jvm-tuning-operator", "charts/jvm-tuning-operator",
                "--kube-version", System.getProperty("k8s.version", "1.36.3"))).as("off by default").doesNotContain("PrometheusRule");
    }

    @Test
    void theDashboardShipsAsAConfigMapForGrafanasSidecarWhenAskedFor() throws Exception {
        String rendered = HelmChartTest.helm("template", "jvm-tuning-operator", "charts/jvm-tuning-operator", "--namespace", "jvm-tuning-system",
                "--kube-version", System.getProperty("k8s.version", "1.36.3"), "--set", "grafanaDashboard.enabled=true",
                "--show-only", "templates/grafana-dashboard.yaml");
        JsonNode configMap = YAML.readTree(rendered);
        assertThat(configMap.path("metadata").path("labels").path("grafana_dashboard").asText()).isEqualTo("1");
        Path dashboard = Path.of("charts/jvm-tuning-operator/files/dashboard.json");
        assertThat(new ObjectMapper().readTree(configMap.path("data").path("jvm-tuning.json").asText()))
                .as("the dashboard JSON, Grafana's own templates untouched").isEqualTo(new ObjectMapper().readTree(dashboard.toFile()));
        assertThat(Files.readString(Path.of("deploy/manifests/monitoring.yaml"))).contains(rendered.strip());
        assertThat(HelmChartTest.helm("template", "jvm-tuning-operator", "charts/jvm-tuning-operator",
                "--kube-version", System.getProperty("k8s.version", "1.36.3"))).as("off by default").doesNotContain("grafana_dashboard");
    }
}
