// A tool of your own that asks the user before it runs (docs/reference.md, "Tools").
import { ToolError } from 'agent-chat/server';

// A stand-in for your weather service.
const FORECASTS = { paris: { tempC: 18, sky: 'light rain' }, tokyo: { tempC: 24, sky: 'sunny' } };

/** `get_weather`: today's weather in a city, after the user allowed the call. */
export const weatherTool = {
  name: 'get_weather',
  title: 'Get the weather',
  description: "Today's temperature (°C) and sky in a city. Asks the user first.",
  parameters: {
    type: 'object',
    properties: { city: { type: 'string', minLength: 1, maxLength: 80, description: 'The city, e.g. Paris' } },
    required: ['city'],
    additionalProperties: false,
  },
  policy: 'ask', // the user sees the arguments and allows or denies each call
  run: async ({ city }, { signal }) => {
    signal.throwIfAborted(); // a real call passes `signal` on, e.g. fetch(url, { signal })
    const forecast = FORECASTS[city.toLowerCase()];
    if (forecast === undefined) throw new ToolError(`There is no forecast for ${city}.`);
    return { city, ...forecast };
  },
};
