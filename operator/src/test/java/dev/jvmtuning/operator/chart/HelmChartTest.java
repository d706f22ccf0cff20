package dev.jvmtuning.operator.chart;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.jvmtuning.operator.api.v1alpha1.TuningProfile;
import dev.jvmtuning.operator.config.OperatorSettings;
import dev.jvmtuning.operator.reconciler.TuningProfileReconciler;
import dev.jvmtuning.operator.testing.FakeKubelet;
import dev.jvmtuning.operator.testing.LocalControlPlane;
import dev.jvmtuning.operator.testing.RunningOperator;
import dev.jvmtuning.operator.testing.StartsProcesses;
import dev.jvmtuning.operator.testing.TestSettings;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.authentication.TokenRequestBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.javaoperatorsdk.operator.Operator;
import io.smallrye.config.EnvConfigSource;
import io.smallrye.config.SmallRyeConfigBuilder;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The chart with a real helm against the real API server. */
@StartsProcesses
class HelmChartTest {
    private static final Path CHART = Path.of("charts/jvm-tuning-operator");
    private static final String HELM = System.getProperty("helm.binary", "helm");
    private static final String K8S_VERSION = System.getProperty("k8s.version", "1.36.3");
    private static LocalControlPlane controlPlane;
    private static KubernetesClient client;

    @BeforeAll
    static void controlPlane() {
        controlPlane = LocalControlPlane.shared();
        controlPlane.installCrd();
        client = controlPlane.client();
    }

    static String helm(String... args) throws IOException, InterruptedException {
        HelmRun run = run(args);
        assertThat(run.exitValue()).as("helm %s:%n%s", String.join(" ", args), run.output()).isZero();
        return run.output();
    }

    record HelmRun(int exitValue, String output) {
    }

