package dev.jvmtuning.agent;

/** The -javaagent options, "port=9404,host=0.0.0.0"; port 0 lets the kernel pick a free port. */
record AgentArguments(String host, int port) {

    static final String DEFAULT_HOST = "0.0.0.0";
    static final int DEFAULT_PORT = 9404;

    static AgentArguments parse(String arguments) {
        String host = DEFAULT_HOST;
        int port = DEFAULT_PORT;
        if (arguments == null || arguments.isBlank()) {
            return new AgentArguments(host, port);
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
                default -> throw new IllegalArgumentException("unknown option '" + key + "'");
            }
        }
        return new AgentArguments(host, port);
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
}
