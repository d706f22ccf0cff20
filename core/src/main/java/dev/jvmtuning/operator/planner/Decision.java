package dev.jvmtuning.operator.planner;

import dev.jvmtuning.operator.model.Rule;
import dev.jvmtuning.operator.model.Setting;

/**
 * One planned value and why: the rule that produced it and the numbers behind it.
 *
 * @param setting   the tuned quantity
 * @param value     the value as shown to users, e.g. 400 or 1536Mi
 * @param rule      the rule; {@link Rule#SPEC} for a value the user set
 * @param rationale the numbers behind the value
 */
public record Decision(Setting setting, String value, Rule rule, String rationale) {

    /** The setting's name as status shows it. */
    public String name() {
        return setting.key();
    }
}
