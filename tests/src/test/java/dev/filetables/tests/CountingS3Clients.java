package dev.filetables.tests;

import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.beam.sdk.io.aws2.options.S3ClientBuilderFactory;
import org.apache.beam.sdk.io.aws2.options.S3Options;
import org.apache.beam.sdk.io.aws2.s3.DefaultS3ClientBuilderFactory;
import software.amazon.awssdk.core.client.config.ClientOverrideConfiguration;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.core.interceptor.SdkExecutionAttribute;
import software.amazon.awssdk.services.s3.S3ClientBuilder;

/**
 * Beam's S3 client builder plus a counter of the requests the client sends, by operation: passed as
 * {@code --s3ClientFactoryClass}, for code that runs in this JVM.
 */
public final class CountingS3Clients implements S3ClientBuilderFactory {
  private static final Map<String, Long> REQUESTS = new LinkedHashMap<>();

  @Override
  public S3ClientBuilder createBuilder(S3Options options) {
    S3ClientBuilder builder = new DefaultS3ClientBuilderFactory().createBuilder(options);
    builder.overrideConfiguration(
        ClientOverrideConfiguration.builder().addExecutionInterceptor(new Counter()).build());
    return builder;
  }

  static synchronized Map<String, Long> snapshot() {
    return new LinkedHashMap<>(REQUESTS);
  }

  /** The requests sent since {@code earlier}, by operation. */
  static synchronized Map<String, Long> since(Map<String, Long> earlier) {
    Map<String, Long> difference = new LinkedHashMap<>();
    REQUESTS.forEach(
        (operation, count) -> {
          long delta = count - earlier.getOrDefault(operation, 0L);
          if (delta != 0) {
            difference.put(operation, delta);
          }
        });
    return difference;
  }

  private static final class Counter implements ExecutionInterceptor {
    @Override
    public void beforeTransmission(
        Context.BeforeTransmission context, ExecutionAttributes attributes) {
      synchronized (CountingS3Clients.class) {
        REQUESTS.merge(
            attributes.getAttribute(SdkExecutionAttribute.OPERATION_NAME), 1L, Long::sum);
      }
    }
  }
}
