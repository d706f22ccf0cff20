package dev.jvmtuning.lab.workload;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.reflect.Field;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.OptionalLong;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.locks.LockSupport;
import java.util.zip.Deflater;

/**
 * A steady demand on one part of the JVM's memory: it grows evenly to its size over a ramp, then holds there. A leak would
 * grow without bound, which no memory budget answers; a demand of a fixed size kills the pod under a budget too small for it
 * and holds under one large enough, so the same load tells both apart. The ramp lets a metrics poll see the part grow before
 * the kernel's kill.
 */
public final class MemoryDemand {

    /** The part of memory the demand takes. */
    public enum Kind {
        /** Platform threads, each with its whole stack touched. */
        THREADS,
        /** Native memory taken as Netty's cleaner-less buffers take it: no buffer pool shows it and MaxDirectMemorySize does not cap it. */
        DIRECT,
        /** Classes, each defined in a class loader of its own and all kept reachable: a class-loader leak. */
        METASPACE,
        /** zlib's native buffers: Deflaters used once and never ended. */
        MALLOC,
        /** Live objects on the heap. */
        HEAP;

        static Kind named(String name) {
            return valueOf(name.trim().toUpperCase(Locale.ROOT));
        }
    }

    /** What one kind holds and how it takes one more step of memory. */
    interface Part {
        /** Bytes held so far. */
        long held();

        /** Takes one more step of memory. */
        void grow();
    }

    static final int MI = 1024 * 1024;

    private final Part part;
    private final long targetBytes;
    private final double rampSeconds;

    MemoryDemand(Part part, long targetBytes, double rampSeconds) {
        if (targetBytes < 0 || rampSeconds < 0) {
            throw new IllegalArgumentException("a demand's size and ramp must be >= 0, got " + targetBytes + " bytes over " + rampSeconds + " s");
        }
        this.part = part;
        this.targetBytes = targetBytes;
        this.rampSeconds = rampSeconds;
    }

    /** A demand of the given kind and size in MiB, reached evenly over the ramp. */
    public static MemoryDemand of(String kind, long mebibytes, double rampSeconds) {
        Part part = switch (Kind.named(kind)) {
            case THREADS -> new Threads();
            case DIRECT -> new Direct();
            case METASPACE -> new Metaspace();
            case MALLOC -> new Malloc();
            case HEAP -> new Heap();
        };
        return new MemoryDemand(part, mebibytes * MI, rampSeconds);
    }

    /** What the demand is due to hold this many seconds after it started: a straight line to its size. */
    long due(double elapsedSeconds) {
        if (rampSeconds == 0 || elapsedSeconds >= rampSeconds) {
            return targetBytes;
        }
        return (long) (targetBytes * Math.max(0, elapsedSeconds) / rampSeconds);
    }

    /** Grows the part to what is due by now, never further: at most one step past the line. */
    void growTo(double elapsedSeconds) {
        long due = due(elapsedSeconds);
        while (part.held() < due) {
            part.grow();
        }
    }

    long held() {
        return part.held();
    }

    boolean reached() {
        return part.held() >= targetBytes;
    }

    long targetBytes() {
        return targetBytes;
    }

    /** Each thread recurses until its stack overflows, so its whole stack (-Xss) is touched, then parks there for good. */
    static final class Threads implements Part {
        private final long stackBytes = threadStackBytes();
        private int started;

        @Override
        public long held() {
            return started * stackBytes;
        }

        @Override
        public void grow() {
            CountDownLatch touched = new CountDownLatch(1);
            Thread thread = new Thread(() -> {
                try {
                    descend(0);
                } catch (StackOverflowError expected) {
                    // the whole stack is touched now
                }
                touched.countDown();
                while (true) {
                    LockSupport.park();
                }
            }, "memory-demand-" + started);
            thread.setDaemon(true);
            thread.start();
            try {
                touched.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while a demand thread touched its stack", e);
            }
            started++;
        }

        private static long descend(long depth) {
            return descend(depth + 1) + 1;
        }

        /** -Xss as the JVM runs with it (ThreadStackSize, in KiB). */
        private static long threadStackBytes() {
            var diagnostics = ManagementFactory.getPlatformMXBean(com.sun.management.HotSpotDiagnosticMXBean.class);
            return Long.parseLong(diagnostics.getVMOption("ThreadStackSize").getValue()) * 1024;
        }
    }

