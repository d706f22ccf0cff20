package dev.jvmtuning.operator.discovery;

import static dev.jvmtuning.operator.model.LabelsAndAnnotations.DISCOVERED_BECAUSE_ANNOTATION;
import static dev.jvmtuning.operator.model.LabelsAndAnnotations.DISCOVERED_LABEL;
import static dev.jvmtuning.operator.model.LabelsAndAnnotations.DISCOVER_EXCLUDE_ANNOTATION;

import dev.jvmtuning.operator.api.v1alpha1.Mode;
import dev.jvmtuning.operator.api.v1alpha1.TargetRef;
import dev.jvmtuning.operator.api.v1alpha1.TuningProfile;
import dev.jvmtuning.operator.api.v1alpha1.TuningProfileSpec;
import dev.jvmtuning.operator.model.LabelsAndAnnotations;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * What discovery does in one namespace: a Recommend profile for each JVM Deployment nobody tuned
 * yet, up to a bound, and away with the ones it made that no longer have a reason to be. It never
 * touches a profile it did not make. Pure.
 *
 * @param create    profiles to create
 * @param delete    names of profiles discovery made earlier that must go
 * @param overLimit JVM Deployments left without a profile because of the bound
 */
public record DiscoveryPlan(List<TuningProfile> create, List<String> delete, int overLimit) {

    /**
     * @param enabled     whether the namespace asks for discovery
     * @param deployments the namespace's Deployments
     * @param profiles    every TuningProfile in the namespace, discovered or not
     * @param max         the most profiles discovery keeps in one namespace
     */
    public static DiscoveryPlan of(boolean enabled, List<Deployment> deployments, List<TuningProfile> profiles, int max) {
        Map<Boolean, List<TuningProfile>> byOrigin = profiles.stream().collect(Collectors.partitioningBy(DiscoveryPlan::discovered));
        List<TuningProfile> discovered = byOrigin.get(true);
        List<TuningProfile> users = byOrigin.get(false);
        if (!enabled) {
            return new DiscoveryPlan(List.of(), names(discovered), 0);
        }
        Set<String> tunedByUsers = users.stream().map(p -> p.getSpec().getTargetRef().getName()).collect(Collectors.toSet());
        Set<String> takenNames = users.stream().map(p -> p.getMetadata().getName()).collect(Collectors.toSet());
        List<Deployment> candidates = deployments.stream()
                .filter(d -> !"false".equals(d.getMetadata().getAnnotations() == null ? null : d.getMetadata().getAnnotations().get(DISCOVER_EXCLUDE_ANNOTATION)))
                .filter(d -> !tunedByUsers.contains(d.getMetadata().getName()) && !takenNames.contains(d.getMetadata().getName()))
                .filter(d -> JvmDetection.find(d).isPresent())
                .sorted(Comparator.comparing(d -> d.getMetadata().getName()))
                .toList();
        List<Deployment> kept = candidates.subList(0, Math.min(max, candidates.size()));
        Map<String, TuningProfile> existing = discovered.stream().collect(Collectors.toMap(p -> p.getMetadata().getName(), p -> p));
        List<TuningProfile> create = new ArrayList<>();
        Set<String> wanted = kept.stream().map(d -> d.getMetadata().getName()).collect(Collectors.toSet());
        for (Deployment deployment : kept) {
            TuningProfile profile = profileFor(deployment);
            TuningProfile current = existing.get(deployment.getMetadata().getName());
            if (current == null) {
                create.add(profile);
            } else if (!Objects.equals(current.getSpec().getContainer(), profile.getSpec().getContainer())) {
                // The JVM moved to another container, and a profile's container is immutable: this one goes now, and
                // its successor is made once it is gone. Other edits to a discovered profile are its user's and stay.
                wanted.remove(deployment.getMetadata().getName());
            }
        }
        List<String> delete = discovered.stream().map(p -> p.getMetadata().getName()).filter(n -> !wanted.contains(n)).toList();
        return new DiscoveryPlan(create, delete, candidates.size() - kept.size());
    }

    /** A Recommend profile for the Deployment's JVM container; it writes nothing to the Deployment. */
    static TuningProfile profileFor(Deployment deployment) {
        JvmDetection.Found found = JvmDetection.find(deployment).orElseThrow();
        TuningProfileSpec spec = new TuningProfileSpec();
        TargetRef target = new TargetRef();
        target.setName(deployment.getMetadata().getName());
        spec.setTargetRef(target);
        spec.setMode(Mode.Recommend);
        if (deployment.getSpec().getTemplate().getSpec().getContainers().size() > 1) {
            spec.setContainer(found.container().getName());
        }
        TuningProfile profile = new TuningProfile();
        profile.setMetadata(new ObjectMetaBuilder().withName(deployment.getMetadata().getName())
                .withNamespace(deployment.getMetadata().getNamespace())
                .withLabels(Map.of(DISCOVERED_LABEL, "true"))
                .withAnnotations(Map.of(DISCOVERED_BECAUSE_ANNOTATION, found.evidence()))
                .build());
        profile.setSpec(spec);
        return profile;
    }

    public static boolean discovered(TuningProfile profile) {
        return profile.getMetadata().getLabels() != null && "true".equals(profile.getMetadata().getLabels().get(DISCOVERED_LABEL));
    }

    private static List<String> names(List<TuningProfile> profiles) {
        return profiles.stream().map(p -> p.getMetadata().getName()).toList();
    }
}
