package dev.jvmtuning.agent;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jvmtuning.agent.PinnedFrames.Tally;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class PinnedFramesTest {

    private static final long MS = 1_000_000;

    private static Map<String, Tally> byFrame(PinnedFrames frames) {
        return frames.tallies().stream().collect(Collectors.toMap(Tally::frame, Function.identity()));
    }

    @Test
    void beforeAnyPinningOnlyOtherIsThereAtZero() {
        assertThat(new PinnedFrames().tallies()).containsExactly(new Tally(PinnedFrames.OTHER, 0, 0));
    }

    @Test
    void theFirstFramesAreNamedAndTheSixthCountsAsOther() {
        PinnedFrames frames = new PinnedFrames();
        for (int i = 1; i <= 6; i++) {
            frames.record("app.Frame" + i + ".run", 20 * MS);
        }
        frames.record("app.Frame1.run", 30 * MS);

        assertThat(byFrame(frames)).hasSize(PinnedFrames.MAX_FRAMES + 1)
                .containsEntry("app.Frame1.run", new Tally("app.Frame1.run", 2, 50 * MS))
                .containsEntry(PinnedFrames.OTHER, new Tally(PinnedFrames.OTHER, 1, 20 * MS))
                .doesNotContainKey("app.Frame6.run");
    }

    @Test
    void aFrameThatPinsMoreOftenThanANamedOneTakesItsNameAndTheCountsStay() {
        PinnedFrames frames = new PinnedFrames();
        for (int i = 1; i <= 5; i++) {
            frames.record("app.Frame" + i + ".run", MS);
            frames.record("app.Frame" + i + ".run", MS);
        }
        frames.record("app.Frame1.run", MS);
        // app.Hot.run pins a third time: more often than Frame2, the first of the least frequent, which hands its counts to other
        for (int i = 0; i < 3; i++) {
            frames.record("app.Hot.run", 10 * MS);
        }
        frames.record("app.Hot.run", 10 * MS);

        Map<String, Tally> tallies = byFrame(frames);
        assertThat(tallies).doesNotContainKey("app.Frame2.run")
                // named from its third pinning on: the earlier ones stay in other
                .containsEntry("app.Hot.run", new Tally("app.Hot.run", 1, 10 * MS))
                .containsEntry(PinnedFrames.OTHER, new Tally(PinnedFrames.OTHER, 3 + 2, 30 * MS + 2 * MS))
                .containsEntry("app.Frame1.run", new Tally("app.Frame1.run", 3, 3 * MS));
        assertThat(tallies.values().stream().mapToLong(Tally::count).sum()).isEqualTo(2 * 5 + 1 + 4);
    }

    @Test
    void theLabelsStayBoundedAndTheFamilySumsNeverGoDownWhateverTheFrames() {
        PinnedFrames frames = new PinnedFrames();
        Random random = new Random(7);
        long count = 0;
        long nanos = 0;
        for (int i = 0; i < 20_000; i++) {
            // a few hot frames among many rare ones, generated ones included
            String frame = random.nextInt(3) == 0 ? "app.Hot" + random.nextInt(8) + ".run" : "app.Generated" + random.nextInt(5_000) + ".run";
            long pinned = random.nextInt(100) * MS;
            frames.record(frame, pinned);
            count++;
            nanos += pinned;
            List<Tally> tallies = frames.tallies();
            assertThat(tallies).hasSizeLessThanOrEqualTo(PinnedFrames.MAX_FRAMES + 1);
            assertThat(tallies.stream().mapToLong(Tally::count).sum()).isEqualTo(count);
            assertThat(tallies.stream().mapToLong(Tally::nanos).sum()).isEqualTo(nanos);
        }
        assertThat(byFrame(frames).keySet()).allMatch(frame -> frame.startsWith("app.Hot") || frame.equals(PinnedFrames.OTHER));
    }
}
