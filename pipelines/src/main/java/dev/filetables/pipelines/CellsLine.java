package dev.filetables.pipelines;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;

/**
 * A row's cells as one line of text (a JSON array of strings and nulls), for carrying query results
 * from the pipeline back to the CLI through files: JSON escapes line breaks, so any value fits on
 * one line and reads back exactly, nulls included.
 */
final class CellsLine {
  private static final JsonFactory JSON = new JsonFactory();

  private CellsLine() {}

  static String encode(List<String> cells) {
    StringWriter text = new StringWriter();
    try (JsonGenerator json = JSON.createGenerator(text)) {
      json.writeStartArray();
      for (String cell : cells) {
        json.writeString(cell); // writes null for null
      }
      json.writeEndArray();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return text.toString();
  }

  static List<String> decode(String line) {
    List<String> cells = new ArrayList<>();
    try (JsonParser json = JSON.createParser(line)) {
      if (json.nextToken() != JsonToken.START_ARRAY) {
        throw new IllegalArgumentException("not a cells line: " + line);
      }
      for (JsonToken token = json.nextToken();
          token != JsonToken.END_ARRAY;
          token = json.nextToken()) {
        if (token == null) {
          throw new IllegalArgumentException("truncated cells line: " + line);
        }
        cells.add(token == JsonToken.VALUE_NULL ? null : json.getText());
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return cells;
  }
}
