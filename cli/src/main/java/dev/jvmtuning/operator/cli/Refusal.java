package dev.jvmtuning.operator.cli;

/**
 * What the cluster or the profile cannot give (no such profile or Deployment, no recommendations yet, a profile the
 * planner rejects): said in one line, with the status the verb gives its errors.
 */
final class Refusal extends RuntimeException {
    Refusal(String message) {
        super(message);
    }
}
