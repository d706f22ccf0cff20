package dev.jvmtuning.operator.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import lombok.AllArgsConstructor;
import lombok.Data;
import lombok.NoArgsConstructor;

@Data
@NoArgsConstructor
@AllArgsConstructor
public class Recommendation {
    @JsonPropertyDescription("The field to change, e.g. threads.max: a field of the profile's spec, or of the target container (resources.limits.cpu).")
    private String field;
    @JsonPropertyDescription("Its current value.")
    private String current;
    @JsonPropertyDescription("What to do with the field: Set it to recommended, Scale it by factor, Keep it and add capacity elsewhere, "
            + "or Investigate the application (no value helps).")
    private RecommendedAction action;
    @JsonPropertyDescription("The suggested value, as the field is written, for Set (and the value to keep, for Keep).")
    private String recommended;
    @JsonPropertyDescription("For Scale: the factor to multiply the field's value by, e.g. 1.5 for half as much again.")
    private Double factor;
    @JsonPropertyDescription("Why, with the measured numbers: for people; tools read action, recommended and factor.")
    private String reason;

    public static Recommendation set(String field, String current, String recommended, String reason) {
        return new Recommendation(field, current, RecommendedAction.Set, recommended, null, reason);
    }

    public static Recommendation scale(String field, String current, double factor, String reason) {
        return new Recommendation(field, current, RecommendedAction.Scale, null, factor, reason);
    }

    public static Recommendation keep(String field, String current, String reason) {
        return new Recommendation(field, current, RecommendedAction.Keep, current, null, reason);
    }

    public static Recommendation investigate(String field, String current, String reason) {
        return new Recommendation(field, current, RecommendedAction.Investigate, null, null, reason);
    }
}
