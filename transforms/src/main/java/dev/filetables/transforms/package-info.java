/**
 * Reading and writing file tables with Beam. The public API: {@link
 * dev.filetables.transforms.FileTableIO} (read, write), {@link
 * dev.filetables.transforms.FileTableMaintenance} (post-job publish {@code finishWrite}, {@code
 * publishLeftovers}, offline {@code compact}), their results ({@link
 * dev.filetables.transforms.PublishedLeftovers}, {@link
 * dev.filetables.transforms.UnpublishedFilesException}), {@link
 * dev.filetables.transforms.kafka.KafkaTableSource}, {@link
 * dev.filetables.transforms.commit.PartitionCommit} and the {@link
 * dev.filetables.transforms.sink.WrittenFile} a write outputs (with their coders). Everything else
 * that is public is so only for the stages to live in packages of their own, carries Beam's
 * {@code @Internal} and is free to change: {@code ReadWithDeadLetters} (the dead-letter write of
 * every read, used by {@code KafkaTableSource}) and the rest of the sub-packages.
 */
package dev.filetables.transforms;
