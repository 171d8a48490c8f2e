package io.ordo.system.deploy;

/** A metric name that a PromQL expression (or a metric selector) in deploy/ uses, and where. */
record MetricReference(String name, String where) {
}
