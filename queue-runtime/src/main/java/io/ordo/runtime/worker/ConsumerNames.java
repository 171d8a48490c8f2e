package io.ordo.runtime.worker;

import io.ordo.domain.ConsumerId;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The default consumer name: host name and process id, e.g. {@code orders-worker-7c9d-x2kq-1}. On
 * Kubernetes {@code HOSTNAME} is the pod's name, so the consumer names the pod that holds a task.
 */
public final class ConsumerNames {
    private static final String FALLBACK_HOST = "localhost";

    private ConsumerNames() {
    }

    /** The name for this process. */
    public static ConsumerId forThisProcess() {
        return of(System.getenv(), ProcessHandle.current().pid(), ConsumerNames::localHostName);
    }

    /** {@code HOSTNAME} from the environment if set, else the machine's host name; then {@code -pid}. */
    static ConsumerId of(Map<String, String> environment, long pid, Supplier<String> localHostName) {
        String host = environment.get("HOSTNAME");
        if (host == null || host.isBlank()) {
            host = localHostName.get();
        }
        String clean = host.strip().replaceAll("\\p{Cntrl}", "");
        if (clean.isEmpty()) {
            clean = FALLBACK_HOST;
        }
        String suffix = "-" + pid;
        int room = ConsumerId.MAX_LENGTH - suffix.length();
        return ConsumerId.of((clean.length() > room ? clean.substring(0, room) : clean) + suffix);
    }

    private static String localHostName() {
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (UnknownHostException e) {
            return FALLBACK_HOST;
        }
    }
}
