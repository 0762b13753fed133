package dev.filetables.benchmarks;

import java.util.ArrayList;
import java.util.List;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.MultipartUpload;
import software.amazon.awssdk.services.s3.model.Part;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * What a crashed writer left under a prefix, as a recovery finds it: objects by ListObjectsV2
 * (hidden ones are those whose name starts with '.'), open multipart uploads by
 * ListMultipartUploads (no object listing shows them). {@link #clean} removes what is not
 * published: DeleteObject for each hidden object, AbortMultipartUpload for each open upload.
 */
record S3Leftovers(List<S3Object> hidden, List<S3Object> visible, List<MultipartUpload> uploads) {

  static S3Leftovers scan(S3Client s3, String bucket, String prefix) {
    List<S3Object> hidden = new ArrayList<>();
    List<S3Object> visible = new ArrayList<>();
    for (S3Object object :
        s3.listObjectsV2Paginator(b -> b.bucket(bucket).prefix(prefix)).contents()) {
      String name = object.key().substring(object.key().lastIndexOf('/') + 1);
      (name.startsWith(".") ? hidden : visible).add(object);
    }
    List<MultipartUpload> uploads = new ArrayList<>();
    String keyMarker = null;
    String uploadIdMarker = null;
    while (true) {
      String keys = keyMarker;
      String ids = uploadIdMarker;
      var page =
          s3.listMultipartUploads(
              b -> b.bucket(bucket).prefix(prefix).keyMarker(keys).uploadIdMarker(ids));
      uploads.addAll(page.uploads());
      if (!Boolean.TRUE.equals(page.isTruncated())) {
        break;
      }
      keyMarker = page.nextKeyMarker();
      uploadIdMarker = page.nextUploadIdMarker();
    }
    return new S3Leftovers(List.copyOf(hidden), List.copyOf(visible), List.copyOf(uploads));
  }

  /** No hidden object and no open upload (visible objects are published, not leftovers). */
  boolean nothingToClean() {
    return hidden.isEmpty() && uploads.isEmpty();
  }

  /** Bytes the hidden objects hold. */
  long hiddenBytes() {
    return hidden.stream().mapToLong(S3Object::size).sum();
  }

  /** Bytes the open uploads' parts hold (one ListParts each: for the report, not the cleanup). */
  long uploadBytes(S3Client s3, String bucket) {
    long bytes = 0;
    for (MultipartUpload upload : uploads) {
      for (Part part :
          s3.listPartsPaginator(b -> b.bucket(bucket).key(upload.key()).uploadId(upload.uploadId()))
              .parts()) {
        bytes += part.size();
      }
    }
    return bytes;
  }

  /** Deletes the hidden objects and aborts the open uploads; leaves the visible objects. */
  void clean(S3Client s3, String bucket) {
    for (S3Object object : hidden) {
      s3.deleteObject(b -> b.bucket(bucket).key(object.key()));
    }
    for (MultipartUpload upload : uploads) {
      s3.abortMultipartUpload(b -> b.bucket(bucket).key(upload.key()).uploadId(upload.uploadId()));
    }
  }
}
