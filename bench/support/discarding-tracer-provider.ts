import type { SpanExporter } from '@opentelemetry/sdk-trace-base';
import { BasicTracerProvider, BatchSpanProcessor } from '@opentelemetry/sdk-trace-base';

/**
 * An OpenTelemetry SDK tracer provider as a host would run it (every span sampled and recorded,
 * batched to an exporter), with an exporter that drops what it gets: the cost of recording spans
 * without the cost of sending them. Also returns how many spans were exported.
 */
export function createDiscardingTracerProvider(): { provider: BasicTracerProvider; exported: () => number } {
  let count = 0;
  const exporter: SpanExporter = {
    export(spans, done) {
      count += spans.length;
      done({ code: 0 });
    },
    shutdown: async () => undefined,
  };
  const provider = new BasicTracerProvider({ spanProcessors: [new BatchSpanProcessor(exporter)] });
  return { provider, exported: () => count };
}
