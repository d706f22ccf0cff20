package dev.jvmtuning.operator.metrics;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * What a parser made of one exposition body: the samples it understood, how many lines it skipped
 * as malformed, and the first few reasons (bounded, so garbage cannot grow memory).
 */
public record Scrape(List<Sample> samples, int skippedLines, List<String> problems) {
    public Scrape {
        samples = List.copyOf(samples);
        problems = List.copyOf(problems);
    }

    /**
     * The scrapes of one pod's endpoints as one, of a series name that several serve only the first's samples: the agent
     * and Micrometer both serve jvm_memory_used_bytes, for one, with other labels, and their sum would count the heap
     * twice. Callers put the agent's first, as its dialect reads the same on every runtime.
     */
    static Scrape merge(List<Scrape> scrapes) {
        List<Sample> samples = new ArrayList<>();
        List<String> problems = new ArrayList<>();
        Set<String> served = new HashSet<>();
        int skipped = 0;
        for (Scrape scrape : scrapes) {
            Set<String> names = new HashSet<>();
            for (Sample sample : scrape.samples()) {
                if (!served.contains(sample.name())) {
                    samples.add(sample);
                    names.add(sample.name());
                }
            }
            served.addAll(names);
            skipped += scrape.skippedLines();
            problems.addAll(scrape.problems());
        }
        return new Scrape(samples, skipped, problems);
    }
}
