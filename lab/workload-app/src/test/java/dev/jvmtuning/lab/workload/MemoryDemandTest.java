package dev.jvmtuning.lab.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Method;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

class MemoryDemandTest {
    private static final long MI = MemoryDemand.MI;

    /** Counts its steps of one MiB each. */
    private static final class Steps implements MemoryDemand.Part {
        long steps;

        @Override
        public long held() {
            return steps * MI;
        }

        @Override
        public void grow() {
            steps++;
        }
    }

    @Test
    void growsAlongAStraightLineToItsSizeThenHolds() {
        Steps steps = new Steps();
        MemoryDemand demand = new MemoryDemand(steps, 120 * MI, 60);
        for (int second = 1; second <= 90; second++) {
            demand.growTo(second);
            long due = Math.min(120, 2L * second) * MI;
            assertTrue(demand.held() >= due && demand.held() < due + MI, "at " + second + " s: " + demand.held() + " for " + due);
        }
        assertEquals(120, steps.steps, "held at its size after the ramp, not grown past it");
        assertTrue(demand.reached());
    }

    @Test
    void withoutARampTheWholeSizeIsDueAtOnce() {
        assertEquals(8 * MI, new MemoryDemand(new Steps(), 8 * MI, 0).due(0));
        assertThrows(IllegalArgumentException.class, () -> new MemoryDemand(new Steps(), -1, 60));
        assertThrows(IllegalArgumentException.class, () -> MemoryDemand.of("leaky", 8, 60));
    }

    /** Each part really takes its memory in steps and stops at its size: small sizes, far from any limit. */
    @ParameterizedTest(name = "{0}: {1} MiB")
    @CsvSource({"heap, 4", "direct, 4", "malloc, 8", "metaspace, 2", "threads, 3"})
    void eachPartHoldsItsSizeOnceTheRampIsOver(String kind, long mebibytes) {
        MemoryDemand demand = MemoryDemand.of(kind, mebibytes, 10);
        demand.growTo(5);
        long halfway = demand.held();
        assertTrue(halfway >= mebibytes * MI / 2 && halfway < mebibytes * MI, kind + " halfway: " + halfway);
        demand.growTo(10);
        long atSize = demand.held();
        assertTrue(demand.reached(), kind + " at the end of the ramp: " + atSize);
        demand.growTo(20);
        assertEquals(atSize, demand.held(), kind + " held, not grown past its size");
    }

    @Test
    void theFillerClassIsOneTheJvmLinksAndRuns() throws Exception {
        byte[] classFile = FillerClass.bytes(3, 10);
        Class<?> filler = new ClassLoader(null) {
            Class<?> define() {
                return defineClass(FillerClass.NAME.replace('/', '.'), classFile, 0, classFile.length);
            }
        }.define();
        Method last = filler.getMethod("m2");
        last.invoke(null);
        assertEquals(3, filler.getDeclaredMethods().length);
    }
}
