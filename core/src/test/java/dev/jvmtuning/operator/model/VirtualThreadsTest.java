package dev.jvmtuning.operator.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.jvmtuning.operator.model.VirtualThreads.Pinned;
import dev.jvmtuning.operator.model.VirtualThreads.Pinning;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class VirtualThreadsTest {
    private static final String DAO = "com.example.Dao.load";
    private static final String JNI = "com.example.Native.call";

    private static VirtualThreads reading(Map<String, Pinned> frames) {
        return new VirtualThreads(frames, Map.of());
    }

    @Test
    void aWindowIsWhatEachFrameAddedOnTheCarriersOfTheDefaultScheduler() {
        VirtualThreads before = reading(Map.of(DAO, new Pinned(10, 1.0), "other", new Pinned(2, 0.25)));
        VirtualThreads now = reading(Map.of(DAO, new Pinned(40, 4.0), "other", new Pinned(3, 0.5)));

        // a CPU limit of 1.5 runs the scheduler on 2 carriers, its default parallelism being the JVM's processors
        assertThat(now.since(before, 30, 1.5)).contains(new Pinning(30, 2, Map.of(DAO, new Pinned(30, 3.0), "other", new Pinned(1, 0.25))));
    }

    @Test
    void theSchedulersOwnParallelismWinsOverTheCpus() {
        VirtualThreads now = new VirtualThreads(Map.of("other", new Pinned(1, 1)), Map.of("parallelism", 8.0, "queued", 3.0));

        assertThat(now.since(VirtualThreads.NONE, 10, 2.0).map(Pinning::carriers)).contains(8.0);
    }

    @Test
    void aFrameNamedSinceCountsFromZeroAndOneThatLostItsNameLeavesOtherWithOnlyTheNewPinnings() {
        // JNI pinned 5 times in the window and took DAO's name slot; DAO's 10 earlier pinnings moved to other
        VirtualThreads before = reading(Map.of(DAO, new Pinned(10, 1.0), "other", new Pinned(2, 0.2)));
        VirtualThreads now = reading(Map.of(JNI, new Pinned(2, 0.4), "other", new Pinned(2 + 10 + 3, 0.2 + 1.0 + 0.6)));

        Pinning window = now.since(before, 30, 1.0).orElseThrow();

        assertThat(window.frames().get(JNI)).isEqualTo(new Pinned(2, 0.4));
        assertThat(window.frames().get("other").count()).isEqualTo(3);
        assertThat(window.frames().get("other").seconds()).isCloseTo(0.6, within(1e-9));
        assertThat(window.total().count()).isEqualTo(5);
    }

    @Test
    void aRestartedJvmsCountsAreAllNew() {
        VirtualThreads before = reading(Map.of(DAO, new Pinned(100, 10.0), "other", new Pinned(0, 0)));
        VirtualThreads now = reading(Map.of(DAO, new Pinned(4, 0.5), "other", new Pinned(1, 0.25)));

        assertThat(now.since(before, 30, 1.0)).contains(new Pinning(30, 1, Map.of(DAO, new Pinned(4, 0.5), "other", new Pinned(1, 0.25))));
    }

    @Test
    void withoutPinningSeriesOrCarriersThereIsNoWindow() {
        VirtualThreads schedulerOnly = new VirtualThreads(Map.of(), Map.of("parallelism", 2.0));
        VirtualThreads pinning = reading(Map.of("other", new Pinned(0, 0)));

        assertThat(schedulerOnly.since(schedulerOnly, 30, 2.0)).isEmpty();
        assertThat(pinning.since(pinning, 30, null)).isEqualTo(Optional.empty());
        assertThat(pinning.since(pinning, 0, 2.0)).isEmpty();
    }
}
