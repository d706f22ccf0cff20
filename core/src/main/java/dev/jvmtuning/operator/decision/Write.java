package dev.jvmtuning.operator.decision;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import java.util.List;

/**
 * One write a decision asks of the API server, carried out in the decision's order: the values' ConfigMap
 * before the template that points at it, so no pod reads a half-written set.
 */
public sealed interface Write {

    /** Creates a content-named ConfigMap the profile does not have yet: the same name always holds the same values. */
    record CreateConfigMap(ConfigMap configMap) implements Write {
    }

    /** Server-side applies the operator's fields of the Deployment; {@code live} is the Deployment as observed, which differs. */
    record ApplyDeployment(Deployment live, Deployment desired) implements Write {
    }

    /**
     * Puts the user's own template back in one replace carrying the live resourceVersion: all of it, or
     * nothing on a conflict (then retried).
     */
    record RestoreDeployment(Deployment restored) implements Write {
    }

    /**
     * Deletes the profile's ConfigMaps that the template no longer names, except those a ReplicaSet of
     * {@code target} still refers to: they stay for `rollout undo`. Which ReplicaSets exist is read when the write is made.
     */
    record PruneConfigMaps(Deployment target, List<ConfigMap> unused) implements Write {
    }

    /** Deletes the profile's own ConfigMaps, never one that merely has a similar name. */
    record DeleteConfigMaps(List<ConfigMap> configMaps) implements Write {
    }
}
