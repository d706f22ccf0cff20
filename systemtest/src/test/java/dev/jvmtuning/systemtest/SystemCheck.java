package dev.jvmtuning.systemtest;

import dev.jvmtuning.systemtest.support.CheckReport;
import dev.jvmtuning.systemtest.support.Cluster;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.extension.ExtendWith;

/** A check on the real node: the demo's cluster, and the check's report for e2e.sh. */
@ExtendWith(CheckReport.class)
abstract class SystemCheck {

    protected final Cluster cluster = new Cluster();

    @AfterEach
    void closeTheClient() {
        cluster.close();
    }

    /** A line of the check's evidence, in the run's log. */
    protected static void say(String line) {
        System.out.println(line);
    }
}
