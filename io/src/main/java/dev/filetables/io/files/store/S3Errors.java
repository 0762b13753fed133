package dev.filetables.io.files.store;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.NoSuchFileException;
import software.amazon.awssdk.core.exception.AbortedException;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.services.s3.model.S3Exception;

/** The SDK's failures as the JDK's exceptions, with messages that say what to fix. */
final class S3Errors {
  private S3Errors() {}

  /**
   * The exception for a failed request on {@code path}: {@link NoSuchFileException} for a missing
   * key, {@link StoreException} (thrown, unchecked) when the store itself is unusable.
   */
  static IOException toIOException(StorePath path, RuntimeException e) {
    String endpoint = S3Clients.describeEndpoint();
    if (e instanceof S3Exception) {
      S3Exception s3 = (S3Exception) e;
      String code = s3.awsErrorDetails() == null ? null : s3.awsErrorDetails().errorCode();
      if ("NoSuchBucket".equals(code)) {
        throw new StoreException(
            "S3 bucket '"
                + path.getFileSystem().authority()
                + "' does not exist at "
                + endpoint
                + "; create it or correct the table path "
                + path,
            e);
      }
      if (s3.statusCode() == 404) {
        return new NoSuchFileException(path.toString());
      }
      if (s3.statusCode() == 403) {
        String reason = code == null ? "HTTP 403" : code;
        throw new StoreException(
            "S3 at "
                + endpoint
                + " denied access to "
                + path
                + " ("
                + reason
                + "): check the credentials (AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY, profile or"
                + " role) and their permissions on the bucket",
            new AccessDeniedException(path.toString(), null, reason));
      }
      return new IOException(
          "S3 at " + endpoint + " failed on " + path + ": " + firstLine(s3.getMessage()), e);
    }
    if (interrupted(e)) {
      InterruptedIOException interrupted =
          new InterruptedIOException("interrupted while using S3 for " + path);
      interrupted.initCause(e);
      return interrupted;
    }
    if (e instanceof SdkClientException) {
      throw new StoreException(
          "Cannot use S3 at "
              + endpoint
              + " for "
              + path
              + ": "
              + firstLine(e.getMessage())
              + " (check --endpoint and --awsRegion, and that the server runs)",
          e);
    }
    throw e;
  }

  /** The SDK reports a cancelled task's interrupt as a client failure; it is not the store's. */
  private static boolean interrupted(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof AbortedException
          || t instanceof InterruptedException
          || t instanceof InterruptedIOException) {
        return true;
      }
    }
    return Thread.currentThread().isInterrupted();
  }

  private static String firstLine(String message) {
    if (message == null) {
      return "no message";
    }
    int newline = message.indexOf('\n');
    return newline < 0 ? message : message.substring(0, newline);
  }
}
