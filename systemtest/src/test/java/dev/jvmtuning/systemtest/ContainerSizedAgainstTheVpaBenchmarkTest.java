package dev.jvmtuning.systemtest;

import dev.jvmtuning.systemtest.support.Autoscalers;
import dev.jvmtuning.systemtest.support.Cluster;
import dev.jvmtuning.systemtest.support.Command;
import dev.jvmtuning.systemtest.support.Load;
import dev.jvmtuning.systemtest.support.Manifests;
import dev.jvmtuning.systemtest.support.Wait;
import io.fabric8.kubernetes.api.model.ContainerState;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Pod;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Not a check but a benchmark (deploy/local/bench-sizing.sh; figures in docs/development/benchmarks.md): the container sized
 * with the JVM (spec.sizing.memory) against the template as given and against the real Vertical Pod Autoscaler alone, on the
 * real node, side by side under the same load. Two services of the lab workload:
 * <ul>
 * <li>{@code roomy}: a 48 MiB live set in a 1280Mi container, about four times what it needs;</li>
 * <li>{@code tight}: a 96 MiB live set with the user's own {@code -Xmx256m} in 320Mi, too little for that heap and the JVM's
 * memory beside it.</li>
 * </ul>
 * Each runs as three one-replica Deployments: as given ({@code template}); sized by the operator ({@code operator}: mode
 * Recommend during the warm-up, then Apply with {@code sizing.memory: Plan} and, where no -Xmx fixes the heap, the live heap its
 * pods measured as {@code workload.liveHeap}, as {@code kubectl tp export --recommended} writes it); sized by the VPA alone
 * ({@code vpa}: updateMode Recreate on memory, no profile, its recommender learning from the warm-up on). Every Deployment gets
 * the same closed-loop clients (2, allocating 512 KiB and burning 2 ms of CPU a request) through a warm-up
 * ({@code BENCH_SIZING_WARMUP_SECONDS}, 240) and then {@code BENCH_SIZING_MINUTES} (10) of measured load, cut into one-minute
 * slices, the operator's new pods first given {@code BENCH_SIZING_SETTLE_SECONDS} (120) of the load to warm. Every 10 s it reads each pod's memory limit as the kubelet applied it, its working set as metrics-server reads it
 * (what the VPA sizes for) and its container's OOM kills. Prints per Deployment the limit at the end, the peak working set, their
 * ratio, the OOM kills and the requests a second of each slice, which go to {@code BENCH_SIZING_RESULTS} for the intervals
 * (deploy/local/resampling.py); then the verdicts against the targets. Asserts nothing: a figure missed is a finding, not a
 * failure. Its Deployments, profiles and VPAs are deleted at the end, however it ends.
 */
@Tag("bench-sizing")
class ContainerSizedAgainstTheVpaBenchmarkTest extends SystemCheck {

    private static final String VPA_API = "autoscaling.k8s.io/v1";
    private static final String LOAD_PATH = "/work?allocKb=512&cpuMs=2";
    private static final int CLIENTS = 2;
    private static final Duration SAMPLE = Duration.ofSeconds(10);
    private static final Duration SLICE = Duration.ofMinutes(1);
    private static final int WARMUP_SECONDS = Integer.parseInt(System.getenv().getOrDefault("BENCH_SIZING_WARMUP_SECONDS", "240"));
    private static final int SETTLE_SECONDS = Integer.parseInt(System.getenv().getOrDefault("BENCH_SIZING_SETTLE_SECONDS", "120"));
    private static final int MINUTES = Integer.parseInt(System.getenv().getOrDefault("BENCH_SIZING_MINUTES", "10"));
    private static final Path RESULTS = Path.of(System.getenv().getOrDefault("BENCH_SIZING_RESULTS", "target/bench-sizing"));

    private record Service(String name, int liveSetMb, String memory, String javaOptions) {
        String container() {
            String options = javaOptions == null ? "" : ", {name: JAVA_TOOL_OPTIONS, value: '" + javaOptions + "'}";
            return "env: [{name: LAB_LIVE_SET_MB, value: '" + liveSetMb + "'}" + options + "]\n"
                    + "resources: {requests: {cpu: 100m, memory: " + memory + "}, limits: {cpu: '1', memory: " + memory + "}}";
        }
    }

    private static final List<Service> SERVICES = List.of(new Service("roomy", 48, "1280Mi", null), new Service("tight", 96, "320Mi", "-Xmx256m"));
    private static final List<String> VARIANTS = List.of("template", "operator", "vpa");

    /** What the samples of one Deployment found over the measured load. */
    private static final class Measured {
        long peakWorkingSet;
        String limit = "";
        final Set<String> oomKills = new HashSet<>();
        final List<Double> perSecond = new ArrayList<>();
    }

