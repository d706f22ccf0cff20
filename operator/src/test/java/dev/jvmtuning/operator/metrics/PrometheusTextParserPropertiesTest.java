package dev.jvmtuning.operator.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Collectors;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * Properties of the parser: it survives any input within its bounds, and it reads back exactly what a
 * writer of the 0.0.4 (or OpenMetrics) syntax wrote.
 */
class PrometheusTextParserPropertiesTest {
    /** A body using every feature of both formats; the mutations start from it. */
    private static final String VALID_BODY = """
            # HELP http_server_requests_seconds Duration of HTTP server request handling
            # TYPE http_server_requests_seconds histogram
            http_server_requests_seconds_bucket{method="GET",uri="/orders/{id}",le="0.1",} 3
            http_server_requests_seconds_bucket{method="GET",uri="/orders/{id}",le="+Inf",} 5
            http_server_requests_seconds_count{method="GET",uri="/orders/{id}",} 5.0
            http_server_requests_seconds_sum{method="GET",uri="/orders/{id}",} 1.25
            jvm_memory_used_bytes{area="heap",id="G1 Eden Space"} 4.06847488E8 1712345678123
            tricky{a="q\\"uote",b="back\\\\slash",c="new\\nline",d="} # ,= 日本"} NaN
            rpc_duration_seconds{quantile="0.99"} +Inf
            requests_total{path="/"} 2.0 # {trace_id="abc"} 2.0 1712345678.250
            {"http.server.active","http.method"="GET"} -Inf
            spaced_out  { a = "1" , }   -1.5e-3   \t 1712345678000
            empty{} 0
            # EOF
            """;

    // ---------------------------------------------------------------- (a) any input

    @Property(tries = 3000)
    void neverThrowsAndNeverCountsMoreLinesThanTheBodyHas(@ForAll("bodies") String body) {
        Scrape scrape = PrometheusTextParser.parse(body);

        long lines = body.chars().filter(c -> c == '\n').count() + 1;
        assertThat(scrape.samples().size() + scrape.skippedLines()).isLessThanOrEqualTo((int) lines);
        assertThat(scrape.problems())
                .hasSizeLessThanOrEqualTo(Math.min(PrometheusTextParser.MAX_PROBLEMS, scrape.skippedLines()))
                .allSatisfy(problem -> assertThat(problem).startsWith("line "));
    }

    @Example
    void theBodyToMutateIsValid() {
        Scrape scrape = PrometheusTextParser.parse(VALID_BODY);

        assertThat(scrape.problems()).isEmpty();
        assertThat(scrape.samples()).hasSize(11);
    }

    @Provide
    Arbitrary<String> bodies() {
        return Arbitraries.oneOf(
                Arbitraries.strings().all().ofMaxLength(400),
                Arbitraries.strings().withChars("{}\"\\=, \t\n\r#+-.eE0123456789InfNa_:lequantile").ofMaxLength(400),
                Arbitraries.bytes().array(byte[].class).ofMaxSize(400).map(bytes -> new String(bytes, StandardCharsets.UTF_8)),
                mutationsOf(VALID_BODY));
    }

    /** The body truncated, or with up to 8 characters duplicated, removed or replaced by syntax characters. */
    private static Arbitrary<String> mutationsOf(String body) {
        Arbitrary<String> truncated = Arbitraries.integers().between(0, body.length()).map(end -> body.substring(0, end));
        Arbitrary<Mutation> mutation = Combinators.combine(
                Arbitraries.integers().between(0, 2),
                Arbitraries.integers().between(0, body.length() - 1),
                Arbitraries.of('"', '\\', '{', '}', ',', '=', '#', ' ', '\n', '\r', 'e', '.', '-', 'é'))
                .as(Mutation::new);
        Arbitrary<String> edited = mutation.list().ofMinSize(1).ofMaxSize(8).map(mutations -> {
            StringBuilder text = new StringBuilder(body);
            for (Mutation m : mutations) {
                int at = Math.min(m.position(), text.length() - 1);
                switch (m.kind()) {
                    case 0 -> text.insert(at, text.charAt(at));
                    case 1 -> text.deleteCharAt(at);
                    default -> text.setCharAt(at, m.replacement());
                }
            }
            return text.toString();
        });
        return Arbitraries.oneOf(truncated, edited);
    }

    private record Mutation(int kind, int position, char replacement) {
    }

    // ---------------------------------------------------------------- (b) round trip

    @Property(tries = 500)
    void readsBackWhatA004WriterWrote(@ForAll("sampleLists") List<Sample> samples, @ForAll("blanks") String blank,
            @ForAll boolean trailingComma, @ForAll boolean crlf) {
        String lineEnd = crlf ? "\r\n" : "\n";
        String body = samples.stream()
                .map(sample -> nameAndLabels(sample, trailingComma) + blank + value(sample.value())
                        + (sample.timestampMillis() == null ? "" : blank + sample.timestampMillis()) + lineEnd)
                .collect(Collectors.joining("", "# TYPE some_metric untyped" + lineEnd, ""));

        Scrape scrape = PrometheusTextParser.parse(body);

        assertThat(scrape.problems()).isEmpty();
        assertThat(scrape.samples()).isEqualTo(samples);
    }

