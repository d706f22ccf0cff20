package dev.jvmtuning.operator.metrics;

import java.util.List;

/**
 * What a parser made of one exposition body: the samples it understood, how many lines it skipped
 * as malformed, and the first few reasons (bounded, so garbage cannot grow memory).
 */
public record Scrape(List<Sample> samples, int skippedLines, List<String> problems) {
    public Scrape {
        samples = List.copyOf(samples);
        problems = List.copyOf(problems);
    }
}