    @RegisterExtension
    final Autoscalers autoscalers = new Autoscalers();

    @AfterEach
    void removeTheBenchmarksObjects() {
        for (Service service : SERVICES) {
            cluster.delete(VPA_API, "VerticalPodAutoscaler", service.name() + "-vpa");
            cluster.deleteProfile(service.name() + "-operator", 120);
            VARIANTS.forEach(variant -> cluster.deleteDeployment(service.name() + "-" + variant));
        }
    }

    @Test
    @DisplayName("sizing. the container sized with the JVM against the template as given and the real VPA alone, under the same load")
    void sizedWithTheJvmAgainstTheVpa() throws IOException {
        makeRoom();
        autoscalers.up();
        Files.createDirectories(RESULTS);
        List<String> deployments = new ArrayList<>();
        for (Service service : SERVICES) {
            for (String variant : VARIANTS) {
                String name = service.name() + "-" + variant;
                deployments.add(name);
                cluster.apply(Manifests.workload(name, 1, service.container()));
            }
            cluster.apply(Manifests.profile(service.name() + "-operator", service.name() + "-operator", """
                    mode: Recommend
                    threads: {max: 40}
                    sizing: {memory: {policy: Plan, min: 256Mi, max: 2Gi}}"""));
            cluster.apply("""
                    apiVersion: autoscaling.k8s.io/v1
                    kind: VerticalPodAutoscaler
                    metadata: {name: %s-vpa}
                    spec:
                      targetRef: {apiVersion: apps/v1, kind: Deployment, name: %s-vpa}
                      updatePolicy: {updateMode: Recreate}
                      resourcePolicy: {containerPolicies: [{containerName: app, controlledResources: [memory]}]}
                    """.formatted(service.name(), service.name()));
        }
        deployments.forEach(name -> cluster.rolloutStatus(name, 300));

        List<Load> loads = deployments.stream().map(name -> Load.start(cluster, name, LOAD_PATH, CLIENTS,
                Duration.ofSeconds(WARMUP_SECONDS + SETTLE_SECONDS + 300).plus(SLICE.multipliedBy(MINUTES + 1)))).toList();
        try {
            say("warm-up: " + WARMUP_SECONDS + " s of load; the operator's profiles in mode Recommend, the VPAs learning");
            Wait.sleep(Duration.ofSeconds(WARMUP_SECONDS));
            for (Service service : SERVICES) {
                String profile = service.name() + "-operator";
                // A JVM reports its live heap after its first collection of the old generation, which the load brings on.
                if (service.javaOptions() == null) {
                    Wait.until(600, "the live heap of tp/" + profile + " measured", () -> liveHeapMib(profile) > 0);
                }
                double liveHeap = liveHeapMib(profile);
                // Where the user's -Xmx fixes the heap, the limit is sized for it; else for the live heap the pods measured.
                String measured = service.javaOptions() != null || liveHeap <= 0 ? ""
                        : ", \"workload\": {\"liveHeap\": \"" + (int) Math.ceil(liveHeap) + "Mi\"}";
                say(profile + ": " + liveHeap + "Mi of heap live as its pods report it; now mode Apply" + measured);
                cluster.patchProfile(profile, "{\"spec\": {\"mode\": \"Apply\"" + measured + "}}");
            }
            for (Service service : SERVICES) {
                String profile = service.name() + "-operator";
                // Ready already in mode Recommend: Ready again once the settings are in the template and rolled out.
                Wait.until(120, "the settings of tp/" + profile + " in its template", () -> !cluster.settingsHash(profile).isEmpty());
                cluster.rolloutStatus(profile, 300);
                Wait.until(300, "tp/" + profile + " Ready", () -> settledReady(profile));
                say(profile + ": " + cluster.tunedFlags(profile) + "; resources "
                        + cluster.deployment(profile).path("spec").path("template").path("spec").path("containers").path(0).path("resources"));
            }
            // The operator's new pods compile the request path and fill their heaps as the others did in the warm-up.
            say("settling: " + SETTLE_SECONDS + " s of load on the operator's new pods before the measured load");
            Wait.sleep(Duration.ofSeconds(SETTLE_SECONDS));
            Map<String, Measured> measured = measure(deployments, loads);
            report(measured);
        } finally {
            loads.forEach(Load::close);
        }
    }

    private double liveHeapMib(String profile) {
        return cluster.profile(profile).path("status").path("observed").path("liveHeapMib").asDouble(0);
    }