    /** Memory from Unsafe.allocateMemory in MiB steps, written so it is resident; native memory tracking counts it under Other. */
    static final class Direct implements Part {
        private static final sun.misc.Unsafe UNSAFE = unsafe();
        private final List<Long> addresses = new ArrayList<>();

        @Override
        public long held() {
            return (long) addresses.size() * MI;
        }

        @Override
        public void grow() {
            long address = UNSAFE.allocateMemory(MI);
            UNSAFE.setMemory(address, MI, (byte) 1);
            addresses.add(address);
        }

        private static sun.misc.Unsafe unsafe() {
            try {
                Field field = sun.misc.Unsafe.class.getDeclaredField("theUnsafe");
                field.setAccessible(true);
                return (sun.misc.Unsafe) field.get(null);
            } catch (ReflectiveOperationException e) {
                throw new IllegalStateException("sun.misc.Unsafe is not available", e);
            }
        }
    }

    /** Classes of 1000 methods each, every one in a loader of its own, the loaders kept: held is the Metaspace pool's growth. */
    static final class Metaspace implements Part {
        private static final byte[] CLASS_FILE = FillerClass.bytes(1000, 255);
        private final MemoryPoolMXBean pool = ManagementFactory.getMemoryPoolMXBeans().stream()
                .filter(p -> p.getName().equals("Metaspace")).findFirst().orElseThrow();
        private final long before = pool.getUsage().getUsed();
        private final List<Class<?>> classes = new ArrayList<>();

        @Override
        public long held() {
            return Math.max(0, pool.getUsage().getUsed() - before);
        }

        @Override
        public void grow() {
            classes.add(new FillerLoader().define(CLASS_FILE));
        }

        private static final class FillerLoader extends ClassLoader {
            FillerLoader() {
                super(null);
            }

            Class<?> define(byte[] classFile) {
                return defineClass(FillerClass.NAME.replace('/', '.'), classFile, 0, classFile.length);
            }
        }
    }

    /**
     * Deflaters that compressed 64 KiB once and were never ended: zlib keeps its window, hash chains and pending buffer,
     * malloc'd outside the JVM's account. What they hold depends on the zlib and malloc the image carries, and a count times
     * a size measured once overstated it on the node by a third, so the demand is what the resident set grew by since it
     * started, read after each Deflater (300 KiB each where /proc cannot be read).
     */
    static final class Malloc implements Part {
        static final long ASSUMED_DEFLATER_BYTES = 300 * 1024;
        private static final Path STATM = Path.of("/proc/self/statm");
        private static final long PAGE_BYTES = 4096;
        private final byte[] input = new byte[64 * 1024];
        private final byte[] output = new byte[128 * 1024];
        private final List<Deflater> deflaters = new ArrayList<>();
        private final OptionalLong residentAtStart;
        private long held;

        Malloc() {
            new Random(1).nextBytes(input); // incompressible, so every buffer is written
            residentAtStart = resident();
        }

        private static OptionalLong resident() {
            try {
                return OptionalLong.of(Long.parseLong(Files.readString(STATM).trim().split("\\s+")[1]) * PAGE_BYTES);
            } catch (IOException | RuntimeException e) {
                return OptionalLong.empty();
            }
        }

        @Override
        public long held() {
            return held;
        }

        @Override
        public void grow() {
            Deflater deflater = new Deflater();
            deflater.setInput(input);
            deflater.deflate(output, 0, output.length, Deflater.SYNC_FLUSH);
            deflaters.add(deflater);
            OptionalLong now = resident();
            long grown = residentAtStart.isPresent() && now.isPresent() ? now.getAsLong() - residentAtStart.getAsLong()
                    : deflaters.size() * ASSUMED_DEFLATER_BYTES;
            held = Math.max(held, grown); // the high-water mark: a page the JVM gave back elsewhere is no demand given up
        }
    }

    /** byte[] of 1 MiB, written so the heap's pages are touched, all kept. */
    static final class Heap implements Part {
        private final List<byte[]> chunks = new ArrayList<>();

        @Override
        public long held() {
            return (long) chunks.size() * MI;
        }

        @Override
        public void grow() {
            byte[] chunk = new byte[MI];
            for (int i = 0; i < chunk.length; i += 4096) {
                chunk[i] = 1;
            }
            chunks.add(chunk);
        }
    }
}
