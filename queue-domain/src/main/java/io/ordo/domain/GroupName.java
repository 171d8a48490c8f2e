package io.ordo.domain;

import java.util.regex.Pattern;

/**
 * A consumer group's name: 1..64 of {@code A-Z a-z 0-9 . _ -}, like a queue's name. A group receives every
 * task published to its queue after it was created, and keeps its own state of each (docs/groups.md). The
 * set is narrow for the same reason as a queue's: the name is part of the group's Redis keys.
 */
public record GroupName(String value) {
    public static final int MAX_LENGTH = 64;
    private static final Pattern ALLOWED = Pattern.compile("[A-Za-z0-9._-]+");

    public GroupName {
        Validate.text("group", value, MAX_LENGTH);
        if (!ALLOWED.matcher(value).matches()) {
            throw new InvalidInputException("group",
                    "may contain only letters, digits, '.', '_' and '-', was '" + value + "'");
        }
    }

    public static GroupName of(String value) {
        return new GroupName(value);
    }

    @Override
    public String toString() {
        return value;
    }
}
