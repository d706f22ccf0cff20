package dev.jvmtuning.operator.planner;

import java.util.ArrayList;
import java.util.List;

/** What the steps of one planning pass found besides values: contradictions, misfits and warnings, in the order found. */
final class PlanNotes {
    final List<String> invalid = new ArrayList<>();
    /** The profile against the container's own JVM flags: both would reach the JVM, and it cannot take both. */
    final List<String> conflicts = new ArrayList<>();
    final List<String> infeasible = new ArrayList<>();
    final List<String> warnings = new ArrayList<>();
}
