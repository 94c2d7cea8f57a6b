import type { WidgetIconName } from '../../core/index.ts';

/** The path (24×24, drawn with `currentColor` strokes by the card styles) of each widget icon. */
export const WIDGET_ICON_PATHS: Readonly<Record<WidgetIconName, string>> = {
  check: 'M5 12.5l4.5 4.5L19 7.5',
  close: 'M6 6l12 12M18 6L6 18',
  info: 'M12 3a9 9 0 1 0 0 18a9 9 0 1 0 0-18M12 11v6M12 7.5v.5',
  warning: 'M12 3L2 20h20L12 3M12 10v4.5M12 17.5v.5',
  error: 'M12 3a9 9 0 1 0 0 18a9 9 0 1 0 0-18M9 9l6 6M15 9l-6 6',
  package: 'M3 7.5L12 3l9 4.5v9L12 21l-9-4.5v-9M3 7.5l9 4.5l9-4.5M12 12v9',
  truck: 'M2 6h12v10H2V6M14 9h4l3 3v4h-7V9M6 19a2 2 0 1 0 0-.01M17 19a2 2 0 1 0 0-.01',
  calendar: 'M4 6h16v14H4V6M4 10h16M8 3v5M16 3v5',
  user: 'M12 4a4 4 0 1 0 0 8a4 4 0 1 0 0-8M4 21c0-4 3.5-6.5 8-6.5s8 2.5 8 6.5',
  location: 'M12 21s-7-6.5-7-12a7 7 0 0 1 14 0c0 5.5-7 12-7 12M12 6.5a2.5 2.5 0 1 0 0 5a2.5 2.5 0 1 0 0-5',
  link: 'M10 14a4 4 0 0 0 6 0l3-3a4 4 0 0 0-6-6l-1 1M14 10a4 4 0 0 0-6 0l-3 3a4 4 0 0 0 6 6l1-1',
  star: 'M12 3l2.8 5.8l6.2.9l-4.5 4.4l1.1 6.2L12 17.4l-5.6 2.9l1.1-6.2L3 9.7l6.2-.9L12 3',
};
