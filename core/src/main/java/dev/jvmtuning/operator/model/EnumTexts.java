package dev.jvmtuning.operator.model;

import java.util.Optional;
import java.util.function.Function;

/** The lookup of an enum's constant by the text it is written as (in status, in a list file, by the JDK). */
public final class EnumTexts {
    private EnumTexts() {
    }

    /** The first constant of {@code type}, in declaration order, whose {@code text} is {@code wanted}. */
    public static <E extends Enum<E>> Optional<E> find(Class<E> type, Function<E, String> text, String wanted) {
        for (E constant : type.getEnumConstants()) {
            if (text.apply(constant).equals(wanted)) {
                return Optional.of(constant);
            }
        }
        return Optional.empty();
    }
}
