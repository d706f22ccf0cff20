package dev.jvmtuning.operator.installation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.jvmtuning.operator.api.v1alpha1.Guardrail;
import dev.jvmtuning.operator.api.v1alpha1.TuningProfile;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The installation's guardrail queries: what a profile may name, and the PromQL a name becomes for a profile. Pure. */
class GuardrailQueriesTest {
    private static final String P99 = "histogram_quantile(0.99, sum by (le) (rate(http_server_requests_seconds_bucket"
            + "{namespace=\"{{namespace}}\",pod=~\"{{pods}}\"}[1m])))";
    private static final GuardrailQueries QUERIES = GuardrailQueries.of(Map.of("p99-latency", P99,
            "errors", "sum(rate(errors_total{namespace=\"{{namespace}}\",deployment=\"{{deployment}}\"}[1m]))"));

    @Test
    void theProfilesNamespaceDeploymentAndReadyPodsAreFilledIn() {
        assertThat(QUERIES.promql("p99-latency", "shop", "orders.api", List.of("orders.api-7d9f8-abcde", "orders.api-7d9f8-fghij")))
                .isEqualTo("histogram_quantile(0.99, sum by (le) (rate(http_server_requests_seconds_bucket"
                        + "{namespace=\"shop\",pod=~\"orders[.]api-7d9f8-abcde|orders[.]api-7d9f8-fghij\"}[1m])))");
        assertThat(QUERIES.promql("errors", "shop", "orders", List.of("orders-1-a")))
                .isEqualTo("sum(rate(errors_total{namespace=\"shop\",deployment=\"orders\"}[1m]))");
    }

    /** Values come from the API server, which holds only Kubernetes names; anything else is refused, never escaped into a query. */
    @ParameterizedTest
    @ValueSource(strings = {"shop\"}) or vector(1) or up{a=\"", "shop\\", "Shop", "{{namespace}}", "", "a-namespace-name-that-is-longer-than-the-sixty-three-characters-of-a-label"})
    void aValueThatIsNotAKubernetesNameIsRefused(String namespace) {
        assertThatThrownBy(() -> QUERIES.promql("p99-latency", namespace, "orders", List.of("orders-1-a")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("is not a Kubernetes name");
        assertThatThrownBy(() -> QUERIES.promql("p99-latency", "shop", namespace + "\"", List.of("orders-1-a")))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> QUERIES.promql("p99-latency", "shop", "orders", List.of("orders-1-a|.*")))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aNameTheInstallationDoesNotDefineIsRefusedNamingTheFieldAndTheQueriesDefined() {
        assertThat(QUERIES.refusal(new Guardrail("p99-latency", 0.5))).isEmpty();
        assertThat(QUERIES.refusal(null)).isEmpty();
        assertThat(QUERIES.refusal(new Guardrail("p95-latency", 0.5))).hasValue(
                "spec.auto.guardrail.name 'p95-latency' is not a guardrail query of this installation; this installation defines: errors, p99-latency");
        assertThat(GuardrailQueries.of(Map.of()).refusal(new Guardrail("p99-latency", 0.5))).hasValueSatisfying(message ->
                assertThat(message).contains("defines none", "metrics.guardrailQueries"));
        assertThatThrownBy(() -> QUERIES.promql("p95-latency", "shop", "orders", List.of())).isInstanceOf(IllegalArgumentException.class);
    }

    /** The API server prunes the former raw query from a stored profile, which keeps a guardrail with only its max. */
    @Test
    void aProfileStoredWithTheFormerRawQueryIsRefusedSayingWhatToDo() {
        TuningProfile stored = Serialization.unmarshal("""
                {"apiVersion": "jvmtuning.dev/v1alpha1", "kind": "TuningProfile", "metadata": {"name": "web", "namespace": "shop"},
                 "spec": {"targetRef": {"name": "web"}, "mode": "Auto", "auto": {"guardrail": {"max": 0.5}}}}""", TuningProfile.class);

        assertThat(QUERIES.refusal(stored.getSpec().getAuto().getGuardrail())).hasValueSatisfying(message -> assertThat(message)
                .startsWith("spec.auto.guardrail.name is missing").contains("raw PromQL query is no longer read", "errors, p99-latency",
                        "remove spec.auto.guardrail"));
    }

    @Test
    void anInstallationsQueryMustBeNameableAndUseOnlyKnownPlaceholders() {
        assertThatThrownBy(() -> GuardrailQueries.of(Map.of("P99_latency", "up", "slo", "x{namespace=\"{{ns}}\"}", "empty", " ")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("guardrail query name 'P99_latency' is not a DNS label")
                .hasMessageContaining("guardrail query 'slo' has the placeholder {{ns}}; known: {{deployment}}, {{namespace}}, {{pods}}")
                .hasMessageContaining("guardrail query 'empty' is empty");
    }
}
