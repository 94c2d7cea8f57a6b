/**
 * The widget's icons: 24×24 SVG path data, drawn as strokes in `currentColor` by the shared
 * `.icon` rule (`host.styles.ts`). Inline paths, no image files, so nothing is fetched and the
 * strict CSP's `img-src 'none'` holds.
 */
export const ICON_PATHS = {
  send: 'M12 19V5m-6 6 6-6 6 6',
  stop: 'M7 7h10v10H7z',
  close: 'M6 6l12 12M18 6 6 18',
  newConversation: 'M12 5v14M5 12h14',
  chat: 'M3 4h18v13H9l-5 4v-4H3z',
} as const;
