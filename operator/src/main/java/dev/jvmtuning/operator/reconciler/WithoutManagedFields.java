package dev.jvmtuning.operator.reconciler;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.informers.cache.BasicItemStore;
import io.fabric8.kubernetes.client.informers.cache.Cache;

/**
 * An informer's store that keeps its objects without metadata.managedFields. The operator never reads
 * them (its writes are server-side applies, decided by comparing fields), and they are most of what a
 * cached Deployment, ConfigMap or profile weighs: nested maps per field and manager, copied again
 * whenever the framework clones a resource.
 */
public final class WithoutManagedFields<T extends HasMetadata> extends BasicItemStore<T> {

    public WithoutManagedFields() {
        super(Cache::metaNamespaceKeyFunc);
    }

    @Override
    public T put(String key, T item) {
        item.getMetadata().setManagedFields(null);
        return super.put(key, item);
    }
}
