/**
 * Kafka source tables: {@link dev.filetables.transforms.kafka.KafkaTableSource} (public) reads a
 * topic with KafkaIO, drops records a restore replays ({@code DropReplayedOffsetsFn}) and decodes
 * values into rows ({@code DecodeRecordFn}). Internal except {@code KafkaTableSource}.
 */
package dev.filetables.transforms.kafka;
