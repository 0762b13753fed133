/**
 * A real Kafka broker for the Kafka demo and the tests ({@code LocalKafkaBroker}: a child JVM on
 * the class path of the {@code kafka-broker} module, so the broker's libraries never meet Beam's)
 * and a producer of table rows as records in a table's row format ({@code RowProducer}). Internal:
 * public only for the tests and benchmarks ({@code @Internal}).
 */
package dev.filetables.pipelines.kafka;
