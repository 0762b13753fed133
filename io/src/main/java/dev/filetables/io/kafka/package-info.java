/**
 * Kafka source tables: {@link dev.filetables.io.kafka.KafkaTables} reads a {@code 'connector' =
 * 'kafka'} {@code CREATE TABLE} with the Flink Kafka connector's keys into a {@link
 * dev.filetables.io.kafka.KafkaTableSpec} (topics, consumer properties, {@link
 * dev.filetables.io.kafka.StartupMode}, the row format of the record values, the watermark). The
 * transforms' {@code KafkaTableSource} turns a spec into a KafkaIO read. Public API: all three
 * types.
 */
package dev.filetables.io.kafka;
