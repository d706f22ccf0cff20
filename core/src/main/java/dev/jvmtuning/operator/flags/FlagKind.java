package dev.jvmtuning.operator.flags;

import dev.jvmtuning.operator.model.EnumTexts;

/** Whether HotSpot takes a -XX flag as it is or only after the flag that unlocks its kind. */
public enum FlagKind {
    PRODUCT("product", null),
    DIAGNOSTIC("diagnostic", "-XX:+UnlockDiagnosticVMOptions"),
    EXPERIMENTAL("experimental", "-XX:+UnlockExperimentalVMOptions");

    private final String word;
    private final String unlockFlag;

    FlagKind(String word, String unlockFlag) {
        this.word = word;
        this.unlockFlag = unlockFlag;
    }

    /** How the list files name it. */
    public String word() {
        return word;
    }

    /** The flag that must come first for HotSpot to take a flag of this kind; null for product flags. */
    public String unlockFlag() {
        return unlockFlag;
    }

    static FlagKind of(String word) {
        return EnumTexts.find(FlagKind.class, FlagKind::word, word).orElseThrow(() -> new IllegalArgumentException("unknown flag kind " + word));
    }
}
