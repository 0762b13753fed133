/**
 * {@code bin/filetables sql}: Flink SQL scripts on Beam SQL ({@code docs/sql.md}). {@code
 * SqlScript} reads a script ({@code ScriptSplitter}, {@code ScriptTable} for each CREATE TABLE, the
 * session zone of SET) into jobs: {@code InsertJob} (consecutive INSERTs, written by {@code
 * FileTableIO.write}) and {@code SelectJob}. {@code TableReads} reads each table once and adds its
 * computed columns; {@code SqlQuery} runs a query on Beam SQL after {@code FlinkSqlRewriter} made
 * Flink's forms explicit; Flink's functions are user functions, one class per family, registered by
 * {@code FlinkFunctions}; {@code SqlRows}, {@code SinkRows} and {@code SqlTimes} convert values at
 * the edges. Internal: public only for the CLI ({@code @Internal}).
 */
package dev.filetables.pipelines.sql;
