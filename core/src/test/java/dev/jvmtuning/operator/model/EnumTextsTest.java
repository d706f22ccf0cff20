package dev.jvmtuning.operator.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.jvmtuning.operator.model.EffectiveOptions.Origin;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

class EnumTextsTest {
    private enum Written {
        FIRST("same"), SECOND("same"), OTHER("other");

        private final String text;

        Written(String text) {
            this.text = text;
        }
    }

    @Test
    void findsTheFirstConstantWrittenAsTheText() {
        assertThat(EnumTexts.find(Written.class, w -> w.text, "same")).contains(Written.FIRST);
        assertThat(EnumTexts.find(Written.class, w -> w.text, "other")).contains(Written.OTHER);
        assertThat(EnumTexts.find(Written.class, w -> w.text, "OTHER")).as("the text, not the name").isEmpty();
        assertThat(EnumTexts.find(Written.class, w -> w.text, null)).isEmpty();
    }

    @Test
    void everyConstantIsFoundByItsOwnText() {
        assertThat(Arrays.stream(Reason.values())).allMatch(reason -> Reason.find(reason.text()).orElseThrow() == reason);
        assertThat(Arrays.stream(ConditionType.values())).allMatch(type -> ConditionType.find(type.text()).orElseThrow() == type);
        assertThat(Arrays.stream(ConditionStatus.values())).allMatch(status -> ConditionStatus.of(status.text()) == status);
        assertThat(Arrays.stream(Origin.values())).allMatch(origin -> Origin.of(origin.name()) == origin);
    }

    @Test
    void aTextOfNoConstantIsEmptyThrownOrTheFallback() {
        assertThat(Reason.find("Unheard")).isEmpty();
        assertThat(ConditionType.find("True")).isEmpty();
        assertThatThrownBy(() -> ConditionStatus.of("TRUE")).isInstanceOf(IllegalArgumentException.class).hasMessage("not a condition status: TRUE");
        assertThat(Origin.of("A_LATER_JDKS")).isEqualTo(Origin.OTHER);
    }
}
