package dev.jvmtuning.operator.render;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvFromSource;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.Volume;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Stream;

/** The ConfigMaps a pod template reads: env entries, envFrom and volumes, of every container. Pure. */
public final class ConfigMapReferences {

    private ConfigMapReferences() {
    }

    public static Set<String> of(PodTemplateSpec template) {
        Set<String> names = new HashSet<>();
        if (template == null || template.getSpec() == null) {
            return names;
        }
        var pod = template.getSpec();
        Stream.concat(list(pod.getContainers()).stream(), list(pod.getInitContainers()).stream()).forEach(c -> add(c, names));
        for (Volume volume : list(pod.getVolumes())) {
            if (volume.getConfigMap() != null) {
                names.add(volume.getConfigMap().getName());
            }
        }
        names.remove(null);
        return names;
    }

    private static void add(Container container, Set<String> names) {
        for (EnvVar var : list(container.getEnv())) {
            if (var.getValueFrom() != null && var.getValueFrom().getConfigMapKeyRef() != null) {
                names.add(var.getValueFrom().getConfigMapKeyRef().getName());
            }
        }
        for (EnvFromSource from : list(container.getEnvFrom())) {
            if (from.getConfigMapRef() != null) {
                names.add(from.getConfigMapRef().getName());
            }
        }
    }

    private static <T> List<T> list(List<T> items) {
        return Objects.requireNonNullElse(items, List.of());
    }
}
