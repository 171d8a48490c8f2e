package io.ordo.redis.testing;

import io.ordo.domain.QueueName;
import io.ordo.ports.QueueUnavailableException;
import io.ordo.redis.RedisOptions;
import io.ordo.redis.RedisTaskStoreFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import javax.net.ssl.SSLException;
import java.nio.file.Path;
import java.security.cert.CertificateException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * What TLS adds, on private TLS servers: the client checks who it talks to. A backend's test extends
 * this and supplies its store factory; the contract over TLS runs in {@link RedisDeploymentContractKit}.
 */
@ExtendWith(RedisDeploymentExtension.class)
public abstract class RedisTlsKit {
    /** The backend's store factory. */
    protected abstract RedisTaskStoreFactory createFactory(RedisOptions options);

    private static QueueName freshQueue() {
        return QueueName.of("tls-" + UUID.randomUUID());
    }

    /** The refusal came from the TLS handshake, not from anything else that might go wrong. */
    private static void failedTheHandshake(Throwable error) {
        List<Throwable> causes = new ArrayList<>();
        for (Throwable cause = error; cause != null; cause = cause.getCause()) {
            causes.add(cause);
        }
        assertThat(causes).as("the causes of " + error)
                .anyMatch(cause -> cause instanceof SSLException || cause instanceof CertificateException);
    }

    @Test
    void a_store_over_tls_works_as_the_least_privilege_user(TlsRedisServer server) {
        try (RedisTaskStoreFactory factory = createFactory(server.leastPrivilegeUser())) {
            assertThat(factory.forQueue(freshQueue()).stats().ready()).isZero();
        }
        assertThat(server.aclDenials()).isEmpty();
    }

    @Test
    void a_server_whose_certificate_an_unknown_authority_signed_is_refused(TlsRedisServer server) {
        try (TestCertificates stranger = TestCertificates.authorityOnly()) {
            assertRefusedInTheHandshake(server, stranger.caCertificate());
        }
    }

    @Test
    void a_server_whose_certificate_names_another_host_is_refused() {
        try (TlsRedisServer elsewhere = TlsRedisServer.start(TestCertificates.generate("DNS:elsewhere.example"))) {
            assertRefusedInTheHandshake(elsewhere, elsewhere.caCertificate());
        }
    }

    /** The least-privilege user, trusting {@code trusted}, is refused with a retryable error naming the server. */
    private void assertRefusedInTheHandshake(TlsRedisServer server, Path trusted) {
        RedisOptions options = RedisOptions.builder(server.leastPrivilegeUri())
                .trustedCertificates(trusted).connectTimeout(Duration.ofSeconds(2)).retries(0).build();
        try (RedisTaskStoreFactory factory = createFactory(options)) {
            assertThatThrownBy(() -> factory.forQueue(freshQueue()).stats())
                    .isInstanceOf(QueueUnavailableException.class)
                    .hasMessageContaining("127.0.0.1:" + server.tlsPort())
                    .satisfies(RedisTlsKit::failedTheHandshake);
        }
    }
}
