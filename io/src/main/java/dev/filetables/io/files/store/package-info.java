/**
 * Tables on HDFS and S3 as {@code java.nio.file} paths: a {@code FileSystemProvider} ({@code
 * StoreFileSystemProvider}) over one narrow {@code Store} per kind of store ({@code HdfsStore} on
 * Hadoop's client, {@code S3Store} on the AWS SDK v2 client that Beam's aws2 module configures), so
 * the table code runs unchanged on them. Public: {@link dev.filetables.io.files.store.Stores}
 * (paths of store locations, listings with attributes, what a store can do), {@link
 * dev.filetables.io.files.store.PublishedAt} (the open option of a file published unread: on S3 a
 * multipart upload at its visible key, completed by its publish, {@code S3PendingUploads}) and
 * {@link dev.filetables.io.files.store.StoreException}. See docs/storage.md.
 */
package dev.filetables.io.files.store;
