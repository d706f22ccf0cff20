package dev.jvmtuning.operator.config;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.deser.std.StringDeserializer;
import com.fasterxml.jackson.databind.module.SimpleModule;
import io.quarkus.kubernetes.client.KubernetesClientObjectMapperCustomizer;
import jakarta.inject.Singleton;
import java.io.IOException;

/**
 * One copy of each short string the Kubernetes client reads. The informers hold every watched
 * Deployment, ConfigMap and TuningProfile, and most of their strings are the same few values
 * repeated in each (label keys and values, API defaults such as "IfNotPresent" or "25%", env names,
 * condition types, reasons, timestamps of one write); read as they arrive, they filled the heap of the
 * reconcile benchmark at a few thousand profiles (docs/development/benchmarks.md). Interned strings are collected like any other once
 * nothing refers to them, so a unique value costs only its entry in the JVM's string table.
 */
@Singleton
public final class SharedStrings implements KubernetesClientObjectMapperCustomizer {
    /** Longer values (messages, rationales, JVM options) are seldom repeated verbatim; they stay as read. */
    static final int MAX_SHARED_LENGTH = 64;

    @Override
    public void customize(ObjectMapper mapper) {
        mapper.registerModule(new SimpleModule("shared-strings").addDeserializer(String.class, new Deserializer()));
    }

    private static final class Deserializer extends StringDeserializer {
        @Override
        public String deserialize(JsonParser parser, DeserializationContext context) throws IOException {
            String value = super.deserialize(parser, context);
            return value != null && value.length() <= MAX_SHARED_LENGTH ? value.intern() : value;
        }
    }
}
