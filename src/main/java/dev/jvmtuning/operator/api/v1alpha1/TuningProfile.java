package dev.jvmtuning.operator.api.v1alpha1;

import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.ShortNames;
import io.fabric8.kubernetes.model.annotation.Version;

/** Thread, queue, heap and GC targets for one Deployment, and what the operator made of them. */
@Group(TuningProfile.GROUP)
@Version(TuningProfile.VERSION)
@ShortNames("tp")
public class TuningProfile extends CustomResource<TuningProfileSpec, TuningProfileStatus> implements Namespaced {
    public static final String GROUP = "jvmtuning.dev";
    public static final String VERSION = "v1alpha1";
}