    /** {@link #MINUTES} one-minute slices of the load, each pod sampled every 10 s. */
    private Map<String, Measured> measure(List<String> deployments, List<Load> loads) throws IOException {
        Map<String, Measured> measured = new LinkedHashMap<>();
        deployments.forEach(name -> measured.put(name, new Measured()));
        Map<String, Set<String>> killedBefore = new LinkedHashMap<>();
        deployments.forEach(name -> killedBefore.put(name, oomKills(name)));
        loads.forEach(Load::count);
        List<String> slices = new ArrayList<>();
        for (int slice = 1; slice <= MINUTES; slice++) {
            long sliceEnd = System.nanoTime() + SLICE.toNanos();
            while (System.nanoTime() < sliceEnd) {
                for (String name : deployments) {
                    Measured of = measured.get(name);
                    for (Pod pod : cluster.runningPods(name)) {
                        String podName = pod.getMetadata().getName();
                        cluster.workingSetBytes(podName).ifPresent(bytes -> of.peakWorkingSet = Math.max(of.peakWorkingSet, bytes));
                        of.limit = cluster.appliedLimit(podName, "memory");
                    }
                    oomKills(name).stream().filter(kill -> !killedBefore.get(name).contains(kill)).forEach(of.oomKills::add);
                }
                Wait.sleep(SAMPLE);
            }
            StringBuilder line = new StringBuilder("slice " + slice + ":");
            for (int i = 0; i < deployments.size(); i++) {
                Load.Count count = loads.get(i).count();
                double perSecond = (double) count.answered() / SLICE.toSeconds();
                measured.get(deployments.get(i)).perSecond.add(perSecond);
                slices.add(deployments.get(i) + " " + perSecond);
                line.append(' ').append(deployments.get(i)).append(' ').append("%.1f/s".formatted(perSecond));
            }
            say(line.toString());
        }
        Files.write(RESULTS.resolve("throughput"), slices);
        return measured;
    }

    /** Each OOM kill of the Deployment's containers the kubelet still reports: the pod and the container it ended. */
    private Set<String> oomKills(String deployment) {
        Set<String> kills = new HashSet<>();
        for (Pod pod : cluster.pods(deployment)) {
            for (ContainerStatus container : pod.getStatus().getContainerStatuses()) {
                for (ContainerState state : new ContainerState[] {container.getLastState(), container.getState()}) {
                    if (state != null && state.getTerminated() != null && "OOMKilled".equals(state.getTerminated().getReason())) {
                        kills.add(pod.getMetadata().getName() + "/" + state.getTerminated().getContainerID());
                    }
                }
            }
        }
        return kills;
    }

    private void report(Map<String, Measured> measured) throws IOException {
        say("%-16s %10s %18s %8s %10s %12s".formatted("", "limit", "peak working set", "ratio", "OOM kills", "median req/s"));
        for (Map.Entry<String, Measured> entry : measured.entrySet()) {
            Measured of = entry.getValue();
            long limit = of.limit.isEmpty() ? 0 : Cluster.bytes(of.limit);
            say("%-16s %8dMi %16dMi %8s %10d %12.1f".formatted(entry.getKey(), limit / MIB, of.peakWorkingSet / MIB,
                    of.peakWorkingSet == 0 ? "-" : "%.2f".formatted((double) limit / of.peakWorkingSet), of.oomKills.size(),
                    of.perSecond.stream().sorted().skip(of.perSecond.size() / 2).findFirst().orElse(0.0)));
        }
        String intervals = Command.run(120, List.of("python3", "deploy/local/resampling.py", RESULTS.resolve("throughput").toString(),
                "roomy-operator/roomy-template", "roomy-operator/roomy-vpa", "tight-operator/tight-vpa"));
        say(intervals);
        Files.writeString(RESULTS.resolve("summary"), intervals);
        for (Service service : SERVICES) {
            Measured operator = measured.get(service.name() + "-operator");
            Measured vpa = measured.get(service.name() + "-vpa");
            long limit = operator.limit.isEmpty() ? 0 : Cluster.bytes(operator.limit);
            long vpaLimit = vpa.limit.isEmpty() ? 0 : Cluster.bytes(vpa.limit);
            say(service.name() + ": the operator's limit within 1.3x of the peak working set: "
                    + verdict(operator.peakWorkingSet > 0 && limit <= 1.3 * operator.peakWorkingSet)
                    + "; no OOM kill over the measured load: " + verdict(operator.oomKills.isEmpty())
                    + "; fewer OOM kills than the VPA alone (" + operator.oomKills.size() + " against " + vpa.oomKills.size() + "): "
                    + verdict(operator.oomKills.size() < vpa.oomKills.size() || operator.oomKills.isEmpty() && vpa.oomKills.isEmpty())
                    + "; less memory than the VPA's " + vpaLimit / MIB + "Mi: " + verdict(limit > 0 && limit < vpaLimit));
        }
    }

    private static String verdict(boolean met) {
        return met ? "yes" : "no";
    }
}
