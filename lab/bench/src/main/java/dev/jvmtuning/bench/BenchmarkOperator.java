package dev.jvmtuning.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.jvmtuning.operator.api.v1alpha1.TuningProfile;
import dev.jvmtuning.operator.api.v1alpha1.TuningProfileStatus;
import dev.jvmtuning.operator.config.Leadership;
import dev.jvmtuning.operator.config.OperatorSettings;
import dev.jvmtuning.operator.config.SharedStrings;
import dev.jvmtuning.operator.decision.StatusBuilder;
import dev.jvmtuning.operator.reconciler.TuningProfileReconciler;
import io.fabric8.kubernetes.api.model.ConditionBuilder;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.http.BasicBuilder;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.Interceptor;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.javaoperatorsdk.operator.Operator;
import io.javaoperatorsdk.operator.api.reconciler.Cleaner;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.ControllerConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.DeleteControl;
import io.javaoperatorsdk.operator.api.reconciler.Reconciler;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;
import io.micrometer.prometheus.PrometheusConfig;
import io.micrometer.prometheus.PrometheusMeterRegistry;
import io.quarkus.runtime.configuration.DurationConverter;
import io.smallrye.config.SmallRyeConfigBuilder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Level;
import org.jboss.logmanager.LogContext;

/**
 * One side of the reconcile benchmark (deploy/local/benchmark.sh): the operator's reconciler, a
 * baseline that only records observedGeneration, or the floor (the writes any operator with this
 * one's contract must make, and nothing else), in the same plain JOSDK runtime, restricted to one
 * namespace. Every request its client sends is counted; the counts are printed when it is stopped.
 * Usage: BenchmarkOperator tuning|baseline|floor KUBECONFIG NAMESPACE
 */
public final class BenchmarkOperator {

    private static final List<String> MODES = List.of("tuning", "baseline", "floor");

