package dev.filetables.transforms;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.filetables.io.kafka.KafkaTables;
import dev.filetables.io.table.DdlParser;
import dev.filetables.io.table.TableSpec;
import dev.filetables.transforms.kafka.KafkaTableSource;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.beam.runners.direct.DirectOptions;
import org.apache.beam.runners.direct.DirectRunner;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.apache.beam.sdk.runners.TransformHierarchy;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The step names of the reads and of their dead-letter writes. On Flink they are the operator uids
 * a savepoint is restored by, so a refactoring must not change them: this pins them.
 */
class ReadStepNamesTest {
  @TempDir Path dir;

  private TableSpec fileTable(String policy, String watch) {
    String deadLetterPath =
        policy.equals("dead-letter")
            ? ", 'source.bad-records.dead-letter.path' = '" + dir.resolve("dead") + "'"
            : "";
    return DdlParser.parse(
        "CREATE TABLE t (id BIGINT NOT NULL, msg STRING) WITH ('connector' = 'filesystem', 'path' = '"
            + dir.resolve("t")
            + "', 'format' = 'csv', 'source.bad-records' = '"
            + policy
            + "'"
            + deadLetterPath
            + watch
            + ")");
  }

  private static Pipeline pipeline() {
    DirectOptions options = PipelineOptionsFactory.as(DirectOptions.class);
    options.setRunner(DirectRunner.class);
    return Pipeline.create(options);
  }

  /** Full names of the primitive steps under {@code prefix}, in topological order. */
  private static List<String> primitives(Pipeline pipeline, String prefix) {
    List<String> names = new ArrayList<>();
    pipeline.traverseTopologically(
        new Pipeline.PipelineVisitor.Defaults() {
          @Override
          public void visitPrimitiveTransform(TransformHierarchy.Node node) {
            if (node.getFullName().startsWith(prefix)) {
              names.add(node.getFullName());
            }
          }
        });
    return names;
  }

  private List<String> boundedRead(String policy) {
    Pipeline pipeline = pipeline();
    pipeline.apply("ReadT", FileTableIO.read(fileTable(policy, "")));
    return primitives(pipeline, "ReadT/ReadRanges/");
  }

  private List<String> watchedRead(String policy) {
    Pipeline pipeline = pipeline();
    pipeline.apply(
        "ReadT", FileTableIO.read(fileTable(policy, ", 'source.monitor-interval' = '1 s'")));
    return primitives(pipeline, "ReadT/Watch/");
  }

  private List<String> kafkaRead(String policy) {
    String deadLetterPath =
        policy.equals("dead-letter")
            ? ", 'source.bad-records.dead-letter.path' = '" + dir.resolve("kdead") + "'"
            : "";
    Pipeline pipeline = pipeline();
    pipeline.apply(
        "ReadKafka",
        KafkaTableSource.of(
            KafkaTables.parse(
                "CREATE TABLE k (id BIGINT NOT NULL, name STRING) WITH ('connector' = 'kafka',"
                    + " 'topic' = 'orders', 'properties.bootstrap.servers' = 'localhost:9092',"
                    + " 'properties.group.id' = 'g',"
                    + " 'format' = 'json', 'source.bad-records' = '"
                    + policy
                    + "'"
                    + deadLetterPath
                    + ")")));
    return primitives(pipeline, "ReadKafka/DecodeValues/");
  }

  @Test
  void boundedReadWritesDeadLettersUnderReadRanges() {
    assertEquals(List.of("ReadT/ReadRanges/Read"), boundedRead("fail"));
    assertEquals(List.of("ReadT/ReadRanges/Read"), boundedRead("skip"));
    assertEquals(
        List.of(
            "ReadT/ReadRanges/Read",
            "ReadT/ReadRanges/WriteDeadLetters/WriteFiles/WriteBundles/ParMultiDo(WriteBundles)",
            "ReadT/ReadRanges/WriteDeadLetters/Publish/OneKey/AddKeys/Map/ParMultiDo(Anonymous)",
            "ReadT/ReadRanges/WriteDeadLetters/Publish/AllFiles",
            "ReadT/ReadRanges/WriteDeadLetters/Publish/Rename/ParMultiDo(Publish)"),
        boundedRead("dead-letter"));
  }

  @Test
  void watchedReadWritesDeadLettersUnderWatch() {
    assertEquals(List.of("ReadT/Watch/Start", "ReadT/Watch/WatchAndRead"), watchedRead("fail"));
    assertEquals(List.of("ReadT/Watch/Start", "ReadT/Watch/WatchAndRead"), watchedRead("skip"));
    assertEquals(
        List.of(
            "ReadT/Watch/Start",
            "ReadT/Watch/WatchAndRead",
            "ReadT/Watch/WriteDeadLetters/StreamingWrite/AssignWriters/ParMultiDo(AssignWriters)",
            "ReadT/Watch/WriteDeadLetters/StreamingWrite/RollingWriter/ParMultiDo(RollingWriter)",
            "ReadT/Watch/WriteDeadLetters/StreamingWrite/Publish/ByPartition/Map/ParMultiDo(Anonymous)",
            "ReadT/Watch/WriteDeadLetters/StreamingWrite/Publish/PublishFiles/ParMultiDo(GroupFiles)"),
        watchedRead("dead-letter"));
  }

  @Test
  void kafkaReadWritesDeadLettersUnderDecodeValues() {
    assertEquals(List.of("ReadKafka/DecodeValues/Decode"), kafkaRead("fail"));
    assertEquals(List.of("ReadKafka/DecodeValues/Decode"), kafkaRead("skip"));
    assertEquals(
        List.of(
            "ReadKafka/DecodeValues/Decode",
            "ReadKafka/DecodeValues/WriteDeadLetters/StreamingWrite/AssignWriters/ParMultiDo(AssignWriters)",
            "ReadKafka/DecodeValues/WriteDeadLetters/StreamingWrite/RollingWriter/ParMultiDo(RollingWriter)",
            "ReadKafka/DecodeValues/WriteDeadLetters/StreamingWrite/Publish/ByPartition/Map/ParMultiDo(Anonymous)",
            "ReadKafka/DecodeValues/WriteDeadLetters/StreamingWrite/Publish/PublishFiles/ParMultiDo(GroupFiles)"),
        kafkaRead("dead-letter"));
  }
}
