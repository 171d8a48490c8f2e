package io.ordo.systemtest;

import java.nio.file.Files;
import java.nio.file.Path;

/** Where the build's files are, wherever the tests run from. */
public final class ProjectFiles {
    private ProjectFiles() {
    }

    /** The directory of the parent pom: the first ancestor of the working directory that holds queue-domain. */
    public static Path projectRoot() {
        Path dir = Path.of("").toAbsolutePath();
        while (dir != null && !Files.isDirectory(dir.resolve("queue-domain"))) {
            dir = dir.getParent();
        }
        if (dir == null) {
            throw new IllegalStateException("no ancestor of " + Path.of("").toAbsolutePath() + " holds queue-domain");
        }
        return dir;
    }
}
