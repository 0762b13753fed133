package dev.filetables.io.format;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LineRangeReaderTest {
  @TempDir Path dir;

  /** A line as read: its text and the file offset of its first byte. */
  private static String line(LineRangeReader r) {
    return r.lineStart() + ":" + r.lineText();
  }

  /** Reference: the lines of {@code content} by plain splitting. */
  private static List<String> expectedLines(byte[] content) {
    List<String> lines = new ArrayList<>();
    int start = 0;
    boolean bom =
        content.length >= 3
            && (content[0] & 0xff) == 0xEF
            && (content[1] & 0xff) == 0xBB
            && (content[2] & 0xff) == 0xBF;
    if (bom) {
      start = 3;
    }
    int lineStart = start;
    for (int i = start; i <= content.length; i++) {
      if (i == content.length || content[i] == '\n') {
        if (i == content.length && lineStart == content.length) {
          break; // nothing after the last '\n'
        }
        int end = i;
        if (end > lineStart && content[end - 1] == '\r') {
          end--;
        }
        lines.add(
            lineStart
                + ":"
                + new String(content, lineStart, end - lineStart, StandardCharsets.UTF_8));
        lineStart = i + 1;
      }
    }
    return lines;
  }

  private static List<String> read(
      SeekableByteChannel ch, long size, ByteRange range, int bufferSize) throws IOException {
    LineRangeReader reader = new LineRangeReader(ch, size, range, bufferSize);
    List<String> lines = new ArrayList<>();
    while (reader.next()) {
      lines.add(line(reader));
    }
    assertFalse(reader.next(), "stays at the end");
    return lines;
  }

  private static byte[] randomContent(Random random) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    if (random.nextInt(3) == 0) {
      out.write(0xEF);
      out.write(0xBB);
      out.write(0xBF);
    }
    int lines = random.nextInt(12);
    for (int i = 0; i < lines; i++) {
      int length = random.nextInt(6) == 0 ? random.nextInt(100) : random.nextInt(8);
      for (int j = 0; j < length; j++) {
        int kind = random.nextInt(20);
        out.write(kind == 0 ? '\r' : kind == 1 ? ' ' : 'a' + random.nextInt(26));
      }
      if (i < lines - 1 || random.nextBoolean()) {
        if (random.nextBoolean()) {
          out.write('\r');
        }
        out.write('\n');
      }
    }
    return out.toByteArray();
  }

  @Test
  void everySingleCutAndRandomTilingsReadEachLineOnce() throws IOException {
    Random random = new Random(11);
    for (int f = 0; f < 80; f++) {
      byte[] content = randomContent(random);
      Path file = dir.resolve("f" + f);
      Files.write(file, content);
      List<String> expected = expectedLines(content);
      int size = content.length;
      try (SeekableByteChannel ch =
          new ShortReads(Files.newByteChannel(file), 1 + random.nextInt(7))) {
        int bufferSize = random.nextBoolean() ? 16 : 4096;
        assertEquals(expected, read(ch, size, ByteRange.of(0, size), bufferSize));
        for (int cut = 0; cut <= size; cut++) {
          List<String> lines = new ArrayList<>(read(ch, size, ByteRange.of(0, cut), bufferSize));
          lines.addAll(read(ch, size, ByteRange.of(cut, size), bufferSize));
          assertEquals(expected, lines, "file " + f + " cut at " + cut);
        }
        for (int t = 0; t < 5; t++) {
          TreeSet<Integer> cuts = new TreeSet<>();
          int n = random.nextInt(6);
          for (int i = 0; i < n && size > 0; i++) {
            cuts.add(random.nextInt(size + 1));
          }
          cuts.add(size);
          List<String> lines = new ArrayList<>();
          int start = 0;
          for (int end : cuts) {
            lines.addAll(read(ch, size, ByteRange.of(start, end), bufferSize));
            start = end;
          }
          assertEquals(expected, lines, "file " + f + " cuts " + cuts);
        }
      }
    }
  }

  @Test
  void longLinesGrowTheBufferAndCountLines() throws IOException {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < 5; i++) {
      sb.append("x".repeat(1000 * (i + 1))).append(i).append("\r\n");
    }
    byte[] content = sb.toString().getBytes(StandardCharsets.UTF_8);
    Path file = dir.resolve("long");
    Files.write(file, content);
    try (SeekableByteChannel ch = Files.newByteChannel(file)) {
      LineRangeReader r =
          new LineRangeReader(ch, content.length, ByteRange.of(0, content.length), 16);
      for (int i = 0; i < 5; i++) {
        assertEquals(true, r.next());
        assertEquals(i + 1, r.lineNumber());
        assertEquals("line " + (i + 1), r.position());
        assertEquals("x".repeat(1000 * (i + 1)) + i, r.lineText());
      }
      assertFalse(r.next());
      LineRangeReader later =
          new LineRangeReader(ch, content.length, ByteRange.of(10, content.length));
      assertEquals(true, later.next());
      assertEquals(1003, later.lineStart());
      assertEquals("line at byte offset 1003", later.position());
    }
  }

  @Test
  void fileSizeLimitsReading() throws IOException {
    // bytes past the given size (e.g. appended later) are not read
    byte[] content = "a\nbc\nd".getBytes(StandardCharsets.UTF_8);
    Path file = dir.resolve("grown");
    Files.write(file, content);
    try (SeekableByteChannel ch = Files.newByteChannel(file)) {
      assertEquals(List.of("0:a", "2:b"), read(ch, 3, ByteRange.of(0, 3), 16));
    }
  }

  /** A channel returning at most {@code max} bytes per read, like some remote file systems. */
  static final class ShortReads implements SeekableByteChannel {
    private final SeekableByteChannel in;
    private final int max;

    ShortReads(SeekableByteChannel in, int max) {
      this.in = in;
      this.max = max;
    }

    @Override
    public int read(ByteBuffer dst) throws IOException {
      if (dst.remaining() <= max) {
        return in.read(dst);
      }
      ByteBuffer slice = dst.slice();
      slice.limit(max);
      int n = in.read(slice);
      if (n > 0) {
        dst.position(dst.position() + n);
      }
      return n;
    }

    @Override
    public int write(ByteBuffer src) {
      throw new UnsupportedOperationException();
    }

    @Override
    public long position() throws IOException {
      return in.position();
    }

    @Override
    public SeekableByteChannel position(long newPosition) throws IOException {
      in.position(newPosition);
      return this;
    }

    @Override
    public long size() throws IOException {
      return in.size();
    }

    @Override
    public SeekableByteChannel truncate(long size) {
      throw new UnsupportedOperationException();
    }

    @Override
    public boolean isOpen() {
      return in.isOpen();
    }

    @Override
    public void close() throws IOException {
      in.close();
    }
  }
}
