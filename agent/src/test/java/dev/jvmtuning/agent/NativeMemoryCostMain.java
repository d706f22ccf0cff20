package dev.jvmtuning.agent;

import java.lang.reflect.Field;
import java.nio.file.Files;
import java.nio.file.Path;
import sun.misc.Unsafe;

/**
 * Mallocs and frees small native blocks for a second, the allocation native memory tracking adds a header and
 * counters to, while a list of Java objects churns, and prints the rate and the process's resident set.
 */
public final class NativeMemoryCostMain {

    private NativeMemoryCostMain() {}

    public static void main(String[] args) throws Exception {
        Field field = Unsafe.class.getDeclaredField("theUnsafe");
        field.setAccessible(true);
        Unsafe unsafe = (Unsafe) field.get(null);
        long[] blocks = new long[1024];
        Object[] objects = new Object[1024];
        long operations = 0;
        long end = System.nanoTime() + 1_000_000_000L;
        while (System.nanoTime() < end) {
            for (int i = 0; i < blocks.length; i++) {
                if (blocks[i] != 0) {
                    unsafe.freeMemory(blocks[i]);
                }
                blocks[i] = unsafe.allocateMemory(64 + (i & 255));
                objects[i] = new byte[64 + (i & 255)];
            }
            operations += blocks.length;
        }
        String rss = Files.readAllLines(Path.of("/proc/self/status")).stream().filter(l -> l.startsWith("VmRSS:"))
                .findFirst().orElse("VmRSS: ? kB").replaceAll("\\s+", " ");
        System.out.println(operations + " " + rss + " " + objects.length);
    }
}
