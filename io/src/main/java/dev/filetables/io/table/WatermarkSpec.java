package dev.filetables.io.table;

import com.google.auto.value.AutoValue;
import java.io.Serializable;
import java.time.Duration;

/**
 * {@code WATERMARK FOR column AS column - INTERVAL 'n' UNIT}: event time column and allowed delay.
 */
@AutoValue
public abstract class WatermarkSpec implements Serializable {
  private static final long serialVersionUID = 1L;

  public abstract String column();

  public abstract Duration delay();

  public static WatermarkSpec of(String column, Duration delay) {
    return new AutoValue_WatermarkSpec(column, delay);
  }
}
