/** @type {import('@sveltejs/kit').Handle} */
export function handle({ event, resolve }) {
  // A stand-in for your login: a page visit signs the browser in (the agent's authenticate reads it).
  if (!event.url.pathname.startsWith('/api/')) {
    event.cookies.set('session', 'demo', { path: '/', httpOnly: true, sameSite: 'lax' });
  }
  return resolve(event);
}
