/** What one timed run in the page reports back to Node. */
export interface PageRunResult {
  /** Duration of each timed update in ms (JS plus the forced style and layout). */
  durations: number[];
  /** The part of each duration spent in the update call itself, before the forced layout. */
  scriptDurations: number[];
  /** Durations of the long tasks (over 50 ms) the page saw during the run, in ms. */
  longTasks: number[];
}

/** Creates a message body inside a fixed-height scrolling transcript, as in the widget (replacing the last one). */
export function createContainer(): HTMLElement {
  document.querySelector('#transcript')?.remove();
  const transcript = document.createElement('div');
  transcript.id = 'transcript';
  transcript.style.cssText = 'height:560px;overflow:auto';
  const container = document.createElement('div');
  transcript.append(container);
  document.body.append(transcript);
  return container;
}

/** Resolves in a fresh task (MessageChannel), so each update is its own task and frames can run. */
export function nextTask(): Promise<void> {
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      channel.port1.close();
      resolve();
    };
    channel.port2.postMessage(undefined);
  });
}

/**
 * Runs `steps` in separate tasks, timing each one with the layout it forces on `container`, and
 * records every long task the page reports meanwhile (PerformanceObserver 'longtask').
 */
export async function timeSteps(container: HTMLElement, steps: Iterable<() => void>): Promise<PageRunResult> {
  const longTasks: number[] = [];
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) longTasks.push(entry.duration);
  });
  observer.observe({ type: 'longtask' });
  const durations: number[] = [];
  const scriptDurations: number[] = [];
  for (const step of steps) {
    await nextTask();
    const started = performance.now();
    step();
    scriptDurations.push(performance.now() - started);
    // Reading a layout value makes the browser do this update's style and layout now, inside the timing.
    void container.offsetHeight;
    durations.push(performance.now() - started);
  }
  // Long tasks are delivered after they end: give the last one a task to be reported in.
  await nextTask();
  for (const entry of observer.takeRecords()) longTasks.push(entry.duration);
  observer.disconnect();
  return { durations, scriptDurations, longTasks };
}
