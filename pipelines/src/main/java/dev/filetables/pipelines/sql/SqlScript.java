package dev.filetables.pipelines.sql;

import dev.filetables.io.table.TableSpec;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.DateTimeException;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.beam.sdk.annotations.Internal;
import org.apache.beam.vendor.calcite.v1_28_0.org.apache.calcite.sql.SqlIdentifier;
import org.apache.beam.vendor.calcite.v1_28_0.org.apache.calcite.sql.SqlInsert;
import org.apache.beam.vendor.calcite.v1_28_0.org.apache.calcite.sql.SqlNode;

/**
 * A script for {@code bin/filetables sql}: {@code CREATE TABLE} (filesystem and kafka connectors,
 * computed columns), {@code SET 'table.local-time-zone' = '...'}, {@code INSERT INTO ... SELECT}
 * and {@code SELECT}, read and checked whole before anything runs, then cut into jobs: consecutive
 * INSERTs form one job, each SELECT is one. Anything else is an error naming the statement and its
 * line.
 *
 * <p>The session time zone is Flink's {@code table.local-time-zone}: the JVM's zone until a {@code
 * SET} changes it ({@code 'default'} means the JVM's zone again); it applies to the statements
 * after the SET.
 */
@Internal
public final class SqlScript {
  /** Flink's key of the session time zone. */
  public static final String LOCAL_TIME_ZONE = "table.local-time-zone";

  private static final Pattern SET =
      Pattern.compile("(?is)SET\\s+'([^']*)'\\s*=\\s*'((?:[^']|'')*)'\\s*");
  private static final Pattern INSERT_OVERWRITE = Pattern.compile("(?is)INSERT\\s+OVERWRITE\\b.*");
  private static final Pattern STATIC_PARTITION =
      Pattern.compile("(?is)INSERT\\s+INTO\\s+\\S+\\s+PARTITION\\s*\\(.*");

  private final Map<String, ScriptTable> tables = new LinkedHashMap<>();
  private final List<SqlJob> jobs = new ArrayList<>();
  private final List<Insert> pendingInserts = new ArrayList<>();
  private ZoneId zone = ZoneId.systemDefault();

  private SqlScript() {}

