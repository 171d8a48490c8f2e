package io.ordo.redis.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A throw-away certificate authority and a server certificate it signs for {@code 127.0.0.1} and
 * {@code localhost}, made with {@code openssl} in a temporary directory (EC P-256 keys: fast to make).
 * Clients that trust {@link #caCertificate()} verify the server's name as they would in production.
 */
public final class TestCertificates implements AutoCloseable {
    private final Path directory;

    private TestCertificates(Path directory) {
        this.directory = directory;
    }

    /** Makes a CA and a server certificate signed by it for 127.0.0.1 and localhost, valid for two days. */
    public static TestCertificates generate() {
        return generate("IP:127.0.0.1,DNS:localhost");
    }

    /** The same for other names (OpenSSL subjectAltName syntax), e.g. to check that clients verify them. */
    public static TestCertificates generate(String subjectAltNames) {
        TestCertificates certificates = authorityOnly();
        certificates.openssl("req", "-new", "-nodes", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
                "-keyout", "server.key", "-out", "server.csr", "-subj", "/CN=localhost");
        certificates.write("server.ext", "subjectAltName=" + subjectAltNames + "\n");
        certificates.openssl("x509", "-req", "-in", "server.csr", "-CA", "ca.crt", "-CAkey", "ca.key",
                "-CAcreateserial", "-out", "server.crt", "-days", "2", "-extfile", "server.ext");
        return certificates;
    }

    /** Only a CA: one that signed nothing a test server shows, to check that clients refuse the server. */
    public static TestCertificates authorityOnly() {
        TestCertificates certificates;
        try {
            certificates = new TestCertificates(Files.createTempDirectory("ordo-tls-"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        certificates.openssl("req", "-x509", "-new", "-nodes", "-newkey", "ec", "-pkeyopt",
                "ec_paramgen_curve:prime256v1", "-keyout", "ca.key", "-out", "ca.crt", "-days", "2",
                "-subj", "/CN=Ordo test CA");
        return certificates;
    }

    /** The CA certificate (PEM) clients trust. */
    public Path caCertificate() {
        return directory.resolve("ca.crt");
    }

    public Path serverCertificate() {
        return directory.resolve("server.crt");
    }

    public Path serverKey() {
        return directory.resolve("server.key");
    }

    /** Deletes the files. */
    @Override
    public void close() {
        try (Stream<Path> files = Files.walk(directory)) {
            files.sorted(Comparator.reverseOrder()).forEach(file -> file.toFile().delete());
        } catch (IOException ignored) {
            // a temporary directory left behind is harmless
        }
    }

    private void write(String name, String content) {
        try {
            Files.writeString(directory.resolve(name), content);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void openssl(String... arguments) {
        List<String> command = new ArrayList<>(List.of("openssl"));
        command.addAll(List.of(arguments));
        try {
            Process process = new ProcessBuilder(command).directory(directory.toFile()).redirectErrorStream(true)
                    .start();
            String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!process.waitFor(30, TimeUnit.SECONDS) || process.exitValue() != 0) {
                process.destroyForcibly();
                throw new IllegalStateException(String.join(" ", command) + " failed: " + output);
            }
        } catch (IOException e) {
            throw new IllegalStateException("openssl is needed to make the TLS tests' certificates and could not run"
                    + " (scripts/test installs it): " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while running openssl", e);
        }
    }
}
