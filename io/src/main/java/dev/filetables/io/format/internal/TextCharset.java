package dev.filetables.io.format.internal;

import java.io.Serializable;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.Charset;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CharsetEncoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.IllegalCharsetNameException;
import java.nio.charset.StandardCharsets;
import java.nio.charset.UnsupportedCharsetException;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.beam.sdk.annotations.Internal;

/**
 * The {@code <format>.charset} of a text format (csv, json): which charsets work and how bytes are
 * decoded strictly (an undecodable byte is an error, never a silent U+FFFD).
 *
 * <p>Text files are cut into records and ranges on raw bytes ('\n' ends a line, CSV delimiters and
 * quotes are single bytes), which is only sound when those bytes can never occur inside a
 * multi-byte character. So a charset must be ASCII-compatible (ASCII text encodes to the same
 * bytes: UTF-8, ISO-8859-*, windows-125*, GBK, GB18030, Big5, Shift_JIS, EUC-*), and the bytes a
 * reader looks for must not be among the ASCII bytes the charset also uses as trail bytes of
 * multi-byte characters (GBK, Big5 and Shift_JIS use 0x40-0x7E, so e.g. '|' or '\' cannot be a CSV
 * delimiter or escape there). UTF-16 and UTF-32 are not ASCII-compatible and are rejected.
 *
 * <p>Immutable and serializable (by name); {@link #decoder()} gives a per-reader decoder.
 */
@Internal
public final class TextCharset implements Serializable {
  private static final long serialVersionUID = 1L;

  public static final TextCharset UTF_8 = new TextCharset(StandardCharsets.UTF_8.name());

  private static final Map<String, boolean[]> TRAIL_BYTES = new ConcurrentHashMap<>();

  private final String name;
  private transient Charset charset;

  private TextCharset(String name) {
    this.name = name;
  }

  /**
   * The charset named by option {@code fullKey} (e.g. {@code csv.charset}); fails with a {@link
   * FormatOptions#fail} message when it is unknown or not ASCII-compatible.
   */
  public static TextCharset forOption(FormatOptions options, String key) {
    String value = options.string(key, null);
    if (value == null) {
      return UTF_8;
    }
    Charset charset;
    try {
      charset = Charset.forName(value.trim());
    } catch (IllegalCharsetNameException | UnsupportedCharsetException e) {
      throw options.fail(
          key,
          value,
          "a charset name this JVM supports, e.g. UTF-8, GBK, GB18030, ISO-8859-1, windows-1252");
    }
    if (!charset.canEncode() || !asciiCompatible(charset)) {
      throw options.fail(
          key,
          value,
          "an ASCII-compatible charset (UTF-8, GBK, GB18030, Big5, Shift_JIS, ISO-8859-*, windows-125*);"
              + " "
              + charset.name()
              + " encodes line ends with more than one byte, so files cannot be"
              + " split into lines: convert them to UTF-8");
    }
    TextCharset result = new TextCharset(charset.name());
    if (!result.isSafe('\n') || !result.isSafe('\r')) {
      throw options.fail(
          key, value, "a charset whose multi-byte characters never contain a line-break byte");
    }
    return result;
  }

  private static boolean asciiCompatible(Charset charset) {
    String probe = "\n\r\t ,;|\"'#\\{}[]:abcxyzABCXYZ0189";
    return Arrays.equals(probe.getBytes(StandardCharsets.US_ASCII), probe.getBytes(charset));
  }

  public String name() {
    return name;
  }

  public Charset charset() {
    Charset c = charset;
    if (c == null) {
      c = Charset.forName(name);
      charset = c;
    }
    return c;
  }

  public boolean isUtf8() {
    return name.equals(StandardCharsets.UTF_8.name());
  }

  /**
   * True when the ASCII byte {@code b} always means that character in this charset: it never occurs
   * as part of a multi-byte character.
   */
  public boolean isSafe(int b) {
    if (b < 0 || b >= 0x80) {
      return false;
    }
    if (isUtf8()) {
      return true; // UTF-8 multi-byte sequences use bytes >= 0x80 only; no scan needed
    }
    return !trailBytes()[b];
  }

  private boolean[] trailBytes() {
    return TRAIL_BYTES.computeIfAbsent(name, n -> computeTrailBytes(charset()));
  }

