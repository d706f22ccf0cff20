package dev.jvmtuning.operator.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.jvm.ClassLoaderMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.core.instrument.binder.system.UptimeMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.prometheus.jmx.JmxCollector;
import io.prometheus.metrics.config.EscapingScheme;
import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.Gauge;
import io.prometheus.metrics.core.metrics.Histogram;
import io.prometheus.metrics.core.metrics.Summary;
import io.prometheus.metrics.expositionformats.ExpositionFormatWriter;
import io.prometheus.metrics.expositionformats.OpenMetricsTextFormatWriter;
import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import io.prometheus.metrics.instrumentation.jvm.JvmMetrics;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.ClassicHistogramBuckets;
import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.DataPointSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.HistogramSnapshot;
import io.prometheus.metrics.model.snapshots.InfoSnapshot;
import io.prometheus.metrics.model.snapshots.Label;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricMetadata;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import io.prometheus.metrics.model.snapshots.Quantile;
import io.prometheus.metrics.model.snapshots.SnapshotEscaper;
import io.prometheus.metrics.model.snapshots.StateSetSnapshot;
import io.prometheus.metrics.model.snapshots.SummarySnapshot;
import io.prometheus.metrics.model.snapshots.UnknownSnapshot;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PrometheusTextParserTest {
    private static final String OPENMETRICS_CONTENT_TYPE = "application/openmetrics-text; version=1.0.0; charset=utf-8";
    /** Label values that break naive parsers: escapes, braces, hashes, commas, equals, spaces, non-ASCII. */
    private static final String TRICKY = "a \"quoted\" \\path\\ with\nnewline, {brace} # hash = é 日本 🚀";

    // ---------------------------------------------------------------- lines, comments, blanks

    @Test
    void readsNameLabelsValueAndTimestamp() {
        Scrape scrape = PrometheusTextParser.parse("""
                up 1
                http_requests_total{method="GET",code="200"} 1027 1395066363000
                process:cpu_seconds_total{} 4.5
                """);

        assertThat(scrape.samples()).containsExactly(
                new Sample("up", Map.of(), 1, null),
                new Sample("http_requests_total", Map.of("method", "GET", "code", "200"), 1027, 1395066363000L),
                new Sample("process:cpu_seconds_total", Map.of(), 4.5, null));
        assertThat(scrape.skippedLines()).isZero();
        assertThat(scrape.problems()).isEmpty();
    }

    @Test
    void skipsCommentsMetadataAndBlankLinesWithoutCountingThem() {
        Scrape scrape = PrometheusTextParser.parse("""
                # HELP jvm_threads_live_threads The current number of live threads
                # TYPE jvm_threads_live_threads gauge
                # UNIT jvm_threads_live_threads threads

                jvm_threads_live_threads 23.0
                #just a comment with "quotes" and {braces}
                   \t# an indented comment
                \t \s
                # EOF
                """);

        assertThat(scrape.samples()).containsExactly(new Sample("jvm_threads_live_threads", Map.of(), 23, null));
        assertThat(scrape.skippedLines()).isZero();
        assertThat(scrape.problems()).isEmpty();
    }

    @Test
    void emptyAndBlankBodiesHaveNoSamplesAndNoProblems() {
        for (String body : List.of("", "\n", "\r\n\r\n", "   \t", "# EOF")) {
            assertThat(PrometheusTextParser.parse(body)).isEqualTo(new Scrape(List.of(), 0, List.of()));
        }
    }

    @Test
    void readsTheLastLineWithoutANewlineAndCrlfLineEndings() {
        Scrape scrape = PrometheusTextParser.parse("a{x=\"1\"} 1\r\nb 2 1700000000000\r\n\r\nc{y=\"3\"} 3");

        assertThat(scrape.samples()).containsExactly(
                new Sample("a", Map.of("x", "1"), 1, null),
                new Sample("b", Map.of(), 2, 1700000000000L),
                new Sample("c", Map.of("y", "3"), 3, null));
        assertThat(scrape.skippedLines()).isZero();
    }

    @Test
    void toleratesDuplicateSpacesTabsAndLeadingWhitespace() {
        Scrape scrape = PrometheusTextParser.parse(
                "  metric_a   {a=\"1\"}    2.5     1700000000000   \n\tmetric_b\t{b=\"x y\"}\t3\t\n");

        assertThat(scrape.samples()).containsExactly(
                new Sample("metric_a", Map.of("a", "1"), 2.5, 1700000000000L),
                new Sample("metric_b", Map.of("b", "x y"), 3, null));
        assertThat(scrape.skippedLines()).isZero();
    }

    // ---------------------------------------------------------------- labels

    @Test
    void unescapesBackslashQuoteAndNewlineInLabelValues() {
        Scrape scrape = PrometheusTextParser.parse("""
                m{path="C:\\\\temp\\\\",msg="say \\"hi\\"",text="line1\\nline2"} 1
                """);

        assertThat(scrape.samples()).containsExactly(new Sample("m",
                Map.of("path", "C:\\temp\\", "msg", "say \"hi\"", "text", "line1\nline2"), 1, null));
    }

    @Test
    void keepsUnknownEscapesAsWrittenLikePrometheus() {
        Scrape scrape = PrometheusTextParser.parse("m{a=\"tab\\there\",b=\"\\u00e9\"} 1\n");

        assertThat(scrape.samples()).containsExactly(new Sample("m", Map.of("a", "tab\\there", "b", "\\u00e9"), 1, null));
    }

    @Test
    void readsLabelValuesHoldingBracesHashesCommasEqualsSpacesAndUnicode() {
        Scrape scrape = PrometheusTextParser.parse("""
                http_server_requests_seconds_count{uri="/orders/{id}",q="a=b, c}",note="# not a comment",\
                who="Zoë 日本語 🚀",empty=""} 7
                """);

        assertThat(scrape.samples()).containsExactly(new Sample("http_server_requests_seconds_count",
                Map.of("uri", "/orders/{id}", "q", "a=b, c}", "note", "# not a comment", "who", "Zoë 日本語 🚀", "empty", ""),
                7, null));
    }

    @Test
    void acceptsATrailingCommaAndSpacesAroundEqualsAndCommas() {
        Scrape scrape = PrometheusTextParser.parse("""
                old_client{a="1",} 1
                spaced { a = "1" , b\t=\t"2" , } 2
                empty{} 3
                emptySpaced{ } 4
                """);

        assertThat(scrape.samples()).containsExactly(
                new Sample("old_client", Map.of("a", "1"), 1, null),
                new Sample("spaced", Map.of("a", "1", "b", "2"), 2, null),
                new Sample("empty", Map.of(), 3, null),
                new Sample("emptySpaced", Map.of(), 4, null));
        assertThat(scrape.skippedLines()).isZero();
    }

    @Test
    void readsQuotedUtf8NamesOfNewerClients() {
        Scrape scrape = PrometheusTextParser.parse("""
                {"http.server.requests","http.method"="GET",status="200"} 3
                {"jvm.threads"} 12
                legacy_name{"label.with.dots"="v"} 1
                """);

        assertThat(scrape.samples()).containsExactly(
                new Sample("http.server.requests", Map.of("http.method", "GET", "status", "200"), 3, null),
                new Sample("jvm.threads", Map.of(), 12, null),
                new Sample("legacy_name", Map.of("label.with.dots", "v"), 1, null));
    }

    // ---------------------------------------------------------------- values and timestamps

    @Test
    void readsIntegersDecimalsExponentsNanAndInfinities() {
        Scrape scrape = PrometheusTextParser.parse("""
                v 42
                v -7
                v 3.25
                v .5
                v 1.5e3
                v -2E-2
                v +1
                v 4.06847488E8
                v NaN
                v +Inf
                v -Inf
                v Inf
                v nan
                v -inf
                v +Infinity
                """);

        assertThat(scrape.samples()).extracting(Sample::value).containsExactly(
                42.0, -7.0, 3.25, 0.5, 1500.0, -0.02, 1.0, 4.06847488E8, Double.NaN,
                Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, Double.POSITIVE_INFINITY, Double.NaN,
                Double.NEGATIVE_INFINITY, Double.POSITIVE_INFINITY);
        assertThat(scrape.skippedLines()).isZero();
    }

    @Test
    void rejectsValuesGoWouldReject() {
        Scrape scrape = PrometheusTextParser.parse("""
                v 1d
                v 0x1p3
                v abc
                v 1,5
                v 1e
                v -
                v -NaN
                v Infinityy
                v
                """);

        assertThat(scrape.samples()).isEmpty();
        assertThat(scrape.skippedLines()).isEqualTo(9);
        assertThat(scrape.problems()).containsExactly(
                "line 1, column 3: invalid value",
                "line 2, column 3: invalid value",
                "line 3, column 3: invalid value",
                "line 4, column 3: invalid value",
                "line 5, column 3: invalid value",
                "line 6, column 3: invalid value",
                "line 7, column 3: invalid value",
                "line 8, column 3: invalid value",
                "line 9, column 2: missing value");
    }

    @Test
    void readsPrometheusTimestampsAsIntegerMilliseconds() {
        Scrape scrape = PrometheusTextParser.parse("""
                a 1 1712345678123
                b 2 -1000
                c 3 +5
                """);

        assertThat(scrape.samples()).extracting(Sample::timestampMillis).containsExactly(1712345678123L, -1000L, 5L);
    }

    @Test
    void readsOpenMetricsTimestampsAsSecondsWhenTheBodyEndsWithEof() {
        Scrape scrape = PrometheusTextParser.parse("""
                # TYPE a gauge
                a 1 1712345678.123
                a 2 1712345678
                a 3 1.712345678999e9
                # EOF
                """);

        assertThat(scrape.samples()).extracting(Sample::timestampMillis)
                .containsExactly(1712345678123L, 1712345678000L, 1712345678999L);
    }

    @Test
    void detectsOpenMetricsThroughTrailingBlankLinesAndCrlf() {
        Scrape scrape = PrometheusTextParser.parse("a 1 1712345678\r\n# EOF\r\n\r\n");

        assertThat(scrape.samples()).containsExactly(new Sample("a", Map.of(), 1, 1712345678000L));
    }

    @Test
    void readsFractionalTimestampsInA004BodyAsSeconds() {
        Scrape scrape = PrometheusTextParser.parse("a 1 1712345678.5\nb 2 1712345678123\n");

        assertThat(scrape.samples()).extracting(Sample::timestampMillis).containsExactly(1712345678500L, 1712345678123L);
    }

    @Test
    void skipsTimestampsOutOfRangeOrInvalid() {
        Scrape scrape = PrometheusTextParser.parse("""
                a 1 99999999999999999999
                b 2 NaN
                c 3 1e300
                d 4 12:00
                """);

        assertThat(scrape.samples()).isEmpty();
        assertThat(scrape.problems()).containsExactly(
                "line 1, column 5: timestamp out of range",
                "line 2, column 5: timestamp out of range",
                "line 3, column 5: timestamp out of range",
                "line 4, column 5: invalid timestamp");
    }

    // ---------------------------------------------------------------- exemplars, histograms, summaries

    @Test
    void ignoresOpenMetricsExemplars() {
        Scrape scrape = PrometheusTextParser.parse("""
                # TYPE requests counter
                requests_total{path="/"} 2.0 # {trace_id="abc",span_id="d#e"} 2.0 1712345678.250
                latency_seconds_bucket{le="0.5"} 4 1712345678.000 # {trace_id="x y"} 0.31
                requests_created{path="/"} 1712345600.245
                # EOF
                """);

        assertThat(scrape.samples()).containsExactly(
                new Sample("requests_total", Map.of("path", "/"), 2, null),
                new Sample("latency_seconds_bucket", Map.of("le", "0.5"), 4, 1712345678000L),
                new Sample("requests_created", Map.of("path", "/"), 1712345600.245, null));
        assertThat(scrape.skippedLines()).isZero();
    }

    @Test
    void keepsHistogramAndSummarySeriesAsOrdinarySamples() {
        Scrape scrape = PrometheusTextParser.parse("""
                # TYPE http_server_requests_seconds histogram
                http_server_requests_seconds_bucket{uri="/a",le="0.1"} 3
                http_server_requests_seconds_bucket{uri="/a",le="+Inf"} 5
                http_server_requests_seconds_count{uri="/a"} 5
                http_server_requests_seconds_sum{uri="/a"} 1.25
                http_server_requests_seconds_created{uri="/a"} 1.712345678E9
                # TYPE rpc_duration_seconds summary
                rpc_duration_seconds{quantile="0.99"} 0.25
                rpc_duration_seconds_count 9
                rpc_duration_seconds_sum 1.5
                """);

        assertThat(scrape.samples()).containsExactly(
                new Sample("http_server_requests_seconds_bucket", Map.of("uri", "/a", "le", "0.1"), 3, null),
                new Sample("http_server_requests_seconds_bucket", Map.of("uri", "/a", "le", "+Inf"), 5, null),
                new Sample("http_server_requests_seconds_count", Map.of("uri", "/a"), 5, null),
                new Sample("http_server_requests_seconds_sum", Map.of("uri", "/a"), 1.25, null),
                new Sample("http_server_requests_seconds_created", Map.of("uri", "/a"), 1.712345678E9, null),
                new Sample("rpc_duration_seconds", Map.of("quantile", "0.99"), 0.25, null),
                new Sample("rpc_duration_seconds_count", Map.of(), 9, null),
                new Sample("rpc_duration_seconds_sum", Map.of(), 1.5, null));
    }

    // ---------------------------------------------------------------- garbage and bounds

    @Test
    void skipsMalformedLinesAndDescribesWhere() {
        Scrape scrape = PrometheusTextParser.parse("""
                good_before 1
                1bad 1
                bad-name 1
                m{a="1" 1
                m{a="unterminated} 1
                m{a=1} 1
                m{a b="1"} 1
                m{a="1",a="2"} 1
                m{,} 1
                m 1 2 3
                {a="1"} 1
                good_after{a="1"} 2
                """);

        assertThat(scrape.samples()).containsExactly(
                new Sample("good_before", Map.of(), 1, null),
                new Sample("good_after", Map.of("a", "1"), 2, null));
        assertThat(scrape.skippedLines()).isEqualTo(10);
        assertThat(scrape.problems()).containsExactly(
                "line 2, column 1: expected a metric name",
                "line 3, column 4: invalid character in metric name",
                "line 4, column 9: expected ',' or '}' after the label",
                "line 5, column 5: unterminated quoted string",
                "line 6, column 5: expected '\"' to open the label value",
                "line 7, column 5: expected '=' after the label name",
                "line 8, column 9: duplicate label name",
                "line 9, column 3: expected a label name",
                "line 10, column 7: unexpected text after the timestamp",
                "line 11, column 8: missing metric name");
    }

    @Test
    void keepsOnlyTheFirstTenProblemsButCountsEverySkippedLine() {
        StringBuilder body = new StringBuilder();
        for (int i = 1; i <= 25; i++) {
            body.append("garbage line ").append(i).append('\n').append("ok ").append(i).append('\n');
        }

        Scrape scrape = PrometheusTextParser.parse(body.toString());

        assertThat(scrape.samples()).hasSize(25);
        assertThat(scrape.skippedLines()).isEqualTo(25);
        assertThat(scrape.problems()).hasSize(10)
                .first().isEqualTo("line 1, column 9: invalid value");
        assertThat(scrape.problems()).last().isEqualTo("line 19, column 9: invalid value");
    }

    @Test
    void skipsLinesLongerThan64KiB() {
        String fits = "m{v=\"" + "x".repeat(PrometheusTextParser.MAX_LINE_CHARS - 9) + "\"} 1";
        String tooLong = "m{v=\"" + "x".repeat(PrometheusTextParser.MAX_LINE_CHARS - 8) + "\"} 1";
        assertThat(fits).hasSize(PrometheusTextParser.MAX_LINE_CHARS);

        Scrape scrape = PrometheusTextParser.parse(fits + "\n" + tooLong + "\nafter 2\n");

        assertThat(scrape.samples()).extracting(Sample::name).containsExactly("m", "after");
        assertThat(scrape.samples().get(0).label("v")).hasSize(PrometheusTextParser.MAX_LINE_CHARS - 9);
        assertThat(scrape.skippedLines()).isEqualTo(1);
        assertThat(scrape.problems()).containsExactly("line 2, longer than 65536 characters");
    }

    // ---------------------------------------------------------------- payloads of the real libraries

    /** Every metric type with tricky label values, NaN and infinities, exemplars and scrape timestamps. */
    private static PrometheusRegistry prometheusClientRegistry() {
        PrometheusRegistry registry = new PrometheusRegistry();
        JvmMetrics.builder().register(registry);
        Counter counter = Counter.builder().name("orders").help("Orders placed").labelNames("customer", "region")
                .register(registry);
        counter.labelValues(TRICKY, "eu-west").incWithExemplar(3, Labels.of("trace_id", "4bf92f3577b34da6"));
        counter.labelValues("", "us").inc(0.5);
        Gauge gauge = Gauge.builder().name("queue_depth").help("Queued").labelNames("queue").register(registry);
        gauge.labelValues("nan").set(Double.NaN);
        gauge.labelValues("plus").set(Double.POSITIVE_INFINITY);
        gauge.labelValues("minus").set(Double.NEGATIVE_INFINITY);
        gauge.labelValues(TRICKY).set(-1.25e-300);
        Histogram histogram = Histogram.builder().name("latency_seconds").help("Latency").labelNames("uri")
                .classicUpperBounds(0.005, 0.1, 1, 2.5).register(registry);
        histogram.labelValues("/orders/{id}").observeWithExemplar(0.07, Labels.of("trace_id", "abc"));
        histogram.labelValues("/orders/{id}").observe(0.3);
        histogram.labelValues(TRICKY).observe(30);
        Summary summary = Summary.builder().name("payload_bytes").help("Payload").labelNames("kind")
                .quantile(0.5, 0.01).quantile(0.99, 0.001).register(registry);
        for (int i = 1; i <= 100; i++) {
            summary.labelValues("json").observe(i * 10);
        }
        registry.register(() -> GaugeSnapshot.builder().name("batch_last_success").help("Timestamped gauge")
                .dataPoint(GaugeSnapshot.GaugeDataPointSnapshot.builder().value(1.712345678123E9)
                        .labels(Labels.of("job", TRICKY)).scrapeTimestampMillis(1712345678123L).build())
                .build());
        return registry;
    }

    @Test
    void readsEverySampleThePrometheusClientWrites() throws IOException {
        PrometheusRegistry registry = prometheusClientRegistry();
        MetricSnapshots snapshots = registry.scrape();

        for (boolean created : new boolean[] {false, true}) {
            String text = write(PrometheusTextFormatWriter.builder().setIncludeCreatedTimestamps(created).build(),
                    snapshots, EscapingScheme.UNDERSCORE_ESCAPING);
            assertReadsExactly(text, expectedSamples(snapshots, false, created, EscapingScheme.UNDERSCORE_ESCAPING));

            String openMetrics = write(OpenMetricsTextFormatWriter.builder().setCreatedTimestampsEnabled(created)
                    .setExemplarsOnAllMetricTypesEnabled(true).build(), snapshots, EscapingScheme.UNDERSCORE_ESCAPING);
            assertThat(openMetrics).contains("# {trace_id=\"4bf92f3577b34da6\"}").endsWith("# EOF\n");
            assertReadsExactly(openMetrics, expectedSamples(snapshots, true, created, EscapingScheme.UNDERSCORE_ESCAPING));
        }
    }

    @Test
    void readsTheQuotedNamesThePrometheusClientWritesWhenUtf8IsAllowed() throws IOException {
        PrometheusRegistry registry = new PrometheusRegistry();
        Gauge.builder().name("http.server.active").labelNames("http.method", "plain").register(registry)
                .labelValues("GET", TRICKY).set(4);
        Counter.builder().name("jvm.gc.pauses").register(registry).inc(2);
        MetricSnapshots snapshots = registry.scrape();

        String text = write(PrometheusTextFormatWriter.create(), snapshots, EscapingScheme.ALLOW_UTF8);
        assertThat(text).contains("{\"http.server.active\",\"http.method\"=\"GET\"");
        assertReadsExactly(text, expectedSamples(snapshots, false, false, EscapingScheme.ALLOW_UTF8));
        String openMetrics = write(OpenMetricsTextFormatWriter.create(), snapshots, EscapingScheme.ALLOW_UTF8);
        assertReadsExactly(openMetrics, expectedSamples(snapshots, true, false, EscapingScheme.ALLOW_UTF8));
    }

    @Test
    void readsEverySampleTheJmxExporterWrites() throws Exception {
        PrometheusRegistry registry = new PrometheusRegistry();
        new JmxCollector("{}").register(registry);
        MetricSnapshots snapshots = registry.scrape();
        assertThat(snapshots.size()).isGreaterThan(20);

        String text = write(PrometheusTextFormatWriter.create(), snapshots, EscapingScheme.UNDERSCORE_ESCAPING);
        assertReadsExactly(text, expectedSamples(snapshots, false, false, EscapingScheme.UNDERSCORE_ESCAPING));
        String openMetrics = write(OpenMetricsTextFormatWriter.create(), snapshots, EscapingScheme.UNDERSCORE_ESCAPING);
        assertReadsExactly(openMetrics, expectedSamples(snapshots, true, false, EscapingScheme.UNDERSCORE_ESCAPING));
    }

    @Test
    void readsMicrometerScrapesInBothFormats() {
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        new JvmMemoryMetrics().bindTo(registry);
        new JvmThreadMetrics().bindTo(registry);
        new ClassLoaderMetrics().bindTo(registry);
        new ProcessorMetrics().bindTo(registry);
        new UptimeMetrics().bindTo(registry);
        try (JvmGcMetrics gc = new JvmGcMetrics()) {
            gc.bindTo(registry);
            registry.counter("orders.placed", Tags.of("customer", TRICKY)).increment(3);
            io.micrometer.core.instrument.Timer histogramTimer = io.micrometer.core.instrument.Timer
                    .builder("http.server.requests").tags("uri", "/orders/{id}", "status", "200")
                    .publishPercentileHistogram().register(registry);
            histogramTimer.record(Duration.ofMillis(20));
            histogramTimer.record(Duration.ofMillis(300));
            io.micrometer.core.instrument.Timer percentileTimer = io.micrometer.core.instrument.Timer
                    .builder("db.query").publishPercentiles(0.5, 0.99).register(registry);
            percentileTimer.record(Duration.ofMillis(40));

            for (String contentType : new String[] {PrometheusTextFormatWriter.CONTENT_TYPE, OPENMETRICS_CONTENT_TYPE}) {
                String body = registry.scrape(contentType);
                Scrape scrape = PrometheusTextParser.parse(body);

                assertThat(scrape.problems()).isEmpty();
                assertThat(scrape.skippedLines()).isZero();
                assertThat(scrape.samples()).hasSize(sampleLineCount(body)).hasSizeGreaterThan(100);
                assertThat(scrape.samples()).contains(
                        new Sample("orders_placed_total", Map.of("customer", TRICKY), 3, null),
                        new Sample("http_server_requests_seconds_count", Map.of("uri", "/orders/{id}", "status", "200"),
                                2, null),
                        new Sample("http_server_requests_seconds_sum", Map.of("uri", "/orders/{id}", "status", "200"),
                                0.32, null),
                        new Sample("http_server_requests_seconds_bucket",
                                Map.of("uri", "/orders/{id}", "status", "200", "le", "+Inf"), 2, null),
                        new Sample("http_server_requests_seconds_max", Map.of("uri", "/orders/{id}", "status", "200"),
                                0.3, null),
                        new Sample("db_query_seconds_count", Map.of(), 1, null));
                assertThat(scrape.samples()).filteredOn(s -> s.name().equals("db_query_seconds"))
                        .extracting(s -> s.label("quantile")).containsExactly("0.5", "0.99");
                assertThat(scrape.samples()).filteredOn(s -> s.name().equals("jvm_memory_used_bytes"))
                        .extracting(s -> s.label("area")).contains("heap", "nonheap");
            }
        }
    }

    // ---------------------------------------------------------------- helpers

    private static void assertReadsExactly(String body, List<Sample> expected) {
        Scrape scrape = PrometheusTextParser.parse(body);
        assertThat(scrape.problems()).isEmpty();
        assertThat(scrape.skippedLines()).isZero();
        assertThat(scrape.samples()).hasSize(sampleLineCount(body)).containsExactlyInAnyOrderElementsOf(expected);
    }

    private static int sampleLineCount(String body) {
        return (int) body.lines().filter(line -> !line.isBlank() && !line.startsWith("#")).count();
    }

    private static String write(ExpositionFormatWriter writer, MetricSnapshots snapshots, EscapingScheme scheme)
            throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        writer.write(out, snapshots, scheme);
        return out.toString(StandardCharsets.UTF_8);
    }

    /**
     * The samples a writer of client_java 1.8 puts in its text (PrometheusTextFormatWriter, or
     * OpenMetricsTextFormatWriter when openMetrics), derived from the snapshots themselves with the
     * library's own naming functions: suffixes, le and quantile labels, cumulative bucket counts, and
     * created timestamps (milliseconds in 0.0.4, seconds in OpenMetrics).
     */
    private static List<Sample> expectedSamples(MetricSnapshots snapshots, boolean openMetrics, boolean created,
            EscapingScheme scheme) {
        List<Sample> samples = new ArrayList<>();
        for (MetricSnapshot original : snapshots) {
            MetricSnapshot snapshot = SnapshotEscaper.escapeMetricSnapshot(original, scheme);
            MetricMetadata metadata = snapshot.getMetadata();
            String name = SnapshotEscaper.getMetadataName(metadata, scheme);
            if (snapshot instanceof CounterSnapshot counter) {
                String total = expositionName(metadata, "_total", scheme);
                for (CounterSnapshot.CounterDataPointSnapshot data : counter.getDataPoints()) {
                    samples.add(sample(total, data, null, 0, data.getValue()));
                    addCreated(samples, total.substring(0, total.length() - "_total".length()), data, openMetrics, created);
                }
            } else if (snapshot instanceof GaugeSnapshot gauge) {
                String gaugeName = openMetrics ? name
                        : SnapshotEscaper.getLegacyGaugeName(metadata, original.getMetadata().getOriginalName(), scheme);
                for (GaugeSnapshot.GaugeDataPointSnapshot data : gauge.getDataPoints()) {
                    samples.add(sample(gaugeName, data, null, 0, data.getValue()));
                }
            } else if (snapshot instanceof HistogramSnapshot histogram && !histogram.isGaugeHistogram()) {
                for (HistogramSnapshot.HistogramDataPointSnapshot data : histogram.getDataPoints()) {
                    ClassicHistogramBuckets buckets = data.getClassicBuckets().isEmpty()
                            ? ClassicHistogramBuckets.of(new double[] {Double.POSITIVE_INFINITY}, new long[] {data.getCount()})
                            : data.getClassicBuckets();
                    long cumulative = 0;
                    for (int i = 0; i < buckets.size(); i++) {
                        cumulative += buckets.getCount(i);
                        samples.add(sample(name + "_bucket", data, "le", buckets.getUpperBound(i), cumulative));
                    }
                    if (data.hasCount() && (data.hasSum() || !openMetrics)) {
                        samples.add(sample(name + "_count", data, null, 0, data.getCount()));
                    }
                    if (data.hasSum() && (data.hasCount() || !openMetrics)) {
                        samples.add(sample(name + "_sum", data, null, 0, data.getSum()));
                    }
                    addCreated(samples, name, data, openMetrics, created);
                }
            } else if (snapshot instanceof SummarySnapshot summary) {
                for (SummarySnapshot.SummaryDataPointSnapshot data : summary.getDataPoints()) {
                    if (data.getQuantiles().size() == 0 && !data.hasCount() && !data.hasSum()) {
                        continue;
                    }
                    for (Quantile quantile : data.getQuantiles()) {
                        samples.add(sample(name, data, "quantile", quantile.getQuantile(), quantile.getValue()));
                    }
                    if (data.hasCount()) {
                        samples.add(sample(name + "_count", data, null, 0, data.getCount()));
                    }
                    if (data.hasSum()) {
                        samples.add(sample(name + "_sum", data, null, 0, data.getSum()));
                    }
                    addCreated(samples, name, data, openMetrics, created);
                }
            } else if (snapshot instanceof InfoSnapshot info) {
                String infoName = expositionName(metadata, "_info", scheme);
                for (InfoSnapshot.InfoDataPointSnapshot data : info.getDataPoints()) {
                    samples.add(sample(infoName, data, null, 0, 1));
                }
            } else if (snapshot instanceof StateSetSnapshot stateSet) {
                for (StateSetSnapshot.StateSetDataPointSnapshot data : stateSet.getDataPoints()) {
                    for (int i = 0; i < data.size(); i++) {
                        Map<String, String> labels = labels(data);
                        labels.put(name, data.getName(i));
                        samples.add(new Sample(name, labels, data.isTrue(i) ? 1 : 0, scrapeTimestamp(data)));
                    }
                }
            } else if (snapshot instanceof UnknownSnapshot unknown) {
                for (UnknownSnapshot.UnknownDataPointSnapshot data : unknown.getDataPoints()) {
                    samples.add(sample(name, data, null, 0, data.getValue()));
                }
            } else {
                throw new AssertionError("no expectation for " + snapshot.getClass().getSimpleName());
            }
        }
        return samples;
    }

    /** The writers' own rule: a name that already ends with the suffix keeps it, any other gets it appended. */
    private static String expositionName(MetricMetadata metadata, String suffix, EscapingScheme scheme) {
        String base = SnapshotEscaper.getExpositionBaseMetadataName(metadata, scheme);
        return base.endsWith(suffix) ? base : SnapshotEscaper.getMetadataName(metadata, scheme) + suffix;
    }

    private static void addCreated(List<Sample> samples, String baseName, DataPointSnapshot data, boolean openMetrics,
            boolean created) {
        if (created && data.hasCreatedTimestamp()) {
            long millis = data.getCreatedTimestampMillis();
            samples.add(new Sample(baseName + "_created", labels(data), openMetrics ? millis / 1000.0 : millis,
                    scrapeTimestamp(data)));
        }
    }

    private static Sample sample(String name, DataPointSnapshot data, String extraLabel, double extraValue,
            double value) {
        Map<String, String> labels = labels(data);
        if (extraLabel != null) {
            labels.put(extraLabel, extraValue == Double.POSITIVE_INFINITY ? "+Inf" : Double.toString(extraValue));
        }
        return new Sample(name, labels, value, scrapeTimestamp(data));
    }

    private static Map<String, String> labels(DataPointSnapshot data) {
        Map<String, String> labels = new HashMap<>();
        for (Label label : data.getLabels()) {
            labels.put(label.getName(), label.getValue());
        }
        return labels;
    }

    private static Long scrapeTimestamp(DataPointSnapshot data) {
        return data.hasScrapeTimestamp() ? data.getScrapeTimestampMillis() : null;
    }

    @Test
    void onlyTheSeriesAskedForAreKeptAndAtMostTheCap() {
        StringBuilder body = new StringBuilder();
        for (int i = 0; i < 50_000; i++) {
            body.append("padding_metric{i=\"").append(i).append("\"} 1\n");
            body.append("wanted_total{i=\"").append(i).append("\"} ").append(i).append('\n');
        }
        body.append("<html> not a sample\n");

        Scrape all = PrometheusTextParser.parse(body.toString(), "wanted_total"::equals, Integer.MAX_VALUE);
        Scrape capped = PrometheusTextParser.parse(body.toString(), "wanted_total"::equals, 1000);

        assertThat(all.samples()).hasSize(50_000).allMatch(sample -> sample.name().equals("wanted_total"));
        assertThat(all.skippedLines()).as("a line that is no sample is still reported").isEqualTo(1);
        assertThat(capped.samples()).hasSize(1000);
        assertThat(capped.problems()).anyMatch(p -> p.contains("more than 1000 samples"));
    }
}
