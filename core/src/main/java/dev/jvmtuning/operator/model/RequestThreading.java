package dev.jvmtuning.operator.model;

import dev.jvmtuning.operator.api.v1alpha1.ThreadingModel;

/**
 * What runs the target's requests, as the plan assumes it.
 *
 * @param model    platform workers or virtual threads
 * @param source   what said so, as status shows it
 * @param conflict a setting that says otherwise and lost, or null
 */
public record RequestThreading(ThreadingModel model, String source, String conflict) {

    public boolean virtual() {
        return model == ThreadingModel.Virtual;
    }
}
