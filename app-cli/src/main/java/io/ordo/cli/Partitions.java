package io.ordo.cli;

import io.ordo.domain.Partition;

/** Partitions as the CLI writes them: {@code !account-42} is the ordered partition {@code account-42}, as ordo prints it. */
final class Partitions {
    private Partitions() {
    }

    /** {@code --partition NAME [--ordered]}: a leading {@code !} already says ordered, and is not doubled by --ordered. */
    static Partition fromOptions(String name, boolean ordered) {
        if (name != null && name.startsWith(Partition.ORDERED_PREFIX)) {
            return Partition.of(name);
        }
        return ordered ? Partition.ordered(name) : Partition.regular(name);
    }
}
