package dev.jvmtuning.operator.reconciler;

import dev.jvmtuning.operator.model.LabelsAndAnnotations;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ManagedFieldsEntry;
import io.fabric8.kubernetes.client.informers.cache.BasicItemStore;
import io.fabric8.kubernetes.client.informers.cache.Cache;
import java.util.List;
import java.util.function.Predicate;

/**
 * An informer's store that keeps its objects without the metadata.managedFields entries the operator never reads: they are
 * most of what a cached Deployment, ConfigMap or pod weighs, nested maps per field and manager, copied again whenever the
 * framework clones a resource. The operator's own writes are server-side applies, decided by comparing fields.
 */
public final class WithoutManagedFields<T extends HasMetadata> extends BasicItemStore<T> {
    private final Predicate<ManagedFieldsEntry> kept;

    private WithoutManagedFields(Predicate<ManagedFieldsEntry> kept) {
        super(Cache::metaNamespaceKeyFunc);
        this.kept = kept;
    }

    /** No entry kept. */
    public static <T extends HasMetadata> WithoutManagedFields<T> all() {
        return new WithoutManagedFields<>(entry -> false);
    }

    /**
     * The entries of other managers' writes of the object itself kept: they say who took back a field the operator wrote (a
     * GitOps controller's re-apply). The operator's own, and status writes, go.
     */
    public static <T extends HasMetadata> WithoutManagedFields<T> butOtherWriters() {
        return new WithoutManagedFields<>(entry -> entry.getSubresource() == null && !LabelsAndAnnotations.OPERATOR.equals(entry.getManager()));
    }

    @Override
    public T put(String key, T item) {
        List<ManagedFieldsEntry> entries = item.getMetadata().getManagedFields();
        List<ManagedFieldsEntry> left = entries == null ? List.of() : entries.stream().filter(kept).toList();
        item.getMetadata().setManagedFields(left.isEmpty() ? null : left);
        return super.put(key, item);
    }
}
