package io.ordo.architecture;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.core.importer.Location;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTag;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import com.tngtech.archunit.library.dependencies.SliceAssignment;
import com.tngtech.archunit.library.dependencies.SliceIdentifier;

import java.util.Collection;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The architecture rules, checked on the main classes of every module: this module depends on every other
 * one (docs/decisions/architecture-rules.md).
 */
@AnalyzeClasses(packages = "io.ordo",
        importOptions = {ImportOption.DoNotIncludeTests.class, ArchitectureRulesTest.DoNotIncludeTestKits.class})
@ArchTag("full") // ArchUnit's engine runs these rules; it reads its own tag annotation, not JUnit's @Tag
class ArchitectureRulesTest {
    private static final String DOMAIN = "io.ordo.domain..";
    private static final String PORTS = "io.ordo.ports..";
    private static final String RUNTIME = "io.ordo.runtime..";
    private static final String CLI = "io.ordo.cli..";
    private static final String BENCHMARKS = "io.ordo.benchmarks..";
    private static final String REDIS_SUPPORT = "io.ordo.redis..";
    private static final String INMEMORY = "io.ordo.inmemory..";
    private static final String LETTUCE = "io.ordo.lettuce..";
    private static final String JEDIS = "io.ordo.jedis..";
    private static final String DASHBOARD = "io.ordo.dashboard..";
    private static final String OPS_HTTP = "io.ordo.opshttp..";
    private static final String KIT = "io.ordo.tck..";
    private static final String SIMULATION = "io.ordo.simulation..";
    private static final String SHARDING = "io.ordo.sharding..";
    private static final String SCHEDULES = "io.ordo.schedules..";
    private static final String STARTER = "io.ordo.spring..";
    private static final String EXAMPLES = "io.ordo.examples..";
    private static final String TRACING = "io.ordo.tracing.otel..";
    private static final String[] ADAPTERS = {INMEMORY, LETTUCE, JEDIS};
    private static final String[] ADAPTERS_AND_REDIS_SUPPORT = {INMEMORY, LETTUCE, JEDIS, REDIS_SUPPORT};

    private static final String GUICE = "com.google.inject..";
    private static final String INJECT_ANNOTATIONS = "jakarta.inject..";
    private static final String JACKSON = "com.fasterxml.jackson..";
    private static final String SLF4J = "org.slf4j..";
    private static final String MICROMETER = "io.micrometer..";
    private static final String LETTUCE_CLIENT = "io.lettuce..";
    private static final String JEDIS_CLIENT = "redis.clients..";
    /** The JDK's TLS, for rediss:// connections. */
    private static final String JDK_TLS = "javax.net..";
    private static final String JETTY = "org.eclipse.jetty..";
    private static final String JDK_HTTP_SERVER = "com.sun.net.httpserver..";
    private static final String SPRING = "org.springframework..";
    private static final String OPENTELEMETRY = "io.opentelemetry..";
    private static final String CRON_UTILS = "com.cronutils..";

    // --- the domain: JDK only

    @ArchTest
    static final ArchRule domain_should_depend_only_on_the_jdk = classes()
            .that().resideInAPackage(DOMAIN)
            .should().onlyDependOnClassesThat().resideInAnyPackage("java..", DOMAIN);

    @ArchTest
    static final ArchRule domain_should_not_depend_on_guice = noClasses()
            .that().resideInAPackage(DOMAIN)
            .should().dependOnClassesThat().resideInAnyPackage(GUICE, INJECT_ANNOTATIONS, "javax.inject..");

    @ArchTest
    static final ArchRule domain_should_not_depend_on_jackson = noClasses()
            .that().resideInAPackage(DOMAIN)
            .should().dependOnClassesThat().resideInAPackage(JACKSON);

    @ArchTest
    static final ArchRule domain_should_not_depend_on_redis_clients = noClasses()
            .that().resideInAPackage(DOMAIN)
            .should().dependOnClassesThat().resideInAnyPackage(LETTUCE_CLIENT, JEDIS_CLIENT);

    @ArchTest
    static final ArchRule domain_should_not_depend_on_slf4j = noClasses()
            .that().resideInAPackage(DOMAIN)
            .should().dependOnClassesThat().resideInAPackage(SLF4J);

