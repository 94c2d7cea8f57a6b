'use client';
// The widget on a page, in the browser only: ./assistant defines custom elements when it loads,
// which a server render cannot do.
import dynamic from 'next/dynamic';

export const Chat = dynamic(
  async () => {
    // A stand-in for your login: the page visit signs the browser in (authenticate reads it).
    document.cookie = 'session=demo; Path=/; SameSite=Lax';
    return (await import('./assistant')).Assistant;
  },
  { ssr: false },
);
