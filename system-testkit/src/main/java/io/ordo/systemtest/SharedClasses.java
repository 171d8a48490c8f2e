package io.ordo.systemtest;

import java.io.File;
import java.io.IOException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A class data sharing archive (CDS, the JDK's {@code -XX:SharedArchiveFile}) of the classes an {@code ordo}
 * process loads, so the many short {@code ordo} JVMs of the process and fault tests map them instead of
 * loading, verifying and linking them each time: about a second of CPU less per start (a {@code stats} 2.4 s
 * against 1.4 s, a worker 3.0 s against 2.2 s), a hundred starts and more per run of system-tests. The JVM
 * reads only jars from an archive, and only if the class path starts with the jars it was made from, so the
 * class path puts the jars first and directories (test classes) after them. Made once per class path, under
 * target/ordo-cds, by three short runs of {@code ordo} that record the classes they load; if anything fails,
 * the processes start as before, without it. A JVM that cannot use an archive says nothing and loads its
 * classes itself.
 */
final class SharedClasses {
    private static final String MAIN_CLASS = "io.ordo.cli.OrdoCli";
    private static final long STEP_TIMEOUT_SECONDS = 120;

    private static List<String> options;
    private static String classPath;

    private SharedClasses() {
    }

    /** The JVM options that map the archive (none if there is none), for a JVM started with {@code jvmOptions}. */
    static synchronized List<String> options(List<String> jvmOptions) {
        prepare(jvmOptions);
        return options;
    }

    /** This run's class path, its jars first (the archive's, in order), then everything else in order. */
    static synchronized String classPath(List<String> jvmOptions) {
        prepare(jvmOptions);
        return classPath;
    }

    private static void prepare(List<String> jvmOptions) {
        if (options != null) {
            return;
        }
        List<String> jars = new ArrayList<>();
        List<String> rest = new ArrayList<>();
        for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
            if (entry.endsWith(".jar") && Files.isRegularFile(Path.of(entry))) {
                jars.add(entry);
            } else if (!entry.isEmpty()) {
                rest.add(entry);
            }
        }
        List<String> ordered = new ArrayList<>(jars);
        ordered.addAll(rest);
        classPath = String.join(File.pathSeparator, ordered);
        options = List.of();
        if (jars.isEmpty()) {
            return;
        }
        try {
            String jarPath = String.join(File.pathSeparator, jars);
            Path archive = archive(jarPath, jars, jvmOptions);
            List<String> mapping = List.of("-XX:SharedArchiveFile=" + archive, "-Xshare:auto");
            // -Xshare:on fails rather than falls back: the archive is used only if this JVM can map it
            if (run(java(jvmOptions, List.of("-Xshare:on", "-XX:SharedArchiveFile=" + archive, "-cp", classPath,
                    "-version"))) == 0) {
                options = mapping;
            }
        } catch (IOException | RuntimeException e) {
            options = List.of(); // the processes start without it
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** The archive for these jars and options, made if it is not there yet. */
    private static Path archive(String jarPath, List<String> jars, List<String> jvmOptions)
            throws IOException, InterruptedException {
        StringBuilder key = new StringBuilder(System.getProperty("java.home")).append('\n')
                .append(String.join(" ", jvmOptions)).append('\n');
        for (String jar : jars) {
            Path file = Path.of(jar);
            // a rebuilt jar at the same path makes a new archive (the JVM would refuse the old one)
            key.append(jar).append(' ').append(Files.size(file)).append(' ')
                    .append(Files.getLastModifiedTime(file).toMillis()).append('\n');
        }
        Path directory = Files.createDirectories(Path.of("target", "ordo-cds").toAbsolutePath());
        Path archive = directory.resolve(sha256(key.toString()) + ".jsa");
        if (Files.isRegularFile(archive)) {
            return archive;
        }
        Path work = Files.createTempDirectory(directory, "making-");
        try {
            Path list = work.resolve("classes.lst");
            LinkedHashSet<String> classes = new LinkedHashSet<>();
            // a worker, and the two Redis clients as far as a refused connection takes them
            for (List<String> args : List.of(
                    List.of("work", "--backend", "inmemory", "--until-empty", "--metrics-port", "0"),
                    List.of("stats", "--backend", "lettuce", "--redis", "redis://127.0.0.1:1", "--timeout", "5s"),
                    List.of("stats", "--backend", "jedis", "--redis", "redis://127.0.0.1:1", "--timeout", "5s"))) {
                List<String> command = new ArrayList<>(List.of("-XX:DumpLoadedClassList=" + list, "-cp", classPath,
                        MAIN_CLASS));
                command.addAll(args);
                run(java(jvmOptions, command));
                if (Files.isRegularFile(list)) {
                    // JDK 17 can crash while archiving lambda proxies: plain classes only
                    Files.readAllLines(list, StandardCharsets.UTF_8).stream()
                            .filter(line -> !line.startsWith("@")).forEach(classes::add);
                }
            }
            if (classes.isEmpty()) {
                throw new IOException("no classes recorded");
            }
            Files.write(list, classes, StandardCharsets.UTF_8);
            Path made = work.resolve("ordo.jsa");
            if (run(java(jvmOptions, List.of("-Xshare:dump", "-XX:SharedClassListFile=" + list,
                    "-XX:SharedArchiveFile=" + made, "-cp", jarPath))) != 0 || !Files.isRegularFile(made)) {
                throw new IOException("the archive was not made");
            }
            // another test JVM may make the same one at once: either is as good
            Files.move(made, archive, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            return archive;
        } finally {
            try (var files = Files.list(work)) {
                for (Path file : files.toList()) {
                    Files.deleteIfExists(file);
                }
            }
            Files.deleteIfExists(work);
        }
    }

    private static List<String> java(List<String> jvmOptions, List<String> more) {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(jvmOptions);
        command.addAll(more);
        return command;
    }

    /** Runs the command with its output discarded; its exit code, or -1 if it ran past the timeout. */
    private static int run(List<String> command) throws IOException, InterruptedException {
        Process process = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        if (!process.waitFor(STEP_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor();
            return -1;
        }
        return process.exitValue();
    }

    private static String sha256(String text) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
            return String.format("%064x", new BigInteger(1, digest)).substring(0, 16);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
