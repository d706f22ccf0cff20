package dev.jvmtuning.operator.reconciler;

import dev.jvmtuning.operator.installation.PublishedSettings;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import org.jboss.logging.Logger;

/**
 * Writes the settings that decide what this operator renders into a ConfigMap of its own namespace, when
 * it takes the lead: {@code kubectl tp} previews with them, so its plans are the operator's.
 */
final class SettingsPublication implements Runnable {
    private static final Logger LOG = Logger.getLogger(SettingsPublication.class);

    private final KubernetesClient client;
    private final String ownNamespace;
    private final PublishedSettings settings;

    SettingsPublication(KubernetesClient client, String ownNamespace, PublishedSettings settings) {
        this.client = client;
        this.ownNamespace = ownNamespace;
        this.settings = settings;
    }

    @Override
    public void run() {
        try {
            OwnConfigMaps.apply(client, ownNamespace, PublishedSettings.CONFIG_MAP, settings.data());
        } catch (KubernetesClientException e) {
            LOG.warnf("cannot publish the operator's settings (ConfigMap %s/%s): %s; kubectl tp then previews with the standard flag policy "
                    + "and the default agent image", ownNamespace, PublishedSettings.CONFIG_MAP, e.getMessage());
        }
    }
}
