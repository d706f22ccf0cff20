package dev.jvmtuning.lab.workload;

import java.util.ArrayList;
import java.util.List;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.stereotype.Component;

/**
 * Long-lived heap data (lab.live-set-mb MiB, env LAB_LIVE_SET_MB) held for the life of the
 * process, so that heap sizing matters when the container's memory is limited.
 */
@Component
public class LiveSet {

    private static final int CHUNK_BYTES = 64 * 1024;

    /** Never read: holding the reference is the point. */
    private final List<byte[]> chunks;

    public LiveSet(@Value("${lab.live-set-mb:0}") int liveSetMb) {
        if (liveSetMb < 0) {
            throw new IllegalArgumentException("lab.live-set-mb must be >= 0, got " + liveSetMb);
        }
        int count = liveSetMb * (1024 * 1024 / CHUNK_BYTES);
        chunks = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            byte[] chunk = new byte[CHUNK_BYTES];
            chunk[i % CHUNK_BYTES] = (byte) i; // not all zero, in case anything ever dedups pages
            chunks.add(chunk);
        }
    }
}
