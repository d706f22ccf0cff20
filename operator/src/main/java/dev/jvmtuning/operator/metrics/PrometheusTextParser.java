package dev.jvmtuning.operator.metrics;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * Reads the Prometheus text exposition format 0.0.4 and the OpenMetrics 1.0 text format, as written by
 * Micrometer (Spring Boot actuator, Quarkus), the Prometheus Java client and the JMX exporter. The
 * Prometheus Java client only ships writers.
 *
 * <p>Every sample line becomes a {@link Sample} with its name as written (histogram and summary series
 * keep their _bucket, _sum, _count and _created names and their le and quantile labels). Comments,
 * metadata and blank lines are skipped silently; a malformed line is skipped and counted, and the first
 * {@value #MAX_PROBLEMS} are described. It never throws for a non-null body, and holds nothing beyond
 * the samples it returns.
 */
public final class PrometheusTextParser {
    /** Longer lines are skipped unread: no real series comes near, and it bounds what one line can cost. */
    static final int MAX_LINE_CHARS = 64 * 1024;
    static final int MAX_PROBLEMS = 10;

    private final String body;
    private final boolean openMetrics;
    private final Predicate<String> keep;
    private final int maxSamples;
    /** The cursor and the end of the line being read (its '\n' and any '\r' before it excluded). */
    private int pos;
    private int lineEnd;

    private PrometheusTextParser(String body, Predicate<String> keep, int maxSamples) {
        this.body = body;
        this.openMetrics = endsWithEof(body);
        this.keep = keep;
        this.maxSamples = maxSamples;
    }

    public static Scrape parse(String body) {
        return parse(body, name -> true, Integer.MAX_VALUE);
    }

    /**
     * Keeps only the samples whose name {@code keep} accepts, at most {@code maxSamples} of them: what a
     * body of many tiny lines can cost is bounded by what the caller uses, not by what the pod sends.
     * Lines of other series are passed over unparsed; past the cap, reading stops and says so.
     */
    public static Scrape parse(String body, Predicate<String> keep, int maxSamples) {
        return new PrometheusTextParser(body, keep, maxSamples).readAll();
    }

    private Scrape readAll() {
        List<Sample> samples = new ArrayList<>();
        List<String> problems = new ArrayList<>();
        int skippedLines = 0;
        int lineNumber = 0;
        int lineStart = 0;
        while (lineStart < body.length()) {
            lineNumber++;
            int newline = body.indexOf('\n', lineStart);
            int next = newline < 0 ? body.length() : newline + 1;
            lineEnd = newline < 0 ? body.length() : newline;
            if (lineEnd > lineStart && body.charAt(lineEnd - 1) == '\r') {
                lineEnd--;
            }
            pos = lineStart;
            skipBlanks();
            if (pos < lineEnd && body.charAt(pos) != '#') {
                if (lineEnd - lineStart > MAX_LINE_CHARS) {
                    skippedLines++;
                    if (problems.size() < MAX_PROBLEMS) {
                        problems.add("line " + lineNumber + ", longer than " + MAX_LINE_CHARS + " characters");
                    }
                } else if (keep.test(name()) || !isMetricName(name())) {
                    if (samples.size() >= maxSamples) {
                        problems.add("more than " + maxSamples + " samples of the series read; the rest of the body was not read");
                        break;
                    }
                    try {
                        samples.add(readSample());
                    } catch (MalformedLine e) {
                        skippedLines++;
                        if (problems.size() < MAX_PROBLEMS) {
                            problems.add("line " + lineNumber + ", column " + (e.index - lineStart + 1) + ": "
                                    + e.getMessage());
                        }
                    }
                }
            }
            lineStart = next;
        }
        return new Scrape(samples, skippedLines, problems);
    }

    /** The metric name at the cursor, without moving it: up to the label set, a blank or the line's end. */
    private String name() {
        int end = pos;
        while (end < lineEnd && body.charAt(end) != '{' && body.charAt(end) != ' ' && body.charAt(end) != '\t') {
            end++;
        }
        return body.substring(pos, end);
    }

    /**
     * Whether {@link #parse(String, Predicate, int)} with this {@code keep} would read a line: a sample of
     * a kept series, a line to report as malformed, or the OpenMetrics end. A reader can drop the
     * others before they are ever held as a body.
     */
    static boolean worthReading(String line, Predicate<String> keep) {
        int start = 0;
        while (start < line.length() && isBlank(line.charAt(start))) {
            start++;
        }
        if (start == line.length() || line.charAt(start) == '\r') {
            return false;
        }
        if (line.charAt(start) == '#') {
            return line.startsWith("# EOF", start);
        }
        int end = start;
        while (end < line.length() && line.charAt(end) != '{' && !isBlank(line.charAt(end))) {
            end++;
        }
        String name = line.substring(start, end);
        return keep.test(name) || !isMetricName(name);
    }

    /** Whether a line starts like a sample; one that does not is read, to be reported as malformed. */
    private static boolean isMetricName(String name) {
        if (name.isEmpty() || Character.isDigit(name.charAt(0))) {
            return false;
        }
        return name.chars().allMatch(c -> c == '_' || c == ':' || (c < 128 && Character.isLetterOrDigit(c)));
    }

    /** OpenMetrics bodies, and only they, end with "# EOF": it tells seconds timestamps from milliseconds. */
    private static boolean endsWithEof(String body) {
        int end = body.length();
        while (end > 0 && Character.isWhitespace(body.charAt(end - 1))) {
            end--;
        }
        int start = end - "# EOF".length();
        return body.startsWith("# EOF", start) && (start == 0 || body.charAt(start - 1) == '\n');
    }

    /** name{labels} value [timestamp] [# exemplar], or {"utf-8.name",labels} … as newer clients quote names. */
    private Sample readSample() throws MalformedLine {
        String name = at('{') ? null : readName(true);
        if (pos < lineEnd && !isBlank(body.charAt(pos)) && !at('{')) {
            throw malformed("invalid character in metric name");
        }
        skipBlanks();
        Map<String, String> labels = new HashMap<>();
        if (at('{')) {
            String quotedName = readLabelSet(labels, name == null);
            name = name == null ? quotedName : name;
        }
        if (name == null) {
            throw malformed("missing metric name");
        }
        skipBlanks();
        int valueStart = pos;
        double value = parseFloat(valueStart, tokenEnd(), "missing value", "invalid value");
        skipBlanks();
        Long timestampMillis = atEndOrExemplar() ? null : readTimestampMillis();
        skipBlanks();
        if (!atEndOrExemplar()) {
            throw malformed("unexpected text after the timestamp");
        }
        return new Sample(name, labels, value, timestampMillis);
    }

    /** Reads {…} into labels, returning the metric name if the set carries it quoted as its first item. */
    private String readLabelSet(Map<String, String> labels, boolean nameMayBeInside) throws MalformedLine {
        String quotedName = null;
        pos++;
        skipBlanks();
        while (!at('}')) {
            int itemStart = pos;
            boolean quoted = at('"');
            String key = quoted ? readQuoted() : readName(false);
            skipBlanks();
            if (at('=')) {
                pos++;
                skipBlanks();
                if (!at('"')) {
                    throw malformed("expected '\"' to open the label value");
                }
                if (labels.put(key, readQuoted()) != null) {
                    throw new MalformedLine("duplicate label name", itemStart);
                }
            } else if (quoted && nameMayBeInside && quotedName == null && labels.isEmpty()) {
                quotedName = key;
            } else {
                throw malformed("expected '=' after the label name");
            }
            skipBlanks();
            if (at(',')) {
                // A comma before '}' is tolerated: old clients emit one.
                pos++;
                skipBlanks();
            } else if (!at('}')) {
                throw malformed("expected ',' or '}' after the label");
            }
        }
        pos++;
        return quotedName;
    }

    /** A metric name [a-zA-Z_:][a-zA-Z0-9_:]* or a label name [a-zA-Z_][a-zA-Z0-9_]*. */
    private String readName(boolean metric) throws MalformedLine {
        int start = pos;
        while (pos < lineEnd) {
            char c = body.charAt(pos);
            boolean allowed = c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_'
                    || (c >= '0' && c <= '9' && pos > start) || (c == ':' && metric);
            if (!allowed) {
                break;
            }
            pos++;
        }
        if (pos == start) {
            throw malformed(metric ? "expected a metric name" : "expected a label name");
        }
        return body.substring(start, pos);
    }

    /** A double-quoted string with the escapes \\, \" and \n; the cursor is on its opening quote. */
    private String readQuoted() throws MalformedLine {
        int open = pos++;
        int start = pos;
        // Most values have no escape: they are one substring of the body.
        while (pos < lineEnd) {
            char c = body.charAt(pos);
            if (c == '"') {
                return body.substring(start, pos++);
            }
            if (c == '\\') {
                return readEscapedRest(open, start);
            }
            pos++;
        }
        throw new MalformedLine("unterminated quoted string", open);
    }

    private String readEscapedRest(int open, int start) throws MalformedLine {
        StringBuilder value = new StringBuilder().append(body, start, pos);
        while (pos < lineEnd) {
            char c = body.charAt(pos++);
            if (c == '"') {
                return value.toString();
            }
            if (c == '\\' && pos < lineEnd) {
                char escaped = body.charAt(pos++);
                switch (escaped) {
                    case 'n' -> value.append('\n');
                    case '\\', '"' -> value.append(escaped);
                    // Prometheus keeps any other escape as written; so do we.
                    default -> value.append('\\').append(escaped);
                }
            } else {
                value.append(c);
            }
        }
        throw new MalformedLine("unterminated quoted string", open);
    }

    /**
     * 0.0.4 timestamps are integer milliseconds, OpenMetrics ones are seconds with a fraction. A fraction or
     * exponent in a 0.0.4 body can only be seconds (old clients wrote them), so it is read as such.
     */
    private Long readTimestampMillis() throws MalformedLine {
        int start = pos;
        int end = tokenEnd();
        if (!openMetrics && isInteger(start, end)) {
            try {
                return Long.parseLong(body, start, end, 10);
            } catch (NumberFormatException e) {
                throw new MalformedLine("timestamp out of range", start);
            }
        }
        double millis = parseFloat(start, end, "missing timestamp", "invalid timestamp") * 1000;
        // A long holds less than 2^63 in magnitude; NaN fails the comparison too.
        if (!(Math.abs(millis) < 0x1p63)) {
            throw new MalformedLine("timestamp out of range", start);
        }
        return Math.round(millis);
    }

    /**
     * A Go ParseFloat number as Prometheus writes and reads it: decimal with optional exponent, or NaN,
     * Inf, +Inf, -Inf (and Infinity), case-insensitive. Java's parser alone would reject "+Inf" and
     * accept what Go rejects ("1d", "0x1p3", surrounding spaces), hence the checks before it.
     */
    private double parseFloat(int start, int end, String missing, String invalid) throws MalformedLine {
        if (start == end) {
            throw new MalformedLine(missing, start);
        }
        char sign = body.charAt(start);
        int unsigned = sign == '+' || sign == '-' ? start + 1 : start;
        if (isWord(unsigned, end, "inf") || isWord(unsigned, end, "infinity")) {
            return sign == '-' ? Double.NEGATIVE_INFINITY : Double.POSITIVE_INFINITY;
        }
        if (isWord(start, end, "nan")) {
            return Double.NaN;
        }
        boolean digit = false;
        for (int i = start; i < end; i++) {
            char c = body.charAt(i);
            digit |= c >= '0' && c <= '9';
            if (!(c >= '0' && c <= '9' || c == '.' || c == 'e' || c == 'E' || c == '+' || c == '-')) {
                throw new MalformedLine(invalid, start);
            }
        }
        if (!digit) {
            throw new MalformedLine(invalid, start);
        }
        try {
            return Double.parseDouble(body.substring(start, end));
        } catch (NumberFormatException e) {
            throw new MalformedLine(invalid, start);
        }
    }

    private boolean isWord(int start, int end, String word) {
        return end - start == word.length() && body.regionMatches(true, start, word, 0, word.length());
    }

    private boolean isInteger(int start, int end) {
        int digits = start < end && (body.charAt(start) == '-' || body.charAt(start) == '+') ? start + 1 : start;
        if (digits == end) {
            return false;
        }
        for (int i = digits; i < end; i++) {
            if (body.charAt(i) < '0' || body.charAt(i) > '9') {
                return false;
            }
        }
        return true;
    }

    /** Moves past a value or timestamp token, returning its end. */
    private int tokenEnd() {
        while (pos < lineEnd && !isBlank(body.charAt(pos))) {
            pos++;
        }
        return pos;
    }

    /** At the end of the line or at an OpenMetrics exemplar (" # {…} value"), which the operator has no use for. */
    private boolean atEndOrExemplar() {
        return pos == lineEnd || at('#');
    }

    private boolean at(char c) {
        return pos < lineEnd && body.charAt(pos) == c;
    }

    private void skipBlanks() {
        while (pos < lineEnd && isBlank(body.charAt(pos))) {
            pos++;
        }
    }

    private static boolean isBlank(char c) {
        return c == ' ' || c == '\t';
    }

    private MalformedLine malformed(String reason) {
        return new MalformedLine(reason, pos);
    }

    /** Why a line was skipped and where; without a stack trace, as garbage bodies raise one per line. */
    private static final class MalformedLine extends Exception {
        final int index;

        MalformedLine(String reason, int index) {
            super(reason, null, false, false);
            this.index = index;
        }
    }
}
