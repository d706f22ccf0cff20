package dev.jvmtuning.operator.reconciler;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.javaoperatorsdk.operator.api.config.informer.InformerEventSourceConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.EventSourceContext;
import io.javaoperatorsdk.operator.processing.event.source.filter.OnAddFilter;
import io.javaoperatorsdk.operator.processing.event.source.informer.InformerEventSource;

/**
 * Passes an informer's add events only for objects created after its first list. The first list
 * delivers every existing object as an add, on a loaded machine after the framework has begun
 * reconciling; each profile's first reconcile reads those objects from the synced cache anyway, so
 * such an add only reconciles its profile a second time for nothing. An object created later, also
 * one a re-list finds, has a newer resourceVersion than any the first list held. Resource versions
 * are compared as numbers, as the framework's own event filtering does; one that is not a number passes.
 */
final class AddedSinceStart<R extends HasMetadata> implements OnAddFilter<R> {
    /** Until the first list is in, every add is one of it (the framework does not reconcile yet). */
    private volatile long listedUpTo = Long.MAX_VALUE;

    /** The informer event source {@code configuration} describes, with this filter on its adds. */
    static <R extends HasMetadata, P extends HasMetadata> InformerEventSource<R, P> source(
            InformerEventSourceConfiguration.Builder<R> configuration, EventSourceContext<P> context) {
        AddedSinceStart<R> filter = new AddedSinceStart<>();
        return new InformerEventSource<>(configuration.withOnAddFilter(filter).build(), context) {
            @Override
            public synchronized void start() {
                super.start();
                filter.listed(list(r -> true).mapToLong(AddedSinceStart::version).filter(v -> v >= 0).max().orElse(0));
            }
        };
    }

    void listed(long newestVersion) {
        listedUpTo = newestVersion;
    }

    @Override
    public boolean accept(R resource) {
        long version = version(resource);
        return version < 0 || version > listedUpTo;
    }

    /** The resourceVersion as a number, or -1 when it is not one. */
    private static long version(HasMetadata resource) {
        try {
            return Long.parseLong(resource.getMetadata().getResourceVersion());
        } catch (NumberFormatException e) {
            return -1;
        }
    }
}
