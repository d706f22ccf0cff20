package dev.jvmtuning.operator.api.v1alpha1;

import io.fabric8.crd.generator.annotation.AdditionalPrinterColumn;
import io.fabric8.crd.generator.annotation.AdditionalPrinterColumn.Type;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Categories;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.ShortNames;
import io.fabric8.kubernetes.model.annotation.Version;

/** Thread, queue, heap and GC targets for one Deployment, and what the operator made of them. */
@Group(TuningProfile.GROUP)
@Version(TuningProfile.VERSION)
@ShortNames("tp")
@Categories({"all", "jvmtuning"})
@AdditionalPrinterColumn(name = "Target", type = Type.STRING, jsonPath = ".spec.targetRef.name")
@AdditionalPrinterColumn(name = "Mode", type = Type.STRING, jsonPath = ".spec.mode")
@AdditionalPrinterColumn(name = "Auto", type = Type.STRING, jsonPath = ".status.auto.state")
@AdditionalPrinterColumn(name = "Ready", type = Type.STRING, jsonPath = ".status.conditions[?(@.type==\"Ready\")].status")
@AdditionalPrinterColumn(name = "Threads", type = Type.STRING, jsonPath = ".status.settings[?(@.name==\"threads.max\")].value")
@AdditionalPrinterColumn(name = "Heap", type = Type.STRING, jsonPath = ".status.settings[?(@.name==\"heap.size\")].value")
@AdditionalPrinterColumn(name = "GC", type = Type.STRING, jsonPath = ".status.settings[?(@.name==\"gc.collector\")].value")
@AdditionalPrinterColumn(name = "Age", type = Type.DATE, jsonPath = ".metadata.creationTimestamp")
@AdditionalPrinterColumn(name = "Runtime", type = Type.STRING, jsonPath = ".spec.runtime", priority = 1)
@AdditionalPrinterColumn(name = "Reason", type = Type.STRING, jsonPath = ".status.conditions[?(@.type==\"Applied\")].reason", priority = 1)
@AdditionalPrinterColumn(name = "Pool", type = Type.STRING, jsonPath = ".status.settings[?(@.name==\"connectionPool.maxSize\")].value", priority = 1)
@AdditionalPrinterColumn(name = "Threading", type = Type.STRING, jsonPath = ".status.threading.model", priority = 1)
@AdditionalPrinterColumn(name = "CPUs", type = Type.STRING, jsonPath = ".status.settings[?(@.name==\"jvm.activeProcessorCount\")].value", priority = 1)
public class TuningProfile extends CustomResource<TuningProfileSpec, TuningProfileStatus> implements Namespaced {
    public static final String GROUP = "jvmtuning.dev";
    public static final String VERSION = "v1alpha1";

    /** "namespace/name": how the operator's caches and log lines name a profile. */
    public String key() {
        return getMetadata().getNamespace() + "/" + getMetadata().getName();
    }
}
