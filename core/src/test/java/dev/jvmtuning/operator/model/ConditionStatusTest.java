package dev.jvmtuning.operator.model;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ConditionStatusTest {

    @Test
    void aStatusIsItsOwnTextOnlyAndAbsentIsNoStatus() {
        assertThat(ConditionStatus.TRUE.is("True")).isTrue();
        assertThat(ConditionStatus.TRUE.is("False")).isFalse();
        assertThat(ConditionStatus.FALSE.is("false")).as("the API writes True, False, Unknown, capitalised").isFalse();
        assertThat(ConditionStatus.UNKNOWN.is(null)).isFalse();
    }
}