  /**
   * ASCII bytes occurring in the encoding of some non-ASCII BMP character (once per charset, ~50
   * ms).
   */
  private static boolean[] computeTrailBytes(Charset charset) {
    boolean[] found = new boolean[0x80];
    CharsetEncoder encoder = charset.newEncoder();
    char[] one = new char[1];
    for (int c = 0x80; c < 0x10000; c++) {
      if (Character.isSurrogate((char) c) || !encoder.canEncode((char) c)) {
        continue;
      }
      one[0] = (char) c;
      ByteBuffer bytes;
      try {
        bytes = encoder.reset().encode(CharBuffer.wrap(one));
      } catch (CharacterCodingException e) {
        continue;
      }
      while (bytes.hasRemaining()) {
        int b = bytes.get() & 0xff;
        if (b < 0x80) {
          found[b] = true;
        }
      }
    }
    return found;
  }

  /** The bytes of {@code text} in this charset (for literals such as a CSV null literal). */
  public byte[] encode(String text) {
    return text.getBytes(charset());
  }

  /** A new strict decoder (not thread-safe: one per reader). */
  public Decoder decoder() {
    return new Decoder(this);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof TextCharset && ((TextCharset) o).name.equals(name);
  }

  @Override
  public int hashCode() {
    return name.hashCode();
  }

  @Override
  public String toString() {
    return name;
  }

  /**
   * Decodes bytes strictly: malformed or unmappable input throws {@link MalformedTextException}
   * with the offending byte's position, never U+FFFD. UTF-8 is validated by hand (fast for ASCII)
   * and then decoded by the JDK's optimised String constructor.
   */
  public static final class Decoder {
    private final TextCharset charset;
    private final CharsetDecoder decoder;
    private CharBuffer chars = CharBuffer.allocate(256);

    private Decoder(TextCharset charset) {
      this.charset = charset;
      this.decoder =
          charset
              .charset()
              .newDecoder()
              .onMalformedInput(CodingErrorAction.REPORT)
              .onUnmappableCharacter(CodingErrorAction.REPORT);
    }

    /** The text of {@code b[offset, offset + length)}. */
    public String decode(byte[] b, int offset, int length) throws MalformedTextException {
      if (charset.isUtf8()) {
        int bad = Utf8.firstInvalid(b, offset, length);
        if (bad >= 0) {
          throw new MalformedTextException(bad - offset, b[bad] & 0xff, charset.name);
        }
        return new String(b, offset, length, StandardCharsets.UTF_8);
      }
      return decodeToBuffer(b, offset, length).toString();
    }

    /**
     * Decodes into a reused char buffer (flipped: position 0, limit = length); valid until the next
     * call. For non-UTF-8 charsets only is this cheaper than {@link #decode}.
     */
    public CharBuffer decodeToBuffer(byte[] b, int offset, int length)
        throws MalformedTextException {
      int needed = (int) Math.ceil(length * (double) decoder.maxCharsPerByte()) + 4;
      if (chars.capacity() < needed) {
        chars = CharBuffer.allocate(needed);
      }
      chars.clear();
      ByteBuffer in = ByteBuffer.wrap(b, offset, length);
      decoder.reset();
      java.nio.charset.CoderResult result = decoder.decode(in, chars, true);
      if (result.isUnderflow()) {
        result = decoder.flush(chars);
      }
      if (result.isError()) {
        int at = in.position();
        throw new MalformedTextException(
            at - offset, b[Math.min(at, offset + length - 1)] & 0xff, charset.name);
      }
      chars.flip();
      return chars;
    }
  }

  /** Bytes that do not decode in the table's charset. */
  public static final class MalformedTextException extends Exception {
    private static final long serialVersionUID = 1L;
    private final int offset;

    MalformedTextException(int offset, int value, String charset) {
      super(
          String.format(
              "byte 0x%02X at offset %d of the value is not valid %s (set the format's 'charset' option"
                  + " if the file uses another encoding)",
              value, offset, charset),
          null,
          false,
          false);
      this.offset = offset;
    }

    /** Offset of the first undecodable byte, relative to the decoded bytes. */
    public int offset() {
      return offset;
    }
  }
}
