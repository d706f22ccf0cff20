package dev.jvmtuning.operator.planner;

import java.util.ArrayList;
import java.util.List;

/** What the steps of one planning pass found besides values: contradictions, misfits and warnings, in the order found. */
final class PlanNotes {
    final List<String> invalid = new ArrayList<>();
    final List<String> infeasible = new ArrayList<>();
    final List<String> warnings = new ArrayList<>();
}
