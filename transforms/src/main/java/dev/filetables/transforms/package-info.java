/**
 * Reading and writing file tables with Beam. The public API: {@link
 * dev.filetables.transforms.FileTableIO} (read, write, and the post-job publish {@code
 * finishWrite}), its results ({@link dev.filetables.transforms.PublishedLeftovers}, {@link
 * dev.filetables.transforms.UnpublishedFilesException}), {@link
 * dev.filetables.transforms.kafka.KafkaTableSource}, {@link
 * dev.filetables.transforms.commit.PartitionCommit} and the {@link
 * dev.filetables.transforms.sink.WrittenFile} a write outputs. Internal, though public: {@code
 * ReadWithDeadLetters} (the dead-letter write of every read, used by {@code KafkaTableSource}) and
 * everything else in the sub-packages, public only so the stages can live in packages of their own,
 * and free to change.
 */
package dev.filetables.transforms;
