package io.ordo.spring;

import io.ordo.domain.GroupName;
import io.ordo.domain.QueueName;
import io.ordo.runtime.Workers;
import io.ordo.runtime.worker.TaskHandler;
import io.ordo.runtime.worker.Worker;
import io.ordo.runtime.worker.WorkerHealth;
import io.ordo.runtime.worker.WorkerOptions;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.core.ResolvableType;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Runs one {@link Worker} per {@link OrdoWorker} handler bean: started with the application context,
 * stopped first when it closes (the highest phase), all at once, each within its grace period: running
 * handlers finish, tasks not started go back to their queue at once. The store factory, a plain bean,
 * is closed only after that.
 */
public final class OrdoWorkers implements SmartLifecycle {
    private final ConfigurableListableBeanFactory beans;
    private final Workers workers;
    private final OrdoProperties.Worker defaults;
    /** Set once by start; read by health checks without a lock, so a probe never waits for a stop. */
    private volatile List<Worker<?>> running = List.of();
    private volatile boolean started;

    OrdoWorkers(ConfigurableListableBeanFactory beans, Workers workers, OrdoProperties.Worker defaults) {
        this.beans = beans;
        this.workers = workers;
        this.defaults = defaults;
    }

    @Override
    public synchronized void start() {
        if (started) {
            return;
        }
        List<Worker<?>> made = new ArrayList<>();
        for (String name : beans.getBeanNamesForAnnotation(OrdoWorker.class)) {
            made.add(worker(name));
        }
        made.forEach(Worker::start);
        running = List.copyOf(made);
        started = true;
    }

    private Worker<?> worker(String beanName) {
        OrdoWorker annotation = beans.findAnnotationOnBean(beanName, OrdoWorker.class);
        Object bean = beans.getBean(beanName);
        if (!(bean instanceof TaskHandler<?> handler)) {
            throw new IllegalStateException("bean '" + beanName + "' is annotated @OrdoWorker but is no TaskHandler: "
                    + bean.getClass().getName());
        }
        Class<?> type = payloadType(beanName, annotation, bean);
        WorkerOptions options = WorkerOptions.builder()
                .concurrency(annotation.concurrency() > 0 ? annotation.concurrency() : defaults.getConcurrency())
                .gracePeriod(defaults.getGracePeriod())
                .cancelGrace(defaults.getCancelGrace())
                .build();
        GroupName group = annotation.group().isEmpty() ? null : GroupName.of(annotation.group());
        return build(QueueName.of(annotation.queue()), group, type, handler, options);
    }

    @SuppressWarnings("unchecked")
    private <T> Worker<T> build(QueueName queue, GroupName group, Class<T> type, TaskHandler<?> handler,
                                WorkerOptions options) {
        TaskHandler<? super T> typed = (TaskHandler<? super T>) handler;
        return group == null ? workers.worker(queue, type, typed, options)
                : workers.worker(queue, group, type, typed, options);
    }

    private Class<?> payloadType(String beanName, OrdoWorker annotation, Object bean) {
        if (annotation.payloadType() != Void.class) {
            return annotation.payloadType();
        }
        Class<?> type = beans.getMergedBeanDefinition(beanName).getResolvableType().as(TaskHandler.class).resolveGeneric(0);
        if (type == null) {
            type = ResolvableType.forClass(bean.getClass()).as(TaskHandler.class).resolveGeneric(0);
        }
        if (type == null) {
            throw new IllegalStateException("bean '" + beanName + "': the payload type of its TaskHandler is not"
                    + " declared; name it with @OrdoWorker(payloadType = ...)");
        }
        return type;
    }

    /** Stops every worker at once and returns when all have stopped (each within its grace period). */
    @Override
    public synchronized void stop() {
        if (!started) {
            return;
        }
        List<Thread> stopping = new ArrayList<>();
        for (Worker<?> worker : running) {
            Thread thread = new Thread(worker::stop, "ordo-stop-" + worker.queue().value());
            thread.start();
            stopping.add(thread);
        }
        for (Thread thread : stopping) {
            try {
                thread.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        started = false;
    }

    @Override
    public boolean isRunning() {
        return started;
    }

    /** The highest phase: started last, stopped first, while the store and everything else still run. */
    @Override
    public int getPhase() {
        return DEFAULT_PHASE;
    }

    /** Each worker's health, in bean order; empty before the context has started. */
    public Map<Worker<?>, WorkerHealth> health() {
        Map<Worker<?>, WorkerHealth> health = new LinkedHashMap<>();
        running.forEach(worker -> health.put(worker, worker.health()));
        return health;
    }

    /** The workers this context runs. */
    public List<Worker<?>> workers() {
        return running;
    }
}
