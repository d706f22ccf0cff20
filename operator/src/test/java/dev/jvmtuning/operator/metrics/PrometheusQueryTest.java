package dev.jvmtuning.operator.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.core.JsonProcessingException;
import java.io.IOException;
import dev.jvmtuning.operator.api.v1alpha1.Metrics;
import dev.jvmtuning.operator.api.v1alpha1.Runtime;
import dev.jvmtuning.operator.api.v1alpha1.TuningProfileSpec;
import dev.jvmtuning.operator.model.EffectiveOptions;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The PromQL the operator sends, the reading of Prometheus's answer, and the default metrics paths: pure, no server. */
class PrometheusQueryTest {

    @Test
    void theQueryNamesEverySeriesTheSnapshotReadsForThePodsOfOneNamespace() {
        String query = PrometheusQuery.seriesOfPods("shop", List.of("web-1", "web-2"));

        assertThat(query).startsWith("{__name__=~\"jvm_gc_pause_seconds_sum|").endsWith("\",namespace=\"shop\",pod=~\"web-1|web-2\"}");
        PodSnapshot.SERIES.forEach(series -> assertThat(query).contains(series));
        assertThat(query).contains("|jvmtuning_vm_option|", "|jvm_threads_current|", "|jvmtuning_native_memory_bytes|",
                "|jvmtuning_virtual_thread_pinned_total|", "|jvmtuning_virtual_thread_scheduler|", "|jvm_memory_max_bytes|",
                "|hikaricp_connections_max|", "|jvm_runtime_info|jvm_info\"");
    }

    @Test
    void aGuardrailIsTheOneNumberAQueryAnswers() throws IOException {
        assertThat(PrometheusQuery.number("""
                {"status":"success","data":{"resultType":"scalar","result":[1700000000,"0.25"]}}""")).isEqualTo(0.25);
        assertThat(PrometheusQuery.number("""
                {"status":"success","data":{"resultType":"vector","result":[{"metric":{},"value":[1700000000,"0.5"]}]}}""")).isEqualTo(0.5);
        assertThat(PrometheusQuery.number("""
                {"status":"success","data":{"resultType":"vector","result":[]}}""")).as("no series, no number").isNull();
    }

    @Test
    void aGuardrailAnsweringSeveralSeriesIsRefusedNotGuessedAt() {
        assertThatThrownBy(() -> PrometheusQuery.number("""
                {"status":"success","data":{"resultType":"vector","result":[
                  {"metric":{"pod":"a"},"value":[1700000000,"0.5"]},{"metric":{"pod":"b"},"value":[1700000000,"9"]}]}}"""))
                .isInstanceOf(IOException.class).hasMessageContaining("must answer one number");
    }

    @Test
    void anAnswerWithMoreSamplesThanTheCapIsRefused() {
        String body = """
                {"status":"success","data":{"resultType":"vector","result":[%s]}}""".formatted(java.util.stream.IntStream.range(0, 101)
                .mapToObj(i -> "{\"metric\":{\"__name__\":\"process_cpu_seconds_total\",\"pod\":\"web-" + i + "\"},\"value\":[1700000000,\"1\"]}")
                .collect(java.util.stream.Collectors.joining(",")));

        assertThatThrownBy(() -> PrometheusQuery.readingsByPod(body, 100)).isInstanceOf(IOException.class)
                .hasMessageContaining("more than 100 samples");
    }

