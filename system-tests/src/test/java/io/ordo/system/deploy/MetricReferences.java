package io.ordo.system.deploy;

import com.fasterxml.jackson.databind.JsonNode;
import io.ordo.system.deploy.DeployKit.Manifest;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Finds the Ordo metric names in the places of deploy/ that query Prometheus: alert expressions,
 * KEDA trigger queries, the HPA's external metrics, prometheus-adapter rules and the dashboard's
 * targets and variables. Only those fields are read, so prose (annotations, legends) never counts.
 */
final class MetricReferences {
    static final Pattern METRIC_NAME = Pattern.compile("\\bordo_[a-z0-9_]*[a-z0-9]");

    private MetricReferences() {
    }

    /** Every reference in deploy/. */
    static List<MetricReference> inDeployKit() {
        List<MetricReference> references = new ArrayList<>();
        for (Manifest manifest : DeployKit.manifests()) {
            references.addAll(inManifest(manifest));
        }
        references.addAll(inPrometheusAdapterValues(DeployKit.prometheusAdapterValues()));
        references.addAll(inDashboard(DeployKit.dashboard()));
        return references;
    }

    static List<MetricReference> inManifest(Manifest manifest) {
        List<MetricReference> references = new ArrayList<>();
        JsonNode spec = manifest.document().path("spec");
        switch (manifest.kind()) {
            case "PrometheusRule" -> {
                for (JsonNode group : spec.path("groups")) {
                    for (JsonNode rule : group.path("rules")) {
                        String name = rule.has("alert") ? "alert " + rule.get("alert").asText() : "record " + rule.path("record").asText();
                        scan(rule.path("expr").asText(), manifest + " " + name, references);
                    }
                }
            }
            case "ScaledObject" -> {
                for (JsonNode trigger : spec.path("triggers")) {
                    scan(trigger.at("/metadata/query").asText(), manifest + " trigger " + trigger.path("name").asText(), references);
                }
            }
            case "HorizontalPodAutoscaler" -> {
                for (JsonNode metric : spec.path("metrics")) {
                    scan(metric.at("/external/metric/name").asText(), manifest + " external metric", references);
                }
            }
            default -> {
                // no queries
            }
        }
        return references;
    }

    static List<MetricReference> inPrometheusAdapterValues(Manifest values) {
        List<MetricReference> references = new ArrayList<>();
        for (JsonNode rule : values.document().at("/rules/external")) {
            String where = values + " rule " + rule.at("/name/as").asText();
            scan(rule.path("seriesQuery").asText(), where + " seriesQuery", references);
            scan(rule.path("metricsQuery").asText(), where + " metricsQuery", references);
            // the name the HPA asks for; kept equal to the series it serves so it is checked too
            scan(rule.at("/name/as").asText(), where + " name.as", references);
        }
        return references;
    }

    static List<MetricReference> inDashboard(Manifest dashboard) {
        List<MetricReference> references = new ArrayList<>();
        for (JsonNode panel : dashboard.document().path("panels")) {
            for (JsonNode target : panel.path("targets")) {
                scan(target.path("expr").asText(), dashboard + " panel '" + panel.path("title").asText() + "' " + target.path("refId").asText(), references);
            }
        }
        for (JsonNode variable : dashboard.document().at("/templating/list")) {
            JsonNode query = variable.path("query");
            scan(query.isObject() ? query.path("query").asText() : query.asText(), dashboard + " variable " + variable.path("name").asText(), references);
        }
        return references;
    }

    static void scan(String expression, String where, List<MetricReference> into) {
        Matcher matcher = METRIC_NAME.matcher(expression);
        while (matcher.find()) {
            into.add(new MetricReference(matcher.group(), where));
        }
    }
}
