/**
 * Helpers the formats share: reading format options ({@code FormatOptions}), the charset of a text
 * format and strict decoding ({@code TextCharset}, {@code Utf8}), how stored values become column
 * values ({@code Decimals}, {@code TimeValues}, {@code ValueConversions}), fixed-size splits
 * ({@code FixedRanges}), byte counting and native codec probes. Internal: every class is public
 * only so that {@code format}, {@code format.avro} and {@code format.parquet} can share it, and
 * marked {@code @Internal}.
 */
package dev.filetables.io.format.internal;
