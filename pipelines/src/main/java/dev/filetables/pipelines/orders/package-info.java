/**
 * Synthetic orders whose row {@code i} is a pure function of {@code i} ({@code Orders}), a
 * replayable unbounded source of them ({@code OrdersSource}) and the record of when it emitted them
 * ({@code EmitLog}). They feed {@code OrdersStreamJob}, the failure tests and the benchmarks, which
 * therefore know exactly what a table must hold. Internal: public only for those modules
 * ({@code @Internal}).
 */
package dev.filetables.pipelines.orders;
