package dev.jvmtuning.operator.model;

/**
 * Every label and annotation the operator reads or writes, by the object it sits on. Users and tools
 * match on these names (selectors, kubectl, Argo CD's diffing), so they change only with a migration.
 */
public final class LabelsAndAnnotations {
    /** The operator's name: the managed-by label's value on what it creates, its field manager and its Events' component. */
    public static final String OPERATOR = "jvm-tuning-operator";
    /** On the ConfigMaps the operator creates (a profile's values, the published settings, the namespace release): {@value #OPERATOR}. */
    public static final String MANAGED_BY_LABEL = "app.kubernetes.io/managed-by";
    /** On a profile's ConfigMaps: the profile's name, fitted to a label value. */
    public static final String PROFILE_LABEL = "jvmtuning.dev/profile";

    /** On a tuned Deployment: the profile that tunes it. */
    public static final String TUNED_BY_ANNOTATION = "jvmtuning.dev/tuned-by";
    /** On a tuned Deployment: the JVM flags variable as the user wrote it, to give back when the profile goes. */
    public static final String ORIGINAL_JVM_OPTIONS_ANNOTATION = "jvmtuning.dev/original-jvm-options";
    /**
     * On the Deployment: the tuned container's own terminationMessagePolicy, while the operator sets it to FallbackToLogsOnError
     * so that a JVM refusing its options says so in the container's status; JSON, the container and its policy ("" when unset).
     */
    public static final String ORIGINAL_TERMINATION_MESSAGE_POLICY_ANNOTATION = "jvmtuning.dev/original-termination-message-policy";
    /**
     * On the Deployment: the tuned container's own values of the resources the operator sizes (spec.sizing), "" where unset, and
     * the values it applied; JSON. Each is recorded the first time it is sized and kept while the operator tunes the Deployment.
     */
    public static final String ORIGINAL_RESOURCES_ANNOTATION = "jvmtuning.dev/original-resources";
    /**
     * Kubernetes' own, on a ReplicaSet's pod template and its pods: the Deployment controller adds it to the Deployment's
     * template to tell its ReplicaSets apart, so a ReplicaSet's template is the Deployment's with it added.
     */
    public static final String POD_TEMPLATE_HASH_LABEL = "pod-template-hash";
    /** On a tuned Deployment's pod template, hence its pods: the hash of the settings they run. */
    public static final String SETTINGS_HASH_ANNOTATION = "jvmtuning.dev/settings-hash";

    /** On a namespace: {@value #DISCOVER_RECOMMEND} makes discovery recommend for every JVM Deployment in it. */
    public static final String DISCOVER_NAMESPACE_LABEL = "jvmtuning.dev/discover";
    public static final String DISCOVER_RECOMMEND = "recommend";
    /** On a Deployment: {@code "false"} keeps discovery away from it. */
    public static final String DISCOVER_EXCLUDE_ANNOTATION = "jvmtuning.dev/discover";
    /** On the profiles discovery makes, so it only ever deletes its own. */
    public static final String DISCOVERED_LABEL = "jvmtuning.dev/discovered";
    /** On the profiles discovery makes: why it took the Deployment for a JVM. */
    public static final String DISCOVERED_BECAUSE_ANNOTATION = "jvmtuning.dev/discovered-because";

    private LabelsAndAnnotations() {
    }
}
