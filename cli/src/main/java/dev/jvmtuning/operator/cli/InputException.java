package dev.jvmtuning.operator.cli;

/** Input the user must fix (a file that does not parse, a profile without a target): bad usage, said in one line. */
final class InputException extends RuntimeException {
    InputException(String message) {
        super(message);
    }
}
