package io.ordo.domain;

/**
 * Bad input: names the field and what is wrong with its value. Thrown before anything is written.
 */
public class InvalidInputException extends OrdoException {
    private static final long serialVersionUID = 1L;

    private final String field;
    private final String problem;

    public InvalidInputException(String field, String problem) {
        super(field + ": " + problem);
        this.field = field;
        this.problem = problem;
    }

    public InvalidInputException(String field, String problem, Throwable cause) {
        super(field + ": " + problem, cause);
        this.field = field;
        this.problem = problem;
    }

    /** Prefixes the field with where it sits, e.g. {@code tasks[3].id}. */
    public InvalidInputException within(String location) {
        return new InvalidInputException(location + "." + field, problem, this);
    }

    public String field() {
        return field;
    }

    public String problem() {
        return problem;
    }
}
