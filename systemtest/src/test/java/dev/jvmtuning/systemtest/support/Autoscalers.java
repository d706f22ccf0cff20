package dev.jvmtuning.systemtest.support;

import java.util.List;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * The other controllers a production cluster runs beside the operator, by deploy/local/autoscalers.sh: metrics-server and the
 * Vertical Pod Autoscaler (recommender, updater, admission controller). A check that needs them brings them up; the checks
 * that do share them, and they go once the run's checks are done, whatever their verdicts: the demo's cluster runs
 * without them. A check registers one as an instance field
 * ({@code @RegisterExtension}).
 */
public final class Autoscalers implements BeforeEachCallback {

    private static final ExtensionContext.Namespace STORE = ExtensionContext.Namespace.create(Autoscalers.class);
    /** An image built the first time, four rollouts of up to 180 s each, then the metrics API and the webhook. */
    private static final int UP_SECONDS = 1200;
    private static final int DOWN_SECONDS = 300;

    private ExtensionContext.Store run;

    @Override
    public void beforeEach(ExtensionContext context) {
        run = context.getRoot().getStore(STORE);
    }

    /**
     * autoscalers.sh up: returns once the metrics API answers and every component is Ready. From its start on they are
     * taken down at the end of the run (once, whichever checks brought them up).
     */
    public void up() {
        run.put(Autoscalers.class, (AutoCloseable) Autoscalers::down);
        System.out.print(Command.run(UP_SECONDS, List.of("deploy/local/autoscalers.sh", "up")));
    }

    /** autoscalers.sh down, the webhook first: left behind, it would hold every pod's admission for its timeout. */
    private static void down() {
        try {
            Command.run(DOWN_SECONDS, List.of("deploy/local/autoscalers.sh", "down"));
        } catch (AssertionError e) {
            System.err.println("could not take the autoscalers down (deploy/local/autoscalers.sh down): " + e.getMessage());
        }
    }
}
