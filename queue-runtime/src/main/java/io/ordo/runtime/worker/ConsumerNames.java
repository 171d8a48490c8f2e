package io.ordo.runtime.worker;

import io.ordo.domain.ConsumerId;
import io.ordo.domain.Text;
import io.ordo.domain.Validate;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.security.SecureRandom;
import java.util.Map;
import java.util.Random;
import java.util.function.Supplier;

/**
 * Consumer names that differ on every start of a process, e.g. {@code orders-worker-7c9d-x2kq-1-k3f9}:
 * a container restarted in place keeps its host name and often its pid (1), and a restarted worker
 * with the dead one's name would keep the dead one's tasks in flight until the processing timeout
 * (docs/decisions/consumer-names.md). On Kubernetes {@code HOSTNAME} is the pod's name, so the
 * name still says which pod holds a task.
 */
public final class ConsumerNames {
    private static final String FALLBACK_HOST = "localhost";
    private static final String TAG_ALPHABET = "0123456789abcdefghijklmnopqrstuvwxyz";
    private static final int TAG_LENGTH = 4;
    /** Drawn once per process start: 36^4 (1.7 million) values, so two starts of one pod practically never share it. */
    private static final String START_TAG = tag(new SecureRandom());

    private ConsumerNames() {
    }

    /** The default name for this process: host name, process id and the start tag. */
    public static ConsumerId forThisProcess() {
        return of(System.getenv(), ProcessHandle.current().pid(), ConsumerNames::localHostName, START_TAG);
    }

    /** {@code base} and this process's start tag: {@code worker-7} becomes {@code worker-7-k3f9}. */
    public static ConsumerId startUnique(String base) {
        Validate.text("consumer", base, ConsumerId.MAX_LENGTH - TAG_LENGTH - 1);
        return ConsumerId.of(base + "-" + START_TAG);
    }

    /** {@code HOSTNAME} from the environment if set, else the machine's host name; then {@code -pid-tag}. */
    static ConsumerId of(Map<String, String> environment, long pid, Supplier<String> localHostName, String startTag) {
        String host = environment.get("HOSTNAME");
        if (host == null || host.isBlank()) {
            host = localHostName.get();
        }
        // only what a consumer name may hold: no controls, format characters, separators or lone surrogates
        String clean = host.strip().replaceAll("[\\p{Cc}\\p{Cf}\\p{Zl}\\p{Zp}\\p{Cs}]", "");
        if (clean.isEmpty()) {
            clean = FALLBACK_HOST;
        }
        return suffixed(clean, "-" + pid + "-" + startTag);
    }

    /** This process's start tag. */
    static String startTag() {
        return START_TAG;
    }

    static String tag(Random random) {
        StringBuilder tag = new StringBuilder(TAG_LENGTH);
        for (int i = 0; i < TAG_LENGTH; i++) {
            tag.append(TAG_ALPHABET.charAt(random.nextInt(TAG_ALPHABET.length())));
        }
        return tag.toString();
    }

    private static ConsumerId suffixed(String base, String suffix) {
        return ConsumerId.of(Text.prefix(base, ConsumerId.MAX_LENGTH - suffix.length()) + suffix);
    }

    private static String localHostName() {
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (UnknownHostException e) {
            return FALLBACK_HOST;
        }
    }
}
