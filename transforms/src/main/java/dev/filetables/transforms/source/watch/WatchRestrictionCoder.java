package dev.filetables.transforms.source.watch;

import dev.filetables.io.files.DataFile;
import dev.filetables.io.format.ByteRange;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.ArrayDeque;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.beam.sdk.coders.AtomicCoder;

/**
 * Compact binary form of a {@link WatchRestriction} (what Flink keeps in each checkpoint): a few
 * longs, the seen set at about 10 bytes per file of the window, and the pending ranges with their
 * paths and partitions.
 */
final class WatchRestrictionCoder extends AtomicCoder<WatchRestriction> {
  private static final long serialVersionUID = 1L;
  private static final WatchRestrictionCoder INSTANCE = new WatchRestrictionCoder();
  private static final int VERSION = 1;

  static WatchRestrictionCoder of() {
    return INSTANCE;
  }

  @Override
  public void encode(WatchRestriction r, OutputStream outStream) throws IOException {
    DataOutputStream out = new DataOutputStream(outStream);
    out.writeByte(VERSION);
    out.writeBoolean(r.finished);
    Varints.writeUnsigned(out, r.shard);
    Varints.writeUnsigned(out, r.shards);
    out.writeLong(r.cursorMillis);
    out.writeLong(r.nextPollAtMillis);
    out.writeLong(r.horizonMillis);
    out.writeLong(r.maxEventMillis);
    out.writeLong(r.lastNewFileAtMillis);
    r.seen.encode(out);
    Varints.writeUnsigned(out, r.pending.size());
    for (PendingRange p : r.pending) {
      encodeFile(p.file, out);
      Varints.writeUnsigned(out, p.range.start());
      Varints.writeUnsigned(out, p.range.end());
      out.writeLong(p.fileTimeMillis);
      Varints.writeUnsigned(out, p.rowsDone);
    }
    out.flush();
  }

  @Override
  public WatchRestriction decode(InputStream inStream) throws IOException {
    DataInputStream in = new DataInputStream(inStream);
    int version = in.readUnsignedByte();
    if (version != VERSION) {
      throw new IOException(
          "Unknown watch restriction version " + version + " (expected " + VERSION + ")");
    }
    boolean finished = in.readBoolean();
    int shard = (int) Varints.readUnsigned(in);
    int shards = (int) Varints.readUnsigned(in);
    long cursor = in.readLong();
    long nextPoll = in.readLong();
    long horizon = in.readLong();
    long maxEvent = in.readLong();
    long lastNewFile = in.readLong();
    SeenFiles seen = SeenFiles.decode(in);
    int pendingCount = (int) Varints.readUnsigned(in);
    ArrayDeque<PendingRange> pending = new ArrayDeque<>(pendingCount);
    for (int i = 0; i < pendingCount; i++) {
      DataFile file = decodeFile(in);
      ByteRange range = ByteRange.of(Varints.readUnsigned(in), Varints.readUnsigned(in));
      long fileTime = in.readLong();
      long rowsDone = Varints.readUnsigned(in);
      pending.add(new PendingRange(file, range, fileTime, rowsDone));
    }
    return new WatchRestriction(
        shard, shards, cursor, seen, pending, nextPoll, horizon, maxEvent, lastNewFile, finished);
  }

  private static void encodeFile(DataFile file, DataOutputStream out) throws IOException {
    out.writeUTF(file.path());
    Varints.writeUnsigned(out, file.partition().size());
    for (Map.Entry<String, String> entry : file.partition().entrySet()) {
      out.writeUTF(entry.getKey());
      out.writeBoolean(entry.getValue() != null);
      if (entry.getValue() != null) {
        out.writeUTF(entry.getValue());
      }
    }
    Varints.writeUnsigned(out, file.size());
    out.writeLong(file.modificationTimeMillis());
  }

  private static DataFile decodeFile(DataInputStream in) throws IOException {
    String path = in.readUTF();
    int keys = (int) Varints.readUnsigned(in);
    Map<String, String> partition = new LinkedHashMap<>();
    for (int i = 0; i < keys; i++) {
      String key = in.readUTF();
      partition.put(key, in.readBoolean() ? in.readUTF() : null);
    }
    long size = Varints.readUnsigned(in);
    long mtime = in.readLong();
    return DataFile.of(path, partition, size, mtime);
  }

  @Override
  public void verifyDeterministic() {}
}
