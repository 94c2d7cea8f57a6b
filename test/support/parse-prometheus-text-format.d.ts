// Types for `parse-prometheus-text-format` (it ships none): the prom2json-shaped families it returns.

declare module 'parse-prometheus-text-format' {
  /** One sample of a counter, gauge or untyped family. */
  export interface PlainSample {
    value: string;
    labels?: Record<string, string>;
  }
  /** One labelled series of a histogram family. */
  export interface HistogramSample {
    buckets: Record<string, string>;
    count: string;
    sum: string;
    labels?: Record<string, string>;
  }
  /** One metric family. */
  export interface MetricFamily {
    name: string;
    help: string;
    type: 'COUNTER' | 'GAUGE' | 'HISTOGRAM' | 'SUMMARY' | 'UNTYPED';
    metrics: (PlainSample | HistogramSample)[];
  }
  /** Parses the Prometheus text exposition format; throws on malformed input. */
  export default function parsePrometheusTextFormat(text: string): MetricFamily[];
}
