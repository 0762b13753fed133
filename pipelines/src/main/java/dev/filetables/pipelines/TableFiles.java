package dev.filetables.pipelines;

import dev.filetables.io.files.TablePaths;
import dev.filetables.io.kafka.KafkaTableSpec;
import dev.filetables.io.kafka.KafkaTables;
import dev.filetables.io.table.DdlParser;
import dev.filetables.io.table.TableOptions;
import dev.filetables.io.table.TableSpec;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/** Loads table definitions ({@code CREATE TABLE ... WITH (...)} files) for the commands. */
final class TableFiles {
  private TableFiles() {}

  /** True when the DDL file declares {@code 'connector' = 'kafka'}. */
  /** The table definition file a command was given; a usage error when it is missing. */
  static String required(String file, String command) {
    if (file == null) {
      throw CliException.usage("'" + command + "' needs a table definition file (.sql)");
    }
    return file;
  }

  static boolean isKafka(String file) {
    return KafkaTables.isKafka(DdlParser.parseStatementFile(existing(file)));
  }

  /** Parses a Kafka table DDL file. */
  static KafkaTableSpec loadKafka(String file) {
    return KafkaTables.fromStatement(DdlParser.parseStatementFile(existing(file)));
  }

  private static Path existing(String file) {
    Path path = TablePaths.of(file);
    if (!Files.exists(path)) {
      throw new CliException("table definition file not found: " + file);
    }
    if (!Files.isRegularFile(path)) {
      throw new CliException("not a table definition file: " + file);
    }
    return path;
  }

  /**
   * Parses a DDL file; errors ({@link dev.filetables.io.table.TableDefinitionException}) name the
   * file.
   */
  static TableSpec load(String file) {
    Path path = TablePaths.of(file);
    if (!Files.exists(path)) {
      throw new CliException("table definition file not found: " + file);
    }
    if (!Files.isRegularFile(path)) {
      throw new CliException("not a table definition file: " + file);
    }
    // DdlParser's messages already start with <file>:<line>:<column>
    return DdlParser.parseFile(path);
  }

  /**
   * The table as {@code query} reads it: a query only looks, so a {@code dead-letter} policy
   * becomes {@code skip} (otherwise every query would append the same bad records to the
   * dead-letter table again); {@code run} and pipelines write dead letters.
   */
  static TableSpec withoutDeadLetters(TableSpec table) {
    if (table.options().badRecordPolicy() != dev.filetables.io.table.BadRecordPolicy.DEAD_LETTER) {
      return table;
    }
    Map<String, String> options = new LinkedHashMap<>(table.options().asMap());
    options.put(TableOptions.SOURCE_BAD_RECORDS, "skip");
    options.remove(TableOptions.SOURCE_BAD_RECORDS_DEAD_LETTER_PATH);
    return table.toBuilder().setOptions(TableOptions.of(options)).build();
  }

  /** The table read once, as a snapshot: without {@code source.monitor-interval}. */
  static TableSpec bounded(TableSpec table) {
    if (table.options().sourceMonitorInterval().isEmpty()) {
      return table;
    }
    Map<String, String> options = new LinkedHashMap<>(table.options().asMap());
    options.remove(TableOptions.SOURCE_MONITOR_INTERVAL);
    return table.toBuilder().setOptions(TableOptions.of(options)).build();
  }
}
