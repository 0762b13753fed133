/**
 * The table model: what a file table is ({@link dev.filetables.io.table.TableSpec}: name, columns,
 * partition keys, options, watermark, metadata columns), built in Java or read from a Flink-style
 * {@code CREATE TABLE} by {@link dev.filetables.io.table.DdlParser}. Its {@code WITH} options are
 * {@link dev.filetables.io.table.TableOptions}, validated up front against the typed option
 * registry ({@link dev.filetables.io.table.FileSystemOptions}: one {@link
 * dev.filetables.io.table.TableOption} per key); every other package reads a table through these.
 * Public API: those, with {@link dev.filetables.io.table.DdlStatement}, {@link
 * dev.filetables.io.table.ColumnType}, {@link dev.filetables.io.table.MetadataColumn}, {@link
 * dev.filetables.io.table.MetadataKey}, {@link dev.filetables.io.table.WatermarkSpec}, {@link
 * dev.filetables.io.table.BadRecordPolicy}, {@link dev.filetables.io.table.OptionType} and the
 * errors {@link dev.filetables.io.table.TableDefinitionException} and {@link
 * dev.filetables.io.table.InvalidValueException}. Internal: the DDL syntax ({@code DdlLexer},
 * {@code DdlStatementParser} and its parts), {@code FileTableBinder}, the option validator and
 * types, and, public only for other packages and modules ({@code @Internal}), {@code Durations},
 * {@code MemorySizes}, {@code KeySuggestions}, {@code OptionMessages} and {@code FormatCatalog}.
 */
package dev.filetables.io.table;
