package io.ordo.domain;

/** The type a task gets from its payload's class when its publisher names none. */
public final class TaskTypes {
    private TaskTypes() {
    }

    /**
     * The class's simple name ({@code Deposit} for {@code com.example.Deposit} or a record nested in
     * another class); for a class without one (anonymous, hidden), its binary name after the package.
     */
    public static String of(Class<?> payloadClass) {
        Validate.notNull("payloadClass", payloadClass);
        String simple = payloadClass.getSimpleName();
        if (!simple.isEmpty()) {
            return simple;
        }
        String name = payloadClass.getName();
        return name.substring(name.lastIndexOf('.') + 1);
    }
}
