package io.ordo.system.deploy;

import io.ordo.system.deploy.DeployKit.Manifest;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/** The checker itself: a metric renamed on one side only is reported, naming where it is used. */
@Tag("full")
class MetricNameCheckTest {
    private static final String SCRAPE = """
            # HELP ordo_tasks_processed_total Tasks handled successfully and acked
            # TYPE ordo_tasks_processed_total counter
            ordo_tasks_processed_total{queue="orders"} 3.0
            # TYPE ordo_task_processing_seconds histogram
            ordo_task_processing_seconds_bucket{queue="orders",result="success",le="0.005"} 3
            ordo_task_processing_seconds_count{queue="orders",result="success"} 3
            ordo_task_processing_seconds_sum{queue="orders",result="success"} 0.004
            # TYPE ordo_queue_oldest_due_age_seconds gauge
            ordo_queue_oldest_due_age_seconds{queue="orders"} NaN
            """;

    @Test
    void the_series_names_of_a_scrape_are_its_sample_names_without_labels() {
        assertThat(MetricNameCheck.seriesNames(SCRAPE)).containsExactlyInAnyOrder("ordo_tasks_processed_total",
                "ordo_task_processing_seconds_bucket", "ordo_task_processing_seconds_count",
                "ordo_task_processing_seconds_sum", "ordo_queue_oldest_due_age_seconds");
    }

    @Test
    void an_alert_on_a_metric_the_worker_renamed_is_reported_with_its_place() {
        Manifest alerts = yaml("""
                apiVersion: monitoring.coreos.com/v1
                kind: PrometheusRule
                metadata: {name: ordo}
                spec:
                  groups:
                    - name: ordo.queue
                      rules:
                        - alert: OrdoLagHigh
                          expr: max by (queue) (ordo_queue_oldest_due_age_seconds) > 60
                """);
        String renamedScrape = SCRAPE.replace("ordo_queue_oldest_due_age_seconds", "ordo_queue_lag_seconds");

        assertThat(MetricNameCheck.problems(MetricReferences.inManifest(alerts), MetricNameCheck.seriesNames(renamedScrape)))
                .singleElement().asString()
                .startsWith("ordo_queue_oldest_due_age_seconds is not exported by the worker; used in")
                .contains("alert OrdoLagHigh");
    }

    @Test
    void a_scaler_query_with_a_renamed_metric_is_reported() {
        Manifest scaler = yaml("""
                apiVersion: keda.sh/v1alpha1
                kind: ScaledObject
                metadata: {name: ordo-worker}
                spec:
                  triggers:
                    - type: prometheus
                      name: lag-seconds
                      metadata:
                        query: max(ordo_queue_lag_seconds{queue="orders"})
                """);

        assertThat(MetricNameCheck.problems(MetricReferences.inManifest(scaler), MetricNameCheck.seriesNames(SCRAPE)))
                .singleElement().asString().startsWith("ordo_queue_lag_seconds is not exported").contains("trigger lag-seconds");
    }

    @Test
    void a_histogram_queried_by_its_family_name_is_reported_with_the_series_to_use() {
        List<MetricReference> references = List.of(new MetricReference("ordo_task_processing_seconds", "a panel"));

        assertThat(MetricNameCheck.problems(references, MetricNameCheck.seriesNames(SCRAPE)))
                .containsExactly("ordo_task_processing_seconds is not exported by the worker; used in a panel"
                        + " (a histogram: query ordo_task_processing_seconds_bucket)");
    }

    @Test
    void names_are_taken_from_expressions_with_their_suffixes_and_never_from_labels_values_or_prose() {
        List<MetricReference> found = new ArrayList<>();
        MetricReferences.scan("histogram_quantile(0.99, sum by (le) (rate(ordo_task_processing_seconds_bucket{queue=~\"$queue\"}[5m])))"
                + " / on() group_left ordo_worker_ready", "here", found);

        assertThat(found).extracting(MetricReference::name)
                .containsExactly("ordo_task_processing_seconds_bucket", "ordo_worker_ready");
        assertThat(MetricNameCheck.problems(found, Set.of("ordo_task_processing_seconds_bucket", "ordo_worker_ready"))).isEmpty();
    }

    private static Manifest yaml(String text) {
        try {
            Path file = Files.createTempFile("manifest", ".yaml");
            Files.writeString(file, text);
            try {
                return DeployKit.readYaml(file).get(0);
            } finally {
                Files.delete(file);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
