package dev.filetables.pipelines;

import dev.filetables.io.files.TablePaths;
import dev.filetables.io.table.DdlParser;
import dev.filetables.io.table.DdlStatement;
import dev.filetables.io.table.TableOptions;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * What a streaming run is, as facts that must not change while its state is resumed: both tables'
 * definitions (name, columns, partition keys, watermark, every {@code WITH} option, the path
 * normalized), {@code --where}, and the parallelism when it sets the sink's writer count (rows are
 * assigned to writers by a hash modulo that count; a restore under another count would send
 * replayed rows to other writers, which then never clean up the hidden files the dead attempt
 * left). Stored in the run's {@code run.json}; a start whose facts differ is refused.
 */
final class RunDefinition {
  /** The fact that holds the parallelism, when it is one. */
  static final String PARALLELISM = "parallelism";

  private final SortedMap<String, String> facts;

  private RunDefinition(Map<String, String> facts) {
    this.facts = new TreeMap<>(facts);
  }

  static RunDefinition of(Map<String, String> facts) {
    return new RunDefinition(facts);
  }

  /**
   * The definition of {@code run --from source --to sink [--where where]}; {@code parallelism} is
   * the job's parallelism (empty: the cluster's default).
   */
  static RunDefinition of(
      String sourceFile, String sinkFile, Optional<String> where, Optional<Integer> parallelism) {
    Map<String, String> facts = new TreeMap<>();
    table("source", DdlParser.parseStatementFile(TablePaths.of(sourceFile)), facts);
    DdlStatement sink = DdlParser.parseStatementFile(TablePaths.of(sinkFile));
    table("sink", sink, facts);
    where.ifPresent(w -> facts.put("where", w.strip()));
    if (writersFollowParallelism(sink.options())) {
      facts.put(PARALLELISM, parallelism.map(String::valueOf).orElse("the cluster's default"));
    }
    return new RunDefinition(facts);
  }

  /**
   * True unless {@code sink.parallelism} fixes the writer count, or {@code
   * sink.shuffle-by-partition.enable} without it gives one writer per partition.
   */
  private static boolean writersFollowParallelism(Map<String, String> sinkOptions) {
    return !sinkOptions.containsKey(TableOptions.SINK_PARALLELISM)
        && !"true".equalsIgnoreCase(sinkOptions.get(TableOptions.SHUFFLE_BY_PARTITION));
  }

  private static void table(String role, DdlStatement table, Map<String, String> facts) {
    facts.put(role + " table", table.name());
    facts.put(
        role + " columns",
        table.columns().stream().map(RunDefinition::column).collect(Collectors.joining(", ")));
    if (!table.partitionKeys().isEmpty()) {
      facts.put(role + " partition keys", String.join(", ", table.partitionKeys()));
    }
    table
        .watermark()
        .ifPresent(
            w -> facts.put(role + " watermark", w.column() + " - " + w.delay().toMillis() + " ms"));
    for (Map.Entry<String, String> option : table.options().entrySet()) {
      String value = option.getValue();
      if (option.getKey().equals(TableOptions.PATH)) {
        value = normalizedPath(value);
      }
      facts.put(role + " option '" + option.getKey() + "'", value);
    }
  }

  private static String column(DdlStatement.Column column) {
    StringBuilder text = new StringBuilder(column.name()).append(' ').append(column.typeText());
    column.metadataKey().ifPresent(key -> text.append(" METADATA FROM '").append(key).append("'"));
    if (column.virtual()) {
      text.append(" VIRTUAL");
    }
    return text.toString();
  }

  /** A table path as one string wherever the CLI was started: absolute, normalized. */
  static String normalizedPath(String location) {
    Path path = TablePaths.of(location).toAbsolutePath().normalize();
    // a URI of an existing local directory ends in '/', of a missing one not: one form for both
    return path.toUri().toString().replaceFirst("(?<=.)/+$", "");
  }

  Map<String, String> facts() {
    return facts;
  }

  /**
   * How this definition differs from {@code recorded}, one phrase per fact: {@code sink option
   * 'format' was 'json', now 'parquet'}; empty when they fit.
   */
  List<String> differencesFrom(RunDefinition recorded) {
    TreeSet<String> names = new TreeSet<>(facts.keySet());
    names.addAll(recorded.facts.keySet());
    List<String> differences = new ArrayList<>();
    for (String name : names) {
      String was = recorded.facts.get(name);
      String now = facts.get(name);
      if (Objects.equals(was, now)) {
        continue;
      }
      if (was == null) {
        differences.add(name + " '" + now + "' is new");
      } else if (now == null) {
        differences.add(name + " '" + was + "' is gone");
      } else if (name.equals(PARALLELISM) && was.matches("\\d+")) {
        // on the embedded default it is the number of cores unless given
        differences.add(
            name + " was '" + was + "', now '" + now + "' (--parallelism=" + was + " resumes it)");
      } else {
        differences.add(name + " was '" + was + "', now '" + now + "'");
      }
    }
    return differences;
  }
}