    @ArchTest
    static final ArchRule domain_should_not_depend_on_micrometer = noClasses()
            .that().resideInAPackage(DOMAIN)
            .should().dependOnClassesThat().resideInAPackage(MICROMETER);

    // --- the ports: the domain only

    @ArchTest
    static final ArchRule ports_should_depend_only_on_the_domain_and_the_jdk = classes()
            .that().resideInAPackage(PORTS)
            .should().onlyDependOnClassesThat().resideInAnyPackage("java..", DOMAIN, PORTS);

    // --- the runtime: ports, domain and its own libraries, never an adapter

    @ArchTest
    static final ArchRule runtime_should_not_depend_on_any_adapter = noClasses()
            .that().resideInAPackage(RUNTIME)
            .should().dependOnClassesThat().resideInAnyPackage(ADAPTERS_AND_REDIS_SUPPORT)
            .allowEmptyShould(true);

    // Guice on purpose: RuntimeModule wires workers on top of whichever backend module the application
    // installs (docs/decisions/worker-wiring.md); Micrometer for the metrics binding. Still never an adapter.
    @ArchTest
    static final ArchRule runtime_should_depend_only_on_ports_domain_and_its_libraries = classes()
            .that().resideInAPackage(RUNTIME)
            .should().onlyDependOnClassesThat().resideInAnyPackage("java..", DOMAIN, PORTS, RUNTIME,
                    JACKSON, SLF4J, MICROMETER, GUICE, INJECT_ANNOTATIONS);

    @ArchTest
    static final ArchRule nothing_but_the_cli_should_depend_on_the_cli = noClasses()
            .that().resideOutsideOfPackage(CLI)
            .should().dependOnClassesThat().resideInAPackage(CLI);

    // --- what a service embeds: the dashboard knows the ports, the ops server the runtime; neither a backend

    @ArchTest
    static final ArchRule dashboard_should_depend_only_on_ports_domain_jackson_and_jetty = classes()
            .that().resideInAPackage(DASHBOARD)
            .should().onlyDependOnClassesThat().resideInAnyPackage("java..", DOMAIN, PORTS, DASHBOARD, JACKSON, JETTY);

    @ArchTest
    static final ArchRule ops_http_should_depend_only_on_the_runtime_micrometer_and_the_jdk_server = classes()
            .that().resideInAPackage(OPS_HTTP)
            .should().onlyDependOnClassesThat().resideInAnyPackage("java..", JDK_HTTP_SERVER, DOMAIN, PORTS, RUNTIME,
                    OPS_HTTP, MICROMETER);

    // --- Spring: only the starter and the sample know it; the starter knows Ordo's modules, no Ordo module knows it

    @ArchTest
    static final ArchRule only_the_starter_and_the_sample_should_know_spring = noClasses()
            .that().resideOutsideOfPackages(STARTER, EXAMPLES)
            .should().dependOnClassesThat().resideInAPackage(SPRING);

    @ArchTest
    static final ArchRule only_the_sample_should_know_the_starter = noClasses()
            .that().resideOutsideOfPackages(STARTER, EXAMPLES)
            .should().dependOnClassesThat().resideInAPackage(STARTER);

    @ArchTest
    static final ArchRule the_starter_should_depend_only_on_the_library_spring_and_micrometer = classes()
            .that().resideInAPackage(STARTER)
            .should().onlyDependOnClassesThat().resideInAnyPackage("java..", DOMAIN, PORTS, RUNTIME, REDIS_SUPPORT,
                    INMEMORY, LETTUCE, JEDIS, STARTER, SPRING, MICROMETER);

    // --- tracing: the one module that knows OpenTelemetry, over the runtime's interceptors

    @ArchTest
    static final ArchRule only_the_tracing_module_should_know_opentelemetry = noClasses()
            .that().resideOutsideOfPackage(TRACING)
            .should().dependOnClassesThat().resideInAPackage(OPENTELEMETRY);