    @Test
    void anAnswerBecomesOneSnapshotPerPodAtItsNewestSampleTime() throws IOException {
        String body = """
                {"status":"success","data":{"resultType":"vector","result":[
                  {"metric":{"__name__":"jvm_gc_collection_seconds_sum","gc":"G1 Young Generation","namespace":"shop","pod":"web-1"},
                   "value":[1700000000.5,"1.25"]},
                  {"metric":{"__name__":"jvmtuning_available_processors","namespace":"shop","pod":"web-1"},"value":[1700000001,"2"]},
                  {"metric":{"__name__":"process_cpu_seconds_total","namespace":"shop","pod":"web-2"},"value":[1700000000,"+Inf"]},
                  {"metric":{"__name__":"hikaricp_connections_pending","namespace":"shop","pod":"web-2"},"value":[1700000000,"NaN"]},
                  {"metric":{"__name__":"jvmtuning_vm_option","option":"MaxHeapSize","origin":"VM_CREATION","namespace":"shop","pod":"web-2"},
                   "value":[1700000000,"268435456"]}
                ]}}""";

        Map<String, PodReading> readings = PrometheusQuery.readingsByPod(body, 5);
        Map<String, PodSnapshot> snapshots = new LinkedHashMap<>();
        readings.forEach((pod, reading) -> snapshots.put(pod, reading.snapshot()));

        assertThat(snapshots).containsOnlyKeys("web-1", "web-2");
        assertThat(snapshots.get("web-1").atMillis()).isEqualTo(1_700_000_001_000L);
        assertThat(snapshots.get("web-1").gcPauseSeconds()).isEqualTo(1.25);
        assertThat(snapshots.get("web-1").cpuLimitCores()).isEqualTo(2.0);
        assertThat(snapshots.get("web-2").cpuSeconds()).isInfinite();
        assertThat(readings.get("web-1").options()).isEqualTo(EffectiveOptions.NONE);
        assertThat(readings.get("web-2").options().option("MaxHeapSize"))
                .contains(new EffectiveOptions.Option(256.0 * 1024 * 1024, EffectiveOptions.Origin.VM_CREATION));
    }

    @Test
    void anAnswerWithoutResultsHasNoSnapshotsAndGarbageIsAnError() throws IOException {
        assertThat(PrometheusQuery.readingsByPod("{\"status\":\"success\",\"data\":{\"result\":[]}}", 10)).isEmpty();
        assertThatThrownBy(() -> PrometheusQuery.readingsByPod("<html>", 10)).isInstanceOf(JsonProcessingException.class);
    }

    @Test
    void theRuntimesEndpointIsTheProfilesElseItsUsualOneAndTheAgentsIsReadBesideIt() {
        assertThat(MetricsEndpoint.of(spec(Runtime.SpringBootTomcat, new Metrics()))).hasToString("[runtime :8080/actuator/prometheus]");
        assertThat(MetricsEndpoint.of(spec(Runtime.Quarkus, null))).hasToString("[runtime :8080/q/metrics]");
        assertThat(MetricsEndpoint.of(spec(Runtime.Generic, null))).hasToString("[runtime :8080/metrics]");
        assertThat(MetricsEndpoint.of(spec(Runtime.Quarkus, new Metrics().setPort(9090).setPath("/custom")))).hasToString("[runtime :9090/custom]");
        assertThat(MetricsEndpoint.of(spec(Runtime.Quarkus, new Metrics().setInjectAgent(true))))
                .hasToString("[agent :9404/metrics, runtime :8080/q/metrics]");
        assertThat(MetricsEndpoint.of(spec(Runtime.SpringBootTomcat, new Metrics().setInjectAgent(true).setPort(9500).setRuntimePort(8081)
                .setPath("/manage/prometheus")))).hasToString("[agent :9500/metrics, runtime :8081/manage/prometheus]");
        assertThat(MetricsEndpoint.of(spec(Runtime.Generic, new Metrics().setInjectAgent(true)))).as("no usual endpoint to read")
                .hasToString("[agent :9404/metrics]");
        assertThat(MetricsEndpoint.of(spec(Runtime.Generic, new Metrics().setInjectAgent(true).setPath("/prometheus"))))
                .hasToString("[agent :9404/metrics, runtime :8080/prometheus]");
        assertThat(MetricsEndpoint.of(spec(Runtime.Quarkus, new Metrics().setInjectAgent(true).setRuntimePort(9404))))
                .as("the agent's port answers as the agent").hasToString("[agent :9404/metrics]");
    }

    private static TuningProfileSpec spec(Runtime runtime, Metrics metrics) {
        return new TuningProfileSpec().setRuntime(runtime).setMetrics(metrics);
    }
}
