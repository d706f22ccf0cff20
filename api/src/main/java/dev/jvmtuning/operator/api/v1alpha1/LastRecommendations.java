package dev.jvmtuning.operator.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import java.util.ArrayList;
import java.util.List;
import lombok.AllArgsConstructor;
import lombok.Data;
import lombok.NoArgsConstructor;

/**
 * The advice status showed last, kept once a window without advice emptied status.recommendations: a pod that
 * goes idle after a load test says nothing about how it bears that load, and the advice stays exportable.
 */
@Data
@NoArgsConstructor
@AllArgsConstructor
public class LastRecommendations {
    @JsonPropertyDescription("The end of the metrics window the advice came from.")
    private String windowEnd;

    @JsonPropertyDescription("The profile's metadata.generation the advice was given for.")
    private Long generation;

    @JsonPropertyDescription("The advice as status.recommendations showed it.")
    private List<Recommendation> recommendations = new ArrayList<>();
}
