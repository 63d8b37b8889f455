// Timings the benchmark reads from the page (benchmarks/bench_web.py): when a table was opened and its
// board first drawn, when a command was sent, and when each seq was first drawn. Wall-clock ms, so
// timings from several pages (players, spectators) can be compared.
export interface Metrics {
  tableOpenedAt: number | null;
  boardDrawnAt: number | null;
  sent: { at: number; afterSeq: number }[];
  drawnAt: Record<number, number>;
}

const metrics: Metrics = { tableOpenedAt: null, boardDrawnAt: null, sent: [], drawnAt: {} };
(window as unknown as { starbaseMetrics: Metrics }).starbaseMetrics = metrics;

export function markTableOpened(): void {
  metrics.tableOpenedAt = Date.now();
  metrics.boardDrawnAt = null;
}

export function markBoardDrawn(): void {
  metrics.boardDrawnAt ??= Date.now();
}

export function markSent(afterSeq: number): void {
  metrics.sent.push({ at: Date.now(), afterSeq });
}

export function markDrawn(fromSeq: number, toSeq: number): void {
  const now = Date.now();
  for (let seq = fromSeq + 1; seq <= toSeq; seq++) metrics.drawnAt[seq] ??= now;
}
