package dev.jvmtuning.operator.cli;

import dev.jvmtuning.operator.api.v1alpha1.TuningProfile;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** The profile a cluster verb works on: by name in the cluster, or from a file (its Deployment is in the cluster either way). */
final class ProfileArgument {
    @Parameters(arity = "0..1", paramLabel = "NAME", description = "A TuningProfile in the cluster.")
    private String name;

    @Option(names = {"-f", "--file"}, paramLabel = "FILE",
            description = "A file holding the TuningProfile instead of NAME, perhaps not applied yet; its Deployment is read from the cluster.")
    private Path file;

    @Spec(Spec.Target.MIXEE)
    private CommandSpec verb;

    /** Exactly one of NAME and -f, as picocli's groups cannot say for a positional parameter and an option together. */
    void requireOne() {
        if ((name == null) == (file == null)) {
            throw new ParameterException(verb.commandLine(), "name the TuningProfile, or give it with -f FILE (one of the two)");
        }
    }

    boolean fromFile() {
        return file != null;
    }

    /** The profile of this name in the cluster; its absence is the verb's error. */
    static TuningProfile inCluster(KubernetesClient client, String namespace, String name) {
        TuningProfile profile = client.resources(TuningProfile.class).inNamespace(namespace).withName(name).get();
        if (profile == null) {
            throw new Refusal("no TuningProfile " + name + " in namespace " + namespace);
        }
        return profile;
    }

    /**
     * The profile; from a file, as the cluster would hold it once applied: with the identity, creation time and status of the same
     * profile in the cluster (its generation counted up for a new spec), else as a profile created now, the newest.
     */
    TuningProfile load(KubernetesClient client, String namespace) {
        if (file == null) {
            return inCluster(client, namespace, name);
        }
        List<TuningProfile> profiles = new ArrayList<>();
        Documents.read(file, profiles, new ArrayList<Deployment>());
        if (profiles.size() != 1 || profiles.get(0).getSpec() == null || profiles.get(0).getSpec().getTargetRef() == null) {
            throw new InputException("expected one TuningProfile with a spec.targetRef in " + file + ", found " + profiles.size());
        }
        TuningProfile profile = profiles.get(0);
        profile.getMetadata().setNamespace(namespace);
        TuningProfile live = client.resources(TuningProfile.class).inNamespace(namespace).withName(profile.getMetadata().getName()).get();
        if (live == null) {
            // The creation time decides between profiles of one Deployment; no uid, so no owner for its ConfigMap yet.
            profile.getMetadata().setUid(null);
            profile.getMetadata().setCreationTimestamp(Instant.now().truncatedTo(ChronoUnit.SECONDS).toString());
            return profile;
        }
        // The owner of the ConfigMaps, and what status says of this generation (a rollback keeps the same spec's settings out).
        profile.getMetadata().setUid(live.getMetadata().getUid());
        profile.getMetadata().setCreationTimestamp(live.getMetadata().getCreationTimestamp());
        boolean sameSpec = Documents.YAML.valueToTree(profile.getSpec()).equals(Documents.YAML.valueToTree(live.getSpec()));
        profile.getMetadata().setGeneration(live.getMetadata().getGeneration() + (sameSpec ? 0 : 1));
        profile.setStatus(live.getStatus());
        return profile;
    }
}
