package dev.jvmtuning.operator.reconciler;

import dev.jvmtuning.operator.api.v1alpha1.TuningProfile;
import dev.jvmtuning.operator.api.v1alpha1.TuningProfileStatus;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.ControllerConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.Reconciler;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;
import java.util.Objects;

@ControllerConfiguration(name = "tuningprofile")
public class TuningProfileReconciler implements Reconciler<TuningProfile> {

    @Override
    public UpdateControl<TuningProfile> reconcile(TuningProfile profile, Context<TuningProfile> context) {
        Long generation = profile.getMetadata().getGeneration();
        if (profile.getStatus() != null && Objects.equals(profile.getStatus().getObservedGeneration(), generation)) {
            return UpdateControl.noUpdate();
        }
        TuningProfileStatus status = new TuningProfileStatus();
        status.setObservedGeneration(generation);
        TuningProfile patch = new TuningProfile();
        patch.setMetadata(profile.getMetadata());
        patch.setStatus(status);
        return UpdateControl.patchStatus(patch);
    }
}
