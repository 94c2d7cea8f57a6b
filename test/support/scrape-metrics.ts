import type { MetricFamily, PlainSample } from 'parse-prometheus-text-format';
import parsePrometheusTextFormat from 'parse-prometheus-text-format';

/** One scrape of `/metrics`, parsed by a Prometheus text-format parser. */
export interface Scrape {
  families: MetricFamily[];
  /** The value of the counter or gauge sample whose labels include `labels` (0 when there is none). */
  value(name: string, labels?: Record<string, string>): number;
  /** Count and sum over the histogram's series whose labels include `labels`; undefined when none has them. */
  histogram(name: string, labels?: Record<string, string>): { count: number; sum: number } | undefined;
  /** Every label value of every series whose name starts with `prefix`. */
  labelValues(prefix: string): string[];
}

/** Fetches `{origin}/metrics` (as a scraper: no browser headers) and parses it; throws unless it answers 200. */
export async function scrapeMetrics(origin: string, headers: Record<string, string> = {}): Promise<Scrape> {
  const response = await fetch(`${origin}/metrics`, { headers });
  const text = await response.text();
  if (response.status !== 200) throw new Error(`/metrics answered ${response.status}: ${text}`);
  return parseScrape(text);
}

/**
 * Parses exposition text into a {@link Scrape}. The parser checks every line and names each
 * family's type, but folds the series of a labelled histogram into one unlabelled series; so the
 * series are read from a second parse in which histograms are declared untyped, where each of
 * `_bucket`, `_sum` and `_count` is a family of its own with its labels.
 */
export function parseScrape(text: string): Scrape {
  const families = parsePrometheusTextFormat(text);
  const series = parsePrometheusTextFormat(text.replace(/^# TYPE (\S+) histogram$/gm, '# TYPE $1 untyped'));
  const samplesOf = (name: string, labels: Record<string, string>) =>
    // An untyped series interleaves (bucket, sum, count per label set): one name, many families.
    (series.filter((family) => family.name === name).flatMap((family) => family.metrics) as PlainSample[]).filter(
      (sample) => Object.entries(labels).every(([key, expected]) => sample.labels?.[key] === expected),
    );
  const sumOf = (name: string, labels: Record<string, string>): number =>
    samplesOf(name, labels).reduce((total, sample) => total + Number(sample.value), 0);
  return {
    families,
    value: (name, labels = {}) => sumOf(name, labels),
    histogram(name, labels = {}) {
      const type = families.find((family) => family.name === name)?.type;
      if (type !== 'HISTOGRAM') throw new Error(`${name} is ${type ?? 'missing'}, not a histogram`);
      if (samplesOf(`${name}_count`, labels).length === 0) return undefined;
      return { count: sumOf(`${name}_count`, labels), sum: sumOf(`${name}_sum`, labels) };
    },
    labelValues: (prefix) =>
      series
        .filter((family) => family.name.startsWith(prefix))
        .flatMap((family) => (family.metrics as PlainSample[]).flatMap((sample) => Object.values(sample.labels ?? {}))),
  };
}
