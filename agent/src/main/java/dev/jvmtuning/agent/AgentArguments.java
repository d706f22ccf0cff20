package dev.jvmtuning.agent;

import java.time.Duration;
import java.util.Optional;

/**
 * The -javaagent options, "port=9404,host=0.0.0.0,pinnedThreshold=20ms"; port 0 lets the kernel pick a free port.
 * pinnedThreshold is the shortest virtual-thread pinning counted, or "off" (the default) to record none and leave the
 * JVM's flight recorder unstarted: its buffers cost tens of MiB, worth it only where requests run on virtual threads.
 */
record AgentArguments(String host, int port, Optional<Duration> pinnedThreshold) {

    static final String DEFAULT_HOST = "0.0.0.0";
    static final int DEFAULT_PORT = 9404;

    static AgentArguments parse(String arguments) {
        String host = DEFAULT_HOST;
        int port = DEFAULT_PORT;
        Optional<Duration> pinnedThreshold = Optional.empty();
        if (arguments == null || arguments.isBlank()) {
            return new AgentArguments(host, port, pinnedThreshold);
        }
        for (String option : arguments.split(",")) {
            String[] keyValue = option.split("=", 2);
            if (keyValue.length != 2) {
                throw new IllegalArgumentException("expected key=value, got '" + option + "'");
            }
            String key = keyValue[0].trim();
            String value = keyValue[1].trim();
            switch (key) {
                case "host" -> host = value;
                case "port" -> port = parsePort(value);
                case "pinnedThreshold" -> pinnedThreshold = parseThreshold(value);
                default -> throw new IllegalArgumentException("unknown option '" + key + "'");
            }
        }
        return new AgentArguments(host, port, pinnedThreshold);
    }

    private static int parsePort(String value) {
        int port;
        try {
            port = Integer.parseInt(value);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("port must be a number, got '" + value + "'");
        }
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("port must be between 0 and 65535, got " + port);
        }
        return port;
    }

    /** Milliseconds, as JFR writes its thresholds ("20ms"), or "off". */
    private static Optional<Duration> parseThreshold(String value) {
        if (value.equals("off")) {
            return Optional.empty();
        }
        if (!value.matches("\\d{1,9}ms")) {
            throw new IllegalArgumentException("pinnedThreshold must be milliseconds like 20ms, or off, got '" + value + "'");
        }
        return Optional.of(Duration.ofMillis(Long.parseLong(value.substring(0, value.length() - 2))));
    }
}
