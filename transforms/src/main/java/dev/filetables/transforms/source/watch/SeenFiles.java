package dev.filetables.transforms.source.watch;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The files a watcher shard has taken in whose modification time is still inside the lateness
 * window: 64-bit path hashes with their modification times. Older entries are pruned, so the set
 * holds the files of one window, never every file ever seen.
 *
 * <p>A hash instead of the path keeps an entry at about 10 bytes encoded (8 bytes of hash plus the
 * varint gap to the previous modification time in time order). Two different paths of one window
 * sharing a 64-bit hash would make the second look seen: with 10^6 files in a window that chance is
 * about 3·10^-8.
 */
final class SeenFiles {
  private final Map<Long, Long> mtimeByHash;

  SeenFiles() {
    this.mtimeByHash = new HashMap<>();
  }

  private SeenFiles(Map<Long, Long> entries) {
    this.mtimeByHash = entries;
  }

  /** The 64-bit hash of a path (first 8 bytes of its MD5; also picks the shard). */
  static long hash(String path) {
    try {
      byte[] digest =
          MessageDigest.getInstance("MD5").digest(path.getBytes(StandardCharsets.UTF_8));
      long h = 0;
      for (int i = 0; i < 8; i++) {
        h = (h << 8) | (digest[i] & 0xff);
      }
      return h;
    } catch (NoSuchAlgorithmException e) {
      throw new AssertionError("MD5 is part of every JRE", e);
    }
  }

  boolean contains(long hash) {
    return mtimeByHash.containsKey(hash);
  }

  void add(long hash, long mtimeMillis) {
    mtimeByHash.put(hash, mtimeMillis);
  }

  /** Drops the files modified before {@code boundMillis}: the listing no longer offers them. */
  void pruneBefore(long boundMillis) {
    mtimeByHash.values().removeIf(mtime -> mtime < boundMillis);
  }

  int size() {
    return mtimeByHash.size();
  }

  SeenFiles copy() {
    return new SeenFiles(new HashMap<>(mtimeByHash));
  }

  void encode(DataOutputStream out) throws IOException {
    List<Map.Entry<Long, Long>> entries = new ArrayList<>(mtimeByHash.entrySet());
    entries.sort(Map.Entry.comparingByValue());
    Varints.writeUnsigned(out, entries.size());
    long previous = 0;
    for (Map.Entry<Long, Long> entry : entries) {
      Varints.writeSigned(out, entry.getValue() - previous);
      previous = entry.getValue();
      out.writeLong(entry.getKey());
    }
  }

  static SeenFiles decode(DataInputStream in) throws IOException {
    int count = (int) Varints.readUnsigned(in);
    Map<Long, Long> entries = new HashMap<>(Math.max(16, count * 4 / 3 + 1));
    long previous = 0;
    for (int i = 0; i < count; i++) {
      previous += Varints.readSigned(in);
      entries.put(in.readLong(), previous);
    }
    return new SeenFiles(entries);
  }
}