    @Property(tries = 250)
    void readsBackWhatAnOpenMetricsWriterWrote(@ForAll("sampleLists") List<Sample> samples,
            @ForAll("exemplars") String exemplar) {
        List<Sample> withSecondsTimestamps = samples.stream()
                .map(s -> new Sample(s.name(), s.labels(), s.value(),
                        s.timestampMillis() == null ? null : Math.floorMod(s.timestampMillis(), 4_000_000_000_000L)))
                .toList();
        String body = withSecondsTimestamps.stream()
                .map(sample -> nameAndLabels(sample, false) + " " + value(sample.value())
                        + (sample.timestampMillis() == null ? "" : " " + seconds(sample.timestampMillis())) + exemplar + "\n")
                .collect(Collectors.joining("", "", "# EOF\n"));

        Scrape scrape = PrometheusTextParser.parse(body);

        assertThat(scrape.problems()).isEmpty();
        assertThat(scrape.samples()).isEqualTo(withSecondsTimestamps);
    }

    @Provide
    Arbitrary<List<Sample>> sampleLists() {
        Arbitrary<String> metricNames = name("_:");
        Arbitrary<String> labelNames = name("_");
        Arbitrary<String> labelValues = Arbitraries.oneOf(
                Arbitraries.strings().all().ofMaxLength(12),
                Arbitraries.strings().withChars("\"\\\n{}#,= \tné日").ofMaxLength(12));
        Arbitrary<Map<String, String>> labels = Arbitraries.maps(labelNames, labelValues).ofMaxSize(4);
        Arbitrary<Double> values = Arbitraries.oneOf(
                Arbitraries.longs().map(Double::longBitsToDouble),
                Arbitraries.of(Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, -0.0, 0.0,
                        Double.MIN_VALUE, Double.MAX_VALUE, -Double.MAX_VALUE),
                Arbitraries.integers().map(Integer::doubleValue));
        Arbitrary<Long> timestamps = Arbitraries.longs().injectNull(0.4);
        return Combinators.combine(metricNames, labels, values, timestamps).as(Sample::new).list().ofMaxSize(12);
    }

    @Provide
    Arbitrary<String> blanks() {
        return Arbitraries.of(" ", "  ", "\t", " \t ");
    }

    @Provide
    Arbitrary<String> exemplars() {
        return Arbitraries.of("", " # {trace_id=\"4bf92f3577b34da6\"} 1.0", " # {} 0.5 1712345678.001",
                " # {span=\"# } \\\" x\"} 2");
    }

    /** [a-zA-Z{punctuation}][a-zA-Z0-9{punctuation}]*: metric names allow '_' and ':', label names '_'. */
    private static Arbitrary<String> name(String punctuation) {
        Arbitrary<String> first = Arbitraries.strings().withCharRange('a', 'z').withCharRange('A', 'Z')
                .withChars(punctuation).ofLength(1);
        Arbitrary<String> rest = Arbitraries.strings().withCharRange('a', 'z').withCharRange('A', 'Z')
                .withCharRange('0', '9').withChars(punctuation).ofMaxLength(12);
        return Combinators.combine(first, rest).as(String::concat);
    }

    /** A tiny 0.0.4 writer: labels escaped as the format says, the label set omitted when empty. */
    private static String nameAndLabels(Sample sample, boolean trailingComma) {
        if (sample.labels().isEmpty()) {
            return sample.name();
        }
        return sample.labels().entrySet().stream()
                .map(label -> label.getKey() + "=\"" + label.getValue().replace("\\", "\\\\").replace("\"", "\\\"")
                        .replace("\n", "\\n") + "\"")
                .collect(Collectors.joining(",", sample.name() + "{", trailingComma ? ",}" : "}"));
    }

    private static String value(double value) {
        if (Double.isNaN(value)) {
            return "NaN";
        }
        if (Double.isInfinite(value)) {
            return value > 0 ? "+Inf" : "-Inf";
        }
        return Double.toString(value);
    }

    /** OpenMetrics timestamps: seconds with the milliseconds as a fraction, as client_java writes them. */
    private static String seconds(long millis) {
        return millis / 1000 + "." + String.format("%03d", millis % 1000);
    }

    // ---------------------------------------------------------------- (c) memory bound

    @Example
    void fiftyMegabytesOfGarbageKeepTenProblemsAndNoSamples() {
        String alphabet = "{}\"\\=,# \tabcxyz_:0123456789.+-";
        Random random = new Random(42);
        StringBuilder block = new StringBuilder();
        int blockLines = 0;
        while (block.length() < 64 * 1024) {
            block.append("x{");
            for (int i = random.nextInt(200); i > 0; i--) {
                block.append(alphabet.charAt(random.nextInt(alphabet.length())));
            }
            block.append('\n');
            blockLines++;
        }
        int repeats = 50 * 1024 * 1024 / block.length() + 1;
        // Repeating a random block is as hard for the parser as fresh garbage, and much faster to build.
        String body = block.toString().repeat(repeats);

        Scrape scrape = PrometheusTextParser.parse(body);

        int lines = blockLines * repeats;
        assertThat(scrape.problems()).hasSize(PrometheusTextParser.MAX_PROBLEMS);
        assertThat(scrape.samples().size() + scrape.skippedLines()).isLessThanOrEqualTo(lines);
        assertThat(scrape.skippedLines()).isGreaterThan((int) (lines * 0.9));
    }

    @Example
    void aFiftyMegabyteLineIsSkippedUnread() {
        String body = "up 1\nhuge{a=\"" + "x".repeat(50 * 1024 * 1024) + "\"} 1\nup 2\n";

        Scrape scrape = PrometheusTextParser.parse(body);

        assertThat(scrape.samples()).extracting(Sample::value).containsExactly(1.0, 2.0);
        assertThat(scrape.problems()).containsExactly("line 2, longer than 65536 characters");
    }
}
