package io.ordo.architecture;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.lang.ArchRule;
import io.ordo.dashboard.archfixture.DashboardReachingIntoTheRuntime;
import io.ordo.domain.archfixture.DomainReachingOut;
import io.ordo.inmemory.InMemoryTaskStoreFactory;
import io.ordo.lettuce.archfixture.AdapterReachingIntoAnother;
import io.ordo.opshttp.archfixture.OpsServerReachingIntoAnAdapter;
import io.ordo.ports.PortsPackageDeclaredAgain;
import io.ordo.ports.TaskStore;
import io.ordo.ports.archfixture.PortReachingIntoTheRuntime;
import io.ordo.redis.archfixture.RedisSupportReachingOut;
import io.ordo.runtime.archfixture.RuntimeReachingIntoAnAdapter;
import io.ordo.runtime.archfixture.RuntimeReachingIntoSpring;
import io.ordo.runtime.archfixture.RuntimeReachingIntoOpenTelemetry;
import io.ordo.sharding.archfixture.ShardingReachingIntoTheRuntime;
import io.ordo.simulation.archfixture.SimulationReachingIntoABackend;
import io.ordo.spring.archfixture.StarterReachingIntoTheCli;
import io.ordo.tck.archfixture.KitReachingIntoABackend;
import io.ordo.tracing.otel.archfixture.TracingReachingIntoAnAdapter;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import static io.ordo.architecture.ArchitectureRulesTest.*;
import static org.assertj.core.api.Assertions.assertThat;

/** A rule that cannot fail proves nothing: each rule is shown a class that breaks it. */
@Tag("full")
class ArchitectureRulesCatchViolationsTest {
    // imported once for all the tests: an import resolves what the classes reach, which takes seconds
    private static final JavaClasses OFFENDERS = new ClassFileImporter().importClasses(
            DomainReachingOut.class, PortReachingIntoTheRuntime.class, RuntimeReachingIntoAnAdapter.class,
            AdapterReachingIntoAnother.class, RedisSupportReachingOut.class, InMemoryTaskStoreFactory.class,
            DashboardReachingIntoTheRuntime.class, OpsServerReachingIntoAnAdapter.class, ShardingReachingIntoTheRuntime.class,
            KitReachingIntoABackend.class, SimulationReachingIntoABackend.class, RuntimeReachingIntoOpenTelemetry.class,
            TracingReachingIntoAnAdapter.class,
            PortsPackageDeclaredAgain.class, TaskStore.class, RuntimeReachingIntoSpring.class,
            StarterReachingIntoTheCli.class);

    @Test
    void the_domain_rules_catch_guice_jackson_slf4j_and_everything_outside_the_jdk() {
        assertViolated(domain_should_not_depend_on_guice, "com.google.inject.Injector");
        assertViolated(domain_should_not_depend_on_jackson, "com.fasterxml.jackson.databind.ObjectMapper");
        assertViolated(domain_should_not_depend_on_slf4j, "org.slf4j.Logger");
        assertViolated(domain_should_depend_only_on_the_jdk, "io.ordo.cli.OrdoCli");
    }

    @Test
    void the_ports_rule_catches_a_port_using_the_runtime() {
        assertViolated(ports_should_depend_only_on_the_domain_and_the_jdk, "io.ordo.runtime.Publisher");
    }

    @Test
    void the_runtime_rules_catch_a_runtime_class_using_an_adapter() {
        assertViolated(runtime_should_not_depend_on_any_adapter, "InMemoryTaskStoreFactory");
        assertViolated(runtime_should_depend_only_on_ports_domain_and_its_libraries, "InMemoryTaskStoreFactory");
        assertViolated(only_the_applications_should_know_the_adapters, "RuntimeReachingIntoAnAdapter");
    }

    @Test
    void the_adapter_rules_catch_one_adapter_using_another() {
        assertViolated(adapters_should_not_depend_on_each_other, "InMemoryTaskStoreFactory");
        assertViolated(lettuce_adapter_should_depend_only_on_ports_domain_redis_support_and_lettuce, "InMemoryTaskStoreFactory");
        assertViolated(redis_support_should_depend_only_on_ports_and_domain, "com.google.inject.Injector");
    }

    @Test
    void the_embeddable_modules_rules_catch_the_dashboard_using_the_runtime_and_the_ops_server_an_adapter() {
        assertViolated(dashboard_should_depend_only_on_ports_domain_jackson_and_jetty, "io.ordo.runtime.Workers");
        assertViolated(ops_http_should_depend_only_on_the_runtime_micrometer_and_the_jdk_server, "InMemoryTaskStoreFactory");
        assertViolated(only_the_applications_should_know_the_adapters, "OpsServerReachingIntoAnAdapter");
    }

    @Test
    void the_sharding_rule_catches_a_sharded_store_using_the_runtime() {
        assertViolated(sharding_should_depend_only_on_ports_and_domain, "io.ordo.runtime.Workers");
    }

    @Test
    void the_spring_rules_catch_the_runtime_using_spring_or_the_starter_and_the_starter_using_the_cli() {
        assertViolated(only_the_starter_and_the_sample_should_know_spring, "RuntimeReachingIntoSpring");
        assertViolated(only_the_sample_should_know_the_starter, "io.ordo.spring.OrdoPublishers");
        assertViolated(the_starter_should_depend_only_on_the_library_spring_and_micrometer, "io.ordo.cli.OrdoCli");
    }

    @Test
    void the_tracing_rules_catch_opentelemetry_outside_the_tracing_module_and_an_adapter_in_it() {
        assertViolated(only_the_tracing_module_should_know_opentelemetry, "RuntimeReachingIntoOpenTelemetry");
        assertViolated(runtime_should_depend_only_on_ports_domain_and_its_libraries, "io.opentelemetry.api.trace.Tracer");
        assertViolated(tracing_should_depend_only_on_the_runtime_and_the_opentelemetry_api, "InMemoryTaskStoreFactory");
    }

    @Test
    void only_the_cli_may_use_the_cli() {
        assertViolated(nothing_but_the_cli_should_depend_on_the_cli, "io.ordo.cli.OrdoCli");
    }

    @Test
    void the_kit_and_simulation_rules_catch_a_backend_in_them() {
        assertViolated(the_kit_should_know_no_backend, "io.ordo.inmemory.InMemoryTaskStoreFactory");
        assertViolated(the_kit_should_know_no_backend, "io.lettuce.core.RedisClient");
        assertViolated(the_simulation_should_know_no_backend, "io.ordo.redis.RedisOptions");
        assertViolated(the_simulation_should_know_no_backend, "redis.clients.jedis.Jedis");
    }

    @Test
    void the_split_package_rule_catches_a_package_declared_by_two_modules() {
        assertViolated(no_package_should_be_declared_by_more_than_one_module, "io.ordo.ports.PortsPackageDeclaredAgain");
        assertViolated(no_package_should_be_declared_by_more_than_one_module, "io.ordo.ports.TaskStore");
    }

    private void assertViolated(ArchRule rule, String culprit) {
        var result = rule.evaluate(OFFENDERS);
        assertThat(result.hasViolation()).as(rule.getDescription()).isTrue();
        assertThat(result.getFailureReport().toString()).contains(culprit);
    }
}
