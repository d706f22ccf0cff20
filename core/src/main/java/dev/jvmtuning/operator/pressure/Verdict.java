package dev.jvmtuning.operator.pressure;

import dev.jvmtuning.operator.api.v1alpha1.Recommendation;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

public record Verdict(List<Finding> findings, List<Recommendation> recommendations) {
    public Verdict {
        findings = List.copyOf(findings);
        recommendations = List.copyOf(recommendations);
    }

    /** This verdict with one more finding, where there is one. */
    public Verdict with(Optional<Finding> finding) {
        return finding.map(f -> new Verdict(Stream.concat(findings.stream(), Stream.of(f)).toList(), recommendations)).orElse(this);
    }
}
