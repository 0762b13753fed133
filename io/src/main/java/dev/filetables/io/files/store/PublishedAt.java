package dev.filetables.io.files.store;

import java.nio.file.OpenOption;
import java.nio.file.Path;
import org.apache.beam.sdk.annotations.Internal;

/**
 * An option for creating a hidden file that will be moved to {@code visible} without being read
 * before: on S3 the bytes go to a multipart upload at {@code visible}, and the move completes it
 * (no copy). Stores that rename ignore it; the JDK's own file systems do not know it (pass it only
 * for store paths, as {@code FileOps.createForPublish} does).
 */
@Internal
public record PublishedAt(Path visible) implements OpenOption {}
