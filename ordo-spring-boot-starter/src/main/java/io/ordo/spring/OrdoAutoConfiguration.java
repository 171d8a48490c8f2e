package io.ordo.spring;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Metrics;
import io.ordo.ports.Clock;
import io.ordo.ports.PayloadCodec;
import io.ordo.ports.TaskPublishing;
import io.ordo.ports.TaskStoreFactory;
import io.ordo.runtime.Workers;
import io.ordo.runtime.codec.JacksonPayloadCodec;
import io.ordo.runtime.worker.Scheduler;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;
import org.springframework.util.ClassUtils;

import java.util.function.Function;
import java.util.random.RandomGenerator;

/**
 * Ordo as beans: the {@link TaskStoreFactory} of {@code ordo.backend}, the payload codec, {@link Workers}
 * reporting to the application's {@link MeterRegistry}, {@link OrdoPublishers}, one worker per
 * {@link OrdoWorker} handler bean ({@link OrdoWorkers}); {@link OrdoHealthAutoConfiguration} adds the health indicator.
 * Every bean but the lifecycle backs off when the application declares its own.
 */
@AutoConfiguration
@EnableConfigurationProperties(OrdoProperties.class)
public class OrdoAutoConfiguration {
    private static final String TRANSACTIONS = "org.springframework.transaction.support.TransactionSynchronizationManager";

    /** Closed with the context, after the workers have stopped. */
    @Bean(destroyMethod = "close")
    @ConditionalOnMissingBean
    public TaskStoreFactory ordoTaskStoreFactory(OrdoProperties properties, Environment environment,
                                                 ConfigurableListableBeanFactory beans) {
        return Backends.factory(properties.getBackend(), environment, beans.getBeanClassLoader());
    }

    /** Ordo's own JSON codec (Jackson 2, its own mapper), not the application's Jackson. */
    @Bean
    @ConditionalOnMissingBean
    public PayloadCodec ordoPayloadCodec() {
        return new JacksonPayloadCodec();
    }

    @Bean
    @ConditionalOnMissingBean
    public Workers ordoWorkerFactory(TaskStoreFactory stores, PayloadCodec codec, ObjectProvider<MeterRegistry> registry) {
        return new Workers(stores, codec, Clock.system(), RandomGenerator.getDefault(), Scheduler.system(),
                registry.getIfAvailable(() -> Metrics.globalRegistry));
    }

    @Bean
    @ConditionalOnMissingBean
    public OrdoPublishers ordoPublishers(TaskStoreFactory stores, PayloadCodec codec, OrdoProperties properties,
                                         ConfigurableListableBeanFactory beans) {
        boolean afterCommit = properties.getPublish().isAfterCommit()
                && ClassUtils.isPresent(TRANSACTIONS, beans.getBeanClassLoader());
        Function<TaskPublishing, TaskPublishing> publishing = afterCommit ? AfterCommitPublishing::new : Function.identity();
        return new OrdoPublishers(stores, codec, publishing);
    }

    @Bean
    @ConditionalOnBooleanProperty(name = "ordo.worker.enabled", matchIfMissing = true)
    public OrdoWorkers ordoWorkers(ConfigurableListableBeanFactory beans, Workers workers, OrdoProperties properties) {
        return new OrdoWorkers(beans, workers, properties.getWorker());
    }
}
