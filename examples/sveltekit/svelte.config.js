import adapter from '@sveltejs/adapter-node';

/** @type {import('@sveltejs/kit').Config} */
const config = {
  // `node build` serves the app; it reads PORT and HOST (and ORIGIN behind a proxy).
  kit: { adapter: adapter() },
};

export default config;
