package dev.jvmtuning.systemtest;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jvmtuning.systemtest.support.Manifests;
import dev.jvmtuning.systemtest.support.Wait;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Images whose entrypoint passes the JVM options of their own, out of the pod spec's sight (a variable only the entrypoint
 * reads): one its own heap (-Xms with -Xmx, as the planned -Xms above its -Xmx would stop the JVM), one
 * -XX:-UseContainerSupport, which sizes the JVM from the node; each on JRE 17 and on JRE 21. Each is reported
 * SettingsEffective=False naming the option and its origin, read from the JVM itself, by the first poll after its pod
 * turned Ready, and is not Ready. The demo's profile says its settings are in effect.
 */
@Tag("check-1b")
@Order(150)
class SettingsReadFromTheJvmsTest extends SystemCheck {

    private static final int METRICS_INTERVAL_SECONDS = 10;
    /**
     * Polls run at the interval, not when a pod turns Ready: the first after Ready comes within one interval, then its scrape of
     * a JVM just started and the reconcile the new report raises take their seconds (up to 4 on a loaded 2-core node).
     */
    private static final int FIRST_POLL_SECONDS = METRICS_INTERVAL_SECONDS + 5;
    private static final List<Integer> JAVAS = List.of(17, 21);

    @Test
    @DisplayName("1b. an image's own -Xmx, or -XX:-UseContainerSupport: SettingsEffective=False, read from the JVMs")
    void optionsAnImagePassesItsJvmAreReportedNotInEffect() {
        for (int java : JAVAS) {
            imageOverrides("imager" + java, java, "-Xms200m -Xmx200m");
            imageOverrides("blind" + java, java, "-XX:-UseContainerSupport");
        }
        for (int java : JAVAS) {
            reportedOverridden("imager" + java, "MaxHeapSize");
            reportedOverridden("blind" + java, "UseContainerSupport");
        }
        Wait.until(60, "tp/orders-api SettingsEffective=True still", () -> cluster.conditionIs("orders-api", "SettingsEffective", "True"));
        for (int java : JAVAS) {
            for (String name : List.of("imager" + java, "blind" + java)) {
                cluster.deleteProfile(name, 60);
                cluster.deleteDeployment(name);
            }
        }
    }

    private void imageOverrides(String name, int java, String imageOptions) {
        cluster.apply(Manifests.workload(java, name, 1, """
                        command: [/bin/sh, -c, 'exec java $IMAGE_OPTS -jar /app/app.jar']
                        env: [{name: IMAGE_OPTS, value: '%s'}]
                        resources: {requests: {cpu: 10m, memory: 256Mi}, limits: {cpu: '1', memory: 640Mi}}""".formatted(imageOptions)));
        cluster.apply(Manifests.profile(name, name, "metrics: {injectAgent: true, interval: " + METRICS_INTERVAL_SECONDS + "s}"));
    }

    private void reportedOverridden(String name, String optionNamed) {
        Wait.until(420, "tp/" + name + " SettingsEffective=False", () -> cluster.conditionIs(name, "SettingsEffective", "False"));
        String message = cluster.condition(name, "SettingsEffective").path("message").asText();
        long delay = Duration.between(newestReady(name), cluster.conditionChanged(name, "SettingsEffective")).toSeconds();
        say(name + ": SettingsEffective=False " + delay + " s after its pod was Ready: " + message);
        assertThat(message).as("the option and its origin named").containsPattern(optionNamed + " is .* \\(VM_CREATION\\)");
        assertThat(delay).as("seconds from the pod's Ready to the condition: the first poll after it, within one metrics interval, "
                + "its scrape and reconcile").isLessThanOrEqualTo(FIRST_POLL_SECONDS);
        assertThat(cluster.conditionStatus(name, "Ready")).as("tp/" + name + " Ready").isEqualTo("False");
    }

    /** When the newest of the app's pods turned Ready, to the second. */
    private Instant newestReady(String app) {
        return cluster.pods(app).stream()
                .flatMap(pod -> pod.getStatus().getConditions().stream())
                .filter(condition -> "Ready".equals(condition.getType()) && "True".equals(condition.getStatus()))
                .map(condition -> Instant.parse(condition.getLastTransitionTime()).truncatedTo(ChronoUnit.SECONDS))
                .max(Instant::compareTo)
                .orElseThrow(() -> new AssertionError("no Ready pod of " + app));
    }
}