    public static void main(String[] args) throws Exception {
        if (args.length != 3 || !MODES.contains(args[0])) {
            System.err.println("usage: BenchmarkOperator tuning|baseline|floor KUBECONFIG NAMESPACE");
            System.exit(2);
        }
        // The Quarkus build logs at INFO; without this the framework's debug lines (each with a resource's
        // toString) would be formatted and dropped on every event, a cost of this harness alone.
        LogContext.getSystemLogContext().getLogger("").setLevel(Level.INFO);
        String mode = args[0];
        Config config = Config.fromKubeconfig(Files.readString(Path.of(args[1])));
        String namespace = args[2];
        Map<String, AtomicInteger> requests = new ConcurrentHashMap<>();
        KubernetesClientBuilder builder = new KubernetesClientBuilder().withConfig(config);
        if (mode.equals("tuning")) {
            // as the operator's Quarkus build reads what the API server sends
            ObjectMapper mapper = new ObjectMapper();
            new SharedStrings().customize(mapper);
            builder.withKubernetesSerialization(new KubernetesSerialization(mapper, true));
        }
        KubernetesClient client = builder
                .withHttpClientBuilderConsumer(b -> b.addOrReplaceInterceptor("count", new Interceptor() {
                    @Override
                    public void before(BasicBuilder builder, HttpRequest request, RequestTags tags) {
                        String verb = request.method() + (request.uri().getQuery() != null && request.uri().getQuery().contains("watch=true") ? " (watch)" : "");
                        requests.computeIfAbsent(verb + " " + resource(request), k -> new AtomicInteger()).incrementAndGet();
                    }
                }))
                .build();
        Operator operator = new Operator(o -> o.withKubernetesClient(client).withCloseClientOnStop(false));
        AtomicInteger reconciles = new AtomicInteger();
        Reconciler<TuningProfile> reconciler = mode.equals("baseline") ? new Baseline(reconciles)
                : mode.equals("floor") ? new Floor(reconciles)
                : new TuningProfileReconciler(settings(), new PrometheusMeterRegistry(PrometheusConfig.DEFAULT), Leadership.alone("benchmark")) {
                    @Override
                    public UpdateControl<TuningProfile> reconcile(TuningProfile profile, Context<TuningProfile> context) {
                        reconciles.incrementAndGet();
                        return super.reconcile(profile, context);
                    }
                };
        operator.register(reconciler, o -> o.settingNamespaces(namespace));
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            TreeMap<String, Integer> sorted = new TreeMap<>();
            requests.forEach((k, v) -> sorted.put(k, v.get()));
            sorted.forEach((k, v) -> System.out.println("requests " + v + " " + k));
            System.out.println("requests-total " + sorted.values().stream().mapToInt(Integer::intValue).sum());
            System.out.println("reconciles " + reconciles.get());
            System.out.flush();
        }));
        try {
            operator.start();
        } catch (RuntimeException e) {
            // The client's threads would keep the JVM up, and benchmark.sh would wait its full deadline on it.
            e.printStackTrace();
            System.exit(1);
        }
        Thread.currentThread().join();
    }

    /**
     * The operator's own defaults, read as its Quarkus build reads them (Quarkus' duration format: "5m"),
     * but for a resync period longer than any run, so that only the first reconcile of each profile is counted.
     */
    private static OperatorSettings settings() {
        return new SmallRyeConfigBuilder().withConverter(Duration.class, 200, new DurationConverter()).withMapping(OperatorSettings.class)
                .withDefaultValue("jvm-tuning.resync-period", "10m").build().getConfigMapping(OperatorSettings.class);
    }

    /** The resource type a request addresses: "deployments", "tuningprofiles/status", ... */
    private static String resource(HttpRequest request) {
        List<String> parts = List.of(request.uri().getPath().split("/"));
        int namespaces = parts.indexOf("namespaces");
        String type = namespaces >= 0 && parts.size() > namespaces + 2 ? parts.get(namespaces + 2) : parts.get(parts.size() - 1);
        return parts.get(parts.size() - 1).equals("status") ? type + "/status" : type;
    }

    /** The bare framework: records observedGeneration in status, nothing else. */
    @ControllerConfiguration(name = "baseline")
    static class Baseline implements Reconciler<TuningProfile> {
        private final AtomicInteger reconciles;

        Baseline(AtomicInteger reconciles) {
            this.reconciles = reconciles;
        }

        @Override
        public UpdateControl<TuningProfile> reconcile(TuningProfile profile, Context<TuningProfile> context) {
            reconciles.incrementAndGet();
            Long generation = profile.getMetadata().getGeneration();
            if (profile.getStatus() != null && Objects.equals(profile.getStatus().getObservedGeneration(), generation)) {
                return UpdateControl.noUpdate();
            }
            TuningProfileStatus status = new TuningProfileStatus();
            status.setObservedGeneration(generation);
            write(profile, context, status);
            return UpdateControl.patchStatus(StatusBuilder.patch(profile, status));
        }

        /** What is written before status, and said in it: the bare framework writes nothing else. */
        void write(TuningProfile profile, Context<TuningProfile> context, TuningProfileStatus status) {
        }
    }

    /**
     * The least an operator with this one's contract writes for a new profile, with no reads, planning or
     * diffing: the finalizer (a profile's delete restores the Deployment), the ConfigMap of values before
     * the template that names it, the template's env and annotation, status with Applied. Its time
     * against the baseline's is the lowest ratio any implementation could reach on the same machine.
     */
    @ControllerConfiguration(name = "floor")
    static final class Floor extends Baseline implements Cleaner<TuningProfile> {
        private static final String MANAGER = "benchmark-floor";

        Floor(AtomicInteger reconciles) {
            super(reconciles);
        }

        @Override
        void write(TuningProfile profile, Context<TuningProfile> context, TuningProfileStatus status) {
            String name = profile.getMetadata().getName();
            String namespace = profile.getMetadata().getNamespace();
            String values = name + "-tuning";
            context.getClient().resource(new ConfigMapBuilder().withNewMetadata().withName(values).withNamespace(namespace).endMetadata()
                    .addToData("server.tomcat.threads.max", "200").build()).fieldManager(MANAGER).forceConflicts().serverSideApply();
            context.getClient().resource(new DeploymentBuilder().withNewMetadata().withName(name).withNamespace(namespace).endMetadata()
                    .withNewSpec().withNewTemplate().withNewMetadata().addToAnnotations("jvmtuning.dev/config", values).endMetadata()
                    .withNewSpec().addNewContainer().withName("app").addNewEnv().withName("JAVA_TOOL_OPTIONS").withValue("-Xss512k")
                    .endEnv().endContainer().endSpec().endTemplate().endSpec().build())
                    .fieldManager(MANAGER).forceConflicts().serverSideApply();
            status.getConditions().add(new ConditionBuilder().withType("Applied").withStatus("True").withReason("Applied")
                    .withLastTransitionTime(Instant.now().toString()).withObservedGeneration(profile.getMetadata().getGeneration()).build());
        }

        /** Not timed: gives the Deployment's fields back and deletes the values, as the operator does. */
        @Override
        public DeleteControl cleanup(TuningProfile profile, Context<TuningProfile> context) {
            String name = profile.getMetadata().getName();
            String namespace = profile.getMetadata().getNamespace();
            context.getClient().resource(new DeploymentBuilder().withNewMetadata().withName(name).withNamespace(namespace).endMetadata().build())
                    .fieldManager(MANAGER).forceConflicts().serverSideApply();
            context.getClient().configMaps().inNamespace(namespace).withName(name + "-tuning").delete();
            return DeleteControl.defaultDelete();
        }
    }
}
