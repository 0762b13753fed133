/**
 * The codec behind the {@code avro} format: rows written to and read from Avro object container
 * files directly, without GenericRecord ({@code AvroRowWriter}, {@code AvroRowReader} with {@code
 * RowDatumReader}), the Avro schema of a file schema ({@code AvroSchemas}), the {@code avro.*}
 * options ({@code AvroOptions}) and merging by copying blocks ({@code AvroFileMerger}). Used
 * through {@code dev.filetables.io.format}. Internal: the public classes are public only for that
 * package and its tests ({@code @Internal}).
 */
package dev.filetables.io.format.avro;
