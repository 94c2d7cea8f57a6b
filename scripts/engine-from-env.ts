import { createRunEngine } from '../src/server/agent-loop/create-run-engine.ts';
import { createAgUiEngine } from '../src/server/ag-ui/create-ag-ui-engine.ts';
import { createModelFromEnv } from '../src/server/models/create-model-from-env.ts';
import type { RunEngine } from '../src/server/runs/run-handle.ts';
import { createDemoHooks } from '../src/server/tools/demo-hooks.ts';
import { createDemoTools } from '../src/server/tools/demo-tools.ts';
import { createDemoWidgetTools, demoWidgetAction } from '../src/server/tools/demo-widgets.ts';

/**
 * The engine `npm start` runs: with `AGUI_AGENT_URL` (an http or https URL) a remote AG-UI agent
 * behind our loop, offered the demo tools under our governance (docs/ag-ui.md), with the headers
 * of `AGUI_AGENT_HEADERS` (a JSON object of strings, e.g. its credentials); otherwise our own loop
 * with `createModelFromEnv`'s model, the demo tools and the demo's pre-use hook (`createDemoHooks`). Throws a `RangeError` naming a malformed setting.
 */
export function createEngineFromEnv(env: Record<string, string | undefined>): RunEngine {
  const url = env.AGUI_AGENT_URL?.trim();
  if (url === undefined || url === '')
    return createRunEngine({
      model: createModelFromEnv(env),
      tools: [...createDemoTools(), ...createDemoWidgetTools()],
      hooks: createDemoHooks(),
      onWidgetAction: demoWidgetAction,
    });
  if (!URL.canParse(url) || !['http:', 'https:'].includes(new URL(url).protocol)) {
    throw new RangeError('AGUI_AGENT_URL must be an http or https URL, e.g. http://127.0.0.1:8000/agent.');
  }
  return createAgUiEngine({ url, headers: readAgUiHeaders(env.AGUI_AGENT_HEADERS), tools: createDemoTools() });
}

function readAgUiHeaders(text: string | undefined): Record<string, string> {
  if (text === undefined || text.trim() === '') return {};
  const problem = new RangeError(
    'AGUI_AGENT_HEADERS must be a JSON object of strings, e.g. {"authorization":"Bearer …"}.',
  );
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw problem;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw problem;
  if (!Object.values(value).every((header) => typeof header === 'string')) throw problem;
  return value as Record<string, string>;
}
