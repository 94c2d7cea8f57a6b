// The Next.js App Router example (docs/server.md, "Next.js"). Next bundles agent-chat/server like
// any package: its optional parts load at run time from node_modules, so no setting is needed.
/** @type {import('next').NextConfig} */
const config = {};

export default config;
