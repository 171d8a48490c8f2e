package io.ordo.redis.testing;

import io.ordo.redis.RedisAcl;
import io.ordo.redis.RedisOptions;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A private redis-server that serves TLS on one port, with certificates made for it by the test
 * ({@link TestCertificates}), and plain text on another that only the test's own setup uses
 * ({@link #server()}: ACL users, inspection). Clients need no certificate of their own.
 */
public final class TlsRedisServer implements RedisDeployment {
    private static final String USER = "ordo-tls";
    private static final String PASSWORD = "tls-secret";

    private final RedisServer server;
    private final int tlsPort;
    private final TestCertificates certificates;

    private TlsRedisServer(RedisServer server, int tlsPort, TestCertificates certificates) {
        this.server = server;
        this.tlsPort = tlsPort;
        this.certificates = certificates;
    }

    public static TlsRedisServer start() {
        return start(TestCertificates.generate());
    }

    /** A server that shows the given certificates' server certificate. */
    public static TlsRedisServer start(TestCertificates certificates) {
        int tlsPort = RedisServer.freePort();
        RedisServer server = RedisServer.start(RedisServer::freePort, List.of(
                "--tls-port", Integer.toString(tlsPort),
                "--tls-cert-file", certificates.serverCertificate().toAbsolutePath().toString(),
                "--tls-key-file", certificates.serverKey().toAbsolutePath().toString(),
                "--tls-ca-cert-file", certificates.caCertificate().toAbsolutePath().toString(),
                "--tls-auth-clients", "no"));
        return new TlsRedisServer(server, tlsPort, certificates);
    }

    /** The same server on its plain port, for the test's setup commands. */
    public RedisServer server() {
        return server;
    }

    public int tlsPort() {
        return tlsPort;
    }

    /** {@code rediss://user:password@127.0.0.1:<tls port>}. */
    public String uri(String user, String password) {
        return "rediss://" + user + ":" + password + "@" + server.host() + ":" + tlsPort;
    }

    /** The PEM file of the CA that signed the server's certificate. */
    public Path caCertificate() {
        return certificates.caCertificate();
    }

    /** Creates Ordo's least-privilege user (rules of {@code RedisAcl}) and returns its URI, password included. */
    public String leastPrivilegeUri() {
        List<String> command = new ArrayList<>(List.of("ACL", "SETUSER", USER, "on", ">" + PASSWORD));
        command.addAll(RedisAcl.rules(false));
        server.command(command.toArray(String[]::new));
        return uri(USER, PASSWORD);
    }

    @Override
    public RedisOptions leastPrivilegeUser() {
        return RedisOptions.builder(leastPrivilegeUri()).trustedCertificates(caCertificate()).build();
    }

    @Override
    public List<Object> aclDenials() {
        return List.copyOf((List<?>) server.command("ACL", "LOG"));
    }

    @Override
    public void close() {
        server.close();
        certificates.close();
    }
}
