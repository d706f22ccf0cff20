package dev.jvmtuning.operator.cli;

import dev.jvmtuning.operator.api.v1alpha1.Mode;
import dev.jvmtuning.operator.api.v1alpha1.TuningProfile;
import dev.jvmtuning.operator.preview.Preview;
import dev.jvmtuning.operator.render.Rendering;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.KubernetesClient;

/** A profile, its live Deployment and what the operator would render for it. */
record Planned(TuningProfile profile, Deployment live, Container userContainer, Rendering rendering, boolean apply) {

    /** The operator's own preview of the profile against its live Deployment, with the installation's settings. */
    static Planned of(TuningProfile profile, KubernetesClient client, String namespace, Installed installed) {
        String targetName = profile.getSpec().getTargetRef().getName();
        Deployment live = client.apps().deployments().inNamespace(namespace).withName(targetName).get();
        if (live == null) {
            throw new Refusal("no Deployment " + targetName + " in namespace " + namespace);
        }
        // The operator lays mode Auto's settings (status.auto) over the profile, answers its last OOM kill and plans for the Java
        // version its pods report (status.javaVersion): so does the preview.
        Preview preview = Preview.of(profile, live, null, installed.installation());
        if (preview instanceof Preview.NoContainer missing) {
            throw new Refusal(missing.problem());
        }
        if (preview instanceof Preview.Rejected rejected) {
            throw new Refusal(rejected.reason() + ": " + String.join("; ", rejected.messages()));
        }
        Preview.Rendered rendered = (Preview.Rendered) preview;
        return new Planned(profile, live, rendered.userContainer(), rendered.rendering(), profile.getSpec().getMode() != Mode.Recommend);
    }
}
