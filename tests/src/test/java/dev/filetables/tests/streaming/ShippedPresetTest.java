package dev.filetables.tests.streaming;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.apache.beam.runners.flink.FlinkPipelineOptions;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.junit.jupiter.api.Test;

/**
 * The failure suites run the embedded-Flink preset as shipped: its options are read from the preset
 * file itself, and a suite whose options drift from it fails before its job starts.
 */
class ShippedPresetTest {
  private static FlinkPipelineOptions preset() {
    return PipelineOptionsFactory.fromArgs(
            StreamingScenarios.shippedPreset().toArray(new String[0]))
        .as(FlinkPipelineOptions.class);
  }

  @Test
  void theSuitesOptionsAreThePresetsAndDriftIsCaught() {
    assertFalse(StreamingScenarios.shippedPreset().isEmpty());
    assertEquals(List.of(), StreamingScenarios.driftFromPreset(preset(), false));

    FlinkPipelineOptions drifted = preset();
    drifted.setMaxBundleSize(1000L);
    assertEquals(
        List.of("maxBundleSize: 1000000 -> 1000"),
        StreamingScenarios.driftFromPreset(drifted, true));
    assertThrows(AssertionError.class, () -> StreamingScenarios.assertShippedPreset(drifted));

    // the other setting of a protocol switch is run on purpose by one suite
    FlinkPipelineOptions switched = preset();
    switched.setFinishBundleBeforeCheckpointing(false);
    assertEquals(List.of(), StreamingScenarios.driftFromPreset(switched, true));
    assertEquals(1, StreamingScenarios.driftFromPreset(switched, false).size());
  }
}
