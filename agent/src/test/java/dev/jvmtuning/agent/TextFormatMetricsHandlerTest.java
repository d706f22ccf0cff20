package dev.jvmtuning.agent;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class TextFormatMetricsHandlerTest {

    @Test
    void dropsProtobufAndKeepsTheTextFormatsAPrometheusServerOffers() {
        String accept = "application/vnd.google.protobuf;proto=io.prometheus.client.MetricFamily;encoding=delimited;q=0.5,"
                + "application/openmetrics-text;version=1.0.0;q=0.4,text/plain;version=0.0.4;q=0.3,*/*;q=0.2";
        assertThat(TextFormatMetricsHandler.withoutProtobuf(accept))
                .isEqualTo("application/openmetrics-text;version=1.0.0;q=0.4,text/plain;version=0.0.4;q=0.3,*/*;q=0.2");
    }

    @Test
    void protobufOnlyLeavesNothingSoTheDefaultTextFormatIsUsed() {
        assertThat(TextFormatMetricsHandler.withoutProtobuf(
                "application/vnd.google.protobuf;proto=io.prometheus.client.MetricFamily;encoding=delimited")).isEmpty();
    }
}
