package dev.jvmtuning.operator.model;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * Names and label values derived from a profile's name must fit Kubernetes' limits whatever the
 * profile is called: a name that is too long is cut and given a digest of the whole, so two long
 * names stay apart.
 */
public final class Names {
    /** A label value, and a DNS label. */
    public static final int LABEL_MAX = 63;
    /** An object name (DNS subdomain). */
    public static final int NAME_MAX = 253;
    private static final int DIGEST_CHARS = 10;

    private Names() {
    }

    /** {@code name} if it fits in {@code max} characters, else its start, a dash and a digest of the whole. */
    public static String fit(String name, int max) {
        if (name.length() <= max) {
            return name;
        }
        String start = name.substring(0, max - DIGEST_CHARS - 1).replaceAll("[-.]+$", "");
        return start + "-" + digest(name, DIGEST_CHARS);
    }

    /** The first {@code chars} hex digits of the SHA-256 of {@code text}. */
    public static String digest(String text, int chars) {
        try {
            byte[] hash = MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(hash).substring(0, chars);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every JDK", e);
        }
    }
}
