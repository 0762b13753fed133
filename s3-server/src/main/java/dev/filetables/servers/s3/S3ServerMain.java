package dev.filetables.servers.s3;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;
import org.gaul.s3proxy.BlobStores;
import org.gaul.s3proxy.S3Proxy;
import org.gaul.s3proxy.auth.AuthenticationType;

/**
 * Runs s3proxy on 127.0.0.1 with the objects as plain files: {@code <basedir>/<bucket>/<key>}, a
 * bucket being a directory of the base directory.
 *
 * <pre>
 * FILETABLES_S3_ACCESS_KEY=… FILETABLES_S3_SECRET_KEY=… \
 *   java -cp "$(cat s3-server/target/server.classpath)" dev.filetables.servers.s3.S3ServerMain \
 *   --basedir=DIR [--port=N] [--stop-on-stdin-eof]
 * </pre>
 *
 * <p>Requests must be signed (AWS signature v2 or v4) with the access key and secret from the
 * environment: never on the command line, where {@code ps} shows them. {@code --port=0} (the
 * default) takes any free port. Once it answers, it prints one line {@code READY
 * http://127.0.0.1:<port>} on standard output. SIGTERM stops it; with {@code --stop-on-stdin-eof}
 * so does the end of standard input, which a parent JVM that starts it through a pipe uses: the
 * pipe closes when the parent dies, even by {@code kill -9}, so no server outlives its user.
 */
public final class S3ServerMain {
  static final String ACCESS_KEY_VARIABLE = "FILETABLES_S3_ACCESS_KEY";
  static final String SECRET_KEY_VARIABLE = "FILETABLES_S3_SECRET_KEY";

  /** How long a stop waits for requests in flight (s3proxy's default is 30 s). */
  private static final long STOP_TIMEOUT_MILLIS = 2_000;

  private S3ServerMain() {}

  public static void main(String[] args) throws Exception {
    Path basedir = null;
    int port = 0;
    boolean stopOnStdinEof = false;
    for (String arg : args) {
      if (arg.startsWith("--basedir=")) {
        basedir = Path.of(arg.substring("--basedir=".length())).toAbsolutePath();
      } else if (arg.startsWith("--port=")) {
        port = Integer.parseInt(arg.substring("--port=".length()));
      } else if (arg.equals("--stop-on-stdin-eof")) {
        stopOnStdinEof = true;
      } else {
        usage("unknown argument " + arg);
      }
    }
    if (basedir == null) {
      usage("--basedir is required");
    }
    String accessKey = requiredEnvironment(ACCESS_KEY_VARIABLE);
    String secretKey = requiredEnvironment(SECRET_KEY_VARIABLE);
    Files.createDirectories(basedir);

    Properties store = new Properties();
    store.setProperty("jclouds.filesystem.basedir", basedir.toString());
    S3Proxy proxy =
        S3Proxy.builder()
            // objects as plain files ("filesystem-nio2" in s3proxy's older configurations)
            .blobStore(BlobStores.create("filesystem", store))
            // an IP address, not localhost: clients then address buckets path-style
            .endpoint(URI.create("http://127.0.0.1:" + port))
            .awsAuthentication(AuthenticationType.AWS_V2_OR_V4, accessKey, secretKey)
            .stopTimeout(STOP_TIMEOUT_MILLIS)
            .build();
    proxy.start();
    Runtime.getRuntime().addShutdownHook(new Thread(() -> stop(proxy), "stop-s3proxy"));
    System.out.println("READY http://127.0.0.1:" + proxy.getPort());
    System.out.flush();
    if (stopOnStdinEof) {
      awaitEndOfInput(System.in);
      System.exit(0); // the shutdown hook stops the server
    }
    // otherwise Jetty's threads keep the JVM alive until SIGTERM
  }

  private static void awaitEndOfInput(InputStream in) {
    byte[] buffer = new byte[256];
    try {
      while (in.read(buffer) >= 0) {
        // nothing is sent: only the end matters
      }
    } catch (IOException e) {
      // a broken pipe is an end too
    }
  }

  private static void stop(S3Proxy proxy) {
    try {
      proxy.stop();
    } catch (Exception e) {
      System.err.println("s3proxy did not stop cleanly: " + e);
    }
  }

  private static String requiredEnvironment(String name) {
    String value = System.getenv(name);
    if (value == null || value.isEmpty()) {
      usage("the environment variable " + name + " is required");
    }
    return value;
  }

  private static void usage(String problem) {
    System.err.println(
        "S3ServerMain: "
            + problem
            + "\nusage: "
            + ACCESS_KEY_VARIABLE
            + "=… "
            + SECRET_KEY_VARIABLE
            + "=… S3ServerMain --basedir=DIR [--port=N] [--stop-on-stdin-eof]");
    System.exit(2);
  }
}
