/**
 * The bounded write: rows are written into hidden part files within bundles ({@code WriteRows}
 * picks the writer layout) and published at once by one step after every writer finished ({@code
 * PublishFiles}, {@code FilePublisher}). Internal.
 */
package dev.filetables.transforms.sink.batch;
