package dev.jvmtuning.operator.planner;

/**
 * One planned value and why: the rule of TUNING.md that produced it and the numbers behind it.
 *
 * @param name      the tuned quantity, e.g. threads.max
 * @param value     the value as shown to users, e.g. 400 or 1536Mi
 * @param rule      the rule, e.g. R1; "spec" for a value the user set
 * @param rationale the numbers behind the value
 */
public record Decision(String name, String value, String rule, String rationale) {
}
