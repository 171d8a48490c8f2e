package io.ordo.spring;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.context.annotation.Bean;

/**
 * The workers' readiness as the {@code ordo} component of {@code /actuator/health}, when the application
 * has Spring Boot's health support (the actuator) and runs workers.
 */
@AutoConfiguration(after = OrdoAutoConfiguration.class)
@ConditionalOnClass(HealthIndicator.class)
@ConditionalOnBean(OrdoWorkers.class)
public class OrdoHealthAutoConfiguration {
    @Bean
    @ConditionalOnMissingBean(name = "ordoHealthIndicator")
    public OrdoHealthIndicator ordoHealthIndicator(OrdoWorkers workers) {
        return new OrdoHealthIndicator(workers);
    }
}
