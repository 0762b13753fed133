package dev.filetables.io.format.internal;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import org.apache.beam.sdk.annotations.Internal;

/** Strict UTF-8 validation (RFC 3629: no overlong forms, no surrogates, nothing above U+10FFFF). */
@Internal
public final class Utf8 {
  private Utf8() {}

  private static final VarHandle LONGS =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
  private static final long HIGH_BITS = 0x8080808080808080L;

  /**
   * Index of the first byte of the first invalid sequence in {@code b[offset, offset+length)}, or
   * -1.
   */
  public static int firstInvalid(byte[] b, int offset, int length) {
    int i = offset;
    int end = offset + length;
    while (i < end) {
      // ASCII runs 8 bytes at a time: validation then costs little next to parsing
      while (i + 8 <= end && ((long) LONGS.get(b, i) & HIGH_BITS) == 0) {
        i += 8;
      }
      if (i >= end) {
        break;
      }
      int c = b[i];
      if (c >= 0) { // ASCII, the common case
        i++;
        continue;
      }
      c &= 0xff;
      int need;
      int min;
      if (c >= 0xC2 && c <= 0xDF) {
        need = 1;
        min = 0x80;
      } else if (c >= 0xE0 && c <= 0xEF) {
        need = 2;
        min = 0x800;
      } else if (c >= 0xF0 && c <= 0xF4) {
        need = 3;
        min = 0x10000;
      } else {
        return i; // continuation byte without a lead, 0xC0/0xC1 (overlong) or > 0xF4
      }
      if (i + need >= end) {
        return i; // truncated sequence
      }
      int cp = c & (0x3F >> need);
      for (int k = 1; k <= need; k++) {
        int t = b[i + k] & 0xff;
        if ((t & 0xC0) != 0x80) {
          return i;
        }
        cp = (cp << 6) | (t & 0x3F);
      }
      if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) {
        return i;
      }
      i += need + 1;
    }
    return -1;
  }
}
