package dev.jvmtuning.operator.cli;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;
import picocli.CommandLine.IVersionProvider;

/** The project's version, written into the classpath by the build: what {@code --version} prints for every verb. */
final class VersionProvider implements IVersionProvider {
    @Override
    public String[] getVersion() throws IOException {
        Properties properties = new Properties();
        try (InputStream in = VersionProvider.class.getResourceAsStream("kubectl-tp.properties")) {
            if (in != null) {
                properties.load(in);
            }
        }
        return new String[] {"kubectl-tp " + properties.getProperty("version", "unknown")};
    }
}