  /** Reads and checks a script file (UTF-8); messages start with {@code <file>:<line>:<col>:}. */
  public static SqlScript load(Path file) {
    String text;
    try {
      text = Files.readString(file, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new SqlScriptException("cannot read SQL script " + file + ": " + e, e);
    }
    return parse(text, file.toString());
  }

  /** Reads and checks a script given as text; messages start with {@code <sourceName>:}. */
  public static SqlScript parse(String script, String sourceName) {
    SqlScript result = new SqlScript();
    for (ScriptStatement statement : ScriptSplitter.split(script, sourceName)) {
      result.add(statement);
    }
    result.endInserts();
    if (result.jobs.isEmpty()) {
      throw new SqlScriptException(
          sourceName + ": the script has no INSERT INTO or SELECT statement to run");
    }
    return result;
  }

  /** The jobs, in script order. */
  public List<SqlJob> jobs() {
    return List.copyOf(jobs);
  }

  /** The tables the script declares, by name. */
  public Map<String, TableSpec> fileTables() {
    Map<String, TableSpec> files = new LinkedHashMap<>();
    tables.forEach((name, table) -> table.file().ifPresent(spec -> files.put(name, spec)));
    return files;
  }

  private void add(ScriptStatement statement) {
    switch (statement.kind()) {
      case CREATE_TABLE:
        ScriptTable table = ScriptTable.declare(statement);
        if (tables.containsKey(table.name())) {
          throw statement.error(
              "table `"
                  + table.name()
                  + "` is already declared (line "
                  + tables.get(table.name()).declaration().position().line()
                  + ")");
        }
        tables.put(table.name(), table);
        return;
      case SET:
        endInserts();
        set(statement);
        return;
      case INSERT:
        pendingInserts.add(insert(statement));
        return;
      case SELECT:
        endInserts();
        jobs.add(select(statement));
        return;
      default:
        String head = statement.head();
        if (head.equals("BEGIN STATEMENT") || head.equals("END")) {
          return; // a Flink statement set: consecutive INSERTs are one job anyway
        }
        throw statement.error(
            head
                + " is not supported; a script holds CREATE TABLE, SET '"
                + LOCAL_TIME_ZONE
                + "' = '...', INSERT INTO ... SELECT ... and SELECT statements");
    }
  }

  private void endInserts() {
    if (!pendingInserts.isEmpty()) {
      jobs.add(new InsertJob(pendingInserts, zone));
      pendingInserts.clear();
    }
  }

  private void set(ScriptStatement statement) {
    Matcher set = SET.matcher(statement.text());
    if (!set.matches()) {
      throw statement.error("expected SET 'key' = 'value' (keys and values in single quotes)");
    }
    String key = set.group(1);
    String value = set.group(2).replace("''", "'");
    if (!key.equals(LOCAL_TIME_ZONE)) {
      throw statement.error(
          "SET '" + key + "' is not supported; the only setting is '" + LOCAL_TIME_ZONE + "'");
    }
    if (value.equalsIgnoreCase("default")) {
      zone = ZoneId.systemDefault();
      return;
    }
    try {
      zone = ZoneId.of(value);
    } catch (DateTimeException e) {
      throw statement.error(
          "invalid time zone '"
              + value
              + "' for '"
              + LOCAL_TIME_ZONE
              + "': use a region such as 'Asia/Shanghai', 'UTC' or an offset such as 'GMT+08:00'");
    }
  }

  private Insert insert(ScriptStatement statement) {
    if (INSERT_OVERWRITE.matcher(statement.text()).matches()) {
      throw statement.error(
          "INSERT OVERWRITE is not supported: FileTables appends (INSERT INTO) and never replaces"
              + " files");
    }
    if (STATIC_PARTITION.matcher(statement.text()).matches()) {
      throw statement.error(
          "INSERT INTO ... PARTITION (...) is not supported; select the partition values as"
              + " columns instead");
    }
    SqlNode node = FlinkSqlRewriter.parseStatement(statement, "the INSERT");
    if (!(node instanceof SqlInsert)) {
      throw statement.error("expected INSERT INTO <table> SELECT ...");
    }
    SqlInsert insert = (SqlInsert) node;
    SqlIdentifier target = (SqlIdentifier) insert.getTargetTable();
    String name = target.names.get(target.names.size() - 1);
    ScriptTable sink = tables.get(name);
    if (sink == null) {
      throw statement.error(
          "INSERT INTO `" + name + "`: no such table; declare it with CREATE TABLE first");
    }
    if (sink.file().isEmpty()) {
      throw statement.error(
          "INSERT INTO `"
              + name
              + "`: a Kafka table is a source only; INSERT INTO a filesystem table");
    }
    TableSpec spec = sink.file().get();
    List<String> columns = new ArrayList<>();
    if (insert.getTargetColumnList() != null) {
      for (SqlNode column : insert.getTargetColumnList()) {
        String columnName = ((SqlIdentifier) column).getSimple();
        if (!spec.physicalSchema().hasField(columnName)) {
          throw statement.error(
              "INSERT INTO `"
                  + name
                  + "`: no column `"
                  + columnName
                  + "`; its columns are "
                  + spec.physicalSchema().getFieldNames());
        }
        columns.add(columnName);
      }
    } else {
      columns.addAll(spec.physicalSchema().getFieldNames());
    }
    return new Insert(
        SqlQuery.of(statement, node, insert.getSource(), tables, zone), spec, columns);
  }

  private SqlJob select(ScriptStatement statement) {
    SqlNode node = FlinkSqlRewriter.parseStatement(statement, "the SELECT");
    SqlQuery query = SqlQuery.of(statement, node, node, tables, zone);
    query
        .unboundedSource()
        .ifPresent(
            table -> {
              throw statement.error(
                  "SELECT from a streaming table is not supported ("
                      + table.streamingReason()
                      + "): its rows would print only when the job ends; INSERT INTO a table"
                      + " instead");
            });
    return new SelectJob(query);
  }
}
