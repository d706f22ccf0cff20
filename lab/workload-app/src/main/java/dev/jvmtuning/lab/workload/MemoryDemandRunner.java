package dev.jvmtuning.lab.workload;

import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.event.EventListener;
import org.springframework.stereotype.Component;

/**
 * Starts the memory demand (env LEAK, LEAK_MIB, LEAK_RAMP_SECONDS) once the service is ready, so the pod is Ready and read
 * before it grows; grows it once a second and says when it holds its size. No LEAK, no demand.
 */
@Component
public class MemoryDemandRunner {
    private static final Logger LOG = LoggerFactory.getLogger(MemoryDemandRunner.class);

    private final String kind;
    private final long mebibytes;
    private final double rampSeconds;

    public MemoryDemandRunner(@Value("${lab.leak.kind:}") String kind, @Value("${lab.leak.mib:0}") long mebibytes,
            @Value("${lab.leak.ramp-seconds:60}") double rampSeconds) {
        this.kind = kind;
        this.mebibytes = mebibytes;
        this.rampSeconds = rampSeconds;
        if (!kind.isBlank()) {
            MemoryDemand.Kind.named(kind); // an unknown kind stops the start, not the demand's thread later
        }
    }

    @EventListener(ApplicationReadyEvent.class)
    public void start() {
        if (kind.isBlank()) {
            return;
        }
        MemoryDemand demand = MemoryDemand.of(kind, mebibytes, rampSeconds);
        Thread thread = new Thread(() -> run(demand), "memory-demand");
        thread.setDaemon(true);
        thread.start();
    }

    private void run(MemoryDemand demand) {
        LOG.info("memory demand {}: {} MiB over {} s", kind, mebibytes, rampSeconds);
        long started = System.nanoTime();
        try {
            while (!demand.reached()) {
                TimeUnit.SECONDS.sleep(1);
                demand.growTo((System.nanoTime() - started) / 1e9);
                LOG.info("memory demand {}: {} MiB", kind, demand.held() / MemoryDemand.MI);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return;
        }
        LOG.info("memory demand {} held at {} MiB", kind, demand.held() / MemoryDemand.MI);
    }
}
