package dev.jvmtuning.operator.drills;

import dev.jvmtuning.operator.api.v1alpha1.TuningProfile;
import dev.jvmtuning.operator.model.ConditionStatus;
import dev.jvmtuning.operator.model.ConditionType;
import dev.jvmtuning.operator.model.Reason;
import dev.jvmtuning.operator.testing.FakeKubelet;
import dev.jvmtuning.operator.testing.LocalControlPlane;
import dev.jvmtuning.operator.testing.LoopbackMetrics;
import dev.jvmtuning.operator.testing.WorkloadProcess;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The hostile-endpoint drill: Deployments whose pods' metrics endpoints misbehave (each kind of
 * {@link LoopbackMetrics.Behaviour} but the healthy one on {@link #PODS_PER_KIND} pods at once) beside a
 * few healthy ones, each pod on its own loopback address, and a profile per Deployment scraped every
 * {@link #INTERVAL}. While an operator runs, {@link #observe} checks that the healthy profiles keep fresh
 * metrics and that the operator's heap holds.
 */
public final class HostileDrill implements AutoCloseable {
    public static final int PODS_PER_KIND = 4;
    public static final int HEALTHY_PROFILES = 3;
    public static final Duration INTERVAL = Duration.ofSeconds(5);
    /** A healthy pod counts as fresh while its last scrape is at most this old: two intervals and a scrape's deadline. */
    public static final Duration STALE_AFTER = INTERVAL.multipliedBy(2).plusSeconds(10);
    private static final String APP = "app";

    private final KubernetesClient client;
    private final String namespace;
    private final int port = WorkloadProcess.freePort();
    private final Map<String, LoopbackMetrics.Behaviour> behaviourOf = new LinkedHashMap<>();
    private final Map<String, List<LoopbackMetrics>> endpointsOf = new LinkedHashMap<>();
    private final Map<String, String> ipOfPod = new ConcurrentHashMap<>();
    private final Map<String, AtomicInteger> hostsGiven = new ConcurrentHashMap<>();

    private HostileDrill(KubernetesClient client, String namespace) {
        this.client = client;
        this.namespace = namespace;
    }

    /** Deployments, pods Ready on their own loopback addresses, endpoints behind them; no profile yet. */
    public static HostileDrill prepare(LocalControlPlane controlPlane) throws InterruptedException {
        controlPlane.ensureControllerManager();
        controlPlane.installCrd();
        HostileDrill drill = new HostileDrill(controlPlane.client(), controlPlane.newNamespace("hostile"));
        for (LoopbackMetrics.Behaviour behaviour : LoopbackMetrics.Behaviour.values()) {
            if (behaviour != LoopbackMetrics.Behaviour.HEALTHY) {
                drill.deploy(behaviour.name().toLowerCase(Locale.ROOT).replace('_', '-'), behaviour, PODS_PER_KIND);
            }
        }
        for (int i = 1; i <= HEALTHY_PROFILES; i++) {
            drill.deploy("healthy-" + i, LoopbackMetrics.Behaviour.HEALTHY, 1);
        }
        FakeKubelet kubelet = new FakeKubelet(drill.client);
        long deadline = System.nanoTime() + Duration.ofSeconds(120).toNanos();
        while (!drill.behaviourOf.keySet().stream().allMatch(d -> FakeKubelet.isRolledOut(
                drill.client.apps().deployments().inNamespace(drill.namespace).withName(d).get()))) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("the drill's Deployments did not roll out");
            }
            kubelet.markPodsReady(drill.namespace, drill::ipOf);
            Thread.sleep(300);
        }
        return drill;
    }

    private void deploy(String name, LoopbackMetrics.Behaviour behaviour, int replicas) {
        int subnet = behaviourOf.size() + 1;
        behaviourOf.put(name, behaviour);
        List<LoopbackMetrics> endpoints = new ArrayList<>();
        for (int host = 1; host <= replicas; host++) {
            endpoints.add(LoopbackMetrics.start(address(subnet, host), port, behaviour));
        }
        endpointsOf.put(name, endpoints);
        client.resource(new DeploymentBuilder().withNewMetadata().withName(name).endMetadata()
                .withNewSpec().withReplicas(replicas).withNewSelector().addToMatchLabels(APP, name).endSelector()
                .withNewTemplate().withNewMetadata().addToLabels(APP, name).endMetadata()
                .withNewSpec().addNewContainer().withName("app").withImage("example/" + name + ":1").endContainer().endSpec()
                .endTemplate().endSpec().build()).inNamespace(namespace).create();
    }

    /** Each Deployment has a subnet of 127.0.0.0/8, each of its pods the next address in it. */
    private static String address(int subnet, int host) {
        return "127.77." + subnet + "." + host;
    }

    private String ipOf(Pod pod) {
        String deployment = pod.getMetadata().getLabels().get(APP);
        int subnet = new ArrayList<>(behaviourOf.keySet()).indexOf(deployment) + 1;
        return ipOfPod.computeIfAbsent(pod.getMetadata().getName(),
                p -> address(subnet, hostsGiven.computeIfAbsent(deployment, d -> new AtomicInteger()).incrementAndGet()));
    }

    /** A profile per Deployment, in Recommend mode (the pods stay as they are), scraped every INTERVAL. */
    public void createProfiles() {
        behaviourOf.keySet().forEach(name -> client.resource(LoopbackMetrics.profile(name, port, INTERVAL, "")).inNamespace(namespace).create());
    }

    public String namespace() {
        return namespace;
    }

    /** What a drill run saw: the operator alive throughout, and the healthy profiles' freshness. */
    public record Outcome(boolean operatorAlive, OperatorProcess.Gc gc, List<String> staleSamples, Map<String, Double> longestGapSeconds,
            int hostileScrapes) {
        public boolean passed() {
            return operatorAlive && staleSamples.isEmpty();
        }
    }

    /**
     * Runs the drill for {@code length} after the healthy profiles first show a window: every two
     * seconds each healthy profile must show MetricsAvailable=True with a window and its pod must have
     * been scraped within {@link #STALE_AFTER}; the operator's GC figures are printed every {@code report}.
     */
    public Outcome observe(OperatorProcess operator, Duration length, Duration report, PrintStream out) throws InterruptedException {
        long warmUp = System.nanoTime() + Duration.ofSeconds(120).toNanos();
        while (!healthyNames().stream().allMatch(this::showsWindow)) {
            if (System.nanoTime() > warmUp || !operator.isAlive()) {
                return new Outcome(operator.isAlive(), operator.gc(), List.of("no window for every healthy profile within 120 s"),
                        Map.of(), hostileScrapes());
            }
            Thread.sleep(1000);
        }
        healthyNames().forEach(name -> endpointsOf.get(name).forEach(LoopbackMetrics::resetGaps));
        List<String> stale = new ArrayList<>();
        long start = System.nanoTime();
        long end = start + length.toNanos();
        long nextReport = start + report.toNanos();
        while (System.nanoTime() < end && operator.isAlive()) {
            double at = (System.nanoTime() - start) / 1e9;
            for (String name : healthyNames()) {
                double gap = endpointsOf.get(name).get(0).longestGapSeconds();
                if (!showsWindow(name) || gap > STALE_AFTER.toSeconds()) {
                    stale.add(String.format(Locale.ROOT, "%.0fs %s: %s, longest gap %.1f s", at, name, availability(name), gap));
                }
            }
            if (System.nanoTime() >= nextReport) {
                out.printf(Locale.ROOT, "%4.0fs  %s  cpu %.1f s  rss peak %d MiB  hostile scrapes %d  healthy longest gap %.1f s%n",
                        at, operator.gc(), operator.cpuSeconds(), operator.peakRssMiB(), hostileScrapes(), longestGaps().values().stream()
                                .mapToDouble(Double::doubleValue).max().orElse(0));
                nextReport += report.toNanos();
            }
            Thread.sleep(2000);
        }
        return new Outcome(operator.isAlive(), operator.gc(), stale, longestGaps(), hostileScrapes());
    }

    private List<String> healthyNames() {
        return behaviourOf.entrySet().stream().filter(e -> e.getValue() == LoopbackMetrics.Behaviour.HEALTHY).map(Map.Entry::getKey).toList();
    }

    private Map<String, Double> longestGaps() {
        Map<String, Double> gaps = new LinkedHashMap<>();
        healthyNames().forEach(name -> gaps.put(name, endpointsOf.get(name).get(0).longestGapSeconds()));
        return gaps;
    }

    private int hostileScrapes() {
        return endpointsOf.entrySet().stream().filter(e -> behaviourOf.get(e.getKey()) != LoopbackMetrics.Behaviour.HEALTHY)
                .flatMap(e -> e.getValue().stream()).mapToInt(LoopbackMetrics::scrapes).sum();
    }

    private boolean showsWindow(String name) {
        TuningProfile profile = client.resources(TuningProfile.class).inNamespace(namespace).withName(name).get();
        return profile.getStatus() != null && profile.getStatus().getObserved() != null && profile.getStatus().getObserved().getWindow() != null
                && metricsAvailable(profile).filter(c -> ConditionStatus.TRUE.is(c.getStatus())
                        && Reason.METRICS_READ.text().equals(c.getReason())).isPresent();
    }

    private String availability(String name) {
        TuningProfile profile = client.resources(TuningProfile.class).inNamespace(namespace).withName(name).get();
        return metricsAvailable(profile).map(c -> c.getStatus() + " " + c.getReason() + " " + c.getMessage()).orElse("no MetricsAvailable");
    }

    private static Optional<Condition> metricsAvailable(TuningProfile profile) {
        return profile.getStatus() == null || profile.getStatus().getConditions() == null ? Optional.empty()
                : profile.getStatus().getConditions().stream().filter(c -> ConditionType.METRICS_AVAILABLE.text().equals(c.getType())).findFirst();
    }

    @Override
    public void close() {
        endpointsOf.values().forEach(endpoints -> endpoints.forEach(LoopbackMetrics::close));
    }
}
