package io.ordo.spring;

import io.ordo.runtime.worker.WorkerOptions;
import org.springframework.boot.context.properties.ConfigurationProperties;

import java.time.Duration;

/**
 * The {@code ordo.*} properties: which backend, where Redis is, whether publishing waits for the
 * transaction's commit, and the defaults of every worker the starter runs (docs/spring-boot.md).
 */
@ConfigurationProperties(prefix = "ordo")
public class OrdoProperties {
    /** Where queues live. */
    public enum Backend {
        /** Redis through Lettuce (the default; needs io.ordo:adapter-lettuce). */
        LETTUCE,
        /** Redis through Jedis (needs io.ordo:adapter-jedis). */
        JEDIS,
        /** This process's memory, for tests and development (needs io.ordo:adapter-inmemory). */
        INMEMORY
    }

    /** Where queues live: lettuce (the default), jedis or inmemory; the backend's adapter must be on the classpath. */
    private Backend backend = Backend.LETTUCE;
    private final Redis redis = new Redis();
    private final Publish publish = new Publish();
    private final Worker worker = new Worker();

    public Backend getBackend() {
        return backend;
    }

    public void setBackend(Backend backend) {
        this.backend = backend;
    }

    public Redis getRedis() {
        return redis;
    }

    public Publish getPublish() {
        return publish;
    }

    public Worker getWorker() {
        return worker;
    }

    public static class Redis {
        /**
         * The Redis URI in Ordo's forms ({@code redis://}, {@code rediss://}, {@code redis-cluster://},
         * {@code redis-sentinel://...?master=NAME}); unset: built from {@code spring.data.redis.*}.
         */
        private String uri;

        public String getUri() {
            return uri;
        }

        public void setUri(String uri) {
            this.uri = uri;
        }
    }

    public static class Publish {
        /** Inside a Spring transaction, publish when it commits and drop the tasks when it rolls back. */
        private boolean afterCommit = true;

        public boolean isAfterCommit() {
            return afterCommit;
        }

        public void setAfterCommit(boolean afterCommit) {
            this.afterCommit = afterCommit;
        }
    }

    public static class Worker {
        /** Whether the handler beans' workers start with the application context. */
        private boolean enabled = true;
        /** Handler threads of a worker whose annotation names none. */
        private int concurrency = WorkerOptions.DEFAULT_CONCURRENCY;
        /** How long running handlers get to finish when the context closes; the rest go back at once. */
        private Duration gracePeriod = WorkerOptions.DEFAULT_GRACE_PERIOD;
        /**
         * How long the handler of a task whose cancellation was asked may keep its thread: interrupted halfway,
         * given up at the end (docs/task-control.md).
         */
        private Duration cancelGrace = WorkerOptions.DEFAULT_CANCEL_GRACE;

        public boolean isEnabled() {
            return enabled;
        }

        public void setEnabled(boolean enabled) {
            this.enabled = enabled;
        }

        public int getConcurrency() {
            return concurrency;
        }

        public void setConcurrency(int concurrency) {
            this.concurrency = concurrency;
        }

        public Duration getGracePeriod() {
            return gracePeriod;
        }

        public void setGracePeriod(Duration gracePeriod) {
            this.gracePeriod = gracePeriod;
        }

        public Duration getCancelGrace() {
            return cancelGrace;
        }

        public void setCancelGrace(Duration cancelGrace) {
            this.cancelGrace = cancelGrace;
        }
    }
}
