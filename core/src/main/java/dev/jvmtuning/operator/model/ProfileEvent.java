package dev.jvmtuning.operator.model;

/** One Event to write about a profile: what a status change, mode Auto's loop or a release deserves. */
public record ProfileEvent(boolean warning, Reason reason, String message) {
}