    @ArchTest
    static final ArchRule tracing_should_depend_only_on_the_runtime_and_the_opentelemetry_api = classes()
            .that().resideInAPackage(TRACING)
            .should().onlyDependOnClassesThat().resideInAnyPackage("java..", DOMAIN, PORTS, RUNTIME, TRACING,
                    OPENTELEMETRY);

    // --- sharding: a store over stores, on the ports alone

    @ArchTest
    static final ArchRule sharding_should_depend_only_on_ports_and_domain = classes()
            .that().resideInAPackage(SHARDING)
            .should().onlyDependOnClassesThat().resideInAnyPackage("java..", DOMAIN, PORTS, SHARDING);

    // --- schedules: a schedule's slots, on the domain and cron-utils alone; the stores use it

    @ArchTest
    static final ArchRule schedules_should_depend_only_on_the_domain_and_cron_utils = classes()
            .that().resideInAPackage(SCHEDULES)
            .should().onlyDependOnClassesThat().resideInAnyPackage("java..", DOMAIN, SCHEDULES, CRON_UTILS)
            .allowEmptyShould(true);

    // --- adapters: ports and domain plus their own libraries, never each other

    @ArchTest
    static final ArchRule adapters_should_not_depend_on_each_other = slices()
            .assignedFrom(new AdapterSlices())
            .should().notDependOnEachOther()
            .allowEmptyShould(true);

    // The applications pick a backend at run time: the CLI (--backend), the benchmark harness, which
    // runs each Redis client side by side, and the Spring Boot starter (ordo.backend).
    @ArchTest
    static final ArchRule only_the_applications_should_know_the_adapters = noClasses()
            .that().resideOutsideOfPackages(CLI, BENCHMARKS, STARTER, INMEMORY, LETTUCE, JEDIS)
            .should().dependOnClassesThat().resideInAnyPackage(ADAPTERS);

    @ArchTest
    static final ArchRule inmemory_adapter_should_depend_only_on_ports_domain_and_guice = classes()
            .that().resideInAPackage(INMEMORY)
            .should().onlyDependOnClassesThat().resideInAnyPackage("java..", DOMAIN, PORTS, SCHEDULES, INMEMORY,
                    GUICE, INJECT_ANNOTATIONS, SLF4J)
            .allowEmptyShould(true);

    @ArchTest
    static final ArchRule redis_support_should_depend_only_on_ports_and_domain = classes()
            .that().resideInAPackage(REDIS_SUPPORT)
            .should().onlyDependOnClassesThat().resideInAnyPackage("java..", JDK_TLS, DOMAIN, PORTS, SCHEDULES,
                    REDIS_SUPPORT, SLF4J)
            .allowEmptyShould(true);

    @ArchTest
    static final ArchRule lettuce_adapter_should_depend_only_on_ports_domain_redis_support_and_lettuce = classes()
            .that().resideInAPackage(LETTUCE)
            .should().onlyDependOnClassesThat().resideInAnyPackage("java..", JDK_TLS, DOMAIN, PORTS, REDIS_SUPPORT, LETTUCE,
                    LETTUCE_CLIENT, "io.netty..", "reactor..", GUICE, INJECT_ANNOTATIONS, SLF4J)
            .allowEmptyShould(true);

    @ArchTest
    static final ArchRule jedis_adapter_should_depend_only_on_ports_domain_redis_support_and_jedis = classes()
            .that().resideInAPackage(JEDIS)
            .should().onlyDependOnClassesThat().resideInAnyPackage("java..", JDK_TLS, DOMAIN, PORTS, REDIS_SUPPORT, JEDIS,
                    JEDIS_CLIENT, "org.apache.commons.pool2..", GUICE, INJECT_ANNOTATIONS, SLF4J)
            .allowEmptyShould(true);

    // --- the contract kit and the simulation: over the ports only, so every backend runs them alike

    @ArchTest
    static final ArchRule the_kit_should_know_no_backend = noClasses()
            .that().resideInAPackage(KIT)
            .should().dependOnClassesThat().resideInAnyPackage(INMEMORY, REDIS_SUPPORT, LETTUCE, JEDIS,
                    LETTUCE_CLIENT, JEDIS_CLIENT);

