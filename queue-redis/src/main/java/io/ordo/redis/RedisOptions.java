package io.ordo.redis;

import io.ordo.domain.Validate;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;

/**
 * How the Redis stores connect: the endpoint (from a URI) and timeouts, retries and pool size.
 * {@code RedisOptions.create("redis://localhost:6379")} takes the defaults.
 */
public final class RedisOptions {
    public static final Duration DEFAULT_CONNECT_TIMEOUT = Duration.ofSeconds(5);
    public static final Duration DEFAULT_COMMAND_TIMEOUT = Duration.ofSeconds(10);
    /** Times a command that never reached the server is sent again before the call fails. */
    public static final int DEFAULT_RETRIES = 2;
    public static final Duration DEFAULT_RETRY_BACKOFF = Duration.ofMillis(50);
    /** Connections a pooled client (Jedis) keeps at most. */
    public static final int DEFAULT_POOL_SIZE = 16;

    private final RedisEndpoint endpoint;
    private final Duration connectTimeout;
    private final Duration commandTimeout;
    private final int retries;
    private final Duration retryBackoff;
    private final int poolSize;
    private final Path trustedCertificates;

    private RedisOptions(Builder builder) {
        Validate.notNull("endpoint", builder.endpoint);
        this.connectTimeout = positive("connectTimeout", builder.connectTimeout);
        this.commandTimeout = positive("commandTimeout", builder.commandTimeout);
        Validate.range("publishWaitReplicas", builder.waitReplicas, 0, RedisEndpoint.MAX_WAIT_REPLICAS);
        positive("publishWaitTimeout", builder.waitTimeout);
        if (builder.waitReplicas > 0 && builder.waitTimeout.compareTo(commandTimeout) >= 0) {
            throw new io.ordo.domain.InvalidInputException("publishWaitTimeout", "must be shorter than the"
                    + " commandTimeout (" + commandTimeout + "), was " + builder.waitTimeout);
        }
        this.endpoint = builder.endpoint.withPublishWait(builder.waitReplicas, builder.waitTimeout);
        this.retries = Validate.range("retries", builder.retries, 0, 10);
        this.retryBackoff = Validate.duration("retryBackoff", builder.retryBackoff, Duration.ofMinutes(1));
        this.poolSize = Validate.range("poolSize", builder.poolSize, 1, 10_000);
        this.trustedCertificates = builder.trustedCertificates;
        if (trustedCertificates != null && !Files.isReadable(trustedCertificates)) {
            throw new io.ordo.domain.InvalidInputException("trustedCertificates",
                    "is not a readable file: " + trustedCertificates);
        }
    }

    /** The defaults for a server given by URI. */
    public static RedisOptions create(String uri) {
        return builder(RedisEndpoint.parse(uri)).build();
    }

    public static Builder builder(RedisEndpoint endpoint) {
        return new Builder(endpoint);
    }

    public static Builder builder(String uri) {
        return new Builder(RedisEndpoint.parse(uri));
    }

    public RedisEndpoint endpoint() {
        return endpoint;
    }

    public Duration connectTimeout() {
        return connectTimeout;
    }

    public Duration commandTimeout() {
        return commandTimeout;
    }

    public int retries() {
        return retries;
    }

    public Duration retryBackoff() {
        return retryBackoff;
    }

    public int poolSize() {
        return poolSize;
    }

    /**
     * Replicas that must have each publish before it counts as done (Redis {@code WAIT} after the publish
     * script, on the same connection); 0, the default, waits for none. Fewer within
     * {@link #publishWaitTimeout()} fail the publish with a retryable error, though its tasks may exist.
     */
    public int publishWaitReplicas() {
        return endpoint.waitReplicas();
    }

    public Duration publishWaitTimeout() {
        return endpoint.waitTimeout();
    }

    /**
     * The PEM file of the certificates (a CA) a {@code rediss://} server's certificate must chain to;
     * empty: the JVM's trust store. The server's name is verified either way.
     */
    public Optional<Path> trustedCertificates() {
        return Optional.ofNullable(trustedCertificates);
    }

    @Override
    public String toString() {
        return "RedisOptions[" + endpoint + ", connectTimeout=" + connectTimeout + ", commandTimeout="
                + commandTimeout + ", retries=" + retries + ", poolSize=" + poolSize
                + (publishWaitReplicas() == 0 ? "" : ", publishWait=" + publishWaitReplicas() + " replicas within "
                        + publishWaitTimeout())
                + (trustedCertificates == null ? "" : ", trustedCertificates=" + trustedCertificates) + "]";
    }

    private static Duration positive(String field, Duration value) {
        Validate.duration(field, value, Duration.ofHours(1));
        if (value.isZero()) {
            throw new io.ordo.domain.InvalidInputException(field, "must be positive");
        }
        return value;
    }

    public static final class Builder {
        private final RedisEndpoint endpoint;
        private Duration connectTimeout = DEFAULT_CONNECT_TIMEOUT;
        private Duration commandTimeout = DEFAULT_COMMAND_TIMEOUT;
        private int retries = DEFAULT_RETRIES;
        private Duration retryBackoff = DEFAULT_RETRY_BACKOFF;
        private int poolSize = DEFAULT_POOL_SIZE;
        private Path trustedCertificates;
        private int waitReplicas;
        private Duration waitTimeout = RedisEndpoint.DEFAULT_WAIT_TIMEOUT;

        private Builder(RedisEndpoint endpoint) {
            this.endpoint = endpoint;
            if (endpoint != null) { // the URI's ?wait=N&waitTimeout=T
                waitReplicas = endpoint.waitReplicas();
                waitTimeout = endpoint.waitTimeout();
            }
        }

        public Builder connectTimeout(Duration value) {
            connectTimeout = value;
            return this;
        }

        public Builder commandTimeout(Duration value) {
            commandTimeout = value;
            return this;
        }

        public Builder retries(int value) {
            retries = value;
            return this;
        }

        public Builder retryBackoff(Duration value) {
            retryBackoff = value;
            return this;
        }

        public Builder poolSize(int value) {
            poolSize = value;
            return this;
        }

        /** Trust the CA certificates in this PEM file for TLS, instead of the JVM's trust store. */
        public Builder trustedCertificates(Path pemFile) {
            trustedCertificates = pemFile;
            return this;
        }

        /**
         * Confirm every publish by {@code replicas} replicas within {@code timeout} (Redis {@code WAIT});
         * 0 replicas turns it off. The same as the URI's {@code ?wait=N&waitTimeout=T}.
         */
        public Builder publishWait(int replicas, Duration timeout) {
            waitReplicas = replicas;
            waitTimeout = timeout;
            return this;
        }

        public RedisOptions build() {
            return new RedisOptions(this);
        }
    }
}
