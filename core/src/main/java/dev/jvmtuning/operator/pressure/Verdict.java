package dev.jvmtuning.operator.pressure;

import dev.jvmtuning.operator.api.v1alpha1.Recommendation;
import java.util.List;

public record Verdict(List<Finding> findings, List<Recommendation> recommendations) {
    public Verdict {
        findings = List.copyOf(findings);
        recommendations = List.copyOf(recommendations);
    }
}
