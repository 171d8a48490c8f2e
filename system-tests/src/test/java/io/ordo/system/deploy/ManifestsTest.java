package io.ordo.system.deploy;

import com.fasterxml.jackson.databind.JsonNode;
import io.ordo.cli.OrdoCli;
import io.ordo.system.deploy.DeployKit.Manifest;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import picocli.CommandLine.Option;

import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import static org.assertj.core.api.Assertions.assertThat;

/** What the manifests promise without a running worker: secrets, scheduling, resources, scaling behaviour. */
@Tag("full")
class ManifestsTest {
    private final JsonNode deployment = DeployKit.single("Deployment").document();
    private final JsonNode container = DeployKit.workerContainer();

    @Test
    void every_yaml_file_under_deploy_parses_and_every_manifest_names_its_kind() {
        List<Manifest> manifests = DeployKit.manifests();

        assertThat(manifests).extracting(Manifest::kind).contains("Deployment", "ScaledObject", "HorizontalPodAutoscaler",
                "PrometheusRule", "PodMonitor", "Kustomization");
        assertThat(manifests).filteredOn(manifest -> !manifest.file().endsWith("prometheus-adapter-values.yaml"))
                .allSatisfy(manifest -> assertThat(manifest.document().path("apiVersion").asText()).as(manifest.toString()).isNotEmpty());
    }

    @Test
    void every_kustomization_lists_files_and_directories_that_exist() {
        for (Manifest kustomization : DeployKit.ofKind("Kustomization")) {
            for (JsonNode resource : kustomization.document().path("resources")) {
                assertThat(kustomization.file().resolveSibling(resource.asText())).as(kustomization + " resource").exists();
            }
        }
    }

    @Test
    void the_redis_uri_comes_from_a_secret_through_the_variable_the_cli_reads() {
        String variable = "ORDO_REDIS_URI";
        // the option's declaration, before picocli resolves it from this JVM's environment
        Object declared = OrdoCli.commandLine().getSubcommands().get("work").getCommandSpec().findOption("--redis").userObject();
        assertThat(declared).as("--redis is an annotated field").isInstanceOf(Field.class);
        assertThat(((Field) declared).getAnnotation(Option.class).defaultValue()).isEqualTo("${env:" + variable + "}");

        JsonNode redisUri = null;
        for (JsonNode env : container.path("env")) {
            if (env.path("name").asText().equals(variable)) {
                redisUri = env;
            }
        }
        assertThat(redisUri).as("the worker container sets " + variable).isNotNull();
        assertThat(redisUri.at("/valueFrom/secretKeyRef/name").asText()).isNotEmpty();
        assertThat(container.path("args").toString()).doesNotContain("--redis");
    }

    @Test
    void the_worker_runs_the_images_entrypoint_as_a_non_root_user_with_requests_and_limits() {
        assertThat(container.has("command")).as("no command: the image's entrypoint runs the jar").isFalse();
        assertThat(container.at("/args/0").asText()).isEqualTo("work");
        assertThat(deployment.at("/spec/template/spec/securityContext/runAsNonRoot").asBoolean()).isTrue();
        assertThat(container.at("/securityContext/allowPrivilegeEscalation").asBoolean(true)).isFalse();
        for (String kind : List.of("requests", "limits")) {
            assertThat(container.at("/resources/" + kind + "/memory").asText()).as(kind + " memory").isNotEmpty();
            assertThat(container.at("/resources/" + kind + "/cpu").asText()).as(kind + " cpu").isNotEmpty();
        }
    }

    @Test
    void workers_prefer_different_nodes() {
        JsonNode terms = deployment.at("/spec/template/spec/affinity/podAntiAffinity/preferredDuringSchedulingIgnoredDuringExecution");
        assertThat(terms).isNotEmpty();
        JsonNode term = terms.get(0).path("podAffinityTerm");
        assertThat(term.path("topologyKey").asText()).isEqualTo("kubernetes.io/hostname");
        JsonNode podLabels = deployment.at("/spec/template/metadata/labels");
        term.at("/labelSelector/matchLabels").fields().forEachRemaining(label ->
                assertThat(podLabels.path(label.getKey()).asText()).as("pod label " + label.getKey()).isEqualTo(label.getValue().asText()));
    }

    @Test
    void both_scalers_target_the_deployment_keep_one_worker_and_scale_up_fast_and_down_slow() {
        String deploymentName = deployment.at("/metadata/name").asText();
        JsonNode keda = DeployKit.single("ScaledObject").document().path("spec");
        JsonNode hpa = DeployKit.single("HorizontalPodAutoscaler").document().path("spec");

        assertThat(keda.at("/scaleTargetRef/name").asText()).isEqualTo(deploymentName);
        assertThat(hpa.at("/scaleTargetRef/name").asText()).isEqualTo(deploymentName);
        // with no worker there are no queue gauges to scale up on
        assertThat(keda.path("minReplicaCount").asInt()).isGreaterThanOrEqualTo(1);
        assertThat(hpa.path("minReplicas").asInt()).isGreaterThanOrEqualTo(1);
        for (JsonNode behavior : List.of(keda.at("/advanced/horizontalPodAutoscalerConfig/behavior"), hpa.path("behavior"))) {
            assertThat(behavior.at("/scaleUp/stabilizationWindowSeconds").asInt()).isZero();
            assertThat(behavior.at("/scaleDown/stabilizationWindowSeconds").asInt()).isGreaterThanOrEqualTo(300);
        }
        assertThat(keda.path("triggers")).extracting(trigger -> trigger.path("metricType").asText())
                .containsExactly("AverageValue", "Value");
    }

    @Test
    void the_hpa_asks_prometheus_adapter_only_for_metrics_its_rules_serve() {
        Set<String> served = new TreeSet<>();
        DeployKit.prometheusAdapterValues().document().at("/rules/external")
                .forEach(rule -> served.add(rule.at("/name/as").asText()));
        JsonNode metrics = DeployKit.single("HorizontalPodAutoscaler").document().at("/spec/metrics");

        assertThat(metrics).isNotEmpty().allSatisfy(metric -> {
            assertThat(metric.path("type").asText()).isEqualTo("External");
            assertThat(served).contains(metric.at("/external/metric/name").asText());
        });
    }

    @Test
    void every_alert_has_a_severity_a_summary_and_a_known_name() {
        List<String> alerts = new ArrayList<>();
        for (JsonNode group : DeployKit.single("PrometheusRule").document().at("/spec/groups")) {
            for (JsonNode rule : group.path("rules")) {
                alerts.add(rule.path("alert").asText());
                assertThat(rule.at("/labels/severity").asText()).isIn("warning", "critical");
                assertThat(rule.at("/annotations/summary").asText()).isNotEmpty();
            }
        }
        assertThat(alerts).containsExactlyInAnyOrder("OrdoLagHigh", "OrdoLagCritical", "OrdoOldestTaskNotMoving",
                "OrdoDeadLettersGrowing", "OrdoScheduleSlotsMissed", "OrdoNoLiveConsumers");
    }
}
