package io.ordo.redis;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Warns once, when a store factory first sends a command, if Redis's eviction policy can delete
 * tasks ({@link EvictionPolicy}): every application that runs workers on Ordo's Redis stores gets
 * the warning in its log, {@code ordo work} included, without asking. It reads {@code INFO memory}
 * on a daemon thread, so no call waits for it; while Redis cannot be reached it asks again, with
 * growing pauses, for at most {@link #GIVE_UP_AFTER}. A user that may not run INFO gets one note
 * instead (ordo doctor checks the deployment with an administrator's URI). Nothing connects before
 * the stores' first command, as before.
 */
final class EvictionWarning {
    static final Duration GIVE_UP_AFTER = Duration.ofMinutes(10);
    private static final Duration FIRST_PAUSE = Duration.ofMillis(500);
    private static final Duration LONGEST_PAUSE = Duration.ofSeconds(30);
    private static final Logger LOG = LoggerFactory.getLogger(EvictionWarning.class);

    private final AtomicBoolean started = new AtomicBoolean();

    /** Starts the check on its first call, and does nothing on every later one. */
    void startOnce(RedisTransport transport) {
        if (started.compareAndSet(false, true)) {
            Thread thread = new Thread(() -> check(transport), "ordo-redis-eviction-check");
            thread.setDaemon(true);
            thread.start();
        }
    }

    /** Reads the policy and logs what it means; the warning's text if one was logged. */
    static Optional<String> check(RedisTransport transport) {
        long giveUpAt = System.nanoTime() + GIVE_UP_AFTER.toNanos();
        Duration pause = FIRST_PAUSE;
        while (true) {
            try {
                return warnAbout(transport, EvictionPolicy.inInfo(transport.info("memory")));
            } catch (RedisUnreachable unreachable) {
                if (System.nanoTime() + pause.toNanos() - giveUpAt > 0 || !sleep(pause)) {
                    return Optional.empty();
                }
                pause = pause.multipliedBy(2).compareTo(LONGEST_PAUSE) > 0 ? LONGEST_PAUSE : pause.multipliedBy(2);
            } catch (RedisErrorReply refused) {
                LOG.info("Redis at {}: cannot read its maxmemory-policy ({}); run ordo doctor with an administrator's URI"
                        + " to check it is {}", transport.endpoint().address(), firstLine(refused.getMessage()), EvictionPolicy.SAFE);
                return Optional.empty();
            } catch (RuntimeException unsupported) {
                return Optional.empty(); // a transport that cannot ask, or one closed meanwhile
            }
        }
    }

    private static Optional<String> warnAbout(RedisTransport transport, Optional<String> policy) {
        if (policy.isEmpty() || !EvictionPolicy.losesTasks(policy.get())) {
            return Optional.empty();
        }
        String warning = "Redis at " + transport.endpoint().address() + ": " + EvictionPolicy.problem(policy.get())
                + "; fix: " + EvictionPolicy.fix();
        LOG.warn(warning);
        return Optional.of(warning);
    }

    private static boolean sleep(Duration pause) {
        try {
            Thread.sleep(pause.toMillis());
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private static String firstLine(String message) {
        return message == null ? "refused" : message.lines().findFirst().orElse(message);
    }
}
