package dev.jvmtuning.systemtest;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jvmtuning.systemtest.support.LocalNode;
import dev.jvmtuning.systemtest.support.Manifests;
import dev.jvmtuning.systemtest.support.Wait;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Releases onto an older JDK under the tuned settings. The service runs on JDK 25 with -XX:+UseCompactObjectHeaders, which
 * the operator renders once its JVMs report JDK 25. A release to JDK 21 keeps the operator's variable in the template, so
 * its pods start with that option and their JVM refuses it. The operator takes the release's settings back, records the
 * option in the JVM's own words (status.refusedOption) and rolls the rest of the tuning again, without it. One release
 * names the JDK 21 image; the other re-pushes the same tag with JDK 21 (a mutable tag, under which the JDK 25 was learnt),
 * where only the refusal keeps the option out.
 */
@Tag("check-3f")
@Order(360)
class OlderJdkDropsOnlyTheRefusedOptionTest extends SystemCheck {

    private static final String MUTABLE_TAG = "localhost/jvm-tuning-workload:e2e-mutable";
    private static final String COMPACT_HEADERS = "-XX:+UseCompactObjectHeaders";

    @AfterEach
    void removeTheMutableTag() {
        LocalNode.untag(MUTABLE_TAG);
    }

    @Test
    @DisplayName("3f. releases onto JDK 21 (a new image, a re-pushed tag) whose JVMs refuse the JDK 25 option the operator rendered: that option dropped, the rest of the tuning kept")
    void aReleaseOntoAnOlderJdkDropsOnlyTheOptionItsJvmsRefuse() {
        makeRoom();
        LocalNode.tag(LocalNode.workloadImage(25), MUTABLE_TAG);
        tunedOnJdk25("downgraded", LocalNode.workloadImage(25));
        tunedOnJdk25("repushed", MUTABLE_TAG);
        // A release naming the JDK 21 image.
        cluster.patchDeployment("downgraded", "[{\"op\": \"replace\", \"path\": \"/spec/template/spec/containers/0/image\", \"value\": \""
                + LocalNode.workloadImage(21) + "\"}]");
        Wait.until(300, "tp/downgraded tuned again on JDK 21, without the JDK 25 option", () -> runsTunedWithoutCompactHeaders("downgraded"));
        say("downgraded on JDK 21: " + cluster.tunedFlags("downgraded") + "; Applied: " + cluster.applied("downgraded", "message"));
        // The same tag re-pushed with JDK 21, and a release of it.
        String before = cluster.tunedFlags("repushed");
        say("repushed on JDK 25: " + before);
        LocalNode.tag(LocalNode.workloadImage(21), MUTABLE_TAG);
        cluster.restartDeployment("repushed");
        Wait.until(300, "the option JDK 21 refused recorded", () -> "UseCompactObjectHeaders".equals(refusedOption().path("option").asText()));
        JsonNode refused = refusedOption();
        say("status.refusedOption: {\"option\":" + refused.path("option") + ",\"flag\":" + refused.path("flag") + ",\"jvmMessage\":" + refused.path("jvmMessage") + "}");
        Wait.until(300, "tp/repushed tuned again on JDK 21, without the refused option", () -> runsTunedWithoutCompactHeaders("repushed"));
        String after = cluster.tunedFlags("repushed");
        say("repushed on JDK 21: " + after + "; Applied: " + cluster.applied("repushed", "message"));
        assertThat(after).as("the rest of the tuning kept: the JDK 25 flags but the refused one")
                .isEqualTo(before.replaceFirst(" *" + Pattern.quote(COMPACT_HEADERS), ""));
        for (String pod : List.of(cluster.newestPod("downgraded"), cluster.newestPod("repushed"))) {
            assertThat(cluster.jvmFlags(pod)).as(pod + "'s JVM without the JDK 25 option").doesNotContain(COMPACT_HEADERS);
        }
        List<String> rolledBack = cluster.profileEvents("repushed").stream()
                .filter(event -> event.startsWith("RolledBack: ") && event.contains("UseCompactObjectHeaders"))
                .toList();
        rolledBack.forEach(SystemCheck::say);
        assertThat(rolledBack).as("a RolledBack Event naming the option").isNotEmpty();
    }

    /** A Deployment of {@code image} (JDK 25) tuned, Ready with -XX:+UseCompactObjectHeaders rendered. */
    private void tunedOnJdk25(String name, String image) {
        cluster.apply(Manifests.workload(name, 1, "resources: {requests: {cpu: 100m, memory: 512Mi}, limits: {cpu: '1', memory: 512Mi}}")
                .replaceAll("image: localhost/jvm-tuning-workload:.*", "image: " + image));
        cluster.rolloutStatus(name, 180);
        cluster.apply(Manifests.profile(name, name, "metrics: {injectAgent: true, interval: 5s}"));
        Wait.until(300, "tp/" + name + ": the JDK 25 read from the JVMs and " + COMPACT_HEADERS + " rendered",
                () -> cluster.tunedFlags(name).contains(COMPACT_HEADERS));
        Wait.until(240, "tp/" + name + " Ready", () -> settledReady(name));
    }

    /** Ready on a template with the operator's flags and without the refused one. */
    private boolean runsTunedWithoutCompactHeaders(String profile) {
        String flags = cluster.tunedFlags(profile);
        return settledReady(profile) && !flags.isEmpty() && !flags.contains("UseCompactObjectHeaders");
    }

    private JsonNode refusedOption() {
        return cluster.profile("repushed").path("status").path("refusedOption");
    }
}
