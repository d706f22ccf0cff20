package dev.jvmtuning.operator.testing;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.Tag;

/**
 * A test that starts processes: a kube-apiserver, JVMs, Prometheus, helm. `./mvnw test -Pfast` leaves
 * these out and runs in seconds; `-Pslow` runs only these. StartsProcessesTagTest keeps the tag honest.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Tag(StartsProcesses.TAG)
public @interface StartsProcesses {
    String TAG = "starts-processes";
}
