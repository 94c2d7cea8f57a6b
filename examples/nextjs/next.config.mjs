// The Next.js App Router example (docs/server.md, "Next.js"). agent-chat's server runs in Node
// as the package it is (it loads Node modules and optional peers), so Next does not bundle it.
/** @type {import('next').NextConfig} */
const config = {
  serverExternalPackages: ['agent-chat'],
};

export default config;
