package dev.jvmtuning.systemtest;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jvmtuning.systemtest.support.Http;
import io.fabric8.kubernetes.api.model.Pod;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The per-profile series are built when /q/metrics is read, from the Prometheus registry Quarkus starts: read from the operator's pod, as a Prometheus would. */
@Tag("check-5b")
@Order(550)
class ProfileSeriesOnOperatorMetricsTest extends SystemCheck {

    @Test
    @DisplayName("5b. the operator's /q/metrics shows the profile's series")
    void theOperatorsMetricsCarryTheProfilesSeries() {
        cluster.demo();
        cluster.waitForCondition("orders-api", "Applied", 120);
        Pod pod = cluster.operatorPods().get(0);
        List<String> series = Http.get("http://" + pod.getStatus().getPodIP() + ":8080/q/metrics", 10).lines()
                .filter(line -> line.matches("jvm_tuning_profile_[a-z_]+\\{[^}]*profile=\"orders-api\".*"))
                .toList();
        say(pod.getMetadata().getName() + ": " + series.size() + " series of orders-api, e.g. "
                + series.stream().filter(line -> line.contains("condition")).findFirst().orElse(""));
        assertThat(series).as("the series of orders-api on /q/metrics")
                .anyMatch(line -> line.matches("jvm_tuning_profile_condition\\{.*condition=\"Applied\".*"));
    }
}