    static HelmRun run(String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(HELM));
        command.addAll(List.of(args));
        Process process = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null"))).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(120, TimeUnit.SECONDS)).isTrue();
        return new HelmRun(process.exitValue(), output);
    }

    static List<HasMetadata> template(String... values) throws Exception {
        List<String> args = new ArrayList<>(List.of("template", "jvm-tuning-operator", CHART.toString(),
                "--namespace", "jvm-tuning-system", "--kube-version", K8S_VERSION));
        for (String value : values) {
            args.addAll(List.of("--set", value));
        }
        return client.load(new ByteArrayInputStream(helm(args.toArray(String[]::new)).getBytes(StandardCharsets.UTF_8))).items();
    }

    @Test
    void lintsCleanWithDefaultAndNonDefaultValues() throws Exception {
        assertThat(helm("lint", CHART.toString(), "--strict")).contains("0 chart(s) failed");
        assertThat(helm("lint", CHART.toString(), "--strict", "--set", "replicas=3", "--set", "watchNamespaces={a,b}",
                "--set", "serviceMonitor.enabled=true", "--set", "metrics.prometheusUrl=http://prometheus.monitoring:9090"))
                .contains("0 chart(s) failed");
    }

    /**
     * What Artifact Hub and a platform team read before installing: the licence the repository carries, where the sources
     * are, and the CRD the chart installs, as the chart's own crds/ declares it.
     */
    @Test
    @SuppressWarnings("unchecked")
    void theChartsMetadataNamesItsLicenceSourcesAndTheCrdItInstalls() throws Exception {
        Map<String, Object> chart = Serialization.unmarshal(helm("show", "chart", CHART.toString()), Map.class);
        Map<String, String> annotations = (Map<String, String>) chart.get("annotations");
        assertThat(annotations).containsEntry("artifacthub.io/license", "Apache-2.0").containsEntry("artifacthub.io/operator", "true");
        assertThat(Files.readString(Path.of("LICENSE"))).contains("Apache License", "Version 2.0, January 2004");
        assertThat((List<String>) chart.get("sources")).contains((String) chart.get("home"));
        assertThat((List<Object>) chart.get("maintainers")).isNotEmpty();
        List<Map<String, String>> declared = Serialization.unmarshal(annotations.get("artifacthub.io/crds"), List.class);
        CustomResourceDefinition definition = Serialization.unmarshal(Files.readString(CHART.resolve("crds/tuningprofiles.jvmtuning.dev-v1.yml")),
                CustomResourceDefinition.class);
        assertThat(declared).singleElement().satisfies(entry -> {
            assertThat(entry).containsEntry("name", definition.getMetadata().getName())
                    .containsEntry("kind", definition.getSpec().getNames().getKind());
            assertThat(definition.getSpec().getVersions()).anyMatch(v -> v.getName().equals(entry.get("version")) && v.getServed());
        });
    }

    /** Values.schema.json: a value the operator could not start with fails the install, naming the value. */
    @Test
    void valuesTheOperatorCannotStartWithAreRefusedAtInstall() throws Exception {
        for (List<String> bad : List.of(List.of("watchNamespaces={}", "/watchNamespaces/0"), List.of("watchNamespaces={shop,Shop_B}", "/watchNamespaces/1"),
                List.of("resyncPeriod=soon", "/resyncPeriod"), List.of("metrics.concurrency=0", "/metrics/concurrency"),
                List.of("metrics.prometheusUrl=prometheus:9090", "/metrics/prometheusUrl"), List.of("flagPolicy.allow={-Dx=a b}", "/flagPolicy/allow/0"),
                List.of("replicas=0", "/replicas"))) {
            HelmRun run = run("template", "jvm-tuning-operator", CHART.toString(), "--kube-version", K8S_VERSION, "--set", bad.get(0));
            assertThat(run.exitValue()).as("--set %s", bad.get(0)).isNotZero();
            assertThat(run.output()).as("--set %s", bad.get(0)).contains("values don't meet the specifications of the schema", "'" + bad.get(1) + "'");
        }
    }

    @Test
    void everyRenderedObjectIsAcceptedByTheApiServer() throws Exception {
        String operatorNamespace = controlPlane.newNamespace("jto-system");
        String watched = controlPlane.newNamespace("jto-watched");
        List<List<HasMetadata>> renderings = List.of(template(),
                template("replicas=2", "watchNamespaces={" + watched + "}", "serviceMonitor.enabled=true",
                        "metrics.prometheusUrl=http://prometheus.monitoring:9090", "resources.limits.memory=1Gi"));
        for (List<HasMetadata> objects : renderings) {
            assertThat(objects).extracting(HasMetadata::getKind).contains("Deployment", "ServiceAccount", "Service");
            for (HasMetadata object : objects) {
                if (object.getKind().equals("ServiceMonitor")) {
                    continue; // a prometheus-operator kind this API server does not serve
                }
                String namespace = object.getMetadata().getNamespace() == null || object.getMetadata().getNamespace().equals("jvm-tuning-system")
                        ? operatorNamespace : object.getMetadata().getNamespace();
                if (object.getKind().startsWith("Cluster")) {
                    client.resource(object).dryRun().create();
                } else {
                    client.resource(object).inNamespace(namespace).dryRun().create();
                }
            }
        }
        assertThat(renderings.get(1)).filteredOn(o -> o.getKind().equals("Role")).extracting(o -> o.getMetadata().getNamespace())
                .contains(watched);
        // cluster-wide only discovery's read of Namespace objects, and the release of profiles in namespaces dropped from the list
        var clusterRules = renderings.get(1).stream().filter(o -> o.getKind().equals("ClusterRole"))
                .collect(java.util.stream.Collectors.toMap(o -> o.getMetadata().getName().replaceAll(".*-", ""),
                        o -> ((io.fabric8.kubernetes.api.model.rbac.ClusterRole) o).getRules()));
        assertThat(clusterRules).as("confined to some namespaces").containsOnlyKeys("discovery", "release");
        assertThat(clusterRules.get("discovery")).singleElement().satisfies(rule -> {
            assertThat(rule.getResources()).containsExactly("namespaces");
            assertThat(rule.getVerbs()).containsExactlyInAnyOrder("get", "list", "watch");
        });
        assertThat(clusterRules.get("release")).satisfiesExactlyInAnyOrder(rule -> {
            assertThat(rule.getResources()).containsExactly("tuningprofiles");
            assertThat(rule.getVerbs()).containsExactlyInAnyOrder("get", "list", "patch");
        }, rule -> {
            assertThat(rule.getResources()).containsExactly("events");
            assertThat(rule.getVerbs()).containsExactly("create");
        });
        assertThat(renderings.get(0)).anyMatch(o -> o.getKind().equals("ClusterRole"));
    }

    /** The rules of the operator's own role for the target's namespaces (the ClusterRole without a watch list). */
    private static List<io.fabric8.kubernetes.api.model.rbac.PolicyRule> podRules(List<HasMetadata> objects) {
        return objects.stream().filter(o -> o.getKind().equals("ClusterRole") && o.getMetadata().getName().equals("jvm-tuning-operator"))
                .flatMap(o -> ((io.fabric8.kubernetes.api.model.rbac.ClusterRole) o).getRules().stream())
                .filter(r -> r.getResources().stream().anyMatch(resource -> resource.startsWith("pods"))).toList();
    }

    @Test
    void theOnlyPodWriteIsPatchOnPodsResizeAndTheInstallationMayWithholdIt() throws Exception {
        assertThat(podRules(template())).satisfiesExactlyInAnyOrder(
                rule -> {
                    assertThat(rule.getResources()).containsExactly("pods");
                    assertThat(rule.getVerbs()).containsExactlyInAnyOrder("get", "list", "watch");
                },
                rule -> {
                    assertThat(rule.getResources()).containsExactly("pods/resize");
                    assertThat(rule.getVerbs()).containsExactly("patch");
                });
        assertThat(podRules(template("startupBoost.allowResize=false"))).singleElement().satisfies(rule -> {
            assertThat(rule.getResources()).containsExactly("pods");
            assertThat(rule.getVerbs()).containsExactlyInAnyOrder("get", "list", "watch");
        });
    }

    @Test
    void theOperatorPodIsLockedDown() throws Exception {
        var deployment = (io.fabric8.kubernetes.api.model.apps.Deployment) template().stream()
                .filter(o -> o.getKind().equals("Deployment")).findFirst().orElseThrow();
        var pod = deployment.getSpec().getTemplate().getSpec();
        var container = pod.getContainers().get(0);

        assertThat(pod.getSecurityContext().getRunAsNonRoot()).isTrue();
        assertThat(pod.getSecurityContext().getSeccompProfile().getType()).isEqualTo("RuntimeDefault");
        assertThat(container.getSecurityContext().getReadOnlyRootFilesystem()).isTrue();
        assertThat(container.getSecurityContext().getAllowPrivilegeEscalation()).isFalse();
        assertThat(container.getSecurityContext().getCapabilities().getDrop()).containsExactly("ALL");
        assertThat(container.getLivenessProbe().getHttpGet().getPath()).isEqualTo("/q/health/live");
        assertThat(container.getReadinessProbe().getHttpGet().getPath()).isEqualTo("/q/health/ready");
        assertThat(container.getResources().getLimits()).containsKeys("cpu", "memory");
        assertThat(pod.getSecurityContext().getRunAsUser()).as("a high UID, shared with no user of the node").isGreaterThanOrEqualTo(10000L);
        assertThat(pod.getSecurityContext().getRunAsGroup()).isGreaterThanOrEqualTo(10000L);
        assertThat(container.getImage()).isEqualTo("ghcr.io/jvm-tuning-operator/jvm-tuning-operator:0.1.0");
        assertThat(javaOptions(container)).contains("-XX:+ExitOnOutOfMemoryError");
    }

    @Test
    void anOutOfMemoryErrorEndsTheOperatorWhateverItsJavaOptions() throws Exception {
        var container = ((io.fabric8.kubernetes.api.model.apps.Deployment) template("javaOptions=-Xmx200m").stream()
                .filter(o -> o.getKind().equals("Deployment")).findFirst().orElseThrow()).getSpec().getTemplate().getSpec().getContainers().get(0);
        assertThat(javaOptions(container)).isEqualTo("-Xmx200m -XX:+ExitOnOutOfMemoryError");
    }

    private static String javaOptions(io.fabric8.kubernetes.api.model.Container container) {
        return container.getEnv().stream().filter(e -> e.getName().equals("JAVA_OPTS_APPEND")).findFirst().orElseThrow().getValue();
    }

    /**
     * The chart's guardrail queries reach the operator's typed settings unchanged (quotes, braces,
     * backslashes and the dashes of a name included), through the environment as Quarkus reads it,
     * and the API server takes the variables' names; a name no profile could give is refused at install.
     */
    @Test
    void guardrailQueriesReachTheOperatorsSettingsAsWritten() throws Exception {
        Map<String, String> queries = Map.of("p99-latency", "histogram_quantile(0.99, sum by (le) (rate(http_server_requests_seconds_bucket"
                + "{namespace=\"{{namespace}}\",pod=~\"{{pods}}\"}[1m])))", "errors", "sum(rate(x_total{namespace=\"{{namespace}}\",a=~\"b\\\\.c\"}[1m]))");
        Path values = Files.createTempFile("guardrails", ".yaml");
        Files.writeString(values, new com.fasterxml.jackson.databind.ObjectMapper().writeValueAsString(Map.of("metrics", Map.of("guardrailQueries", queries))));
        var deployment = (io.fabric8.kubernetes.api.model.apps.Deployment) client.load(new ByteArrayInputStream(helm("template", "jvm-tuning-operator",
                        CHART.toString(), "--namespace", "jvm-tuning-system", "--kube-version", K8S_VERSION, "-f", values.toString())
                        .getBytes(StandardCharsets.UTF_8))).items().stream().filter(o -> o.getKind().equals("Deployment")).findFirst().orElseThrow();
        client.resource(deployment).inNamespace(controlPlane.newNamespace("jto-system")).dryRun().create();

        Map<String, String> env = new java.util.HashMap<>();
        deployment.getSpec().getTemplate().getSpec().getContainers().get(0).getEnv().stream().filter(v -> v.getValue() != null)
                .forEach(v -> env.put(v.getName(), v.getValue()));
        // "10s" and "5m" are durations as Quarkus reads them
        OperatorSettings settings = new SmallRyeConfigBuilder().withMapping(OperatorSettings.class)
                .withConverter(Duration.class, 200, new io.quarkus.runtime.configuration.DurationConverter())
                .withSources(new EnvConfigSource(env, 300)).build().getConfigMapping(OperatorSettings.class);
        assertThat(settings.metrics().guardrailQueries()).isEqualTo(queries);

        HelmRun bad = run("template", "jvm-tuning-operator", CHART.toString(), "--kube-version", K8S_VERSION,
                "--set", "metrics.guardrailQueries.P99_latency=up");
        assertThat(bad.exitValue()).isNotZero();
        assertThat(bad.output()).contains("values don't meet the specifications of the schema", "'P99_latency' does not match pattern");
    }

    @Test
    void leaderElectionMayRenewItsLease() throws Exception {
        // fabric8's LeaseLock renews with PATCH: without it the leader loses the Lease and nobody takes it over.
        var role = (io.fabric8.kubernetes.api.model.rbac.Role) template("replicas=2").stream()
                .filter(o -> o.getKind().equals("Role") && o.getMetadata().getName().endsWith("-leader-election")).findFirst().orElseThrow();
        assertThat(role.getRules()).singleElement().satisfies(rule -> assertThat(rule.getVerbs()).contains("get", "create", "update", "patch"));
    }

    @Test
    void anImageDigestWinsOverTheTag() throws Exception {
        String digest = "sha256:" + "0123456789abcdef".repeat(4);
        var deployment = (io.fabric8.kubernetes.api.model.apps.Deployment) template("image.repository=registry.example/jto",
                "image.tag=9.9.9", "image.digest=" + digest, "image.pullPolicy=Never").stream()
                .filter(o -> o.getKind().equals("Deployment")).findFirst().orElseThrow();
        var container = deployment.getSpec().getTemplate().getSpec().getContainers().get(0);
        assertThat(container.getImage()).isEqualTo("registry.example/jto@" + digest);
        assertThat(container.getImagePullPolicy()).isEqualTo("Never");
    }

    @Test
    void theNetworkPolicyAdmitsOnlyTheHttpPortAndReachesOnlyTheApiServerAndMetricsPorts() throws Exception {
        assertThat(template()).noneMatch(o -> o.getKind().equals("NetworkPolicy"));
        assertThat(helm("lint", CHART.toString(), "--strict", "--set", "networkPolicy.enabled=true", "--set", "watchNamespaces={a}"))
                .contains("0 chart(s) failed");
        String watched = controlPlane.newNamespace("jto-watched");
        var policy = (io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy) template("networkPolicy.enabled=true",
                "watchNamespaces={" + watched + "}", "networkPolicy.apiServer.cidrs={192.0.2.1/32}").stream()
                .filter(o -> o.getKind().equals("NetworkPolicy")).findFirst().orElseThrow();
        client.resource(policy).inNamespace(controlPlane.newNamespace("jto-system")).dryRun().create();

        assertThat(policy.getSpec().getPolicyTypes()).containsExactlyInAnyOrder("Ingress", "Egress");
        assertThat(policy.getSpec().getIngress()).singleElement().satisfies(rule ->
                assertThat(rule.getPorts()).extracting(p -> p.getPort().getStrVal()).containsExactly("http"));
        var egress = policy.getSpec().getEgress();
        assertThat(egress.get(0).getPorts()).extracting(p -> p.getPort().getIntVal()).containsExactly(443, 6443);
        assertThat(egress.get(0).getTo()).extracting(p -> p.getIpBlock().getCidr()).containsExactly("192.0.2.1/32");
        assertThat(egress.get(1).getPorts()).extracting(p -> p.getPort().getIntVal()).containsExactly(8080, 9404);
        assertThat(egress.get(1).getTo()).singleElement().satisfies(peer -> assertThat(peer.getNamespaceSelector()
                .getMatchExpressions()).singleElement().satisfies(e -> assertThat(e.getValues()).containsExactly(watched)));
        assertThat(egress).hasSize(3).last().satisfies(dns -> assertThat(dns.getPorts()).extracting(p -> p.getPort().getIntVal()).containsOnly(53));
    }

    @Test
    void theChartsCrdAndThePlainManifestsStayInSync() throws Exception {
        assertThat(Files.readString(CHART.resolve("crds").resolve(LocalControlPlane.CRD_FILE.getFileName())))
                .as("charts/jvm-tuning-operator/crds/ must hold the same CRD as crds/").isEqualTo(Files.readString(LocalControlPlane.CRD_FILE));
        String rendered = "# Rendered from charts/jvm-tuning-operator by deploy/render-manifests.sh; do not edit.\n"
                + helm("template", "jvm-tuning-operator", CHART.toString(), "--namespace", "jvm-tuning-system", "--include-crds",
                        "--kube-version", K8S_VERSION);
        assertThat(Files.readString(Path.of("deploy/manifests/jvm-tuning-operator.yaml")))
                .as("deploy/manifests is stale: run deploy/render-manifests.sh").isEqualTo(rendered);
    }

    @Test
    void installedChartsIdentityIsEnoughToTuneAndNoMore() throws Exception {
        controlPlane.ensureControllerManager();
        String release = "jto-" + Long.toHexString(System.nanoTime()).substring(0, 6);
        String operatorNamespace = controlPlane.newNamespace("jto-system");
        String watched = controlPlane.newNamespace("jto-watched");
        String other = controlPlane.newNamespace("jto-other");
        Path kubeconfig = controlPlane.kubeconfig();
        helm("install", release, CHART.toString(), "--kubeconfig", kubeconfig.toString(), "--namespace", operatorNamespace,
                "--set", "watchNamespaces={" + watched + "}", "--wait=false");

        try (KubernetesClient operatorClient = serviceAccountClient(operatorNamespace, release + "-jvm-tuning-operator")) {
            Operator operator = new Operator(o -> o.withKubernetesClient(operatorClient).withCloseClientOnStop(false));
            operator.register(TestSettings.reconciler(Duration.ofSeconds(5), Optional.empty()),
                    o -> o.settingNamespaces(watched).withLabelSelector(RunningOperator.OWN_OPERATOR_LABEL));
            operator.start();
            try {
                client.load(Files.newInputStream(Path.of("examples/orders-api.yaml"))).items().forEach(o -> {
                    if (o.getKind().equals("TuningProfile")) {
                        o.getMetadata().setLabels(java.util.Map.of(RunningOperator.OWN_OPERATOR_LABEL, "true"));
                    }
                    client.resource(o).inNamespace(watched).create();
                });
                new FakeKubelet(client).awaitRollout(watched, "orders-api", Duration.ofSeconds(90));
                await().atMost(Duration.ofSeconds(90)).untilAsserted(() -> {
                    new FakeKubelet(client).markPodsReady(watched);
                    TuningProfile profile = client.resources(TuningProfile.class).inNamespace(watched).withName("orders-api").get();
                    assertThat(profile.getStatus()).isNotNull();
                    assertThat(profile.getStatus().getConditions().stream().filter(c -> c.getType().equals("Ready")).findFirst())
                            .hasValueSatisfying(c -> assertThat(c.getStatus()).as(c.getMessage()).isEqualTo("True"));
                });
            } finally {
                operator.stop();
            }

            assertThatThrownBy(() -> operatorClient.secrets().inNamespace(watched).list())
                    .isInstanceOf(KubernetesClientException.class).hasMessageContaining("Forbidden");
            assertThatThrownBy(() -> operatorClient.apps().deployments().inNamespace(other).list())
                    .isInstanceOf(KubernetesClientException.class).hasMessageContaining("Forbidden");
            assertThatThrownBy(() -> operatorClient.configMaps().inNamespace(other).resource(new ConfigMapBuilder()
                    .withNewMetadata().withName("x").endMetadata().build()).create())
                    .isInstanceOf(KubernetesClientException.class).hasMessageContaining("Forbidden");
            assertThat(operatorClient.namespaces().list().getItems()).as("discovery reads the namespaces' labels").isNotEmpty();
            assertThatThrownBy(() -> operatorClient.namespaces().withName(other).edit(ns -> {
                ns.getMetadata().getLabels().put("x", "y");
                return ns;
            })).isInstanceOf(KubernetesClientException.class).hasMessageContaining("Forbidden");
        }

        helm("uninstall", release, "--kubeconfig", kubeconfig.toString(), "--namespace", operatorNamespace);
        String instance = "app.kubernetes.io/instance=" + release;
        assertThat(client.apps().deployments().inNamespace(operatorNamespace).withLabelSelector(instance).list().getItems()).isEmpty();
        assertThat(client.serviceAccounts().inNamespace(operatorNamespace).withLabelSelector(instance).list().getItems()).isEmpty();
        assertThat(client.services().inNamespace(operatorNamespace).withLabelSelector(instance).list().getItems()).isEmpty();
        assertThat(client.rbac().roles().inNamespace(watched).withLabelSelector(instance).list().getItems()).isEmpty();
        assertThat(client.rbac().roleBindings().inNamespace(watched).withLabelSelector(instance).list().getItems()).isEmpty();
        assertThat(client.apiextensions().v1().customResourceDefinitions().withName("tuningprofiles.jvmtuning.dev").get())
                .as("the CRD stays, with every profile, by Helm's crds/ policy").isNotNull();
    }

    /**
     * The chart's identity is enough to release what a narrower list leaves: installed on two namespaces, upgraded
     * to one, the operator removes its finalizer from the dropped namespace's profile and says in an Event that the
     * Deployment, which it may no longer write, keeps the tuned settings.
     */
    @Test
    void aNarrowerListReleasesTheDroppedNamespacesProfilesWithTheChartsIdentity() throws Exception {
        controlPlane.ensureControllerManager();
        String release = "jto-" + Long.toHexString(System.nanoTime()).substring(0, 6);
        String operatorNamespace = controlPlane.newNamespace("jto-system");
        String kept = controlPlane.newNamespace("jto-kept");
        String dropped = controlPlane.newNamespace("jto-dropped");
        String kubeconfig = controlPlane.kubeconfig().toString();
        helm("install", release, CHART.toString(), "--kubeconfig", kubeconfig, "--namespace", operatorNamespace,
                "--set", "watchNamespaces={" + kept + "," + dropped + "}", "--wait=false");
        try (KubernetesClient operatorClient = serviceAccountClient(operatorNamespace, release + "-jvm-tuning-operator")) {
            client.load(Files.newInputStream(Path.of("examples/orders-api.yaml"))).items().forEach(o -> {
                if (o.getKind().equals("TuningProfile")) {
                    o.getMetadata().setLabels(java.util.Map.of(RunningOperator.OWN_OPERATOR_LABEL, "true"));
                }
                client.resource(o).inNamespace(dropped).create();
            });
            Operator before = operatorAs(operatorClient, operatorNamespace, kept, dropped);
            try {
                await().atMost(Duration.ofSeconds(90)).until(() -> !client.resources(TuningProfile.class).inNamespace(dropped).withName("orders-api")
                        .get().getMetadata().getFinalizers().isEmpty());
            } finally {
                before.stop();
            }

            helm("upgrade", release, CHART.toString(), "--kubeconfig", kubeconfig, "--namespace", operatorNamespace, "--reuse-values",
                    "--set", "watchNamespaces={" + kept + "}", "--wait=false");
            Operator after = operatorAs(operatorClient, operatorNamespace, kept);
            try {
                await().atMost(Duration.ofSeconds(30)).until(() -> client.resources(TuningProfile.class).inNamespace(dropped).withName("orders-api")
                        .get().getMetadata().getFinalizers().isEmpty());
                assertThat(client.v1().events().inNamespace(dropped).list().getItems()).anySatisfy(e -> {
                    assertThat(e.getReason()).isEqualTo("Released");
                    assertThat(e.getMessage()).contains("Deployment orders-api keeps the tuned settings");
                });
            } finally {
                after.stop();
            }
        }
        helm("uninstall", release, "--kubeconfig", kubeconfig, "--namespace", operatorNamespace);
    }

    private static Operator operatorAs(KubernetesClient operatorClient, String ownNamespace, String... namespaces) {
        Operator operator = new Operator(o -> o.withKubernetesClient(operatorClient).withCloseClientOnStop(false));
        operator.register(new TuningProfileReconciler(TestSettings.of(Duration.ofSeconds(5), Optional.empty()).withOwnNamespace(ownNamespace),
                new io.micrometer.core.instrument.simple.SimpleMeterRegistry(), dev.jvmtuning.operator.config.Leadership.alone("chart-test")),
                o -> o.settingNamespaces(namespaces).withLabelSelector(RunningOperator.OWN_OPERATOR_LABEL));
        operator.start();
        return operator;
    }

    private static KubernetesClient serviceAccountClient(String namespace, String serviceAccount) {
        String token = client.serviceAccounts().inNamespace(namespace).withName(serviceAccount)
                .tokenRequest(new TokenRequestBuilder().withNewSpec().withExpirationSeconds(3600L).endSpec().build())
                .getStatus().getToken();
        Config admin = client.getConfiguration();
        return new KubernetesClientBuilder().withConfig(new ConfigBuilder(Config.empty()).withMasterUrl(admin.getMasterUrl())
                .withCaCertData(admin.getCaCertData()).withCaCertFile(admin.getCaCertFile()).withOauthToken(token).build()).build();
    }
}
