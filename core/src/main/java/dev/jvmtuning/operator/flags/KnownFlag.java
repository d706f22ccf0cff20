package dev.jvmtuning.operator.flags;

import java.math.BigDecimal;

/**
 * A -XX flag as one JDK declares it: HotSpot's type name (bool, int, uint, intx, uintx, uint64_t,
 * size_t, double, ccstr, ccstrlist), its kind, and the range the JDK enforces (null ends: none).
 */
public record KnownFlag(String name, String type, FlagKind kind, BigDecimal min, BigDecimal max) {

    public boolean isBoolean() {
        return type.equals("bool");
    }

    public boolean isString() {
        return type.startsWith("ccstr");
    }

    public boolean isDouble() {
        return type.equals("double");
    }

    public boolean isSigned() {
        return type.equals("int") || type.equals("intx");
    }

    /** The largest value the type holds: 32-bit int and uint, 64-bit for the rest. */
    public BigDecimal typeMax() {
        return switch (type) {
            case "int" -> BigDecimal.valueOf(Integer.MAX_VALUE);
            case "uint" -> BigDecimal.valueOf(0xFFFF_FFFFL);
            case "intx" -> BigDecimal.valueOf(Long.MAX_VALUE);
            default -> new BigDecimal("18446744073709551615");
        };
    }

    /** bool, double, string or integer: JDKs change a flag's integer width (uintx in 17, uint in 25) but not its family. */
    String family() {
        return isBoolean() || isDouble() ? type : isString() ? "string" : "integer";
    }

    /**
     * This flag as two JDKs of the same family both take it: the stricter kind, the narrower range and,
     * for integers, the narrower type (unsigned when either is).
     */
    KnownFlag and(KnownFlag other) {
        FlagKind stricter = kind.ordinal() >= other.kind.ordinal() ? kind : other.kind;
        String narrower = type;
        if (family().equals("integer") && (other.typeMax().compareTo(typeMax()) < 0 || (isSigned() && !other.isSigned()))) {
            narrower = other.type;
        }
        return new KnownFlag(name, narrower, stricter, greater(min, other.min), lesser(max, other.max));
    }

    private static BigDecimal greater(BigDecimal a, BigDecimal b) {
        return a == null ? b : b == null ? a : a.max(b);
    }

    private static BigDecimal lesser(BigDecimal a, BigDecimal b) {
        return a == null ? b : b == null ? a : a.min(b);
    }
}
