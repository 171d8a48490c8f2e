package io.ordo.cli;

import io.ordo.ports.QueueUnavailableException;
import io.ordo.ports.TaskStore;
import io.ordo.ports.TaskStoreFactory;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * {@code --timeout}: a one-shot command gives up on a backend call that has not answered within it,
 * whatever the client library's own timeouts and retries would do (a frozen Redis accepts connections
 * and answers nothing). The call goes on in a daemon thread, which ends with the process.
 */
final class Deadline {
    private static final ExecutorService CALLS = Executors.newCachedThreadPool(job -> {
        Thread thread = new Thread(job, "ordo-backend-call");
        thread.setDaemon(true);
        return thread;
    });

    private static final Duration CLOSE_GRACE = Duration.ofMillis(250);
    /**
     * Operations that take as long as the queue is large, in many short steps (every dead letter of a
     * queue): each step is bounded by the client's command timeout, which is {@code --timeout} too, while
     * the whole may rightly take longer.
     */
    private static final Set<String> MANY_CALLS = Set.of("redriveAll", "purgeAllDeadLetters");

    private final Duration timeout;
    private final String where;

    Deadline(Duration timeout, String where) {
        this.timeout = timeout;
        this.where = where;
    }

    /** The call's answer, or its own exception, or {@link QueueUnavailableException} once the timeout passed. */
    <T> T within(Callable<T> call) {
        Future<T> answer = CALLS.submit(call);
        try {
            return answer.get(timeout.toNanos(), TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            answer.cancel(true);
            throw new QueueUnavailableException(where + " did not answer within " + CliTerms.readable(timeout)
                    + " (--timeout)");
        } catch (InterruptedException e) {
            answer.cancel(true);
            Thread.currentThread().interrupt();
            throw new QueueUnavailableException("interrupted while waiting for " + where);
        } catch (CancellationException e) {
            throw new QueueUnavailableException("the call to " + where + " was cancelled");
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException failure) {
                throw failure;
            }
            if (e.getCause() instanceof Error error) {
                throw error;
            }
            throw new IllegalStateException(e.getCause());
        }
    }

    /**
     * {@code stores} with every call on them and on the stores they open bounded by the timeout. Closing
     * is waited for briefly and quietly: the command's answer is already known, and a slow goodbye to a
     * frozen server must not add a second timeout to the command's time.
     */
    TaskStoreFactory bound(TaskStoreFactory stores) {
        return delegating(TaskStoreFactory.class, stores, (target, method, args) -> {
            if (method.getName().equals("forQueue") || method.getName().equals("forGroup")) {
                return delegating(TaskStore.class, (TaskStore) invoke(target, method, args),
                        (store, call, callArgs) -> MANY_CALLS.contains(call.getName()) ? invoke(store, call, callArgs)
                                : within(() -> invoke(store, call, callArgs)));
            }
            if (method.getName().equals("close")) {
                Future<?> closing = CALLS.submit(() -> invoke(target, method, args));
                try {
                    closing.get(Math.min(timeout.toMillis(), CLOSE_GRACE.toMillis()), TimeUnit.MILLISECONDS);
                } catch (ExecutionException | TimeoutException slowOrFailedClose) {
                    // the daemon thread finishes closing, or the process ends first
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                return null;
            }
            return within(() -> invoke(target, method, args));
        });
    }

    private interface Delegation {
        Object call(Object target, Method method, Object[] args);
    }

    private static <T> T delegating(Class<T> type, T target, Delegation delegation) {
        InvocationHandler handler = (self, method, args) -> delegation.call(target, method, args);
        return type.cast(Proxy.newProxyInstance(Deadline.class.getClassLoader(), new Class<?>[] {type}, handler));
    }

    private static Object invoke(Object target, Method method, Object[] args) {
        try {
            return method.invoke(target, args);
        } catch (InvocationTargetException e) {
            if (e.getCause() instanceof RuntimeException failure) {
                throw failure;
            }
            if (e.getCause() instanceof Error error) {
                throw error;
            }
            throw new IllegalStateException(e.getCause());
        } catch (IllegalAccessException e) {
            throw new IllegalStateException(e);
        }
    }
}
