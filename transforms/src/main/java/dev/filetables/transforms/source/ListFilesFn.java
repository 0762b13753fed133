package dev.filetables.transforms.source;

import dev.filetables.io.files.DataFile;
import dev.filetables.io.files.TableListing;
import dev.filetables.io.partition.PartitionFilter;
import dev.filetables.io.table.TableOptions;
import dev.filetables.io.table.TableSpec;
import java.util.List;
import java.util.regex.Pattern;
import org.apache.beam.sdk.transforms.DoFn;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Lists the table's visible data files when the pipeline runs (not when it is built, so a template
 * or a delayed run sees the files of its own time). Partition pruning happens inside the listing.
 */
class ListFilesFn extends DoFn<byte[], DataFile> {
  private static final Logger LOG = LoggerFactory.getLogger(ListFilesFn.class);

  private final TableSpec table;
  private final PartitionFilter filter;

  ListFilesFn(TableSpec table, PartitionFilter filter) {
    this.table = table;
    this.filter = filter;
  }

  @ProcessElement
  public void processElement(OutputReceiver<DataFile> out) throws Exception {
    TableOptions options = table.options();
    List<DataFile> files =
        TableListing.list(
            options.rootPath(),
            table.partitionKeys(),
            options.partitionDefaultName(),
            filter,
            options.sourcePathRegexPattern().map(Pattern::compile));
    LOG.info("Table `{}` at {}: {} file(s) to read", table.name(), options.path(), files.size());
    files.forEach(out::output);
  }
}
