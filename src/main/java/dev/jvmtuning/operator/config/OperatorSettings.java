package dev.jvmtuning.operator.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;

/**
 * The operator's own settings (application.properties or JVM_TUNING_* environment variables).
 * Watched namespaces are QOSDK's: quarkus.operator-sdk.controllers.tuningprofile.namespaces.
 */
@ConfigMapping(prefix = "jvm-tuning")
public interface OperatorSettings {

    /** How often every profile is reconciled even when nothing changed, to catch drift. */
    @WithDefault("5m")
    Duration resyncPeriod();
}
