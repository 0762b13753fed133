package dev.filetables.pipelines.sql;

import org.apache.beam.sdk.annotations.Internal;

/**
 * A script that cannot run as written: the message starts with {@code <script>:<line>:<column>:},
 * as DDL errors do, and names the construct.
 */
@Internal
public final class SqlScriptException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  SqlScriptException(String message) {
    super(message);
  }

  SqlScriptException(String message, Throwable cause) {
    super(message, cause);
  }
}