    @ArchTest
    static final ArchRule the_simulation_should_know_no_backend = noClasses()
            .that().resideInAPackage(SIMULATION)
            .should().dependOnClassesThat().resideInAnyPackage(INMEMORY, REDIS_SUPPORT, LETTUCE, JEDIS,
                    LETTUCE_CLIENT, JEDIS_CLIENT);

    // --- modules: each package is declared by one module only

    @ArchTest
    static final ArchRule no_package_should_be_declared_by_more_than_one_module = classes()
            .should(new DeclareAPackageNoOtherModuleDeclares());

    // --- the rules above see what they are meant to see

    @ArchTest
    static void the_rules_see_the_main_classes_of_every_module_on_the_classpath(JavaClasses imported) {
        Set<String> modules = imported.stream()
                .map(JavaClass::getPackageName)
                .map(name -> name.split("\\.")[2])
                .collect(Collectors.toSet());

        assertThat(modules).contains("domain", "ports", "runtime", "inmemory", "tck", "simulation", "redis", "lettuce",
                "jedis", "sharding", "dashboard", "opshttp", "tracing", "cli", "benchmarks", "jmh", "spring", "examples");
        assertThat(imported.stream().map(JavaClass::getSimpleName)).doesNotContain("ArchitectureRulesTest");
    }

    /**
     * Test kits are tests, not main classes: any test-jar, queue-redis-testkit (Redis test servers and kits)
     * and system-testkit, which starts {@code ordo} and opens both Redis backends for tests.
     */
    static final class DoNotIncludeTestKits implements ImportOption {
        @Override
        public boolean includes(Location location) {
            return !location.contains("-tests.jar") && !location.contains("queue-redis-testkit")
                    && !location.contains("system-testkit");
        }
    }

    /**
     * The module of a class is where its class file was read from: a module's target/classes or its jar.
     * A package found in two such places is split between modules.
     */
    static final class DeclareAPackageNoOtherModuleDeclares extends ArchCondition<JavaClass> {
        private Map<String, Set<String>> modulesByPackage = Map.of();

        DeclareAPackageNoOtherModuleDeclares() {
            super("declare a package that no other module declares");
        }

        @Override
        public void init(Collection<JavaClass> classes) {
            modulesByPackage = classes.stream().collect(Collectors.groupingBy(JavaClass::getPackageName,
                    Collectors.mapping(DeclareAPackageNoOtherModuleDeclares::moduleOf,
                            Collectors.toCollection(TreeSet::new))));
        }

        @Override
        public void check(JavaClass javaClass, ConditionEvents events) {
            Set<String> modules = modulesByPackage.getOrDefault(javaClass.getPackageName(), Set.of());
            if (modules.size() > 1) {
                events.add(SimpleConditionEvent.violated(javaClass, javaClass.getName() + " is in package "
                        + javaClass.getPackageName() + ", declared by more than one module: " + modules));
            }
        }

        /** The class-file location up to where the package's directories begin. */
        static String moduleOf(JavaClass javaClass) {
            String location = javaClass.getSource().map(source -> source.getUri().toString()).orElse("unknown");
            String packagePath = "/" + javaClass.getPackageName().replace('.', '/') + "/";
            int packageStart = location.lastIndexOf(packagePath);
            return packageStart < 0 ? location : location.substring(0, packageStart);
        }
    }

    /** One slice per adapter package, e.g. {@code io.ordo.lettuce..} is "lettuce"; other classes are in no slice. */
    static final class AdapterSlices implements SliceAssignment {
        private static final Set<String> ADAPTER_NAMES = Set.of("inmemory", "lettuce", "jedis");

        @Override
        public SliceIdentifier getIdentifierOf(JavaClass javaClass) {
            String[] parts = javaClass.getPackageName().split("\\.");
            return parts.length > 2 && parts[0].equals("io") && parts[1].equals("ordo") && ADAPTER_NAMES.contains(parts[2])
                    ? SliceIdentifier.of(parts[2])
                    : SliceIdentifier.ignore();
        }

        @Override
        public String getDescription() {
            return "adapters (io.ordo.inmemory, io.ordo.lettuce, io.ordo.jedis)";
        }
    }
}
