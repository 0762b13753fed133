/**
 * Real storage servers on loopback for tests and try-outs, each a child JVM on its own classpath:
 * an S3 API server ({@code LocalS3Server}, s3proxy with objects as plain files) and HDFS ({@code
 * LocalHdfs}, a NameNode and a DataNode). {@code ServerProcess} starts, awaits and stops such a
 * child, and makes sure none outlives the JVM that started it. Public for tests, benchmarks and the
 * demo; not part of the table API.
 */
package dev.filetables.pipelines.storage;
