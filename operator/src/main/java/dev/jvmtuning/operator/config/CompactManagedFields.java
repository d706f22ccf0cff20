package dev.jvmtuning.operator.config;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.deser.std.StdDeserializer;
import com.fasterxml.jackson.databind.module.SimpleModule;
import io.fabric8.kubernetes.api.model.FieldsV1;
import io.quarkus.kubernetes.client.KubernetesClientObjectMapperCustomizer;
import jakarta.inject.Singleton;
import java.io.IOException;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The managedFields of every object the client reads, held as immutable maps. A managedFields entry is a tree with a node
 * per field its manager set and an empty object at each leaf; read as the client reads any JSON, each node is a
 * LinkedHashMap. At a few thousand profiles those trees were half of the informers' heap, most of it empty maps
 * (docs/development/benchmarks.md). Here every leaf is the one empty map and every other node a compact immutable one: the
 * same fields, far fewer bytes. Nothing writes into a read entry; the operator's own writes are server-side applies.
 */
@Singleton
public final class CompactManagedFields implements KubernetesClientObjectMapperCustomizer {

    @Override
    public void customize(ObjectMapper mapper) {
        mapper.registerModule(new SimpleModule("compact-managed-fields").addDeserializer(FieldsV1.class, new Deserializer()));
    }

    private static final class Deserializer extends StdDeserializer<FieldsV1> {
        Deserializer() {
            super(FieldsV1.class);
        }

        @Override
        public FieldsV1 deserialize(JsonParser parser, DeserializationContext context) throws IOException {
            if (!parser.isExpectedStartObjectToken()) {
                return (FieldsV1) context.handleUnexpectedToken(FieldsV1.class, parser);
            }
            FieldsV1 fields = new FieldsV1();
            node(parser, context).forEach(fields::setAdditionalProperty);
            return fields;
        }

        /**
         * An object, the parser at its start: its members, each object among them read the same way, as JSON reads them (a
         * member repeated: the last holds). Immutable and compact, unless a member is null, which the API server never sends.
         */
        private static Map<String, Object> node(JsonParser parser, DeserializationContext context) throws IOException {
            Map<String, Object> read = new LinkedHashMap<>();
            for (String name = parser.nextFieldName(); name != null; name = parser.nextFieldName()) {
                read.put(name, parser.nextToken() == JsonToken.START_OBJECT ? node(parser, context) : context.readValue(parser, Object.class));
            }
            return read.containsValue(null) ? Collections.unmodifiableMap(read) : Map.copyOf(read);
        }
    }
}
