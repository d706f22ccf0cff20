package dev.jvmtuning.lab.work;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.LongSupplier;
import javax.sql.DataSource;

/**
 * One request of GET /work, the same on every runtime's workload app (each compiles this source root in):
 * costs in the order allocation, CPU, database, sleep, all chosen by the caller and all defaulting to nothing.
 */
public final class Work {

    private static final long MAX_MS = 60_000;
    private static final long MAX_ALLOC_KB = 1024 * 1024; // 1 GiB
    private static final int ALLOC_CHUNK_BYTES = 8 * 1024;

    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    private final DataSource dataSource;

    public Work(DataSource dataSource) {
        if (!THREADS.isCurrentThreadCpuTimeSupported() || !THREADS.isThreadCpuTimeEnabled()) {
            throw new IllegalStateException("this JVM cannot measure thread CPU time; cpuMs would spin forever");
        }
        this.dataSource = dataSource;
    }

    /**
     * @param sleepMaxMs null: sleepMinMs, so {@code sleepMinMs=100} alone sleeps exactly 100 ms
     * @param dbMs       null: no database access; present (even 0): SELECT 1, then hold the connection dbMs
     * @return the answer's status and text
     */
    public Answer run(long sleepMinMs, Long sleepMaxMs, long cpuMs, long allocKb, Long dbMs) throws InterruptedException, SQLException {
        long sleepMax = sleepMaxMs == null ? sleepMinMs : sleepMaxMs;
        String invalid = firstNonNull(
                outOfRange("sleepMinMs", sleepMinMs, MAX_MS),
                outOfRange("sleepMaxMs", sleepMax, MAX_MS),
                sleepMax < sleepMinMs ? "sleepMaxMs (" + sleepMax + ") must be >= sleepMinMs (" + sleepMinMs + ")" : null,
                outOfRange("cpuMs", cpuMs, MAX_MS),
                outOfRange("allocKb", allocKb, MAX_ALLOC_KB),
                dbMs == null ? null : outOfRange("dbMs", dbMs, MAX_MS));
        if (invalid != null) {
            return new Answer(400, invalid);
        }

        // 1. Garbage that stays reachable until the response is built (read back at the end).
        List<byte[]> garbage = allocate(allocKb);
        // 2. CPU time of this very thread, independent of how many other threads compete.
        long checksum = burnCpu(cpuMs);
        // 3. A "slow query": the pooled connection is held for dbMs.
        if (dbMs != null) {
            checksum += holdConnection(dbMs);
        }
        // 4. Blocking time, e.g. a downstream call.
        if (sleepMax > 0) {
            Thread.sleep(ThreadLocalRandom.current().nextLong(sleepMinMs, sleepMax + 1));
        }
        for (byte[] chunk : garbage) {
            checksum += chunk[0];
        }
        return new Answer(200, "ok " + checksum + "\n");
    }

    public record Answer(int status, String text) {
    }

    private static List<byte[]> allocate(long allocKb) {
        int count = (int) ((allocKb * 1024 + ALLOC_CHUNK_BYTES - 1) / ALLOC_CHUNK_BYTES);
        List<byte[]> chunks = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            byte[] chunk = new byte[ALLOC_CHUNK_BYTES];
            // Written and later read, so escape analysis cannot drop the allocation.
            chunk[0] = (byte) i;
            chunk[ALLOC_CHUNK_BYTES / 2] = (byte) i;
            chunk[ALLOC_CHUNK_BYTES - 1] = (byte) i;
            chunks.add(chunk);
        }
        return chunks;
    }

    private static long burnCpu(long cpuMs) {
        if (cpuMs == 0) {
            return 0;
        }
        // A virtual thread has no CPU clock of its own (the MXBean says -1, and the loop never reached the deadline): wall
        // time then, which is CPU time while it runs alone on its carrier.
        LongSupplier clock = THREADS.getCurrentThreadCpuTime() >= 0 ? THREADS::getCurrentThreadCpuTime : System::nanoTime;
        long deadline = clock.getAsLong() + cpuMs * 1_000_000L;
        long x = System.nanoTime() | 1; // a seed the JIT cannot constant-fold
        do {
            // xorshift64: real arithmetic whose result feeds the response, so the loop stays.
            // ~10k rounds (tens of microseconds) between the comparatively costly clock reads.
            for (int i = 0; i < 10_000; i++) {
                x ^= x << 13;
                x ^= x >>> 7;
                x ^= x << 17;
            }
        } while (clock.getAsLong() < deadline);
        return x & 0xFFFF;
    }

    private long holdConnection(long holdMs) throws SQLException, InterruptedException {
        try (Connection connection = dataSource.getConnection();
             Statement statement = connection.createStatement();
             ResultSet result = statement.executeQuery("SELECT 1")) {
            result.next();
            Thread.sleep(holdMs);
            return result.getInt(1);
        }
    }

    private static String outOfRange(String name, long value, long max) {
        return value < 0 || value > max ? name + " must be between 0 and " + max + ", got " + value : null;
    }

    private static String firstNonNull(String... messages) {
        for (String message : messages) {
            if (message != null) {
                return message;
            }
        }
        return null;
    }
}
