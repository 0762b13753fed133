package dev.filetables.transforms.commit;

import dev.filetables.transforms.sink.WrittenFile;
import java.util.List;
import java.util.Optional;

/** The commit of a partition at the end of the input: what it commits. */
final class FinalCommit {
  final String path;
  final List<WrittenFile> pending;
  final List<WrittenFile> announced;
  final int number;
  final Optional<java.time.Instant> watermark;

  FinalCommit(
      String path,
      List<WrittenFile> pending,
      List<WrittenFile> announced,
      int number,
      Optional<java.time.Instant> watermark) {
    this.path = path;
    this.pending = pending;
    this.announced = announced;
    this.number = number;
    this.watermark = watermark;
  }
}
